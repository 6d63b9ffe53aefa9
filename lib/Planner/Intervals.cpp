//===- Intervals.cpp - Live bytes over steps and an interval index --------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Intervals.h"
#include "PlannerInternal.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <limits>

using namespace helia::planner;

//===----------------------------------------------------------------------===//
// LiveProfile
//===----------------------------------------------------------------------===//

/// The total of a padding leaf: far below any real total, far enough from
/// the int64_t limits that additions over a range never overflow it.
static constexpr int64_t kPadding = std::numeric_limits<int64_t>::min() / 4;

LiveProfile::LiveProfile(int64_t numSteps)
    : numSteps(std::max<int64_t>(numSteps, 1)) {
  while (width < this->numSteps)
    width *= 2;
  best.assign(2 * width, 0);
  pending.assign(2 * width, 0);
  argBest.resize(2 * width);
  for (int64_t i = 0; i < width; ++i) {
    argBest[width + i] = i;
    if (i >= this->numSteps)
      best[width + i] = kPadding;
  }
  for (int64_t node = width - 1; node >= 1; --node) {
    int64_t side =
        best[2 * node] >= best[2 * node + 1] ? 2 * node : 2 * node + 1;
    best[node] = best[side];
    argBest[node] = argBest[side];
  }
}

void LiveProfile::add(int64_t first, int64_t last, int64_t bytes) {
  assert(0 <= first && first <= last && last < numSteps &&
         "range out of profile");
  add(1, 0, width - 1, first, last, bytes);
}

void LiveProfile::add(int64_t node, int64_t lo, int64_t hi, int64_t first,
                      int64_t last, int64_t bytes) {
  if (last < lo || hi < first)
    return;
  if (first <= lo && hi <= last) {
    best[node] += bytes;
    pending[node] += bytes;
    return;
  }
  int64_t mid = lo + (hi - lo) / 2;
  add(2 * node, lo, mid, first, last, bytes);
  add(2 * node + 1, mid + 1, hi, first, last, bytes);
  // Ties go left: the leftmost step with the peak.
  int64_t side = best[2 * node] >= best[2 * node + 1] ? 2 * node : 2 * node + 1;
  best[node] = best[side] + pending[node];
  argBest[node] = argBest[side];
}

LiveProfile::Peak LiveProfile::getPeak() const { return {argBest[1], best[1]}; }

int64_t LiveProfile::getMax(int64_t first, int64_t last) const {
  assert(0 <= first && first <= last && last < numSteps &&
         "range out of profile");
  return getMax(1, 0, width - 1, first, last);
}

int64_t LiveProfile::getMax(int64_t node, int64_t lo, int64_t hi, int64_t first,
                            int64_t last) const {
  if (last < lo || hi < first)
    return std::numeric_limits<int64_t>::min();
  if (first <= lo && hi <= last)
    return best[node];
  int64_t mid = lo + (hi - lo) / 2;
  return pending[node] +
         std::max(getMax(2 * node, lo, mid, first, last),
                  getMax(2 * node + 1, mid + 1, hi, first, last));
}

LiveProfile::Peak helia::planner::findPeak(llvm::ArrayRef<LiveRange> ranges) {
  SlotMap slots;
  slots.reserve(ranges.size());
  auto counts = [](const LiveRange &range) {
    return range.bytes != 0 && range.first <= range.last;
  };
  for (const LiveRange &range : ranges)
    if (counts(range))
      slots.addRange(range.first, range.last);
  slots.finalize();
  if (slots.getNumSlots() == 0)
    return {};
  LiveProfile profile(slots.getNumSlots());
  for (const LiveRange &range : ranges)
    if (counts(range))
      profile.add(slots.getSlot(range.first),
                  slots.getSlot(range.last + 1) - 1, range.bytes);
  LiveProfile::Peak peak = profile.getPeak();
  if (peak.bytes <= 0)
    return {};
  return {slots.getFirstStep(peak.step), peak.bytes};
}

//===----------------------------------------------------------------------===//
// Segment trees over slots
//===----------------------------------------------------------------------===//

/// The number of leaves of a tree over `numSlots` slots: the smallest power
/// of two that is at least numSlots and 1. Node 1 is the root, node n has
/// children 2n and 2n + 1, and slot s is leaf width + s.
static uint32_t getTreeWidth(uint32_t numSlots) {
  uint32_t width = 1;
  while (width < std::max<uint32_t>(numSlots, 1))
    width <<= 1;
  return width;
}

/// Calls fn(node) for every node of the canonical cover of the slots [lo, hi)
/// in a tree of `width` leaves, bottom-up.
template <typename Fn>
static void forEachCoverNode(uint32_t width, uint32_t lo, uint32_t hi,
                             Fn &&fn) {
  for (uint32_t l = lo + width, r = hi + width; l < r; l >>= 1, r >>= 1) {
    if (l & 1)
      fn(l++);
    if (r & 1)
      fn(--r);
  }
}

//===----------------------------------------------------------------------===//
// IntervalIndex
//===----------------------------------------------------------------------===//

IntervalIndex::IntervalIndex(uint32_t numSlots)
    : width(getTreeWidth(numSlots)) {
  head.assign(2 * width, -1);
  nonEmpty.assign(2 * width, false);
}

