//===- IntervalsTest.cpp - Tests of the interval toolkit ------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Intervals.h"

#include "gtest/gtest.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <random>
#include <set>

using namespace helia::planner;

namespace {

TEST(LiveProfileTest, EmptyProfileIsZeroAtStepZero) {
  LiveProfile profile(5);
  EXPECT_EQ(profile.getNumSteps(), 5);
  EXPECT_EQ(profile.getPeak().bytes, 0);
  EXPECT_EQ(profile.getPeak().step, 0);
  EXPECT_EQ(profile.getMax(1, 4), 0);
}

TEST(LiveProfileTest, ChainPeaksWhereTwoBuffersOverlap) {
  // Closed lifetimes: [0, 1] and [1, 2] are both live at step 1.
  LiveProfile profile(4);
  profile.add(0, 1, 64);
  profile.add(1, 2, 32);
  profile.add(2, 3, 16);
  EXPECT_EQ(profile.getPeak().bytes, 96);
  EXPECT_EQ(profile.getPeak().step, 1);
  EXPECT_EQ(profile.getBytesAt(0), 64);
  EXPECT_EQ(profile.getBytesAt(2), 48);
  EXPECT_EQ(profile.getBytesAt(3), 16);
  EXPECT_EQ(profile.getMax(2, 3), 48);
}

TEST(LiveProfileTest, TiesGoToTheLeftmostStep) {
  LiveProfile profile(8);
  profile.add(5, 6, 10);
  profile.add(2, 3, 10);
  EXPECT_EQ(profile.getPeak().step, 2);
  EXPECT_EQ(profile.getPeak().bytes, 10);
  // A removal moves the peak.
  profile.add(2, 3, -10);
  EXPECT_EQ(profile.getPeak().step, 5);
  EXPECT_EQ(profile.getPeak().bytes, 10);
}

TEST(LiveProfileTest, PaddingStepsAreNeverThePeak) {
  // Five steps pad to eight leaves; with every real total negative the peak
  // is still a real step.
  LiveProfile profile(5);
  profile.add(0, 4, -7);
  profile.add(3, 3, 2);
  EXPECT_EQ(profile.getPeak().step, 3);
  EXPECT_EQ(profile.getPeak().bytes, -5);
}

TEST(LiveProfileTest, AtLeastOneStep) {
  LiveProfile profile(0);
  EXPECT_EQ(profile.getNumSteps(), 1);
  profile.add(0, 0, 3);
  EXPECT_EQ(profile.getPeak().bytes, 3);
}

TEST(LiveProfileTest, AgreesWithAnArrayOnRandomAdditions) {
  std::mt19937 rng(12);
  for (int round = 0; round < 200; ++round) {
    int64_t numSteps = 1 + rng() % 40;
    LiveProfile profile(numSteps);
    std::vector<int64_t> live(numSteps, 0);
    for (int op = 0; op < 30; ++op) {
      int64_t a = rng() % numSteps, b = rng() % numSteps;
      int64_t first = std::min(a, b), last = std::max(a, b);
      int64_t bytes = static_cast<int64_t>(rng() % 100) - 20;
      profile.add(first, last, bytes);
      for (int64_t s = first; s <= last; ++s)
        live[s] += bytes;
      auto top = std::max_element(live.begin(), live.end());
      ASSERT_EQ(profile.getPeak().bytes, *top);
      ASSERT_EQ(profile.getPeak().step, top - live.begin());
      int64_t c = rng() % numSteps, d = rng() % numSteps;
      int64_t lo = std::min(c, d), hi = std::max(c, d);
      ASSERT_EQ(profile.getMax(lo, hi),
                *std::max_element(live.begin() + lo, live.begin() + hi + 1));
    }
  }
}

TEST(FindPeakTest, NothingLiveIsZeroAtStepZero) {
  EXPECT_EQ(findPeak({}).bytes, 0);
  EXPECT_EQ(findPeak({}).step, 0);
  LiveProfile::Peak peak = findPeak({{3, 5, 0}, {7, 6, 10}});
  EXPECT_EQ(peak.bytes, 0);
  EXPECT_EQ(peak.step, 0);
}

TEST(FindPeakTest, StepsNeedNotStartAtZero) {
  // Closed ranges on sparse steps: [100, 200] and [200, 10^12] meet at 200.
  LiveProfile::Peak peak =
      findPeak({{100, 200, 8}, {200, 1000000000000, 4}, {-50, -40, 11}});
  EXPECT_EQ(peak.step, 200);
  EXPECT_EQ(peak.bytes, 12);
  // Ties go to the leftmost step.
  peak = findPeak({{-50, -40, 12}, {100, 200, 8}, {200, 300, 4}});
  EXPECT_EQ(peak.step, -50);
  EXPECT_EQ(peak.bytes, 12);
}

TEST(FindPeakTest, AgreesWithAnArrayOnRandomRanges) {
  std::mt19937 rng(3);
  for (int round = 0; round < 300; ++round) {
    std::vector<LiveRange> ranges;
    std::vector<int64_t> live(60, 0); // steps -30 .. 29
    int count = rng() % 12;
    for (int k = 0; k < count; ++k) {
      int64_t a = static_cast<int64_t>(rng() % 60) - 30;
      int64_t b = static_cast<int64_t>(rng() % 60) - 30;
      LiveRange range{std::min(a, b), std::max(a, b),
                      static_cast<int64_t>(rng() % 50)};
      ranges.push_back(range);
      for (int64_t s = range.first; s <= range.last; ++s)
        live[s + 30] += range.bytes;
    }
    auto top = std::max_element(live.begin(), live.end());
    LiveProfile::Peak peak = findPeak(ranges);
    ASSERT_EQ(peak.bytes, *top);
    ASSERT_EQ(peak.step, *top > 0 ? (top - live.begin()) - 30 : 0);
  }
}

std::set<uint32_t> overlapping(const IntervalIndex &index, uint32_t lo,
                               uint32_t hi) {
  std::set<uint32_t> found;
  index.forEachOverlapping(lo, hi,
                           [&](uint32_t value) { found.insert(value); });
  return found;
}

TEST(IntervalIndexTest, HalfOpenRanges) {
  IntervalIndex index(10);
  index.insert(1, 0, 3); // slots 0, 1, 2
  index.insert(2, 3, 5); // slots 3, 4
  index.insert(3, 2, 9);
  EXPECT_EQ(overlapping(index, 0, 2), (std::set<uint32_t>{1}));
  EXPECT_EQ(overlapping(index, 2, 3), (std::set<uint32_t>{1, 3}));
  EXPECT_EQ(overlapping(index, 3, 4), (std::set<uint32_t>{2, 3}));
  EXPECT_EQ(overlapping(index, 9, 10), (std::set<uint32_t>{}));
  EXPECT_EQ(overlapping(index, 0, 10), (std::set<uint32_t>{1, 2, 3}));
}

TEST(IntervalIndexTest, EmptyIndexReportsNothing) {
  IntervalIndex index(0);
  EXPECT_TRUE(overlapping(index, 0, 1).empty());
}

TEST(IntervalIndexTest, AgreesWithAScanOnRandomRanges) {
  std::mt19937 rng(7);
  for (int round = 0; round < 100; ++round) {
    uint32_t numSlots = 1 + rng() % 50;
    IntervalIndex index(numSlots);
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    for (uint32_t value = 0; value < 25; ++value) {
      uint32_t lo = rng() % numSlots;
      uint32_t hi = lo + 1 + rng() % (numSlots - lo);
      index.insert(value, lo, hi);
      ranges.push_back({lo, hi});
      uint32_t qlo = rng() % numSlots;
      uint32_t qhi = qlo + 1 + rng() % (numSlots - qlo);
      std::set<uint32_t> expected;
      for (auto [v, range] : llvm::enumerate(ranges))
        if (range.first < qhi && qlo < range.second)
          expected.insert(v);
      ASSERT_EQ(overlapping(index, qlo, qhi), expected);
    }
  }
}

} // namespace
