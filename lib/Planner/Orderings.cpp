//===- Orderings.cpp - The orders in which greedy placement goes ----------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The keys a greedy ordering sorts by (contention, conflict degree) and the
// orderings of the heuristic portfolio, TFLite Micro's among them.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace helia::planner;
using namespace helia::planner::detail;

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
  keys.degree = computeDegrees(instance);
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

namespace {
/// An item's sort key, compared lexicographically: the keys of an ordering
/// laid out next to each other, so that sorting reads contiguous memory
/// instead of chasing items (several times faster on 10^5 items). Every
/// ordering ends on the item, so the order is total and any sort gives it.
struct SortKey {
  int64_t first, second, third;
  uint32_t item;
  bool operator<(const SortKey &other) const {
    return std::tie(first, second, third, item) <
           std::tie(other.first, other.second, other.third, other.item);
  }
};
} // namespace

/// The sort key of item `i` under `key`; keys are negated so that "less"
/// means "larger first".
static SortKey getSortKey(const std::vector<Item> &items, OrderKey key,
                          const ItemKeys &keys, uint32_t i) {
  const Item &item = items[i];
  switch (key) {
  case OrderKey::Tflm:
    // TFLM appends online buffers to a list in reverse insertion order and
    // bubble-sorts it by size, descending; the sort is stable: ties put the
    // later buffer first.
    return {-item.size, -static_cast<int64_t>(i), 0, i};
  case OrderKey::Size:
    return {-item.size, -item.length, static_cast<int64_t>(item.lo), i};
  case OrderKey::Area:
    return {-item.size * item.length, -item.size, 0, i};
  case OrderKey::Length:
    return {-item.length, -item.size, 0, i};
  case OrderKey::Contention:
    return {-keys.contention[i], -item.size, -item.length, i};
  case OrderKey::Degree:
    return {-static_cast<int64_t>(keys.degree[i]), -item.size, 0, i};
  case OrderKey::Start:
    return {static_cast<int64_t>(item.lo), -item.size, 0, i};
  }
  llvm_unreachable("unknown order key");
}

std::vector<uint32_t> detail::makeOrder(const Instance &instance, OrderKey key,
                                        const ItemKeys &keys) {
  const std::vector<Item> &items = instance.items;
  std::vector<SortKey> sortKeys;
  sortKeys.reserve(items.size());
  for (uint32_t i = 0, e = items.size(); i < e; ++i)
    if (items[i].fixedOffset == kNoOffset)
      sortKeys.push_back(getSortKey(items, key, keys, i));
  llvm::sort(sortKeys);
  std::vector<uint32_t> order;
  order.reserve(sortKeys.size());
  for (const SortKey &sortKey : sortKeys)
    order.push_back(sortKey.item);
  return order;
}
