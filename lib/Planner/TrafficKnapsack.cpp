//===- TrafficKnapsack.cpp - 0/1 knapsacks of the pin solver --------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "TrafficInternal.h"

#include <algorithm>
#include <numeric>

using namespace helia::planner;

/// 0/1 knapsack over `candidates` (item indices) with `capacity` bytes:
/// the subset with the largest sum of `value`s whose sizes fit. Sizes are
/// rounded up to a grain chosen so that the table has at most `maxCells`
/// cells; the answer is exact when the grain divides every size and the
/// capacity (grain 1 does), and always fits.
std::vector<unsigned> detail::solveKnapsack(
    const PinProblem &problem, const std::vector<unsigned> &candidates,
    const std::vector<double> &value, int64_t capacity, uint64_t maxCells) {
  std::vector<unsigned> chosen;
  if (candidates.empty() || capacity < 0)
    return chosen;
  uint64_t rows = candidates.size();
  uint64_t maxUnits = std::max<uint64_t>(1, maxCells / rows);
  int64_t grain = std::max<int64_t>(
      1, static_cast<int64_t>((static_cast<uint64_t>(capacity) + maxUnits - 1) /
                              maxUnits));
  // Sizes are multiples of the alignment: a grain that divides them all
  // keeps the table exact, and small.
  int64_t common = 0;
  for (unsigned i : candidates)
    common = std::gcd(common, problem.items[i].size);
  if (common > 0 && grain <= common)
    grain = common;
  int64_t units = capacity / grain;
  std::vector<int64_t> weight(rows);
  for (uint64_t r = 0; r < rows; ++r)
    weight[r] = (problem.items[candidates[r]].size + grain - 1) / grain;
  std::vector<double> best(units + 1, 0.0);
  std::vector<bool> take(rows * (units + 1), false);
  for (uint64_t r = 0; r < rows; ++r) {
    int64_t w = weight[r];
    if (w > units)
      continue;
    double v = value[r];
    for (int64_t c = units; c >= w; --c) {
      double with = best[c - w] + v;
      if (with > best[c]) {
        best[c] = with;
        take[r * (units + 1) + c] = true;
      }
    }
  }
  int64_t c = units;
  for (uint64_t r = rows; r-- > 0;)
    if (take[r * (units + 1) + c]) {
      chosen.push_back(candidates[r]);
      c -= weight[r];
    }
  std::reverse(chosen.begin(), chosen.end());
  return chosen;
}

/// One bounded destination: the exact 0/1 knapsack of the savings by its
/// Pareto front (the subsets no other beats in both bytes and saving, grown
/// one item at a time), or nullopt when the front would visit more than
/// `maxStates` states in all.
std::optional<PinChoice> detail::solveSingle(const PinProblem &problem,
                                             uint64_t maxStates) {
  struct State {
    int64_t bytes;
    double saving;
    /// The last item taken (a node of `taken`), or -1.
    int32_t head;
  };
  struct Taken {
    int32_t parent;
    unsigned item;
  };
  std::vector<State> front = {{0, 0, -1}}, grown, merged;
  std::vector<Taken> taken;
  uint64_t visited = 0;
  int64_t capacity = problem.capacities[0];
  for (unsigned i = 0; i < problem.items.size(); ++i) {
    double saving = getSaving(problem, i, 0);
    int64_t size = problem.items[i].size;
    if (saving <= 0 || size > capacity)
      continue;
    grown.clear();
    for (const State &s : front)
      if (s.bytes + size <= capacity) {
        taken.push_back({s.head, i});
        grown.push_back({s.bytes + size, s.saving + saving,
                         static_cast<int32_t>(taken.size() - 1)});
      }
    // Both lists ascend in bytes (and in saving): merge, keeping a state
    // only when it saves more than every state of fewer or equal bytes
    // (on a tie, the one without item i: of equal items, the earlier ones
    // are pinned).
    merged.clear();
    size_t a = 0, b = 0;
    while (a < front.size() || b < grown.size()) {
      bool fromFront = b == grown.size() ||
                       (a < front.size() && front[a].bytes <= grown[b].bytes);
      const State &next = fromFront ? front[a++] : grown[b++];
      if (merged.empty() || next.saving > merged.back().saving) {
        if (!merged.empty() && merged.back().bytes == next.bytes)
          merged.back() = next;
        else
          merged.push_back(next);
      }
    }
    std::swap(front, merged);
    visited += front.size();
    if (visited > maxStates)
      return std::nullopt;
  }
  PinChoice choice;
  choice.destination.assign(problem.items.size(), -1);
  for (int32_t n = front.back().head; n >= 0; n = taken[n].parent)
    choice.destination[taken[n].item] = 0;
  choice.cycles = *evaluatePins(problem, choice.destination);
  return choice;
}
