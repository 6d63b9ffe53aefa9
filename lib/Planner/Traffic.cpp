//===- Traffic.cpp - Which constants to copy into fast memory -------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Traffic.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

using namespace helia::planner;

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

namespace {

/// The cycles item `i` saves at destination `d` against direct (0 when it
/// saves none or may not go there).
double getSaving(const PinProblem &problem, unsigned i, int d) {
  if (!problem.allows(i, d))
    return 0;
  return std::max(0.0, problem.getCost(i, -1) - problem.getCost(i, d));
}

/// 0/1 knapsack over `candidates` (item indices) with `capacity` bytes:
/// the subset with the largest sum of `value`s whose sizes fit. Sizes are
/// rounded up to a grain chosen so that the table has at most `maxCells`
/// cells; the answer is exact when the grain divides every size and the
/// capacity (grain 1 does), and always fits.
std::vector<unsigned> solveKnapsack(const PinProblem &problem,
                                    const std::vector<unsigned> &candidates,
                                    const std::vector<double> &value,
                                    int64_t capacity, uint64_t maxCells) {
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

/// Moves single items (and swaps a pinned item with a direct one) while a
/// move lowers the cost and keeps every capacity.
void improve(const PinProblem &problem, std::vector<int> &choice) {
  size_t numDest = problem.capacities.size();
  std::vector<int64_t> used(numDest, 0);
  for (unsigned i = 0; i < choice.size(); ++i)
    if (choice[i] >= 0)
      used[choice[i]] += problem.items[i].size;
  auto room = [&](int d) { return problem.capacities[d] - used[d]; };
  constexpr double kEpsilon = 1e-9;
  // Each accepted move lowers the cost; the pass bound only guards against
  // rounding loops.
  for (unsigned pass = 0; pass < 64; ++pass) {
    bool moved = false;
    for (unsigned i = 0; i < choice.size(); ++i) {
      int from = choice[i];
      double current = problem.getCost(i, from);
      int bestTo = from;
      double bestCost = current;
      for (int to = -1; to < static_cast<int>(numDest); ++to) {
        if (to == from || !problem.allows(i, to))
          continue;
        if (to >= 0 && room(to) < problem.items[i].size)
          continue;
        double cost = problem.getCost(i, to);
        if (cost < bestCost - kEpsilon) {
          bestCost = cost;
          bestTo = to;
        }
      }
      if (bestTo != from) {
        if (from >= 0)
          used[from] -= problem.items[i].size;
        if (bestTo >= 0)
          used[bestTo] += problem.items[i].size;
        choice[i] = bestTo;
        moved = true;
      }
    }
    // Swaps: two items in different homes (direct counts as one) trade
    // places. Quadratic, so only on instances where that stays cheap.
    if (choice.size() <= 2000) {
      for (unsigned a = 0; a < choice.size(); ++a) {
        for (unsigned b = a + 1; b < choice.size(); ++b) {
          int homeA = choice[a], homeB = choice[b];
          if (homeA == homeB || !problem.allows(a, homeB) ||
              !problem.allows(b, homeA))
            continue;
          int64_t sizeA = problem.items[a].size, sizeB = problem.items[b].size;
          if (homeA >= 0 && room(homeA) + sizeA < sizeB)
            continue;
          if (homeB >= 0 && room(homeB) + sizeB < sizeA)
            continue;
          double before = problem.getCost(a, homeA) + problem.getCost(b, homeB);
          double after = problem.getCost(a, homeB) + problem.getCost(b, homeA);
          if (after < before - kEpsilon) {
            if (homeA >= 0)
              used[homeA] += sizeB - sizeA;
            if (homeB >= 0)
              used[homeB] += sizeA - sizeB;
            choice[a] = homeB;
            choice[b] = homeA;
            moved = true;
          }
        }
      }
    }
    if (!moved)
      break;
  }
}

} // namespace

namespace {

/// Bytes each destination holds under `choice`.
std::vector<int64_t> getUsed(const PinProblem &problem,
                             const std::vector<int> &choice) {
  std::vector<int64_t> used(problem.capacities.size(), 0);
  for (unsigned i = 0; i < choice.size(); ++i)
    if (choice[i] >= 0)
      used[choice[i]] += problem.items[i].size;
  return used;
}

/// The cheapest home of item `i` other than `except` that has room for it
/// under `used` (direct always has).
int getBestOther(const PinProblem &problem, const std::vector<int64_t> &used,
                 unsigned i, int except) {
  int best = -1;
  for (int d = 0; d < static_cast<int>(used.size()); ++d)
    if (d != except && problem.allows(i, d) &&
        problem.capacities[d] - used[d] >= problem.items[i].size &&
        problem.getCost(i, d) < problem.getCost(i, best))
      best = d;
  return best;
}

/// One exact knapsack for destination `d` with every other item where it
/// is: an item may move into `d` for what it saves against its current
/// home, and one already there is worth what it saves against the best
/// home it could move to. The items `d` gives up then go to their best
/// home with room. Returns the new choice (the caller keeps it if cheaper).
std::vector<int> refill(const PinProblem &problem, std::vector<int> choice,
                        int d, uint64_t maxCells) {
  std::vector<int64_t> used = getUsed(problem, choice);
  std::vector<unsigned> candidates;
  std::vector<double> value;
  for (unsigned i = 0; i < choice.size(); ++i) {
    if (!problem.allows(i, d))
      continue;
    int from = choice[i] == d ? getBestOther(problem, used, i, d) : choice[i];
    double saving = problem.getCost(i, from) - problem.getCost(i, d);
    if (saving <= 0)
      continue;
    candidates.push_back(i);
    value.push_back(saving);
  }
  std::vector<unsigned> chosen = solveKnapsack(
      problem, candidates, value, problem.capacities[d], maxCells);
  std::vector<bool> inD(choice.size(), false);
  for (unsigned i : chosen)
    inD[i] = true;
  std::vector<unsigned> evicted;
  for (unsigned i = 0; i < choice.size(); ++i) {
    if (inD[i])
      choice[i] = d;
    else if (choice[i] == d) {
      choice[i] = -1;
      evicted.push_back(i);
    }
  }
  used = getUsed(problem, choice);
  // Largest loss first: the item that direct costs most picks first.
  std::stable_sort(evicted.begin(), evicted.end(), [&](unsigned a, unsigned b) {
    return problem.getCost(a, -1) - problem.getCost(a, d) >
           problem.getCost(b, -1) - problem.getCost(b, d);
  });
  for (unsigned i : evicted) {
    int to = getBestOther(problem, used, i, d);
    choice[i] = to;
    if (to >= 0)
      used[to] += problem.items[i].size;
  }
  return choice;
}

/// Refills each destination in turn (block coordinate descent), with
/// single moves and swaps, while that lowers the cost.
void descend(const PinProblem &problem, std::vector<int> &choice,
             uint64_t maxCells) {
  improve(problem, choice);
  double cost = *evaluatePins(problem, choice);
  for (unsigned round = 0; round < 16; ++round) {
    bool better = false;
    for (int d = 0; d < static_cast<int>(problem.capacities.size()); ++d) {
      std::vector<int> next = refill(problem, choice, d, maxCells);
      improve(problem, next);
      double now = *evaluatePins(problem, next);
      if (now < cost - 1e-9) {
        choice = std::move(next);
        cost = now;
        better = true;
      }
    }
    if (!better)
      break;
  }
}

} // namespace

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
                    bestSaving[i] * static_cast<double>(target - prefixBytes[j - 1]) /
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

namespace {
std::optional<PinChoice> searchPins(const PinProblem &problem,
                                    const PinChoice &start,
                                    uint64_t nodeLimit) {
  size_t n = problem.items.size();
  BranchAndBound bb(problem, nodeLimit);
  bb.bestSaving.assign(n, 0);
  for (unsigned i = 0; i < n; ++i)
    for (size_t d = 0; d < problem.capacities.size(); ++d)
      bb.bestSaving[i] =
          std::max(bb.bestSaving[i], getSaving(problem, i, static_cast<int>(d)));
  // Densest saving first: the order of the fractional bound, so that it can
  // stop at the first item that does not fit.
  bb.order.resize(n);
  std::iota(bb.order.begin(), bb.order.end(), 0);
  auto density = [&](unsigned i) {
    double size = static_cast<double>(std::max<int64_t>(problem.items[i].size, 1));
    return bb.bestSaving[i] / size;
  };
  std::stable_sort(bb.order.begin(), bb.order.end(),
                   [&](unsigned a, unsigned b) { return density(a) > density(b); });
  bb.directTail.assign(n + 1, 0);
  for (size_t p = n; p-- > 0;)
    bb.directTail[p] = bb.directTail[p + 1] + problem.getCost(bb.order[p], -1);
  bb.prefixBytes.assign(n + 1, 0);
  bb.prefixSaving.assign(n + 1, 0);
  for (size_t p = 0; p < n; ++p) {
    unsigned i = bb.order[p];
    bool saves = bb.bestSaving[i] > 0;
    bb.prefixBytes[p + 1] = bb.prefixBytes[p] + (saves ? problem.items[i].size : 0);
    bb.prefixSaving[p + 1] = bb.prefixSaving[p] + (saves ? bb.bestSaving[i] : 0);
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
} // namespace

std::optional<PinChoice>
helia::planner::choosePinsExact(const PinProblem &problem,
                                uint64_t nodeLimit) {
  return searchPins(problem, choosePins(problem, /*searchNodes=*/0), nodeLimit);
}

namespace {
/// The knapsack starts, their descent and the bounded search (see
/// choosePins) on a problem whose every destination is bounded.
PinChoice searchBounded(const PinProblem &problem, uint64_t searchNodes,
                        uint64_t maxCells) {
  size_t n = problem.items.size();
  size_t numDest = problem.capacities.size();
  // Starts: a knapsack per destination in every order of them (at most four
  // memories: 24 orders; else the order of their total savings), and the
  // greedy fills by saving, by saving per byte and by direct cost (the
  // hand method's traffic). Each descends; the cheapest wins.
  std::vector<std::vector<int>> starts;
  std::vector<unsigned> order(numDest);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> total(numDest, 0);
  for (unsigned i = 0; i < n; ++i)
    for (size_t d = 0; d < numDest; ++d)
      total[d] += getSaving(problem, i, static_cast<int>(d));
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return total[a] > total[b]; });
  auto sequential = [&](const std::vector<unsigned> &o) {
    std::vector<int> choice(n, -1);
    for (unsigned d : o) {
      std::vector<unsigned> candidates;
      std::vector<double> value;
      for (unsigned i = 0; i < n; ++i) {
        double saving = getSaving(problem, i, static_cast<int>(d));
        if (choice[i] == -1 && saving > 0) {
          candidates.push_back(i);
          value.push_back(saving);
        }
      }
      for (unsigned i : solveKnapsack(problem, candidates, value,
                                      problem.capacities[d], maxCells))
        choice[i] = static_cast<int>(d);
    }
    return choice;
  };
  if (numDest <= 4) {
    std::vector<unsigned> o(numDest);
    std::iota(o.begin(), o.end(), 0);
    do
      starts.push_back(sequential(o));
    while (std::next_permutation(o.begin(), o.end()));
  } else {
    starts.push_back(sequential(order));
  }
  // Pooled starts: one knapsack into the bytes of a set of destinations
  // together (each item at its best saving there), then the chosen items
  // packed into them largest first, cheapest then tightest home first.
  // They find the packings that per-destination knapsacks miss when
  // several memories cost about the same.
  auto pooled = [&](unsigned mask) {
    std::vector<unsigned> candidates;
    std::vector<double> value;
    int64_t bytes = 0;
    for (size_t d = 0; d < numDest; ++d)
      if (mask & (1u << d))
        bytes += problem.capacities[d];
    for (unsigned i = 0; i < n; ++i) {
      double best = 0;
      for (size_t d = 0; d < numDest; ++d)
        if (mask & (1u << d))
          best = std::max(best, getSaving(problem, i, static_cast<int>(d)));
      if (best > 0) {
        candidates.push_back(i);
        value.push_back(best);
      }
    }
    std::vector<unsigned> chosen =
        solveKnapsack(problem, candidates, value, bytes, maxCells);
    std::stable_sort(chosen.begin(), chosen.end(), [&](unsigned a, unsigned b) {
      return problem.items[a].size > problem.items[b].size;
    });
    std::vector<int> choice(n, -1);
    std::vector<int64_t> used(numDest, 0);
    for (unsigned i : chosen) {
      int best = -1;
      for (int d = 0; d < static_cast<int>(numDest); ++d) {
        int64_t room = problem.capacities[d] - used[d];
        if (!problem.allows(i, d) || room < problem.items[i].size ||
            getSaving(problem, i, d) <= 0)
          continue;
        if (best < 0 || problem.getCost(i, d) < problem.getCost(i, best) ||
            (problem.getCost(i, d) == problem.getCost(i, best) &&
             room < problem.capacities[best] - used[best]))
          best = d;
      }
      choice[i] = best;
      if (best >= 0)
        used[best] += problem.items[i].size;
    }
    return choice;
  };
  if (numDest <= 4)
    for (unsigned mask = 1; mask < (1u << numDest); ++mask)
      starts.push_back(pooled(mask));
  else
    starts.push_back(pooled(~0u));
  std::vector<double> bySaving(n), byDensity(n), byDirect(n);
  for (unsigned i = 0; i < n; ++i) {
    double best = 0;
    for (size_t d = 0; d < numDest; ++d)
      best = std::max(best, getSaving(problem, i, static_cast<int>(d)));
    bySaving[i] = best;
    byDensity[i] =
        best / static_cast<double>(std::max<int64_t>(problem.items[i].size, 1));
    byDirect[i] = problem.items[i].directCycles;
  }
  for (const std::vector<double> *key : {&bySaving, &byDensity, &byDirect}) {
    std::vector<int> choice = choosePinsByKey(problem, *key).destination;
    // A greedy fill may pin where it loses: such items read direct.
    for (unsigned i = 0; i < n; ++i)
      if (choice[i] >= 0 && problem.getCost(i, choice[i]) >= problem.getCost(i, -1))
        choice[i] = -1;
    starts.push_back(std::move(choice));
  }
  PinChoice result;
  result.destination.assign(n, -1);
  result.cycles = *evaluatePins(problem, result.destination);
  // Equal starts descend alike: each is descended once.
  std::set<std::vector<int>> seen;
  for (std::vector<int> &choice : starts) {
    if (!seen.insert(choice).second)
      continue;
    descend(problem, choice, maxCells);
    double cycles = *evaluatePins(problem, choice);
    if (cycles < result.cycles - 1e-9) {
      result.destination = std::move(choice);
      result.cycles = cycles;
    }
  }
  // Anytime branch-and-bound from that answer: when it finishes within its
  // budget the answer is optimal, else the heuristic's stands.
  if (searchNodes > 0)
    if (std::optional<PinChoice> exact =
            searchPins(problem, result, searchNodes))
      if (exact->cycles < result.cycles)
        result = std::move(*exact);
  return result;
}

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

/// One bounded destination: the exact 0/1 knapsack of the savings by its
/// Pareto front (the subsets no other beats in both bytes and saving, grown
/// one item at a time), or nullopt when the front would visit more than
/// `maxStates` states in all.
std::optional<PinChoice> solveSingle(const PinProblem &problem,
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
      exact = searchPins(r.problem, reduced, std::min<uint64_t>(searchNodes, kQuickNodes));
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
