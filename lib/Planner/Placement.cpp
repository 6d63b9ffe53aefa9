//===- Placement.cpp - Greedy placement engines ---------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Placing items one by one in a given order, first fit or best fit among the
// placed items that overlap each in time, over one of three engines that
// place identically: an interval index (IntervalIndex, Intervals.h), the
// conflict graph when it is built, or for dense problems the merged memory
// blocks of a BlockIndex. And the skyline (lowest-offset-first) greedy.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <queue>
#include <tuple>

using namespace helia::planner;
using namespace helia::planner::detail;

namespace {
/// Memory [begin, end) of a placed item.
struct Span {
  int64_t begin;
  int64_t end;
};
} // namespace

/// The lowest aligned offset at which `size` bytes fit between `spans`. The
/// spans are consumed in order of begin from a heap, so the cost is linear
/// plus logarithmic per span below the answer, not a full sort: first fit
/// usually stops long before the top of a dense neighbourhood.
static int64_t firstFit(llvm::MutableArrayRef<Span> spans, int64_t size,
                        int64_t alignment) {
  auto later = [](const Span &a, const Span &b) {
    return std::tie(a.begin, a.end) > std::tie(b.begin, b.end);
  };
  std::make_heap(spans.begin(), spans.end(), later);
  int64_t candidate = 0;
  for (auto end = spans.end(); end != spans.begin(); --end) {
    const Span &lowest = spans.front();
    if (lowest.begin >= candidate + size)
      break;
    candidate = std::max(candidate, alignTo(lowest.end, alignment));
    std::pop_heap(spans.begin(), end, later);
  }
  return candidate;
}

/// The aligned start of the smallest gap between `spans` (sorted by begin)
/// that holds `size` bytes, or the top of the spans.
static int64_t bestFit(llvm::ArrayRef<Span> spans, int64_t size,
                       int64_t alignment) {
  int64_t top = 0;
  int64_t bestOffset = -1;
  int64_t bestGap = 0;
  for (const Span &span : spans) {
    int64_t start = alignTo(top, alignment);
    if (span.begin >= start + size) {
      int64_t gap = span.begin - top;
      if (bestOffset < 0 || gap < bestGap) {
        bestOffset = start;
        bestGap = gap;
      }
    }
    top = std::max(top, span.end);
  }
  return bestOffset >= 0 ? bestOffset : alignTo(top, alignment);
}

/// Average number of items an item overlaps in time above which the block
/// index beats visiting every overlapping item (measured: about 3x slower at
/// 17, 20x faster at 5,800).
constexpr uint64_t kDenseDegree = 128;

/// True if the items overlap kDenseDegree others on average.
static bool isDense(const Instance &instance) {
  uint64_t degrees = 0;
  for (uint32_t degree : computeDegrees(instance))
    degrees += degree;
  return degrees > kDenseDegree * instance.items.size();
}

/// Writes the offsets of the fixed items and calls `onPlaced(i)` for each, in
/// item order. Returns their peak.
template <typename Fn>
static int64_t placeFixed(const Instance &instance,
                          llvm::MutableArrayRef<int64_t> offsets,
                          Fn &&onPlaced) {
  int64_t peak = 0;
  for (auto [i, item] : llvm::enumerate(instance.items)) {
    if (item.fixedOffset == kNoOffset)
      continue;
    offsets[i] = item.fixedOffset;
    onPlaced(i);
    peak = std::max(peak, item.fixedOffset + item.size);
  }
  return peak;
}

/// placeInOrder() on a BlockIndex; places exactly as the other engines,
/// since both fits depend only on the union of the overlapping placed
/// intervals.
static int64_t placeInOrderDense(const Instance &instance,
                                 llvm::ArrayRef<uint32_t> order, Fit fit,
                                 llvm::MutableArrayRef<int64_t> offsets,
                                 int64_t cutoff) {
  const std::vector<Item> &items = instance.items;
  BlockIndex index(instance.numSlots);
  auto occupy = [&](uint32_t i) {
    index.insert(items[i].lo, items[i].hi, offsets[i],
                 offsets[i] + items[i].size);
  };
  int64_t peak = placeFixed(instance, offsets, occupy);
  for (uint32_t i : order) {
    const Item &item = items[i];
    offsets[i] =
        fit == Fit::First
            ? index.findFirstFit(item.lo, item.hi, item.size, item.alignment)
            : index.findBestFit(item.lo, item.hi, item.size, item.alignment);
    occupy(i);
    peak = std::max(peak, offsets[i] + item.size);
    if (peak >= cutoff)
      return peak;
  }
  return peak;
}

