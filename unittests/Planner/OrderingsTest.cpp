//===- OrderingsTest.cpp - Tests of the instance and greedy orderings -----===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "../../lib/Planner/PlannerInternal.h"
#include "TestUtils.h"

#include "gtest/gtest.h"

#include <random>

using namespace helia::planner;
using namespace helia::planner::detail;

namespace {

/// A buffer of `size` bytes live over [first, last], maybe fixed.
Buffer liveBuffer(int64_t size, int64_t first, int64_t last,
                  std::optional<int64_t> fixedOffset = std::nullopt) {
  Buffer buffer = makeBuffer(/*id=*/0, size, first, last);
  buffer.fixedOffset = fixedOffset;
  return buffer;
}

/// Six buffers over steps 0-5 (one slot per step); buffer 5 is fixed.
///   0: 16 bytes, [0, 1]   1: 32, [1, 3]   2: 16, [2, 2]
///   3: 32, [0, 0]         4: 8, [3, 5]    5: 8, [4, 4] at 0
/// Live bytes per step: 48 48 48 40 16 8.
std::vector<Buffer> getExample() {
  return {liveBuffer(16, 0, 1), liveBuffer(32, 1, 3), liveBuffer(16, 2, 2),
          liveBuffer(32, 0, 0), liveBuffer(8, 3, 5),
          liveBuffer(8, 4, 4, /*fixedOffset=*/0)};
}

TEST(InstanceTest, CompressesLifetimesAndDropsEmptyBuffers) {
  std::vector<Buffer> buffers = {liveBuffer(16, 100, 199),
                                 liveBuffer(0, 150, 150),
                                 liveBuffer(8, 200, 200)};
  buffers[2].alignment = 8;
  Instance instance = buildInstance(buffers);
  ASSERT_EQ(instance.items.size(), 2u);
  // Boundaries 100, 200, 201: two slots; the buffers touch, not overlap.
  EXPECT_EQ(instance.numSlots, 2u);
  EXPECT_EQ(instance.items[0].lo, 0u);
  EXPECT_EQ(instance.items[0].hi, 1u);
  EXPECT_EQ(instance.items[0].length, 100);
  EXPECT_EQ(instance.items[1].lo, 1u);
  EXPECT_EQ(instance.items[1].hi, 2u);
  EXPECT_EQ(instance.items[1].index, 2u);
  EXPECT_EQ(instance.granule, 8);
  EXPECT_TRUE(instance.alignmentFree);
  EXPECT_FALSE(instance.hasFixed);
}

TEST(OrderingsTest, KeysOfTheExample) {
  Instance instance = buildInstance(getExample());
  ItemKeys keys = computeKeys(instance);
  EXPECT_EQ(keys.degree, (std::vector<uint32_t>{2, 3, 1, 1, 2, 1}));
  EXPECT_EQ(keys.contention, (std::vector<int64_t>{48, 48, 48, 48, 40, 16}));
}

TEST(OrderingsTest, OrdersOfTheExample) {
  Instance instance = buildInstance(getExample());
  ItemKeys keys = computeKeys(instance);
  auto order = [&](OrderKey key) { return makeOrder(instance, key, keys); };
  using Order = std::vector<uint32_t>;
  // The fixed buffer 5 is in no order.
  // TFLM: size descending, ties by the later buffer first.
  EXPECT_EQ(order(OrderKey::Tflm), (Order{3, 1, 2, 0, 4}));
  // Size, then longer lifetime, then earlier start.
  EXPECT_EQ(order(OrderKey::Size), (Order{1, 3, 0, 2, 4}));
  // size x length: 32 96 16 32 24; ties by size.
  EXPECT_EQ(order(OrderKey::Area), (Order{1, 3, 0, 4, 2}));
  EXPECT_EQ(order(OrderKey::Length), (Order{1, 4, 0, 3, 2}));
  EXPECT_EQ(order(OrderKey::Contention), (Order{1, 3, 0, 2, 4}));
  EXPECT_EQ(order(OrderKey::Degree), (Order{1, 0, 4, 3, 2}));
  EXPECT_EQ(order(OrderKey::Start), (Order{3, 0, 1, 2, 4}));
}

TEST(OrderingsTest, KeysAgreeWithAScanOnRandomInstances) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 50; ++round) {
    std::vector<Buffer> buffers;
    for (int i = 0, e = 1 + rng() % 60; i < e; ++i) {
      int64_t first = rng() % 40;
      buffers.push_back(
          liveBuffer(1 + rng() % 100, first, first + rng() % 12));
    }
    Instance instance = buildInstance(buffers);
    ItemKeys keys = computeKeys(instance);
    ASSERT_EQ(computeDegrees(instance), keys.degree);
    for (auto [i, a] : llvm::enumerate(buffers)) {
      uint32_t degree = 0;
      int64_t contention = 0;
      for (auto [j, b] : llvm::enumerate(buffers))
        if (i != j && a.overlapsInTime(b))
          ++degree;
      for (int64_t step = a.firstStep; step <= a.lastStep; ++step) {
        int64_t live = 0;
        for (const Buffer &b : buffers)
          if (b.firstStep <= step && step <= b.lastStep)
            live += b.size;
        contention = std::max(contention, live);
      }
      ASSERT_EQ(keys.degree[i], degree) << "round " << round << ", item " << i;
      ASSERT_EQ(keys.contention[i], contention)
          << "round " << round << ", item " << i;
    }
  }
}

TEST(OrderingsTest, EveryOrderIsAPermutationOfTheFreeItems) {
  std::mt19937_64 rng(9);
  std::vector<Buffer> buffers;
  for (int i = 0; i < 200; ++i) {
    int64_t first = rng() % 100;
    buffers.push_back(liveBuffer(16 * (1 + rng() % 8), first,
                                 first + rng() % 10,
                                 rng() % 10 == 0 ? std::optional<int64_t>(0)
                                                 : std::nullopt));
  }
  Instance instance = buildInstance(buffers);
  ItemKeys keys = computeKeys(instance);
  std::vector<uint32_t> free;
  for (auto [i, item] : llvm::enumerate(instance.items))
    if (item.fixedOffset == kNoOffset)
      free.push_back(i);
  for (OrderKey key : {OrderKey::Tflm, OrderKey::Size, OrderKey::Area,
                       OrderKey::Length, OrderKey::Contention,
                       OrderKey::Degree, OrderKey::Start}) {
    std::vector<uint32_t> order = makeOrder(instance, key, keys);
    llvm::sort(order);
    EXPECT_EQ(order, free) << getOrderKeyName(key).str();
  }
}

} // namespace
