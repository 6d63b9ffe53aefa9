//===- SpillTest.cpp - Tests of the spill choice --------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Spill.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <tuple>

using namespace helia::planner;

namespace {

SpillItem item(int64_t size, int64_t first, int64_t last, int64_t weight = 0,
               SpillPlace place = SpillPlace::Open) {
  SpillItem result;
  result.size = size;
  result.firstStep = first;
  result.lastStep = last;
  result.weight = weight;
  result.place = place;
  return result;
}

/// The live-bytes measures of a choice: whether the fast side fits at every
/// step, and the slow side's peak.
std::tuple<bool, int64_t, int64_t> measure(llvm::ArrayRef<SpillItem> items,
                                           const std::vector<bool> &fast,
                                           int64_t capacity) {
  int64_t lastStep = 0;
  for (const SpillItem &it : items)
    lastStep = std::max(lastStep, it.lastStep);
  bool fits = true;
  int64_t slowPeak = 0, fastPeak = 0;
  for (int64_t step = 0; step <= lastStep; ++step) {
    int64_t fastBytes = 0, slowBytes = 0;
    for (auto [i, it] : llvm::enumerate(items))
      if (it.firstStep <= step && step <= it.lastStep)
        (fast[i] ? fastBytes : slowBytes) += it.size;
    fits &= fastBytes <= capacity;
    slowPeak = std::max(slowPeak, slowBytes);
    fastPeak = std::max(fastPeak, fastBytes);
  }
  return {fits, slowPeak, fastPeak};
}

/// Checks chooseSpills against every choice of the Open items: the lowest
/// slow peak, then the most kept weight, then the most kept bytes.
void expectOptimal(llvm::ArrayRef<SpillItem> items, int64_t capacity) {
  std::vector<unsigned> open;
  for (auto [i, it] : llvm::enumerate(items))
    if (it.place == SpillPlace::Open)
      open.push_back(i);
  std::optional<std::tuple<int64_t, int64_t, int64_t>> best;
  for (uint64_t mask = 0; mask < (uint64_t(1) << open.size()); ++mask) {
    std::vector<bool> fast(items.size());
    for (auto [i, it] : llvm::enumerate(items))
      fast[i] = it.place == SpillPlace::Fast;
    int64_t weight = 0, bytes = 0;
    for (auto [k, i] : llvm::enumerate(open))
      if (mask >> k & 1) {
        fast[i] = true;
        weight += items[i].weight;
        bytes += items[i].size;
      }
    auto [fits, slowPeak, fastPeak] = measure(items, fast, capacity);
    if (!fits)
      continue;
    auto key = std::make_tuple(slowPeak, -weight, -bytes);
    if (!best || key < *best)
      best = key;
  }
  ASSERT_TRUE(best.has_value());

  SpillOptions options;
  options.capacity = capacity;
  SpillChoice choice = chooseSpills(items, options);
  ASSERT_EQ(choice.fast.size(), items.size());
  EXPECT_TRUE(choice.feasible);
  EXPECT_TRUE(choice.exact);
  auto [fits, slowPeak, fastPeak] = measure(items, choice.fast, capacity);
  EXPECT_TRUE(fits);
  EXPECT_EQ(slowPeak, choice.slowPeak);
  EXPECT_EQ(fastPeak, choice.fastPeak);
  EXPECT_EQ(choice.slowPeak, std::get<0>(*best));
  int64_t weight = 0, bytes = 0;
  for (auto [i, it] : llvm::enumerate(items)) {
    if (it.place == SpillPlace::Fast)
      EXPECT_TRUE(choice.fast[i]);
    if (it.place == SpillPlace::Slow)
      EXPECT_FALSE(choice.fast[i]);
    if (it.place == SpillPlace::Open && choice.fast[i]) {
      weight += it.weight;
      bytes += it.size;
    }
  }
  EXPECT_EQ(weight, choice.keptWeight);
  EXPECT_EQ(-weight, std::get<1>(*best));
  EXPECT_EQ(-bytes, std::get<2>(*best));
}

// At steps 2-3, 48 + 32 + 32 bytes are live in 80. Spilling the largest
// buffer live at the peak (the old rule) sends 'a' (48) to the slow memory
// and leaves 16 fast bytes idle there; spilling one 32-byte buffer fills the
// fast memory and peaks at 32.
TEST(Spill, LargestAtPeakIsNotBest) {
  std::vector<SpillItem> items = {item(48, 0, 3, 48), item(32, 0, 1, 32),
                                  item(32, 2, 3, 32), item(32, 2, 3, 32)};
  SpillOptions options;
  options.capacity = 80;
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_EQ(choice.slowPeak, 32);
  EXPECT_TRUE(choice.fast[0]);
  EXPECT_TRUE(choice.fast[1]);
  EXPECT_NE(choice.fast[2], choice.fast[3]);
  expectOptimal(items, 80);
}

// Equal slow peaks: keep the buffer read most often.
TEST(Spill, PrefersAccessedBytes) {
  std::vector<SpillItem> items = {item(64, 0, 2, 64), item(64, 0, 2, 640),
                                  item(16, 1, 1, 16)};
  SpillOptions options;
  options.capacity = 80;
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_EQ(choice.slowPeak, 64);
  EXPECT_FALSE(choice.fast[0]);
  EXPECT_TRUE(choice.fast[1]);
  EXPECT_TRUE(choice.fast[2]);
  EXPECT_EQ(choice.keptWeight, 656);
}

TEST(Spill, FixedPlaces) {
  // A Fast item takes room; a Slow item adds to the slow peak.
  std::vector<SpillItem> items = {
      item(32, 0, 4, 0, SpillPlace::Fast), item(48, 1, 2, 10),
      item(16, 2, 3, 10), item(64, 3, 4, 0, SpillPlace::Slow),
      item(32, 4, 4, 10)};
  expectOptimal(items, 64);
}

TEST(Spill, FastItemsOverCapacity) {
  std::vector<SpillItem> items = {item(64, 0, 1, 0, SpillPlace::Fast),
                                  item(16, 1, 2, 5),
                                  item(8, 0, 0, 0, SpillPlace::Slow)};
  SpillOptions options;
  options.capacity = 32;
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_FALSE(choice.feasible);
  EXPECT_TRUE(choice.fast[0]);
  EXPECT_FALSE(choice.fast[1]);
  EXPECT_EQ(choice.slowPeak, 16);
}

TEST(Spill, EmptyAndZeroSize) {
  SpillOptions options;
  options.capacity = 0;
  EXPECT_TRUE(chooseSpills({}, options).fast.empty());
  std::vector<SpillItem> items = {item(0, 0, 5), item(16, 1, 2, 1)};
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_TRUE(choice.fast[0]);
  EXPECT_FALSE(choice.fast[1]);
  EXPECT_EQ(choice.slowPeak, 16);
}

// Everything fits: nothing spills and no sweep runs.
TEST(Spill, NothingToSpill) {
  std::vector<SpillItem> items = {item(16, 0, 3), item(16, 1, 2),
                                  item(32, 4, 5)};
  SpillOptions options;
  options.capacity = 32;
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_EQ(choice.fast, std::vector<bool>(3, true));
  EXPECT_EQ(choice.slowPeak, 0);
}

TEST(Spill, RandomAgainstBruteForce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    int numItems = 1 + rng() % 11;
    int numSteps = 1 + rng() % 10;
    std::vector<SpillItem> items;
    for (int i = 0; i < numItems; ++i) {
      int64_t first = rng() % numSteps;
      int64_t last = first + rng() % (numSteps - first);
      SpillPlace place = SpillPlace::Open;
      if (rng() % 8 == 0)
        place = rng() % 2 ? SpillPlace::Fast : SpillPlace::Slow;
      items.push_back(item(16 * (rng() % 6), first, last,
                           static_cast<int64_t>(rng() % 100), place));
    }
    int64_t fixedFast = 0;
    for (const SpillItem &it : items)
      if (it.place == SpillPlace::Fast)
        fixedFast += it.size;
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectOptimal(items, fixedFast + 16 * (rng() % 6));
  }
}

