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

//===----------------------------------------------------------------------===//
// BlockIndex
//===----------------------------------------------------------------------===//

/// Occupied memory as a plain array: bytes x slots.
struct Grid {
  Grid(uint32_t numSlots, int64_t numBytes)
      : numBytes(numBytes), used(numSlots, std::vector<bool>(numBytes)) {}
  void insert(uint32_t lo, uint32_t hi, int64_t begin, int64_t end) {
    for (uint32_t s = lo; s < hi; ++s)
      for (int64_t b = begin; b < end; ++b)
        used[s][b] = true;
  }
  bool isUsed(uint32_t lo, uint32_t hi, int64_t byte) const {
    if (byte >= numBytes)
      return false;
    for (uint32_t s = lo; s < hi; ++s)
      if (used[s][byte])
        return true;
    return false;
  }
  bool isFree(uint32_t lo, uint32_t hi, int64_t begin, int64_t size) const {
    for (int64_t b = begin; b < begin + size; ++b)
      if (isUsed(lo, hi, b))
        return false;
    return true;
  }
  /// The lowest aligned offset where `size` bytes are free during [lo, hi).
  int64_t firstFit(uint32_t lo, uint32_t hi, int64_t size,
                   int64_t alignment) const {
    for (int64_t x = 0;; x += alignment)
      if (isFree(lo, hi, x, size))
        return x;
  }
  /// The aligned start of the smallest free gap under the top that holds
  /// `size` bytes, the lowest on ties; else the aligned top.
  int64_t bestFit(uint32_t lo, uint32_t hi, int64_t size,
                  int64_t alignment) const {
    auto align = [&](int64_t x) { return (x + alignment - 1) / alignment * alignment; };
    int64_t top = 0;
    for (int64_t b = 0; b < numBytes; ++b)
      if (isUsed(lo, hi, b))
        top = b + 1;
    int64_t bestOffset = -1, bestGap = 0;
    for (int64_t a = 0; a < top;) {
      if (isUsed(lo, hi, a)) {
        ++a;
        continue;
      }
      int64_t b = a;
      while (b < top && !isUsed(lo, hi, b))
        ++b;
      if (b >= align(a) + size && (bestOffset < 0 || b - a < bestGap)) {
        bestOffset = align(a);
        bestGap = b - a;
      }
      a = b;
    }
    return bestOffset >= 0 ? bestOffset : align(top);
  }

  int64_t numBytes;
  std::vector<std::vector<bool>> used;
};

TEST(BlockIndexTest, FitsBetweenBlocksOfOverlappingSlotsOnly) {
  BlockIndex index(8);
  index.insert(0, 4, 0, 16);  // slots 0-3
  index.insert(4, 8, 16, 32); // slots 4-7
  index.insert(2, 6, 40, 48); // slots 2-5
  // Slots 0-1 see only [0, 16).
  EXPECT_EQ(index.findFirstFit(0, 2, 8, 1), 16);
  // Slots 3-4 see [0, 32) and [40, 48): 8 bytes fit at 32, 9 only at 48.
  EXPECT_EQ(index.findFirstFit(3, 5, 8, 1), 32);
  EXPECT_EQ(index.findFirstFit(3, 5, 9, 1), 48);
  // Slots 6-7 see [16, 32): 16 bytes fit below it.
  EXPECT_EQ(index.findFirstFit(6, 8, 16, 1), 0);
  EXPECT_EQ(index.findFirstFit(6, 8, 17, 1), 32);
  // Offsets are multiples of the alignment: 32 is one of 16, not of 64, so
  // with 64 the first fit after [0, 32) is 64, above the block at [40, 48).
  EXPECT_EQ(index.findFirstFit(3, 5, 8, 16), 32);
  EXPECT_EQ(index.findFirstFit(3, 5, 8, 64), 64);
}

