//===- SpillSweep.h - the dynamic program of chooseSpills -------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The sweep of Spill.cpp (see its file comment): states of the live
// candidates the fast memory holds, one per set, over the steps where
// buffers start.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_PLANNER_SPILLSWEEP_H
#define HELIA_LIB_PLANNER_SPILLSWEEP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace helia::planner::detail {

inline int64_t addSaturating(int64_t a, int64_t b) {
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
  static bool better(Goal goal, const State &a, int64_t slowA, const State &b,
                     int64_t slowB);
  /// Drops all but the best maxStates states.
  void prune(Goal goal, std::vector<State> &states, int64_t liveBytes,
             size_t event);
  /// Keeps one state per set of fast live candidates, the better one. The
  /// order of the states does not matter: every choice among them breaks
  /// ties by the set.
  void merge(Goal goal, std::vector<State> &states);
  /// Drops the nodes no state reaches, renumbering the others.
  void compact(std::vector<State> &states);
  /// Runs one sweep; with MaxWeight, no state's slow peak may exceed
  /// `target`. Returns the best final state, or none when the beam lost
  /// every state.
  std::optional<State> run(Goal goal, int64_t target);
};

} // namespace helia::planner::detail

#endif // HELIA_LIB_PLANNER_SPILLSWEEP_H
