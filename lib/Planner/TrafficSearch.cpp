//===- TrafficSearch.cpp - branch-and-bound of the pin solver -------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "TrafficInternal.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace helia::planner;
using detail::getSaving;

namespace {

/// Depth-first branch-and-bound over the items in `order`.
struct BranchAndBound {
  const PinProblem &problem;
  std::vector<unsigned> order;
  /// Per item: the largest saving at any destination and its density.
  std::vector<double> bestSaving;
  std::vector<int64_t> room;
  std::vector<int> current;
  double currentCost = 0;
  std::vector<int> best;
  double bestCost = std::numeric_limits<double>::infinity();
  uint64_t nodes = 0, nodeLimit;
  /// Direct cost of the items from position k on.
  std::vector<double> directTail;
  /// Bytes and best savings of the items before position k that save
  /// anything.
  std::vector<int64_t> prefixBytes;
  std::vector<double> prefixSaving;
  /// Per item: direct and the destinations that allow it, cheapest first
  /// (ties in that order).
  std::vector<std::vector<int>> options;

  BranchAndBound(const PinProblem &problem, uint64_t nodeLimit)
      : problem(problem), nodeLimit(nodeLimit) {}

  /// A lower bound on the cost of the items from position `k` on: their
  /// direct cost less a fractional knapsack of their best savings into the
  /// bytes left in all destinations together.
  double bound(size_t k) const {
    int64_t bytes = 0;
    for (int64_t r : room)
      bytes += std::max<int64_t>(r, 0);
    // The items from k on that fit whole, by the prefix sums; then a
    // fraction of the first that does not.
    int64_t target = prefixBytes[k] + bytes;
    size_t j = std::upper_bound(prefixBytes.begin() + k + 1, prefixBytes.end(),
                                target) -
               prefixBytes.begin();
    if (j == prefixBytes.size())
      return directTail[k] - (prefixSaving.back() - prefixSaving[k]);
    unsigned i = order[j - 1];
    double saving = prefixSaving[j - 1] - prefixSaving[k] +
                    bestSaving[i] *
                        static_cast<double>(target - prefixBytes[j - 1]) /
                        static_cast<double>(problem.items[i].size);
    return directTail[k] - saving;
  }

  bool search(size_t k) {
    if (++nodes > nodeLimit)
      return false;
    if (k == order.size()) {
      if (currentCost < bestCost) {
        bestCost = currentCost;
        best = current;
      }
      return true;
    }
    if (currentCost + bound(k) >= bestCost - 1e-9)
      return true;
    unsigned i = order[k];
    // Cheapest option first, so that good solutions come early.
    for (int d : options[i]) {
      if (d >= 0 && room[d] < problem.items[i].size)
        continue;
      double cost = problem.getCost(i, d);
      current[i] = d;
      currentCost += cost;
      if (d >= 0)
        room[d] -= problem.items[i].size;
      bool ok = search(k + 1);
      if (d >= 0)
        room[d] += problem.items[i].size;
      currentCost -= cost;
      current[i] = -1;
      if (!ok)
        return false;
    }
    return true;
  }
};

} // namespace

std::optional<PinChoice> detail::searchPins(const PinProblem &problem,
                                            const PinChoice &start,
                                            uint64_t nodeLimit) {
  size_t n = problem.items.size();
  BranchAndBound bb(problem, nodeLimit);
  bb.bestSaving.assign(n, 0);
  for (unsigned i = 0; i < n; ++i)
    for (size_t d = 0; d < problem.capacities.size(); ++d)
      bb.bestSaving[i] = std::max(bb.bestSaving[i],
                                  getSaving(problem, i, static_cast<int>(d)));
  // Densest saving first: the order of the fractional bound, so that it can
  // stop at the first item that does not fit.
  bb.order.resize(n);
  std::iota(bb.order.begin(), bb.order.end(), 0);
  auto density = [&](unsigned i) {
    double size =
        static_cast<double>(std::max<int64_t>(problem.items[i].size, 1));
    return bb.bestSaving[i] / size;
  };
  std::stable_sort(
      bb.order.begin(), bb.order.end(),
      [&](unsigned a, unsigned b) { return density(a) > density(b); });
  bb.directTail.assign(n + 1, 0);
  for (size_t p = n; p-- > 0;)
    bb.directTail[p] = bb.directTail[p + 1] + problem.getCost(bb.order[p], -1);
  bb.prefixBytes.assign(n + 1, 0);
  bb.prefixSaving.assign(n + 1, 0);
  for (size_t p = 0; p < n; ++p) {
    unsigned i = bb.order[p];
    bool saves = bb.bestSaving[i] > 0;
    bb.prefixBytes[p + 1] =
        bb.prefixBytes[p] + (saves ? problem.items[i].size : 0);
    bb.prefixSaving[p + 1] =
        bb.prefixSaving[p] + (saves ? bb.bestSaving[i] : 0);
  }
  bb.options.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    std::vector<int> &options = bb.options[i];
    options.push_back(-1);
    for (int d = 0; d < static_cast<int>(problem.capacities.size()); ++d)
      if (problem.allows(i, d))
        options.push_back(d);
    std::stable_sort(options.begin(), options.end(), [&](int a, int b) {
      return problem.getCost(i, a) < problem.getCost(i, b);
    });
  }
  bb.room = problem.capacities;
  bb.current.assign(n, -1);
  // The solver's answer is a first incumbent: it prunes from the start.
  bb.best = start.destination;
  bb.bestCost = start.cycles;
  if (!bb.search(0))
    return std::nullopt;
  PinChoice result;
  result.destination = bb.best;
  result.cycles = *evaluatePins(problem, result.destination);
  return result;
}

std::optional<PinChoice>
helia::planner::choosePinsExact(const PinProblem &problem, uint64_t nodeLimit) {
  return detail::searchPins(problem, choosePins(problem, /*searchNodes=*/0),
                            nodeLimit);
}
