//===- Intervals.h - Live bytes per step, an interval index -----*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The interval toolkit of the planner: the two structures that questions
// about lifetimes reduce to.
//
// - LiveProfile: bytes added over ranges of steps; the largest total and the
//   (leftmost) step that has it, or the largest total over a range. What a
//   peak finder, a lower bound or a spill loop asks.
// - IntervalIndex: values stored with a range of slots; every value whose
//   range meets a query range. What a first-fit placement asks ("which
//   placed buffers are live while this one is").
// - BlockIndex: memory occupied over ranges of slots, kept as merged blocks;
//   the lowest (or best-fitting) free aligned place during a range of slots.
//   What a first-fit placement asks when thousands of buffers overlap.
// - SlotMap: closed ranges of arbitrary steps compressed to slots, the
//   elementary intervals between their boundaries, so that the trees above
//   need only as many leaves as there are distinct boundaries.
//
// The three indexes are segment trees over a fixed number of steps (slots),
// built in O(steps), updated and queried in O(log steps) (plus what the
// query returns or skips). No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_INTERVALS_H
#define HELIA_PLANNER_INTERVALS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace helia::planner {

/// Live bytes per step under range additions. Steps are 0 .. numSteps - 1;
/// ranges are closed ([first, last], as buffer lifetimes are). Totals may
/// go down (a negative addition removes bytes added before).
class LiveProfile {
public:
  /// A profile over `numSteps` steps (at least one), every total 0.
  explicit LiveProfile(int64_t numSteps);

  int64_t getNumSteps() const { return numSteps; }

  /// Adds `bytes` at every step of [first, last]. Requires
  /// 0 <= first <= last < getNumSteps().
  void add(int64_t first, int64_t last, int64_t bytes);

  struct Peak {
    int64_t step = 0;
    int64_t bytes = 0;
  };
  /// The largest total at any step, and the leftmost step that has it.
  Peak getPeak() const;
  /// The largest total at a step of [first, last] (0 <= first <= last <
  /// getNumSteps()).
  int64_t getMax(int64_t first, int64_t last) const;
  /// The total at `step`.
  int64_t getBytesAt(int64_t step) const { return getMax(step, step); }

private:
  void add(int64_t node, int64_t lo, int64_t hi, int64_t first, int64_t last,
           int64_t bytes);
  int64_t getMax(int64_t node, int64_t lo, int64_t hi, int64_t first,
                 int64_t last) const;

  int64_t numSteps;
  /// Leaves: a power of two >= numSteps.
  int64_t width = 1;
  /// Per node: the largest total in its subtree counting the additions
  /// stored at the node and below (not those of its ancestors), the
  /// leftmost step that has it, and the additions that cover the whole node.
  /// Padding leaves (steps >= numSteps) hold a very negative total, so they
  /// are never the peak.
  std::vector<int64_t> best, pending, argBest;
};

/// Bytes live over a closed range of steps.
struct LiveRange {
  int64_t first = 0;
  int64_t last = 0;
  int64_t bytes = 0;
};

/// The largest total of `ranges` at any step (steps are any int64_t: they
/// are compressed to the ranges' ends, then summed in a LiveProfile) and the
/// leftmost step that has it; {step 0, 0 bytes} when no step has a positive
/// total. Ranges with no bytes or with last < first count nothing.
LiveProfile::Peak findPeak(llvm::ArrayRef<LiveRange> ranges);

/// Values stored with a half-open range of slots [lo, hi), each at the
/// O(log slots) nodes of its range's canonical cover in a segment tree. A
/// query visits only subtrees that hold something, so its cost is
/// proportional to what it returns.
class IntervalIndex {
public:
  /// An index over slots 0 .. numSlots - 1.
  explicit IntervalIndex(uint32_t numSlots);

  /// Stores `value` over [lo, hi) (lo < hi <= numSlots).
  void insert(uint32_t value, uint32_t lo, uint32_t hi);

  /// Calls `fn(value)` for every stored value whose range intersects
  /// [lo, hi); a value may be reported more than once (once per node of its
  /// cover that the query meets).
  template <typename Fn>
  void forEachOverlapping(uint32_t lo, uint32_t hi, Fn &&fn) const {
    visit(1, 0, width, lo, hi, fn);
  }

private:
  void addAt(uint32_t node, uint32_t value);

