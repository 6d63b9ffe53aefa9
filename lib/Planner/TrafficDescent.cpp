//===- TrafficDescent.cpp - the pin solver's heuristic --------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Where a short branch-and-bound cannot settle a pin problem: knapsack and
// greedy starts, each descended by refilling one destination at a time,
// moves and swaps; then the bounded search from the best.
//
//===----------------------------------------------------------------------===//

#include "TrafficInternal.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace helia::planner;
using detail::getSaving;
using detail::solveKnapsack;

void detail::improve(const PinProblem &problem, std::vector<int> &choice) {
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
  std::vector<unsigned> chosen = solveKnapsack(problem, candidates, value,
                                               problem.capacities[d], maxCells);
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
  detail::improve(problem, choice);
  double cost = *evaluatePins(problem, choice);
  for (unsigned round = 0; round < 16; ++round) {
    bool better = false;
    for (int d = 0; d < static_cast<int>(problem.capacities.size()); ++d) {
      std::vector<int> next = refill(problem, choice, d, maxCells);
      detail::improve(problem, next);
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

/// Knapsacks into the destinations one after the other in `o`, each
/// over the items the earlier ones left.
std::vector<int> fillInOrder(const PinProblem &problem,
                             const std::vector<unsigned> &o,
                             uint64_t maxCells) {
  size_t n = problem.items.size();
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
}

/// Pooled starts: one knapsack into the bytes of the destinations of `mask`
/// together (each item at its best saving there), then the chosen items
/// packed into them largest first, cheapest then tightest home first.
/// They find the packings that per-destination knapsacks miss when
/// several memories cost about the same.
std::vector<int> fillPooled(const PinProblem &problem, unsigned mask,
                            uint64_t maxCells) {
  size_t n = problem.items.size();
  size_t numDest = problem.capacities.size();
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
}

/// The starts of the descent (see choosePins).
std::vector<std::vector<int>> getStarts(const PinProblem &problem,
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
  if (numDest <= 4) {
    std::vector<unsigned> o(numDest);
    std::iota(o.begin(), o.end(), 0);
    do
      starts.push_back(fillInOrder(problem, o, maxCells));
    while (std::next_permutation(o.begin(), o.end()));
  } else {
    starts.push_back(fillInOrder(problem, order, maxCells));
  }
  if (numDest <= 4)
    for (unsigned mask = 1; mask < (1u << numDest); ++mask)
      starts.push_back(fillPooled(problem, mask, maxCells));
  else
    starts.push_back(fillPooled(problem, ~0u, maxCells));
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
      if (choice[i] >= 0 &&
          problem.getCost(i, choice[i]) >= problem.getCost(i, -1))
        choice[i] = -1;
    starts.push_back(std::move(choice));
  }
  return starts;
}

} // namespace

PinChoice detail::searchBounded(const PinProblem &problem, uint64_t searchNodes,
                                uint64_t maxCells) {
  size_t n = problem.items.size();
  std::vector<std::vector<int>> starts = getStarts(problem, maxCells);
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
