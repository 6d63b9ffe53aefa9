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
