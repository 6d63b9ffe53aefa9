//===- SpillSweep.cpp - the dynamic program of chooseSpills ---------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "SpillSweep.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace helia::planner::detail;

bool Sweep::better(Goal goal, const State &a, int64_t slowA, const State &b,
                   int64_t slowB) {
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

void Sweep::prune(Goal goal, std::vector<State> &states, int64_t liveBytes,
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

void Sweep::merge(Goal goal, std::vector<State> &states) {
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

void Sweep::compact(std::vector<State> &states) {
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

std::optional<State> Sweep::run(Goal goal, int64_t target) {
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