void IntervalIndex::insert(uint32_t value, uint32_t lo, uint32_t hi) {
  forEachCoverNode(width, lo, hi, [&](uint32_t node) { addAt(node, value); });
}

void IntervalIndex::addAt(uint32_t node, uint32_t value) {
  entries.push_back({value, head[node]});
  head[node] = entries.size() - 1;
  for (uint32_t n = node; n >= 1 && !nonEmpty[n]; n >>= 1)
    nonEmpty[n] = true;
}

//===----------------------------------------------------------------------===//
// BlockIndex
//===----------------------------------------------------------------------===//

BlockIndex::BlockIndex(uint32_t numSlots) : width(getTreeWidth(numSlots)) {
  node.resize(2 * width);
  subtree.resize(2 * width);
}

/// Adds [begin, end) to `blocks`, merging it with the blocks it overlaps or
/// touches.
static void insertBlock(std::map<int64_t, int64_t> &blocks, int64_t begin,
                        int64_t end) {
  auto it = blocks.upper_bound(begin);
  if (it != blocks.begin() && std::prev(it)->second >= begin)
    --it;
  while (it != blocks.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = blocks.erase(it);
  }
  blocks.emplace_hint(it, begin, end);
}

/// Calls fn(node, true) for the canonical cover of [lo, hi) and fn(node,
/// false) for every proper ancestor of a canonical node.
template <typename Fn>
static void forEachCoverAndAncestor(uint32_t width, uint32_t lo, uint32_t hi,
                                    Fn &&fn) {
  forEachCoverNode(width, lo, hi, [&](uint32_t n) { fn(n, true); });
  // Proper ancestors of canonical nodes are the nodes on the paths from the
  // two boundary leaves that are not inside [lo, hi).
  auto inside = [&](uint32_t n) {
    uint32_t level = 0;
    while ((n << level) < width)
      ++level;
    uint32_t first = (n << level) - width;
    uint32_t last = first + (1u << level);
    return lo <= first && last <= hi;
  };
  uint32_t a = lo + width, b = hi + width - 1;
  for (; a >= 1; a >>= 1, b >>= 1) {
    if (!inside(a))
      fn(a, false);
    if (b != a && !inside(b))
      fn(b, false);
  }
}

void BlockIndex::insert(uint32_t lo, uint32_t hi, int64_t begin, int64_t end) {
  forEachCoverAndAncestor(width, lo, hi, [&](uint32_t n, bool canonical) {
    if (canonical)
      insertBlock(node[n], begin, end);
    insertBlock(subtree[n], begin, end);
  });
}

void BlockIndex::collect(uint32_t lo, uint32_t hi, BlockSets &sets) const {
  sets.clear();
  forEachCoverAndAncestor(width, lo, hi, [&](uint32_t n, bool canonical) {
    const Blocks &blocks = canonical ? subtree[n] : node[n];
    if (!blocks.empty())
      sets.push_back(&blocks);
  });
}

int64_t BlockIndex::findFirstFit(uint32_t lo, uint32_t hi, int64_t size,
                                 int64_t alignment) const {
  BlockSets sets;
  collect(lo, hi, sets);
  int64_t x = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (const Blocks *set : sets) {
      while (true) {
        auto it = set->upper_bound(x);
        if (it != set->begin() && std::prev(it)->second > x)
          x = detail::alignTo(std::prev(it)->second, alignment);
        else if (it != set->end() && it->first < x + size)
          x = detail::alignTo(it->second, alignment);
        else
          break;
        moved = true;
      }
    }
  }
  return x;
}

int64_t BlockIndex::findBestFit(uint32_t lo, uint32_t hi, int64_t size,
                                int64_t alignment) const {
  BlockSets sets;
  collect(lo, hi, sets);
  int64_t bestOffset = -1;
  int64_t bestGap = 0;
  int64_t a = 0;
  while (true) {
    // Advance `a` to the next point that no set covers.
    for (bool moved = true; moved;) {
      moved = false;
      for (const Blocks *set : sets) {
        auto it = set->upper_bound(a);
        if (it != set->begin() && std::prev(it)->second > a) {
          a = std::prev(it)->second;
          moved = true;
        }
      }
    }
    int64_t b = std::numeric_limits<int64_t>::max();
    for (const Blocks *set : sets) {
      auto it = set->upper_bound(a);
      if (it != set->end())
        b = std::min(b, it->first);
    }
    if (b == std::numeric_limits<int64_t>::max())
      break;
    int64_t start = detail::alignTo(a, alignment);
    if (b >= start + size && (bestOffset < 0 || b - a < bestGap)) {
      bestOffset = start;
      bestGap = b - a;
    }
    a = b;
  }
  return bestOffset >= 0 ? bestOffset : detail::alignTo(a, alignment);
}

//===----------------------------------------------------------------------===//
// SlotMap
//===----------------------------------------------------------------------===//

void SlotMap::finalize() {
  llvm::sort(boundaries);
  boundaries.erase(std::unique(boundaries.begin(), boundaries.end()),
                   boundaries.end());
}
