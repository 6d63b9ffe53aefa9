//===- TrafficTest.cpp - the pin solver of objective=traffic --------------===//

#include "helia/Planner/Traffic.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdio>
#include <random>

using namespace helia::planner;

namespace {

/// A constant read `reads` bytes per inference from a source costing
/// `sourceRead` cycles per 4 bytes, pinnable into destinations of the given
/// read costs; hydration reads the source and writes the destination once.
PinItem makeItem(int64_t size, double reads, uint64_t sourceRead,
                 const std::vector<AccessCost> &destinations) {
  AccessCost source{sourceRead, sourceRead, 4};
  PinItem item;
  item.size = size;
  item.directCycles = source.read(reads);
  for (const AccessCost &d : destinations) {
    item.pinnedCycles.push_back(d.read(reads));
    item.hydrateCycles.push_back(source.read(size) + d.write(size));
  }
  return item;
}

TEST(TrafficTest, AccessCostCountsWholeAccesses) {
  AccessCost cost{3, 2, 4};
  EXPECT_EQ(cost.read(8), 6);
  // 9 bytes take three 4-byte accesses.
  EXPECT_EQ(cost.read(9), 9);
  EXPECT_EQ(cost.write(9), 6);
  EXPECT_EQ(cost.read(0), 0);
}

TEST(TrafficTest, HandComputableKnapsack) {
  // One fast memory of 100 bytes (1 cycle per read), source 6 cycles. The
  // best use of 100 bytes is b + c (60 + 40 bytes, 5000 + 4000 bytes read):
  // saving 5 * (1250 + 1000) = 11250 cycles; a alone (100 bytes, 8000
  // bytes read) saves 10000. Sorting by traffic pins a first.
  std::vector<AccessCost> fast = {{1, 1, 4}};
  PinProblem problem;
  problem.capacities = {100};
  problem.inferences = 1e9;
  problem.items = {makeItem(100, 8000, 6, fast), makeItem(60, 5000, 6, fast),
                   makeItem(40, 4000, 6, fast)};
  PinChoice chosen = choosePins(problem);
  EXPECT_EQ(chosen.destination, (std::vector<int>{-1, 0, 0}));
  std::optional<PinChoice> exact = choosePinsExact(problem);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->destination, chosen.destination);
  PinChoice hand = choosePinsByKey(problem, {8000, 5000, 4000});
  EXPECT_EQ(hand.destination, (std::vector<int>{0, -1, -1}));
  EXPECT_LT(chosen.cycles, hand.cycles);
  // Direct for all: 6 * (2000 + 1250 + 1000) cycles.
  EXPECT_DOUBLE_EQ(*evaluatePins(problem, {-1, -1, -1}), 25500);
  EXPECT_DOUBLE_EQ(chosen.cycles, 25500 - 11250 + (60 + 40) / 4 * 7 / 1e9);
}

TEST(TrafficTest, HydrationAmortisedOverFewRunsCanLose) {
  // Read once per inference, hydrated for a single inference: a pin costs
  // its copy and saves less than it.
  std::vector<AccessCost> fast = {{1, 1, 4}};
  PinProblem problem;
  problem.capacities = {1024};
  problem.inferences = 1;
  problem.items = {makeItem(400, 400, 6, fast)};
  EXPECT_EQ(choosePins(problem).destination, (std::vector<int>{-1}));
  problem.inferences = 100;
  EXPECT_EQ(choosePins(problem).destination, (std::vector<int>{0}));
}

