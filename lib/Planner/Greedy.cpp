//===- Greedy.cpp - Greedy placement engines ------------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The greedy building blocks of the packer: the compact instance, orderings,
// first-fit / best-fit placement over an interval index (IntervalIndex,
// Intervals.h), and the skyline (lowest-offset-first) greedy.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <tuple>

using namespace helia::planner;
using namespace helia::planner::detail;

Instance detail::buildInstance(llvm::ArrayRef<Buffer> buffers) {
  Instance instance;
  std::vector<int64_t> points;
  points.reserve(buffers.size() * 2);
  for (const Buffer &buffer : buffers) {
    if (buffer.size == 0)
      continue;
    points.push_back(buffer.firstStep);
    points.push_back(buffer.lastStep + 1);
  }
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  instance.numSlots = points.empty() ? 0 : points.size() - 1;

  auto slotOf = [&](int64_t step) -> uint32_t {
    return std::lower_bound(points.begin(), points.end(), step) -
           points.begin();
  };
  int64_t sizeGcd = 0;
  int64_t granule = 0;
  instance.items.reserve(buffers.size());
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    if (buffer.size == 0)
      continue;
    Item item;
    item.size = buffer.size;
    item.alignment = std::max<int64_t>(buffer.alignment, 1);
    item.fixedOffset = buffer.fixedOffset ? *buffer.fixedOffset : kNoOffset;
    item.length = buffer.lastStep - buffer.firstStep + 1;
    item.lo = slotOf(buffer.firstStep);
    item.hi = slotOf(buffer.lastStep + 1);
    item.index = index;
    instance.hasFixed |= buffer.fixedOffset.has_value();
    sizeGcd = std::gcd(sizeGcd, item.size);
    granule = std::gcd(granule, item.size);
    if (item.alignment > 1)
      granule = std::gcd(granule, item.alignment);
    instance.items.push_back(item);
  }
  instance.granule = std::max<int64_t>(granule, 1);
  for (const Item &item : instance.items)
    if (sizeGcd % item.alignment != 0)
      instance.alignmentFree = false;
  return instance;
}

