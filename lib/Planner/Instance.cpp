//===- Instance.cpp - The compact problem and its conflicts ---------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The form the packing algorithms work on: buffers of non-zero size with
// their lifetimes compressed to slots (SlotMap, Intervals.h), and who
// overlaps whom in time (the conflict graph, or only how many).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace helia::planner;
using namespace helia::planner::detail;

Instance detail::buildInstance(llvm::ArrayRef<Buffer> buffers) {
  Instance instance;
  SlotMap slots;
  slots.reserve(buffers.size());
  for (const Buffer &buffer : buffers)
    if (buffer.size != 0)
      slots.addRange(buffer.firstStep, buffer.lastStep);
  slots.finalize();
  instance.numSlots = slots.getNumSlots();

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
    item.lo = slots.getSlot(buffer.firstStep);
    item.hi = slots.getSlot(buffer.lastStep + 1);
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

std::vector<uint32_t> detail::computeDegrees(const Instance &instance) {
  const std::vector<Item> &items = instance.items;
  // An item's degree = #(items starting before its end) - #(items ended by
  // its start) - 1 (itself). startsBefore[s]: items with lo < s; endsBy[s]:
  // items with hi <= s.
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
  std::vector<uint32_t> degrees;
  degrees.reserve(items.size());
  for (const Item &item : items)
    degrees.push_back(startsBefore[item.hi] - endsBy[item.lo] - 1);
  return degrees;
}
