//===- PlannerInternal.h - Shared pieces of the packing library -*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Planner: the checks of a problem (Checks.cpp), the compact
// problem form the algorithms work on and its conflicts (Instance.cpp), the greedy orderings (Orderings.cpp), the
// greedy placement engines (Placement.cpp) and the branch-and-bound search
// (Search.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_PLANNER_PLANNERINTERNAL_H
#define HELIA_LIB_PLANNER_PLANNERINTERNAL_H

#include "helia/Planner/Planner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace helia::planner::detail {

/// Marks an item without a fixed offset.
constexpr int64_t kNoOffset = -1;

/// A buffer of non-zero size with its lifetime compressed to the half-open
/// slot range [lo, hi). Slots are the elementary time intervals between
/// consecutive distinct lifetime boundaries, so two items conflict iff their
/// slot ranges intersect.
struct Item {
  int64_t size;
  int64_t alignment;
  int64_t fixedOffset;
  /// Lifetime length in steps (lastStep - firstStep + 1).
  int64_t length;
  uint32_t lo;
  uint32_t hi;
  /// Index of the buffer in the Problem.
  uint32_t index;
};

/// The problem in the form the algorithms use: zero-size buffers dropped,
/// time compressed.
struct Instance {
  std::vector<Item> items;
  uint32_t numSlots = 0;
  /// gcd of all sizes and alignments: every canonical offset and peak is a
  /// multiple of it.
  int64_t granule = 1;
  /// True if every alignment divides every size, so aligning never inserts
  /// padding and canonical search is complete.
  bool alignmentFree = true;
  bool hasFixed = false;
};

Instance buildInstance(llvm::ArrayRef<Buffer> buffers);

/// The PlanError of `kind` (see PlanError's accessors for the rest).
llvm::Error makePlanError(PlanErrorKind kind, const llvm::Twine &message,
                          std::vector<size_t> buffers = {},
                          int64_t required = 0, int64_t capacity = 0);
/// Fails with InvalidBuffer on the first malformed buffer (or a negative
/// capacity).
llvm::Error validateBuffers(const Problem &problem);
/// Fails with InfeasibleFixedOffsets if the fixed offsets of buffers of
/// non-zero size exceed the capacity or overlap: an offline plan must be
/// consistent on its own.
llvm::Error checkFixedOffsets(const Problem &problem);

/// `value` rounded up to a multiple of `alignment`: llvm::alignTo on the
/// planner's signed offsets, which are never negative (alignments are at
/// least 1).
inline int64_t alignTo(int64_t value, int64_t alignment) {
  return static_cast<int64_t>(llvm::alignTo(static_cast<uint64_t>(value),
                                            static_cast<uint64_t>(alignment)));
}

/// Conflict graph in compressed sparse row form.
struct Conflicts {
  std::vector<uint32_t> begin;
  std::vector<uint32_t> adjacent;
  llvm::ArrayRef<uint32_t> of(uint32_t item) const {
    return llvm::ArrayRef<uint32_t>(adjacent.data() + begin[item],
                                    begin[item + 1] - begin[item]);
  }
};

/// Builds the conflict graph, or returns std::nullopt if it has more than
/// `maxEdges` directed edges.
std::optional<Conflicts> buildConflicts(const Instance &instance,
                                        size_t maxEdges);

/// Per item, the number of other items whose lifetime intersects its own (its
/// degree in the conflict graph, without building the graph). O(n + slots).
std::vector<uint32_t> computeDegrees(const Instance &instance);

/// Per-item keys that orderings sort by.
struct ItemKeys {
  /// Largest total size live in any slot of the item's lifetime.
  std::vector<int64_t> contention;
  /// Number of items whose lifetime intersects the item's (computeDegrees).
  std::vector<uint32_t> degree;
};

ItemKeys computeKeys(const Instance &instance);

/// Sort keys for greedy orderings; ties always end on the item index.
enum class OrderKey {
  /// TFLite Micro: size descending, ties by later buffer first.
  Tflm,
  /// Size, then lifetime length, then earlier start.
  Size,
  /// size * lifetime length (in slots), then size.
  Area,
  /// Lifetime length, then size.
  Length,
  /// Contention, then size, then length.
  Contention,
  /// Conflict degree, then size.
  Degree,
  /// Start slot ascending, then size: a left-to-right sweep.
  Start,
};
/// The number of OrderKeys.
constexpr size_t kNumOrderKeys = static_cast<size_t>(OrderKey::Start) + 1;

llvm::StringRef getOrderKeyName(OrderKey key);

/// Free items (no fixed offset) sorted by `key`.
std::vector<uint32_t> makeOrder(const Instance &instance, OrderKey key,
                                const ItemKeys &keys);

/// Where a greedy puts each buffer among the time-overlapping placed ones.
enum class Fit {
  /// The lowest offset where it fits (TFLM).
  First,
  /// The smallest gap that holds it, else the top.
  Best,
};

/// Places the fixed items at their offsets and then the items of `order` (all
/// free items, each once) one by one with `fit`. Writes one offset per item
/// and returns the peak. Uses an interval index over slots, so the cost per
/// item is proportional to the number of placed items overlapping it; with
/// `conflicts` (the instance's conflict graph), walks the item's conflicts
/// instead, which is several times faster when the graph is already built;
/// first fit on a dense problem (items overlap more than 128 others on
/// average) jumps over merged memory blocks (BlockIndex). The placement is the
/// same either way. Stops as soon as the peak reaches `cutoff` (the peak only
/// grows, so such a run cannot beat a placement of peak `cutoff`) and returns
/// that partial peak; `offsets` are then incomplete.
int64_t placeInOrder(const Instance &instance, llvm::ArrayRef<uint32_t> order,
                     Fit fit, llvm::MutableArrayRef<int64_t> offsets,
                     const Conflicts *conflicts = nullptr,
                     int64_t cutoff = std::numeric_limits<int64_t>::max());

/// Skyline greedy: repeatedly places the free item with the lowest feasible
/// offset above everything placed under it (ties by `rank`). Requires no
/// fixed items. Returns the peak, or stops as placeInOrder() does once it
/// reaches `cutoff`.
int64_t placeLowestFirst(
    const Instance &instance, const Conflicts &conflicts,
    llvm::ArrayRef<uint32_t> rank, llvm::MutableArrayRef<int64_t> offsets,
    int64_t cutoff = std::numeric_limits<int64_t>::max());

/// Result of the branch-and-bound search.
struct SearchResult {
  /// True if `offsets` was improved.
  bool improved = false;
  /// True if the final peak is proven minimal.
  bool optimal = false;
  /// Work units spent.
  uint64_t work = 0;
};

/// Improves `offsets` (a valid placement of `instance` with peak `peak`) by
/// searching canonical solutions under capacities between `lowerBound` and
/// `peak`, spending at most `effort` units of work. Requires no fixed items.
SearchResult searchPlacement(const Instance &instance,
                             const Conflicts &conflicts, int64_t lowerBound,
                             int64_t &peak,
                             llvm::MutableArrayRef<int64_t> offsets,
                             uint64_t effort);

} // namespace helia::planner::detail

#endif // HELIA_LIB_PLANNER_PLANNERINTERNAL_H
