//===- Spill.cpp - Which buffers a fast memory keeps ----------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// A sweep over the steps where buffers start (live bytes only rise there).
// A state is the set of live undecided ("candidate") buffers that the fast
// memory holds; what is live later depends on nothing else, so two
// histories that reach the same state have the same futures and only the
// better one is kept. The first sweep minimises the slow memory's peak; the
// second, held to that peak, maximises the kept weight. The decisions of a
// history are a linked list of nodes shared between states (only "fast"
// decisions are recorded), compacted when the dead ones pile up.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Spill.h"
#include "SpillSweep.h"
#include "helia/Planner/Intervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

using namespace helia::planner;
using namespace helia::planner::detail;

namespace {

/// The steps where a buffer of non-zero size starts ("events"; live bytes
/// only rise there), and the live bytes at each of the items a rule placed
/// and of the open ones.
struct Loads {
  std::vector<int64_t> events;
  std::vector<int64_t> fixedFast, fixedSlow, open;

  size_t size() const { return events.size(); }
  /// The events `item` is live at: [lo, hi].
  std::pair<size_t, size_t> getRange(const SpillItem &item) const {
    size_t lo = llvm::lower_bound(events, item.firstStep) - events.begin();
    size_t hi = llvm::upper_bound(events, item.lastStep) - events.begin() - 1;
    return std::make_pair(lo, hi);
  }
};

Loads getLoads(llvm::ArrayRef<SpillItem> items) {
  Loads loads;
  std::vector<int64_t> &events = loads.events;
  for (const SpillItem &item : items)
    if (item.size > 0)
      events.push_back(item.firstStep);
  llvm::sort(events);
  events.erase(std::unique(events.begin(), events.end()), events.end());
  size_t numEvents = events.size();

  // Live bytes per event, by difference arrays.
  loads.fixedFast.assign(numEvents + 1, 0);
  loads.fixedSlow.assign(numEvents + 1, 0);
  loads.open.assign(numEvents + 1, 0);
  for (const SpillItem &item : items) {
    if (item.size == 0)
      continue;
    auto [lo, hi] = loads.getRange(item);
    std::vector<int64_t> &load =
        item.place == SpillPlace::Fast   ? loads.fixedFast
        : item.place == SpillPlace::Slow ? loads.fixedSlow
                                         : loads.open;
    load[lo] += item.size;
    load[hi + 1] -= item.size;
  }
  for (size_t e = 1; e < numEvents; ++e) {
    loads.fixedFast[e] += loads.fixedFast[e - 1];
    loads.fixedSlow[e] += loads.fixedSlow[e - 1];
    loads.open[e] += loads.open[e - 1];
  }
  return loads;
}

/// A candidate of the sweep: (first event, item index, last event).
using Candidate = std::tuple<size_t, size_t, size_t>;

/// Starts `sweep` on the fixed loads. An Open buffer whose every step holds
/// everything stays fast (recorded in `choice`, its bytes in the sweep's
/// fast base): keeping it never breaks the capacity and only lowers the
/// slow memory's bytes. Returns the other Open buffers.
std::vector<Candidate> keepFitting(llvm::ArrayRef<SpillItem> items,
                                   const Loads &loads, int64_t capacity,
                                   SpillChoice &choice, Sweep &sweep) {
  size_t numEvents = loads.size();
  std::vector<size_t> overloaded(numEvents + 1, 0);
  for (size_t e = 0; e < numEvents; ++e)
    overloaded[e + 1] =
        overloaded[e] + (loads.fixedFast[e] + loads.open[e] > capacity ? 1 : 0);
  sweep.capacity = capacity;
  sweep.fastBase.assign(loads.fixedFast.begin(),
                        loads.fixedFast.begin() + numEvents);
  sweep.slowBase.assign(loads.fixedSlow.begin(),
                        loads.fixedSlow.begin() + numEvents);
  std::vector<Candidate> candidates;
  std::vector<int64_t> freeLoad(numEvents + 1, 0);
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.place != SpillPlace::Open || item.size == 0)
      continue;
    auto [lo, hi] = loads.getRange(item);
    if (overloaded[hi + 1] == overloaded[lo]) {
      choice.fast[i] = true;
      choice.keptWeight = addSaturating(choice.keptWeight, item.weight);
      freeLoad[lo] += item.size;
      freeLoad[hi + 1] -= item.size;
    } else {
      candidates.push_back({lo, i, hi});
    }
  }
  int64_t freeLive = 0;
  for (size_t e = 0; e < numEvents; ++e) {
    freeLive += freeLoad[e];
    sweep.fastBase[e] += freeLive;
  }
  return candidates;
}