std::optional<Conflicts> detail::buildConflicts(const Instance &instance,
                                                size_t maxEdges) {
  const std::vector<Item> &items = instance.items;
  std::vector<uint32_t> byStart(items.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::sort(byStart, [&](uint32_t a, uint32_t b) {
    return std::make_pair(items[a].lo, a) < std::make_pair(items[b].lo, b);
  });
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<uint32_t> active;
  for (uint32_t current : byStart) {
    uint32_t lo = items[current].lo;
    llvm::erase_if(active, [&](uint32_t a) { return items[a].hi <= lo; });
    if (edges.size() + active.size() > maxEdges / 2)
      return std::nullopt;
    for (uint32_t a : active)
      edges.push_back({a, current});
    active.push_back(current);
  }
  Conflicts conflicts;
  conflicts.begin.assign(items.size() + 1, 0);
  for (auto [a, b] : edges) {
    ++conflicts.begin[a + 1];
    ++conflicts.begin[b + 1];
  }
  for (size_t i = 0; i < items.size(); ++i)
    conflicts.begin[i + 1] += conflicts.begin[i];
  conflicts.adjacent.resize(edges.size() * 2);
  std::vector<uint32_t> fill(conflicts.begin.begin(),
                             conflicts.begin.end() - 1);
  for (auto [a, b] : edges) {
    conflicts.adjacent[fill[a]++] = b;
    conflicts.adjacent[fill[b]++] = a;
  }
  for (size_t i = 0; i < items.size(); ++i)
    std::sort(conflicts.adjacent.begin() + conflicts.begin[i],
              conflicts.adjacent.begin() + conflicts.begin[i + 1]);
  return conflicts;
}

ItemKeys detail::computeKeys(const Instance &instance) {
  const std::vector<Item> &items = instance.items;
  ItemKeys keys;
  // Contention: the most bytes live at a slot of the item's lifetime.
  LiveProfile live(instance.numSlots);
  for (const Item &item : items)
    live.add(item.lo, item.hi - 1, item.size);
  keys.contention.resize(items.size());
  for (auto [i, item] : llvm::enumerate(items))
    keys.contention[i] = live.getMax(item.lo, item.hi - 1);

  // Conflict degree = #(starts before my end) - #(ends before my start) - 1.
  std::vector<uint32_t> starts, ends;
  starts.reserve(items.size());
  ends.reserve(items.size());
  for (const Item &item : items) {
    starts.push_back(item.lo);
    ends.push_back(item.hi);
  }
  llvm::sort(starts);
  llvm::sort(ends);
  keys.degree.resize(items.size());
  for (auto [i, item] : llvm::enumerate(items)) {
    size_t startedBefore =
        std::lower_bound(starts.begin(), starts.end(), item.hi) -
        starts.begin();
    size_t endedBefore =
        std::upper_bound(ends.begin(), ends.end(), item.lo) - ends.begin();
    keys.degree[i] = startedBefore - endedBefore - 1;
  }
  return keys;
}

llvm::StringRef detail::getOrderKeyName(OrderKey key) {
  switch (key) {
  case OrderKey::Tflm:
    return "tflm";
  case OrderKey::Size:
    return "size";
  case OrderKey::Area:
    return "area";
  case OrderKey::Length:
    return "length";
  case OrderKey::Contention:
    return "contention";
  case OrderKey::Degree:
    return "degree";
  case OrderKey::Start:
    return "start";
  }
  llvm_unreachable("unknown order key");
}

std::vector<uint32_t> detail::makeOrder(const Instance &instance, OrderKey key,
                                        const ItemKeys &keys) {
  const std::vector<Item> &items = instance.items;
  std::vector<uint32_t> order;
  order.reserve(items.size());
  for (uint32_t i = 0, e = items.size(); i < e; ++i)
    if (items[i].fixedOffset == kNoOffset)
      order.push_back(i);
  auto length = [&](uint32_t i) -> int64_t { return items[i].length; };
  auto sortBy = [&](auto tupleOf) {
    llvm::sort(order, [&](uint32_t a, uint32_t b) {
      return std::make_tuple(tupleOf(a), a) < std::make_tuple(tupleOf(b), b);
    });
  };
  // Keys are negated so that a lexicographic "less" means "larger first".
  switch (key) {
  case OrderKey::Tflm:
    // TFLM appends online buffers to a list in reverse insertion order and
    // bubble-sorts it by size, descending; the sort is stable.
    llvm::sort(order, [&](uint32_t a, uint32_t b) {
      if (items[a].size != items[b].size)
        return items[a].size > items[b].size;
      return a > b;
    });
    break;
  case OrderKey::Size:
    sortBy([&](uint32_t i) {
      return std::make_tuple(-items[i].size, -length(i), (int64_t)items[i].lo);
    });
    break;
  case OrderKey::Area:
    sortBy([&](uint32_t i) {
      return std::make_tuple(-items[i].size * length(i), -items[i].size);
    });
    break;
  case OrderKey::Length:
    sortBy([&](uint32_t i) {
      return std::make_tuple(-length(i), -items[i].size);
    });
    break;
  case OrderKey::Contention:
    sortBy([&](uint32_t i) {
      return std::make_tuple(-keys.contention[i], -items[i].size, -length(i));
    });
    break;
  case OrderKey::Degree:
    sortBy([&](uint32_t i) {
      return std::make_tuple(-(int64_t)keys.degree[i], -items[i].size);
    });
    break;
  case OrderKey::Start:
    sortBy([&](uint32_t i) {
      return std::make_tuple((int64_t)items[i].lo, -items[i].size);
    });
    break;
  }
  return order;
}

namespace {

struct Span {
  int64_t begin;
  int64_t end;
};

/// The lowest aligned offset at which `size` bytes fit between `spans`. The
/// spans are consumed in order of begin from a heap, so the cost is linear
/// plus logarithmic per span below the answer, not a full sort: first fit
/// usually stops long before the top of a dense neighbourhood.
int64_t firstFit(llvm::MutableArrayRef<Span> spans, int64_t size,
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

/// The aligned start of the smallest gap between `spans` that holds `size`
/// bytes, or the top of the spans.
int64_t bestFit(llvm::ArrayRef<Span> spans, int64_t size, int64_t alignment) {
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

/// The union of a set of memory intervals, kept as disjoint, non-touching
/// blocks (begin -> end) in offset order.
using BlockSet = std::map<int64_t, int64_t>;

void insertBlock(BlockSet &set, int64_t begin, int64_t end) {
  auto it = set.upper_bound(begin);
  if (it != set.begin() && std::prev(it)->second >= begin)
    --it;
  while (it != set.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = set.erase(it);
  }
  set.emplace_hint(it, begin, end);
}

/// A segment tree over slots for dense problems. Each node keeps, as block
/// sets, the memory of the items stored at the node (its canonical cover) and
/// of all items stored in its subtree. The memory used during [lo, hi) is the
/// union of the subtree sets of the query's canonical nodes and the node sets
/// of the nodes on the two boundary paths that stick out of [lo, hi), so
/// first fit jumps from block to block instead of visiting every overlapping
/// item: a query costs O(log T) per block it skips, not O(k log k).
class BlockIndex {
public:
  explicit BlockIndex(uint32_t numSlots) {
    while (width < std::max<uint32_t>(numSlots, 1))
      width <<= 1;
    node.resize(2 * width);
    subtree.resize(2 * width);
  }

  void insert(uint32_t lo, uint32_t hi, int64_t begin, int64_t end) {
    forEachSet(lo, hi, [&](uint32_t n, bool canonical) {
      if (canonical)
        insertBlock(node[n], begin, end);
      insertBlock(subtree[n], begin, end);
    });
  }

  /// The sets whose union is the memory in use during [lo, hi).
  void collect(uint32_t lo, uint32_t hi,
               llvm::SmallVectorImpl<const BlockSet *> &sets) const {
    sets.clear();
    forEachSet(lo, hi, [&](uint32_t n, bool canonical) {
      const BlockSet &set = canonical ? subtree[n] : node[n];
      if (!set.empty())
        sets.push_back(&set);
    });
  }

private:
  /// Calls fn(node, true) for the canonical cover of [lo, hi) and
  /// fn(node, false) for every proper ancestor of a canonical node.
  template <typename Fn>
  void forEachSet(uint32_t lo, uint32_t hi, Fn &&fn) const {
    uint32_t l = lo + width, r = hi + width;
    uint32_t leftLeaf = l, rightLeaf = r - 1;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1)
        fn(l++, true);
      if (r & 1)
        fn(--r, true);
    }
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
    uint32_t a = leftLeaf, b = rightLeaf;
    for (; a >= 1; a >>= 1, b >>= 1) {
      if (!inside(a))
        fn(a, false);
      if (b != a && !inside(b))
        fn(b, false);
    }
  }

  uint32_t width = 1;
  std::vector<BlockSet> node;
  std::vector<BlockSet> subtree;
};

/// The lowest aligned offset at which `size` bytes are free in every set.
int64_t firstFitBlocks(llvm::ArrayRef<const BlockSet *> sets, int64_t size,
                       int64_t alignment) {
  int64_t x = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (const BlockSet *set : sets) {
      while (true) {
        auto it = set->upper_bound(x);
        if (it != set->begin() && std::prev(it)->second > x)
          x = alignTo(std::prev(it)->second, alignment);
        else if (it != set->end() && it->first < x + size)
          x = alignTo(it->second, alignment);
        else
          break;
        moved = true;
      }
    }
  }
  return x;
}

/// bestFit() over the union of `sets`: the aligned start of the smallest free
/// gap below the top that holds `size` bytes (the lowest on ties), else the
/// aligned top.
int64_t bestFitBlocks(llvm::ArrayRef<const BlockSet *> sets, int64_t size,
                      int64_t alignment) {
  int64_t bestOffset = -1;
  int64_t bestGap = 0;
  int64_t a = 0;
  while (true) {
    // Advance `a` to the next point that no set covers.
    for (bool moved = true; moved;) {
      moved = false;
      for (const BlockSet *set : sets) {
        auto it = set->upper_bound(a);
        if (it != set->begin() && std::prev(it)->second > a) {
          a = std::prev(it)->second;
          moved = true;
        }
      }
    }
    int64_t b = std::numeric_limits<int64_t>::max();
    for (const BlockSet *set : sets) {
      auto it = set->upper_bound(a);
      if (it != set->end())
        b = std::min(b, it->first);
    }
    if (b == std::numeric_limits<int64_t>::max())
      break;
    int64_t start = alignTo(a, alignment);
    if (b >= start + size && (bestOffset < 0 || b - a < bestGap)) {
      bestOffset = start;
      bestGap = b - a;
    }
    a = b;
  }
  return bestOffset >= 0 ? bestOffset : alignTo(a, alignment);
}

} // namespace