TEST(TrafficTest, ForbiddenDestinationsAndCapacitiesKept) {
  std::vector<AccessCost> fast = {{1, 1, 4}, {3, 2, 4}};
  PinProblem problem;
  problem.capacities = {64, 64};
  problem.inferences = 1000;
  problem.items = {makeItem(64, 6400, 6, fast), makeItem(64, 6400, 6, fast),
                   makeItem(64, 6400, 6, fast)};
  // The first may not go to the fastest memory. One of the others takes
  // it, the slower memory takes one of the two left (equal costs: either),
  // the last is read direct.
  problem.items[0].pinnedCycles[0] = -1;
  PinChoice chosen = choosePins(problem);
  EXPECT_NE(chosen.destination[0], 0);
  EXPECT_EQ(std::count(chosen.destination.begin(), chosen.destination.end(), 0), 1);
  EXPECT_EQ(std::count(chosen.destination.begin(), chosen.destination.end(), 1), 1);
  ASSERT_TRUE(evaluatePins(problem, chosen.destination));
  EXPECT_DOUBLE_EQ(chosen.cycles, *evaluatePins(problem, {1, 0, -1}));
  EXPECT_FALSE(evaluatePins(problem, {0, -1, -1}));
  EXPECT_FALSE(evaluatePins(problem, {1, 1, -1}));
}

TEST(TrafficTest, WithinTwoPercentOfTheOptimumOnRandomInstances) {
  std::mt19937_64 rng(2112);
  double worst = 0, worstHeuristic = 0;
  for (unsigned trial = 0; trial < 400; ++trial) {
    unsigned n = 1 + rng() % 12;
    unsigned numDest = 1 + rng() % 3;
    std::vector<AccessCost> destinations;
    PinProblem problem;
    for (unsigned d = 0; d < numDest; ++d) {
      destinations.push_back({1 + rng() % 3, 1 + rng() % 3, 4});
      problem.capacities.push_back(16 * static_cast<int64_t>(rng() % 64));
    }
    problem.inferences = static_cast<double>(1 + rng() % 50);
    std::vector<double> traffic;
    for (unsigned i = 0; i < n; ++i) {
      int64_t size = 16 * static_cast<int64_t>(1 + rng() % 24);
      double reads = static_cast<double>(size) * (1 + rng() % 40);
      problem.items.push_back(makeItem(size, reads, 4 + rng() % 4, destinations));
      traffic.push_back(reads);
    }
    PinChoice chosen = choosePins(problem);
    ASSERT_TRUE(evaluatePins(problem, chosen.destination)) << "trial " << trial;
    // The heuristic alone, without the final search.
    PinChoice heuristic = choosePins(problem, /*searchNodes=*/0);
    ASSERT_TRUE(evaluatePins(problem, heuristic.destination));
    std::optional<PinChoice> exact = choosePinsExact(problem);
    ASSERT_TRUE(exact) << "trial " << trial;
    EXPECT_LE(exact->cycles, chosen.cycles + 1e-6) << "trial " << trial;
    EXPECT_LE(chosen.cycles, exact->cycles * 1.02) << "trial " << trial;
    worst = std::max(worst, chosen.cycles / exact->cycles - 1);
    worstHeuristic =
        std::max(worstHeuristic, heuristic.cycles / exact->cycles - 1);
    EXPECT_LE(heuristic.cycles, exact->cycles * 1.05) << "trial " << trial;
    // Never worse than the hand method or than reading everything direct.
    EXPECT_LE(chosen.cycles, choosePinsByKey(problem, traffic).cycles + 1e-6)
        << "trial " << trial;
    EXPECT_LE(chosen.cycles,
              *evaluatePins(problem, std::vector<int>(n, -1)) + 1e-6);
  }
  RecordProperty("worst_gap_percent", std::to_string(worst * 100));
  RecordProperty("worst_heuristic_gap_percent",
                 std::to_string(worstHeuristic * 100));
  std::printf("worst gap to the optimum: %.3f%% (heuristic alone %.3f%%)\n",
              worst * 100, worstHeuristic * 100);
}

TEST(TrafficTest, ExactGivesUpBeyondItsNodeLimit) {
  std::vector<AccessCost> fast = {{1, 1, 4}, {2, 2, 4}};
  PinProblem problem;
  problem.capacities = {1600, 1600};
  std::mt19937_64 rng(7);
  for (unsigned i = 0; i < 40; ++i)
    problem.items.push_back(makeItem(16 * (1 + rng() % 50),
                                     static_cast<double>(rng() % 100000), 6,
                                     fast));
  EXPECT_FALSE(choosePinsExact(problem, /*nodeLimit=*/100));
}

} // namespace