/// Numbers the candidates by start for the sweep and sizes its beam to
/// `effort`.
void addCandidates(llvm::ArrayRef<SpillItem> items,
                   std::vector<Candidate> &candidates, size_t numEvents,
                   uint64_t effort, Sweep &sweep) {
  llvm::sort(candidates);
  sweep.starting.resize(numEvents + 1);
  sweep.expiring.resize(numEvents + 1);
  for (auto [c, candidate] : llvm::enumerate(candidates)) {
    auto [lo, i, hi] = candidate;
    sweep.size.push_back(items[i].size);
    sweep.weight.push_back(items[i].weight);
    sweep.lo.push_back(lo);
    sweep.hi.push_back(hi);
    sweep.starting[lo].push_back(c);
    sweep.expiring[hi + 1].push_back(c);
  }
  // What one state costs over the sweep: at each event its live set is
  // filtered and checked, and at each start it is copied.
  uint64_t work = numEvents, live = 0;
  for (size_t e = 0; e < numEvents; ++e) {
    live -= sweep.expiring[e].size();
    for (size_t k = 0; k < sweep.starting[e].size(); ++k)
      work += ++live;
    work += live;
  }
  sweep.maxStates = std::max<uint64_t>(4, effort / work);
}

/// The two sweeps: the lowest slow peak, then the most weight at it.
void runSweeps(Sweep &sweep, const std::vector<Candidate> &candidates,
               const Loads &loads, SpillChoice &choice) {
  auto decide = [&](const State &state) {
    for (int32_t n = state.head; n >= 0; n = sweep.nodes[n].parent) {
      size_t i = std::get<1>(candidates[sweep.nodes[n].candidate]);
      choice.fast[i] = true;
    }
    choice.keptWeight = addSaturating(choice.keptWeight, state.weight);
    choice.slowPeak = state.pastMax;
  };
  // The all-slow history always survives the first sweep unless the beam
  // drops it; then the buffers all spill, which fits.
  std::optional<State> lowest = sweep.run(Goal::MinPeak, 0);
  if (!lowest) {
    choice.exact = false;
    for (size_t e = 0; e < loads.size(); ++e)
      choice.slowPeak = std::max(choice.slowPeak,
                                 loads.fixedSlow[e] + loads.open[e] -
                                     (sweep.fastBase[e] - loads.fixedFast[e]));
    return;
  }
  bool exact = !sweep.pruned;
  int64_t target = lowest->pastMax;
  // The second sweep rebuilds its nodes: take the first sweep's choice now
  // in case the beam loses every state.
  std::vector<bool> firstFast = choice.fast;
  int64_t firstWeight = choice.keptWeight;
  decide(*lowest);
  sweep.pruned = false;
  if (std::optional<State> heaviest = sweep.run(Goal::MaxWeight, target)) {
    choice.fast = std::move(firstFast);
    choice.keptWeight = firstWeight;
    decide(*heaviest);
  }
  choice.exact = exact && !sweep.pruned;
}

} // namespace

static SpillChoice choose(llvm::ArrayRef<SpillItem> items,
                          const SpillOptions &options) {
  SpillChoice choice;
  choice.fast.assign(items.size(), false);
  for (auto [i, item] : llvm::enumerate(items)) {
    choice.fast[i] = item.place == SpillPlace::Fast ||
                     (item.place == SpillPlace::Open && item.size == 0);
    if (item.place == SpillPlace::Open && item.size == 0)
      choice.keptWeight = addSaturating(choice.keptWeight, item.weight);
  }
  Loads loads = getLoads(items);
  size_t numEvents = loads.size();
  int64_t capacity = options.capacity;
  bool feasible = true;
  for (size_t e = 0; e < numEvents; ++e)
    feasible &= loads.fixedFast[e] <= capacity;
  if (!feasible) {
    choice.feasible = false;
    for (size_t e = 0; e < numEvents; ++e)
      choice.slowPeak =
          std::max(choice.slowPeak, loads.fixedSlow[e] + loads.open[e]);
    return choice;
  }
  Sweep sweep;
  std::vector<Candidate> candidates =
      keepFitting(items, loads, capacity, choice, sweep);
  if (candidates.empty()) {
    for (size_t e = 0; e < numEvents; ++e)
      choice.slowPeak = std::max(choice.slowPeak, loads.fixedSlow[e]);
    return choice;
  }
  addCandidates(items, candidates, numEvents, options.effort, sweep);
  runSweeps(sweep, candidates, loads, choice);
  return choice;
}

SpillChoice helia::planner::chooseSpills(llvm::ArrayRef<SpillItem> items,
                                         const SpillOptions &options) {
  SpillChoice choice = choose(items, options);
  // The fast memory's live bytes at their peak.
  std::vector<LiveRange> kept;
  for (auto [i, item] : llvm::enumerate(items))
    if (choice.fast[i] && item.size > 0)
      kept.push_back({item.firstStep, item.lastStep, item.size});
  choice.fastPeak = findPeak(kept).bytes;
  return choice;
}