/// Average number of items an item overlaps in time above which the block
/// index beats visiting every overlapping item (measured: about 3x slower at
/// 17, 20x faster at 5,800).
constexpr uint64_t kDenseDegree = 128;

/// True if the items overlap kDenseDegree others on average.
static bool isDense(const Instance &instance) {
  const std::vector<Item> &items = instance.items;
  // startsBefore[s]: items with lo < s; endsBy[s]: items with hi <= s.
  std::vector<uint32_t> startsBefore(instance.numSlots + 2, 0);
  std::vector<uint32_t> endsBy(instance.numSlots + 1, 0);
  for (const Item &item : items) {
    ++startsBefore[item.lo + 1];
    ++endsBy[item.hi];
  }
  for (uint32_t s = 1; s < startsBefore.size(); ++s)
    startsBefore[s] += startsBefore[s - 1];
  for (uint32_t s = 1; s < endsBy.size(); ++s)
    endsBy[s] += endsBy[s - 1];
  uint64_t degrees = 0;
  for (const Item &item : items)
    degrees += startsBefore[item.hi] - endsBy[item.lo] - 1;
  return degrees > kDenseDegree * items.size();
}

/// placeInOrder() on a BlockIndex; places exactly as the IntervalIndex
/// version, since both fits depend only on the union of the overlapping
/// placed intervals.
static int64_t placeInOrderDense(const Instance &instance,
                                 llvm::ArrayRef<uint32_t> order, Fit fit,
                                 llvm::MutableArrayRef<int64_t> offsets) {
  const std::vector<Item> &items = instance.items;
  BlockIndex index(instance.numSlots);
  int64_t peak = 0;
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.fixedOffset == kNoOffset)
      continue;
    offsets[i] = item.fixedOffset;
    index.insert(item.lo, item.hi, item.fixedOffset,
                 item.fixedOffset + item.size);
    peak = std::max(peak, item.fixedOffset + item.size);
  }
  llvm::SmallVector<const BlockSet *, 64> sets;
  for (uint32_t i : order) {
    const Item &item = items[i];
    index.collect(item.lo, item.hi, sets);
    int64_t offset = fit == Fit::First
                         ? firstFitBlocks(sets, item.size, item.alignment)
                         : bestFitBlocks(sets, item.size, item.alignment);
    offsets[i] = offset;
    index.insert(item.lo, item.hi, offset, offset + item.size);
    peak = std::max(peak, offset + item.size);
  }
  return peak;
}

