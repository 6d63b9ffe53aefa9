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
#include "helia/Planner/Intervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

using namespace helia::planner;

namespace {

int64_t addSaturating(int64_t a, int64_t b) {
  return static_cast<int64_t>(std::min<uint64_t>(
      llvm::SaturatingAdd(static_cast<uint64_t>(a), static_cast<uint64_t>(b)),
      std::numeric_limits<int64_t>::max()));
}

/// A history: the candidates it keeps fast that are still live, and what it
/// has gained so far.
struct State {
  /// Candidate indices, ascending (candidates are numbered by start).
  llvm::SmallVector<unsigned, 8> fastLive;
  int64_t fastLiveBytes = 0;
  /// The slow memory's largest live bytes so far.
  int64_t pastMax = 0;
  /// Weight and bytes of the candidates kept fast so far.
  int64_t weight = 0;
  int64_t keptBytes = 0;
  /// The last "fast" decision of this history, or -1.
  int32_t head = -1;
};

struct Node {
  int32_t parent;
  unsigned candidate;
};

enum class Goal { MinPeak, MaxWeight };

/// The problem after preprocessing: candidates and per-event base loads.
struct Sweep {
  int64_t capacity = 0;
  /// Per event (a step where some buffer starts): bytes in the fast memory
  /// that are not candidates (Fast items and the Open items that always
  /// fit), and bytes of Slow items.
  std::vector<int64_t> fastBase, slowBase;
  /// Candidates: size, weight and [lo, hi] in event indices, by lo.
  std::vector<int64_t> size, weight;
  std::vector<size_t> lo, hi;
  /// Candidates by the event where they start, and by the event after their
  /// last.
  std::vector<llvm::SmallVector<unsigned, 2>> starting, expiring;
  size_t maxStates = 0;

  std::vector<Node> nodes;
  bool pruned = false;

  /// True if `a` is a better history than `b` for `goal`, with `slowA` and
  /// `slowB` their peaks including the current event.
  static bool better(Goal goal, const State &a, int64_t slowA,
                     const State &b, int64_t slowB) {
    auto key = [&](const State &s, int64_t slow) {
      return goal == Goal::MinPeak
                 ? std::make_tuple(slow, -s.weight, -s.keptBytes)
                 : std::make_tuple(-s.weight, -s.keptBytes, slow);
    };
    auto ka = key(a, slowA), kb = key(b, slowB);
    if (ka != kb)
      return ka < kb;
    return std::lexicographical_compare(a.fastLive.begin(), a.fastLive.end(),
                                        b.fastLive.begin(), b.fastLive.end());
  }

  /// Drops all but the best maxStates states.
  void prune(Goal goal, std::vector<State> &states, int64_t liveBytes,
             size_t event) {
    if (states.size() <= maxStates)
      return;
    pruned = true;
    auto slowOf = [&](const State &s) {
      return std::max(s.pastMax, slowBase[event] + liveBytes - s.fastLiveBytes);
    };
    std::nth_element(states.begin(), states.begin() + maxStates, states.end(),
                     [&](const State &a, const State &b) {
                       return better(goal, a, slowOf(a), b, slowOf(b));
                     });
    states.resize(maxStates);
  }

  /// Keeps one state per set of fast live candidates, the better one. The
  /// order of the states does not matter: every choice among them breaks
  /// ties by the set.
  void merge(Goal goal, std::vector<State> &states) {
    llvm::DenseMap<llvm::ArrayRef<unsigned>, unsigned> index;
    index.reserve(states.size());
    std::vector<bool> keep(states.size(), true);
    for (unsigned k = 0; k < states.size(); ++k) {
      auto [it, inserted] = index.try_emplace(states[k].fastLive, k);
      if (inserted)
        continue;
      State &kept = states[it->second];
      if (better(goal, states[k], states[k].pastMax, kept, kept.pastMax)) {
        keep[it->second] = false;
        it->second = k;
      } else {
        keep[k] = false;
      }
    }
    if (index.size() == states.size())
      return;
    size_t next = 0;
    for (unsigned k = 0; k < states.size(); ++k)
      if (keep[k]) {
        if (next != k)
          states[next] = std::move(states[k]);
        ++next;
      }
    states.resize(next);
  }

  /// Drops the nodes no state reaches, renumbering the others.
  void compact(std::vector<State> &states) {
    std::vector<int32_t> remap(nodes.size(), -1);
    for (const State &s : states)
      for (int32_t n = s.head; n >= 0 && remap[n] < 0; n = nodes[n].parent)
        remap[n] = 0;
    int32_t next = 0;
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (remap[n] < 0)
        continue;
      remap[n] = next;
      Node node = nodes[n];
      node.parent = node.parent >= 0 ? remap[node.parent] : -1;
      nodes[next++] = node;
    }
    nodes.resize(next);
    for (State &s : states)
      if (s.head >= 0)
        s.head = remap[s.head];
  }

