//===- Traffic.cpp - Which constants to copy into fast memory -------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "TrafficInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

using namespace helia::planner;
using namespace helia::planner::detail;

double AccessCost::read(double bytes) const {
  return std::ceil(bytes / static_cast<double>(accessBytes)) *
         static_cast<double>(readCycles);
}

double AccessCost::write(double bytes) const {
  return std::ceil(bytes / static_cast<double>(accessBytes)) *
         static_cast<double>(writeCycles);
}

bool PinProblem::allows(unsigned i, int choice) const {
  if (choice < 0)
    return true;
  const PinItem &item = items[i];
  return static_cast<size_t>(choice) < item.pinnedCycles.size() &&
         item.pinnedCycles[choice] >= 0;
}

double PinProblem::getCost(unsigned i, int choice) const {
  const PinItem &item = items[i];
  if (choice < 0)
    return item.directCycles;
  return item.pinnedCycles[choice] +
         item.hydrateCycles[choice] / std::max(inferences, 1.0);
}

std::optional<double>
helia::planner::evaluatePins(const PinProblem &problem,
                             const std::vector<int> &destination) {
  if (destination.size() != problem.items.size())
    return std::nullopt;
  std::vector<int64_t> used(problem.capacities.size(), 0);
  double cycles = 0;
  for (unsigned i = 0; i < destination.size(); ++i) {
    int d = destination[i];
    if (d >= static_cast<int>(problem.capacities.size()) ||
        !problem.allows(i, d))
      return std::nullopt;
    if (d >= 0)
      used[d] += problem.items[i].size;
    cycles += problem.getCost(i, d);
  }
  for (size_t d = 0; d < used.size(); ++d)
    if (used[d] > problem.capacities[d])
      return std::nullopt;
  return cycles;
}

double detail::getSaving(const PinProblem &problem, unsigned i, int d) {
  if (!problem.allows(i, d))
    return 0;
  return std::max(0.0, problem.getCost(i, -1) - problem.getCost(i, d));
}

namespace {

/// The problem choosePins searches: the items that some bounded destination
/// would serve better than their best unbounded home, over the bounded
/// destinations only. A destination is unbounded when it can hold every
/// item that it would serve better than direct: an item then costs its
/// cheapest unbounded home (or direct) whatever the others do.
struct Reduction {
  PinProblem problem;
  /// Per original item: its best home among direct and the unbounded
  /// destinations.
  std::vector<int> freeHome;
  /// Per reduced item, its original index; per reduced destination, its
  /// original index.
  std::vector<unsigned> items;
  std::vector<int> destinations;
};

/// Nodes the first branch-and-bound may take before the heuristic runs.
constexpr uint64_t kQuickNodes = 5000;
/// States the Pareto front of a single destination may visit.
constexpr uint64_t kFrontStates = 1 << 18;

/// The greedy fill by saving per byte, improved by moves and swaps: the
/// first incumbent of the search.
PinChoice quickStart(const PinProblem &problem) {
  size_t n = problem.items.size();
  std::vector<double> density(n);
  for (unsigned i = 0; i < n; ++i) {
    double best = 0;
    for (size_t d = 0; d < problem.capacities.size(); ++d)
      best = std::max(best, getSaving(problem, i, static_cast<int>(d)));
    density[i] =
        best / static_cast<double>(std::max<int64_t>(problem.items[i].size, 1));
  }
  PinChoice choice = choosePinsByKey(problem, density);
  improve(problem, choice.destination);
  choice.cycles = *evaluatePins(problem, choice.destination);
  return choice;
}

Reduction reduce(const PinProblem &problem) {
  size_t n = problem.items.size(), numDest = problem.capacities.size();
  Reduction r;
  std::vector<bool> bounded(numDest, false);
  for (size_t d = 0; d < numDest; ++d) {
    int64_t demand = 0;
    for (unsigned i = 0; i < n; ++i)
      if (getSaving(problem, i, static_cast<int>(d)) > 0)
        demand += problem.items[i].size;
    bounded[d] = demand > problem.capacities[d];
    if (bounded[d])
      r.destinations.push_back(static_cast<int>(d));
  }
  r.freeHome.assign(n, -1);
  for (unsigned i = 0; i < n; ++i)
    for (size_t d = 0; d < numDest; ++d)
      if (!bounded[d] && problem.allows(i, static_cast<int>(d)) &&
          problem.getCost(i, static_cast<int>(d)) <
              problem.getCost(i, r.freeHome[i]))
        r.freeHome[i] = static_cast<int>(d);
  r.problem.inferences = 1;
  for (int d : r.destinations)
    r.problem.capacities.push_back(problem.capacities[d]);
  for (unsigned i = 0; i < n; ++i) {
    double free = problem.getCost(i, r.freeHome[i]);
    PinItem item;
    item.size = problem.items[i].size;
    item.directCycles = free;
    bool better = false;
    for (int d : r.destinations) {
      bool allowed = problem.allows(i, d) && problem.getCost(i, d) < free;
      better |= allowed;
      // Costs with hydration amortised already (inferences = 1).
      item.pinnedCycles.push_back(allowed ? problem.getCost(i, d) : -1);
      item.hydrateCycles.push_back(0);
    }
    if (!better)
      continue;
    r.items.push_back(i);
    r.problem.items.push_back(std::move(item));
  }
  return r;
}

} // namespace

PinChoice helia::planner::choosePins(const PinProblem &problem,
                                     uint64_t searchNodes, uint64_t maxCells) {
  Reduction r = reduce(problem);
  PinChoice result;
  result.destination = r.freeHome;
  if (!r.problem.items.empty()) {
    // Small or single-memory instances: the branch-and-bound from a greedy
    // fill proves the optimum within a few thousand nodes; else the
    // knapsack starts and their descent, then the search from them.
    PinChoice reduced = quickStart(r.problem);
    std::optional<PinChoice> exact;
    if (r.destinations.size() == 1)
      exact = solveSingle(r.problem, kFrontStates);
    if (!exact && searchNodes > 0)
      exact = searchPins(r.problem, reduced,
                         std::min<uint64_t>(searchNodes, kQuickNodes));
    // The incumbent stands on a tie (within rounding).
    if (exact) {
      if (exact->cycles < reduced.cycles - 1e-9)
        reduced = std::move(*exact);
    } else
      reduced = searchBounded(r.problem, searchNodes, maxCells);
    for (auto [k, i] : llvm::enumerate(r.items))
      if (reduced.destination[k] >= 0)
        result.destination[i] = r.destinations[reduced.destination[k]];
  }
  result.cycles = *evaluatePins(problem, result.destination);
  return result;
}

PinChoice helia::planner::choosePinsByKey(const PinProblem &problem,
                                          const std::vector<double> &key) {
  size_t n = problem.items.size();
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return key[a] > key[b]; });
  std::vector<int64_t> room = problem.capacities;
  PinChoice result;
  result.destination.assign(n, -1);
  for (unsigned i : order) {
    if (key[i] <= 0)
      continue;
    for (int d = 0; d < static_cast<int>(room.size()); ++d)
      if (problem.allows(i, d) && room[d] >= problem.items[i].size) {
        result.destination[i] = d;
        room[d] -= problem.items[i].size;
        break;
      }
  }
  result.cycles = *evaluatePins(problem, result.destination);
  return result;
}