int64_t detail::placeInOrder(const Instance &instance,
                             llvm::ArrayRef<uint32_t> order, Fit fit,
                             llvm::MutableArrayRef<int64_t> offsets,
                             const Conflicts *conflicts) {
  // All engines place identically; pick the faster one for the density.
  if (fit == Fit::First && isDense(instance))
    return placeInOrderDense(instance, order, fit, offsets);
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
  if (conflicts) {
    // The conflict graph lists each overlapping item once: no index to
    // query, no duplicates to skip.
    std::vector<bool> placed(items.size(), false);
    for (auto [i, item] : llvm::enumerate(items)) {
      if (item.fixedOffset == kNoOffset)
        continue;
      offsets[i] = item.fixedOffset;
      placed[i] = true;
      peak = std::max(peak, item.fixedOffset + item.size);
    }
    for (uint32_t i : order) {
      spans.clear();
      for (uint32_t other : conflicts->of(i))
        if (placed[other])
          spans.push_back({offsets[other], offsets[other] + items[other].size});
      place(i);
      placed[i] = true;
    }
    return peak;
  }
  IntervalIndex index(instance.numSlots);
  std::vector<uint32_t> seen(items.size(), 0);
  uint32_t epoch = 0;
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.fixedOffset == kNoOffset)
      continue;
    offsets[i] = item.fixedOffset;
    index.insert(i, item.lo, item.hi);
    peak = std::max(peak, item.fixedOffset + item.size);
  }
  for (uint32_t i : order) {
    const Item &item = items[i];
    spans.clear();
    ++epoch;
    index.forEachOverlapping(item.lo, item.hi, [&](uint32_t other) {
      if (seen[other] == epoch)
        return;
      seen[other] = epoch;
      spans.push_back({offsets[other], offsets[other] + items[other].size});
    });
    place(i);
    index.insert(i, item.lo, item.hi);
  }
  return peak;
}

int64_t detail::placeLowestFirst(const Instance &instance,
                                 const Conflicts &conflicts,
                                 llvm::ArrayRef<uint32_t> rank,
                                 llvm::MutableArrayRef<int64_t> offsets) {
  const std::vector<Item> &items = instance.items;
  using Entry = std::tuple<int64_t, uint32_t, uint32_t>; // offset, rank, item
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  std::vector<int64_t> minOffset(items.size(), 0);
  std::vector<bool> placed(items.size(), false);
  for (uint32_t i = 0, e = items.size(); i < e; ++i)
    queue.push({0, rank[i], i});
  int64_t peak = 0;
  while (!queue.empty()) {
    auto [offset, itemRank, i] = queue.top();
    queue.pop();
    if (placed[i] || offset != minOffset[i])
      continue;
    placed[i] = true;
    offsets[i] = offset;
    int64_t end = offset + items[i].size;
    peak = std::max(peak, end);
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
