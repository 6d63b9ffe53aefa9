//===- Spill.h - Which buffers a fast memory keeps --------------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// When the scratch buffers do not fit a fast memory, some move to the next
// (slower) one. This decides which: the buffers the fast memory keeps must
// fit its capacity at every step, and among such choices the one whose
// spilled buffers peak lowest in the slow memory wins; among those, the one
// that keeps the most accessed bytes (size x readers) in the fast memory.
//
// Both sides are measured by live bytes per step (a packing needs at least
// that many; on ML graphs the packer nearly always reaches it), so the
// caller packs the result and shrinks the capacity when the packing does not
// fit.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_SPILL_H
#define HELIA_PLANNER_SPILL_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace helia::planner {

/// Where a buffer may live.
enum class SpillPlace {
  /// The choice is the solver's.
  Open,
  /// Kept in the fast memory whatever happens (a rule placed it there).
  Fast,
  /// Already in the slow memory (a rule placed it there): it counts towards
  /// the slow memory's live bytes.
  Slow,
};

/// One buffer of a spill problem. Lifetimes are closed, as in Buffer.
struct SpillItem {
  /// Bytes, as packed (rounded up to the alignment); 0 takes no room.
  int64_t size = 0;
  int64_t firstStep = 0;
  int64_t lastStep = 0;
  /// Accessed bytes (size x readers): what keeping it fast is worth.
  int64_t weight = 0;
  SpillPlace place = SpillPlace::Open;
};

/// Knobs of chooseSpills().
struct SpillOptions {
  /// Bytes of the fast memory for these buffers.
  int64_t capacity = 0;
  /// Work budget of each of the two sweeps, in units of one state element
  /// visited (about a nanosecond each). Within it the answer is exact under
  /// the live-bytes model; beyond it the sweep keeps its best states only.
  uint64_t effort = 50'000'000;
};

/// What chooseSpills() decided.
struct SpillChoice {
  /// One per item: true if it stays in the fast memory. Items placed Fast
  /// are true and items placed Slow false.
  std::vector<bool> fast;
  /// The largest live bytes of the slow memory at any step (the Slow items
  /// and the spilled ones).
  int64_t slowPeak = 0;
  /// The largest live bytes of the fast memory at any step (the Fast items
  /// and the kept ones).
  int64_t fastPeak = 0;
  /// Sum of the weights of the Open items kept fast.
  int64_t keptWeight = 0;
  /// False when the Fast items alone exceed the capacity at some step: then
  /// every Open item spills, and no choice can fit.
  bool feasible = true;
  /// True when neither sweep had to drop states to stay within its budget:
  /// slowPeak is then the smallest any choice reaches and keptWeight the
  /// largest among choices that reach it.
  bool exact = true;
};

/// Chooses the buffers the fast memory keeps (see the file comment).
///
/// Open buffers that fit beside every other buffer over their whole lifetime
/// stay fast without a choice. For the others, two sweeps over the steps
/// where buffers start keep one state per set of live buffers in the fast
/// memory (a dynamic program over the interval graph, exact since two
/// histories with the same live set have the same futures): the first
/// minimises the slow memory's peak, the second maximises the kept weight
/// (ties: kept bytes) at that peak. Cost O(states x live buffers) per step;
/// when the states exceed the budget the best are kept (a beam), and
/// SpillChoice::exact says so. Deterministic.
SpillChoice chooseSpills(llvm::ArrayRef<SpillItem> items,
                         const SpillOptions &options);

} // namespace helia::planner

#endif // HELIA_PLANNER_SPILL_H