  template <typename Fn>
  void visit(uint32_t node, uint32_t nodeLo, uint32_t nodeHi, uint32_t lo,
             uint32_t hi, Fn &fn) const {
    if (!nonEmpty[node] || nodeHi <= lo || hi <= nodeLo)
      return;
    for (int32_t e = head[node]; e != -1; e = entries[e].next)
      fn(entries[e].value);
    if (node >= width)
      return;
    uint32_t mid = (nodeLo + nodeHi) / 2;
    visit(2 * node, nodeLo, mid, lo, hi, fn);
    visit(2 * node + 1, mid, nodeHi, lo, hi, fn);
  }

  struct Entry {
    uint32_t value;
    int32_t next;
  };
  uint32_t width = 1;
  std::vector<int32_t> head;
  std::vector<bool> nonEmpty;
  std::vector<Entry> entries;
};

/// Memory occupied during ranges of slots: each insertion occupies the bytes
/// [begin, end) during the half-open slots [lo, hi). The nodes of a segment
/// tree keep, as disjoint, non-touching blocks, the memory of the insertions
/// stored at the node (its canonical cover) and of all insertions in its
/// subtree. The memory in use during [lo, hi) is the union of the subtree
/// blocks of the query's canonical nodes and of the node blocks of their
/// proper ancestors, so a query jumps from block to block instead of visiting
/// every overlapping insertion: O(log slots) per block it skips.
class BlockIndex {
public:
  /// An index over slots 0 .. numSlots - 1, all memory free.
  explicit BlockIndex(uint32_t numSlots);

  /// Occupies [begin, end) during [lo, hi) (lo < hi <= numSlots, begin <=
  /// end).
  void insert(uint32_t lo, uint32_t hi, int64_t begin, int64_t end);

  /// The lowest multiple of `alignment` (>= 1) at which `size` bytes are
  /// free during [lo, hi).
  int64_t findFirstFit(uint32_t lo, uint32_t hi, int64_t size,
                       int64_t alignment) const;
  /// The aligned start of the smallest free gap below the top of the memory
  /// in use during [lo, hi) that holds `size` bytes (the lowest gap on ties),
  /// else the top rounded up to `alignment`.
  int64_t findBestFit(uint32_t lo, uint32_t hi, int64_t size,
                      int64_t alignment) const;

private:
  /// Disjoint, non-touching blocks, begin -> end, in offset order.
  using Blocks = std::map<int64_t, int64_t>;
  /// At most two canonical nodes and two boundary ancestors per level of a
  /// tree over 2^32 slots: never on the heap.
  using BlockSets = llvm::SmallVector<const Blocks *, 128>;

  /// The block sets whose union is the memory in use during [lo, hi).
  void collect(uint32_t lo, uint32_t hi, BlockSets &sets) const;

  uint32_t width = 1;
  std::vector<Blocks> node;
  std::vector<Blocks> subtree;
};

/// Closed ranges of steps (any int64_t below the maximum) compressed to
/// slots: the elementary intervals between consecutive distinct boundaries,
/// a boundary being a range's first step or the step after its last. Two
/// added ranges intersect iff their slot ranges do.
class SlotMap {
public:
  void reserve(size_t numRanges) { boundaries.reserve(2 * numRanges); }
  /// Adds the boundaries of [first, last] (first <= last). Call before
  /// finalize().
  void addRange(int64_t first, int64_t last) {
    boundaries.push_back(first);
    boundaries.push_back(last + 1);
  }
  /// Sorts the boundaries; once, after the last addRange().
  void finalize();

  /// The number of slots: one less than the distinct boundaries, 0 when no
  /// range was added.
  uint32_t getNumSlots() const {
    return boundaries.empty() ? 0 : boundaries.size() - 1;
  }
  /// The slot that starts at `step`, a boundary; getNumSlots() for the last
  /// boundary. An added range [first, last] covers the slots
  /// [getSlot(first), getSlot(last + 1)).
  uint32_t getSlot(int64_t step) const {
    return std::lower_bound(boundaries.begin(), boundaries.end(), step) -
           boundaries.begin();
  }
  /// The first step of `slot`.
  int64_t getFirstStep(uint32_t slot) const { return boundaries[slot]; }

private:
  std::vector<int64_t> boundaries;
};

} // namespace helia::planner

#endif // HELIA_PLANNER_INTERVALS_H