// A tiny budget forces the beam: the choice still fits and says it is not
// proven.
TEST(Spill, BeamStaysValid) {
  std::mt19937 rng(11);
  std::vector<SpillItem> items;
  for (int i = 0; i < 400; ++i) {
    int64_t first = rng() % 200;
    items.push_back(item(16 * (1 + rng() % 8), first, first + rng() % 12,
                         static_cast<int64_t>(rng() % 100)));
  }
  SpillOptions options;
  options.capacity = 128;
  options.effort = 1;
  SpillChoice choice = chooseSpills(items, options);
  EXPECT_TRUE(choice.feasible);
  EXPECT_FALSE(choice.exact);
  auto [fits, slowPeak, fastPeak] =
      measure(items, choice.fast, options.capacity);
  EXPECT_TRUE(fits);
  EXPECT_EQ(slowPeak, choice.slowPeak);
  EXPECT_EQ(fastPeak, choice.fastPeak);
}

// A thousand buffers live at once (a function of many arguments): the budget
// counts the copies of large live sets, so the sweep stays fast, and its
// choice fits.
TEST(Spill, ManyLiveAtOnce) {
  std::vector<SpillItem> items;
  for (int i = 0; i < 1000; ++i)
    items.push_back(item(16 * (1 + i % 7), 0, 10 + i % 5, i % 13));
  SpillOptions options;
  options.capacity = 4096;
  SpillChoice choice = chooseSpills(items, options);
  auto [fits, slowPeak, fastPeak] =
      measure(items, choice.fast, options.capacity);
  EXPECT_TRUE(fits);
  EXPECT_EQ(slowPeak, choice.slowPeak);
  EXPECT_EQ(fastPeak, choice.fastPeak);
  EXPECT_LE(fastPeak, 4096);
}

} // namespace
