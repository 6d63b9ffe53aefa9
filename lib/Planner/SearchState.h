//===- SearchState.h - One path of the placement search ---------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Planner: what the branch-and-bound search (Search.cpp)
// knows along one path, and the pruning that knowledge gives.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_PLANNER_SEARCHSTATE_H
#define HELIA_LIB_PLANNER_SEARCHSTATE_H

#include "PlannerInternal.h"

#include <cstdint>
#include <vector>

namespace helia::planner::detail {

/// The placed items of a search path and the bounds they imply: each
/// unplaced item's lowest possible offset (above every placed item it
/// overlaps), and per time slot a floor (nothing unplaced goes below it) and
/// the bytes still to place. place() checks spatial inference (in every
/// slot, the bytes left stacked on the floor fit the capacity); every change
/// is recorded on trails so that unplace() undoes it.
class SearchState {
public:
  SearchState(const Instance &instance, const Conflicts &conflicts);

  /// Starts a path with nothing placed under `capacity`. Returns false if a
  /// slot already holds more bytes than the capacity.
  bool reset(int64_t capacity);

  bool isPlaced(uint32_t item) const { return offset[item] != kNoOffset; }
  /// The lowest offset `item` (unplaced) can still take.
  int64_t getMinOffset(uint32_t item) const { return minOffset[item]; }
  /// The bytes of the unplaced items live in `slot`.
  int64_t getBytesLeft(uint32_t slot) const { return total[slot]; }

  /// A point on the trails to undo to.
  struct Mark {
    size_t offsets;
    size_t floors;
  };
  Mark getMark() const { return {offsetTrail.size(), floorTrail.size()}; }

  /// Places `item` at `at` (no lower than any offset placed before on the
  /// path), raises the bounds of the others, and returns false as soon as
  /// spatial inference over the slots [lo, hi) fails. Adds the elements it
  /// visits to `work`.
  bool place(uint32_t item, int64_t at, uint32_t lo, uint32_t hi,
             uint64_t &work);
  /// Undoes place(`item`), partial or not, back to `mark` (taken before it).
  void unplace(uint32_t item, Mark mark);
  /// True if the last place() left no unplaced item overlapping the placed
  /// one: it constrains nobody.
  bool isHatless() const { return hatless; }

private:
  /// Raises the floor of the slots in `affected` to the lowest minimum offset
  /// of their unplaced members; false if one no longer fits the capacity.
  bool raiseFloors(uint64_t &work);

  struct Change {
    uint32_t index;
    int64_t old;
  };

  const std::vector<Item> &items;
  const Conflicts &conflicts;
  int64_t capacity = 0;

  std::vector<int64_t> offset;
  std::vector<int64_t> minOffset;
  std::vector<int64_t> floor;
  std::vector<int64_t> total;
  /// Per slot, its items (memberBegin[s] .. memberBegin[s + 1]), the
  /// unplaced ones first (memberCount[s] of them); memberPosition[spanBegin[i]
  /// + (s - lo of i)] is where item i stands in slot s.
  std::vector<uint32_t> memberBegin;
  std::vector<uint32_t> members;
  std::vector<uint32_t> memberCount;
  std::vector<uint32_t> spanBegin;
  std::vector<uint32_t> memberPosition;
  /// The slots whose floor the current place() may raise, each once.
  std::vector<uint32_t> sectionStamp;
  uint32_t stampEpoch = 0;
  std::vector<uint32_t> affected;
  bool hatless = false;
  std::vector<Change> offsetTrail;
  std::vector<Change> floorTrail;
};

} // namespace helia::planner::detail

#endif // HELIA_LIB_PLANNER_SEARCHSTATE_H