TEST(BlockIndexTest, BestFitTakesTheSmallestGap) {
  BlockIndex index(1);
  index.insert(0, 1, 0, 8);
  index.insert(0, 1, 24, 32); // gap [8, 24): 16 bytes
  index.insert(0, 1, 36, 40); // gap [32, 36): 4 bytes
  EXPECT_EQ(index.findBestFit(0, 1, 4, 1), 32);
  EXPECT_EQ(index.findBestFit(0, 1, 5, 1), 8);
  EXPECT_EQ(index.findBestFit(0, 1, 17, 1), 40);
  EXPECT_EQ(index.findFirstFit(0, 1, 4, 1), 8);
}

TEST(BlockIndexTest, EmptyIndexFitsAtZero) {
  BlockIndex index(0);
  EXPECT_EQ(index.findFirstFit(0, 1, 100, 16), 0);
  EXPECT_EQ(index.findBestFit(0, 1, 100, 16), 0);
}

TEST(BlockIndexTest, AgreesWithAGridOnRandomInsertions) {
  std::mt19937 rng(13);
  for (int round = 0; round < 60; ++round) {
    uint32_t numSlots = 1 + rng() % 40;
    Grid grid(numSlots, 2048);
    BlockIndex index(numSlots);
    for (int insertion = 0; insertion < 30; ++insertion) {
      uint32_t lo = rng() % numSlots;
      uint32_t hi = lo + 1 + rng() % (numSlots - lo);
      int64_t size = 1 + rng() % 24;
      int64_t alignment = int64_t(1) << (rng() % 4);
      int64_t first = index.findFirstFit(lo, hi, size, alignment);
      int64_t best = index.findBestFit(lo, hi, size, alignment);
      ASSERT_EQ(first, grid.firstFit(lo, hi, size, alignment))
          << "round " << round << ", insertion " << insertion;
      ASSERT_EQ(best, grid.bestFit(lo, hi, size, alignment))
          << "round " << round << ", insertion " << insertion;
      // Alternate the fits, and sometimes occupy an arbitrary place (blocks
      // that touch or overlap others must merge).
      int64_t at = insertion % 3 == 0 ? first
                   : insertion % 3 == 1 ? best
                                        : int64_t(rng() % 200);
      index.insert(lo, hi, at, at + size);
      grid.insert(lo, hi, at, at + size);
    }
  }
}

//===----------------------------------------------------------------------===//
// SlotMap
//===----------------------------------------------------------------------===//

TEST(SlotMapTest, SlotsAreTheIntervalsBetweenBoundaries) {
  SlotMap slots;
  slots.addRange(10, 19); // boundaries 10, 20
  slots.addRange(15, 15); // 15, 16
  slots.addRange(20, 29); // 20, 30
  slots.finalize();
  // Boundaries 10 15 16 20 30: slots [10,15) [15,16) [16,20) [20,30).
  EXPECT_EQ(slots.getNumSlots(), 4u);
  EXPECT_EQ(slots.getSlot(10), 0u);
  EXPECT_EQ(slots.getSlot(15), 1u);
  EXPECT_EQ(slots.getSlot(16), 2u);
  EXPECT_EQ(slots.getSlot(20), 3u);
  EXPECT_EQ(slots.getSlot(30), 4u);
  EXPECT_EQ(slots.getFirstStep(2), 16);
}

TEST(SlotMapTest, NoRangeNoSlot) {
  SlotMap slots;
  slots.finalize();
  EXPECT_EQ(slots.getNumSlots(), 0u);
}

TEST(SlotMapTest, RangesIntersectIffTheirSlotsDo) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    SlotMap slots;
    for (int i = 0; i < 20; ++i) {
      int64_t first = int64_t(rng() % 1000) - 500;
      int64_t last = first + int64_t(rng() % 50);
      ranges.push_back({first, last});
      slots.addRange(first, last);
    }
    slots.finalize();
    for (auto [a, b] : ranges)
      for (auto [c, d] : ranges) {
        bool steps = a <= d && c <= b;
        bool slotRanges = slots.getSlot(a) < slots.getSlot(d + 1) &&
                          slots.getSlot(c) < slots.getSlot(b + 1);
        ASSERT_EQ(steps, slotRanges);
        ASSERT_EQ(slots.getFirstStep(slots.getSlot(a)), a);
      }
  }
}

} // namespace