int64_t detail::placeInOrder(const Instance &instance,
                             llvm::ArrayRef<uint32_t> order, Fit fit,
                             llvm::MutableArrayRef<int64_t> offsets,
                             const Conflicts *conflicts, int64_t cutoff) {
  // All engines place identically; pick the faster one for the density.
  if (fit == Fit::First && isDense(instance))
    return placeInOrderDense(instance, order, fit, offsets, cutoff);
  const std::vector<Item> &items = instance.items;
  int64_t peak = 0;
  llvm::SmallVector<Span, 64> spans;
  // Places item `i` among `spans`, the placed items overlapping it.
  auto place = [&](uint32_t i) {
    const Item &item = items[i];
    int64_t offset;
    if (fit == Fit::First) {
      offset = firstFit(spans, item.size, item.alignment);
    } else {
      llvm::sort(spans, [](const Span &a, const Span &b) {
        return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
      });
      offset = bestFit(spans, item.size, item.alignment);
    }
    offsets[i] = offset;
    peak = std::max(peak, offset + item.size);
  };
  auto addSpan = [&](uint32_t other) {
    spans.push_back({offsets[other], offsets[other] + items[other].size});
  };
  if (conflicts) {
    // The conflict graph lists each overlapping item once: no index to
    // query, no duplicates to skip.
    std::vector<bool> placed(items.size(), false);
    peak = placeFixed(instance, offsets, [&](uint32_t i) { placed[i] = true; });
    for (uint32_t i : order) {
      spans.clear();
      for (uint32_t other : conflicts->of(i))
        if (placed[other])
          addSpan(other);
      place(i);
      placed[i] = true;
      if (peak >= cutoff)
        return peak;
    }
    return peak;
  }
  IntervalIndex index(instance.numSlots);
  auto insert = [&](uint32_t i) { index.insert(i, items[i].lo, items[i].hi); };
  std::vector<uint32_t> seen(items.size(), 0);
  uint32_t epoch = 0;
  peak = placeFixed(instance, offsets, insert);
  for (uint32_t i : order) {
    spans.clear();
    ++epoch;
    index.forEachOverlapping(items[i].lo, items[i].hi, [&](uint32_t other) {
      if (seen[other] == epoch)
        return;
      seen[other] = epoch;
      addSpan(other);
    });
    place(i);
    insert(i);
    if (peak >= cutoff)
      return peak;
  }
  return peak;
}

int64_t detail::placeLowestFirst(const Instance &instance,
                                 const Conflicts &conflicts,
                                 llvm::ArrayRef<uint32_t> rank,
                                 llvm::MutableArrayRef<int64_t> offsets,
                                 int64_t cutoff) {
  const std::vector<Item> &items = instance.items;
  using Entry = std::tuple<int64_t, uint32_t, uint32_t>; // offset, rank, item
  // Every item starts at offset 0, so those entries come in rank order: they
  // are read from `byRank`, and the queue holds only the raised ones (the
  // frontier above the placed items, not all n). Entries are unique (an
  // item's offset only grows), so merging the two gives the one order a
  // single queue of all of them would.
  std::vector<uint32_t> byRank(items.size());
  for (uint32_t i = 0, e = items.size(); i < e; ++i)
    byRank[rank[i]] = i;
  size_t nextInitial = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto popNext = [&]() -> Entry {
    if (nextInitial < byRank.size()) {
      uint32_t i = byRank[nextInitial];
      Entry initial{0, static_cast<uint32_t>(nextInitial), i};
      if (queue.empty() || initial < queue.top()) {
        ++nextInitial;
        return initial;
      }
    }
    Entry top = queue.top();
    queue.pop();
    return top;
  };
  std::vector<int64_t> minOffset(items.size(), 0);
  std::vector<bool> placed(items.size(), false);
  int64_t peak = 0;
  while (nextInitial < byRank.size() || !queue.empty()) {
    auto [offset, itemRank, i] = popNext();
    if (placed[i] || offset != minOffset[i])
      continue;
    placed[i] = true;
    offsets[i] = offset;
    int64_t end = offset + items[i].size;
    peak = std::max(peak, end);
    if (peak >= cutoff)
      return peak;
    for (uint32_t other : conflicts.of(i)) {
      if (placed[other])
        continue;
      int64_t bound = alignTo(end, items[other].alignment);
      if (bound > minOffset[other]) {
        minOffset[other] = bound;
        queue.push({bound, rank[other], other});
      }
    }
  }
  return peak;
}