  /// Runs one sweep; with MaxWeight, no state's slow peak may exceed
  /// `target`. Returns the best final state, or none when the beam lost
  /// every state.
  std::optional<State> run(Goal goal, int64_t target) {
    nodes.clear();
    std::vector<State> states(1);
    std::vector<State> next;
    int64_t liveBytes = 0;
    size_t compactAt = 1 << 16;
    for (size_t e = 0; e < fastBase.size(); ++e) {
      if (!expiring[e].empty()) {
        for (unsigned c : expiring[e])
          liveBytes -= size[c];
        // Sets stay distinct unless one lost a member.
        bool shrunk = false;
        for (State &s : states)
          llvm::erase_if(s.fastLive, [&](unsigned c) {
            if (hi[c] >= e)
              return false;
            s.fastLiveBytes -= size[c];
            shrunk = true;
            return true;
          });
        if (shrunk)
          merge(goal, states);
      }
      for (unsigned c : starting[e]) {
        liveBytes += size[c];
        next.clear();
        for (State &s : states) {
          if (fastBase[e] + s.fastLiveBytes + size[c] <= capacity) {
            State fast = s;
            fast.fastLive.push_back(c);
            fast.fastLiveBytes += size[c];
            fast.weight = addSaturating(fast.weight, weight[c]);
            fast.keptBytes += size[c];
            nodes.push_back({fast.head, c});
            fast.head = static_cast<int32_t>(nodes.size() - 1);
            next.push_back(std::move(fast));
          }
          // Live bytes only grow while this event's buffers start, so a
          // state over the target now stays over it.
          if (goal == Goal::MinPeak ||
              slowBase[e] + liveBytes - s.fastLiveBytes <= target)
            next.push_back(std::move(s));
        }
        std::swap(states, next);
        prune(goal, states, liveBytes, e);
      }
      // The fast base may rise without a candidate starting (a Fast item).
      llvm::erase_if(states, [&](State &s) {
        int64_t slow = slowBase[e] + liveBytes - s.fastLiveBytes;
        if (fastBase[e] + s.fastLiveBytes > capacity ||
            (goal == Goal::MaxWeight && slow > target))
          return true;
        s.pastMax = std::max(s.pastMax, slow);
        return false;
      });
      if (states.empty())
        return std::nullopt;
      if (nodes.size() > compactAt) {
        compact(states);
        compactAt = std::max<size_t>(compactAt, 4 * nodes.size());
      }
    }
    return *llvm::min_element(states, [&](const State &a, const State &b) {
      return better(goal, a, a.pastMax, b, b.pastMax);
    });
  }
};

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

  // Events: the steps where a buffer of non-zero size starts.
  std::vector<int64_t> events;
  for (const SpillItem &item : items)
    if (item.size > 0)
      events.push_back(item.firstStep);
  llvm::sort(events);
  events.erase(std::unique(events.begin(), events.end()), events.end());
  size_t numEvents = events.size();
  auto range = [&](const SpillItem &item) {
    size_t lo = llvm::lower_bound(events, item.firstStep) - events.begin();
    size_t hi = llvm::upper_bound(events, item.lastStep) - events.begin() - 1;
    return std::make_pair(lo, hi);
  };

  // Live bytes per event, by difference arrays.
  std::vector<int64_t> fixedFast(numEvents + 1, 0), fixedSlow(numEvents + 1, 0),
      open(numEvents + 1, 0);
  for (const SpillItem &item : items) {
    if (item.size == 0)
      continue;
    auto [lo, hi] = range(item);
    std::vector<int64_t> &load = item.place == SpillPlace::Fast ? fixedFast
                                 : item.place == SpillPlace::Slow
                                     ? fixedSlow
                                     : open;
    load[lo] += item.size;
    load[hi + 1] -= item.size;
  }
  for (size_t e = 1; e < numEvents; ++e) {
    fixedFast[e] += fixedFast[e - 1];
    fixedSlow[e] += fixedSlow[e - 1];
    open[e] += open[e - 1];
  }

  int64_t capacity = options.capacity;
  bool feasible = true;
  for (size_t e = 0; e < numEvents; ++e)
    feasible &= fixedFast[e] <= capacity;
  if (!feasible) {
    choice.feasible = false;
    for (size_t e = 0; e < numEvents; ++e)
      choice.slowPeak = std::max(choice.slowPeak, fixedSlow[e] + open[e]);
    return choice;
  }

  // An Open buffer whose every step holds everything stays fast: keeping it
  // never breaks the capacity and only lowers the slow memory's bytes.
  std::vector<size_t> overloaded(numEvents + 1, 0);
  for (size_t e = 0; e < numEvents; ++e)
    overloaded[e + 1] =
        overloaded[e] + (fixedFast[e] + open[e] > capacity ? 1 : 0);
  Sweep sweep;
  sweep.capacity = capacity;
  sweep.fastBase.assign(fixedFast.begin(), fixedFast.begin() + numEvents);
  sweep.slowBase.assign(fixedSlow.begin(), fixedSlow.begin() + numEvents);
  std::vector<std::tuple<size_t, size_t, size_t>> candidates; // lo, index, hi
  std::vector<int64_t> freeLoad(numEvents + 1, 0);
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.place != SpillPlace::Open || item.size == 0)
      continue;
    auto [lo, hi] = range(item);
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
  if (candidates.empty()) {
    for (size_t e = 0; e < numEvents; ++e)
      choice.slowPeak = std::max(choice.slowPeak, fixedSlow[e]);
    return choice;
  }

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
  sweep.maxStates = std::max<uint64_t>(4, options.effort / work);

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
    for (size_t e = 0; e < numEvents; ++e)
      choice.slowPeak = std::max(choice.slowPeak, fixedSlow[e] + open[e] -
                                                      (sweep.fastBase[e] -
                                                       fixedFast[e]));
    return choice;
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
