//===- SearchTest.cpp - Tests of the branch-and-bound search --------------===//
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

/// The search on its own, from the worst placement (every buffer stacked
/// above the previous ones): whatever it proves optimal is the brute-force
/// minimum, and whatever it returns is a valid placement. The heuristics do
/// not run first, so the pruning rules (dominance, canonical order, items
/// that constrain nobody, decomposition) decide every node.
TEST(Search, ProvesOnlyTheMinimum) {
  std::mt19937_64 rng(5);
  int proven = 0;
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<Buffer> buffers;
    size_t count = 4 + rng() % 4;
    for (size_t i = 0; i < count; ++i) {
      int64_t first = rng() % 6;
      buffers.push_back(
          makeBuffer(i, 1 + rng() % 9, first, first + rng() % 5));
    }
    Instance instance = buildInstance(buffers);
    std::optional<Conflicts> conflicts = buildConflicts(instance, 1 << 20);
    ASSERT_TRUE(conflicts.has_value());
    std::vector<int64_t> offsets(instance.items.size());
    int64_t peak = 0;
    for (size_t i = 0; i < instance.items.size(); ++i) {
      offsets[i] = peak;
      peak += instance.items[i].size;
    }
    Problem problem;
    problem.buffers = buffers;
    int64_t minimum = bruteForcePeak(problem);
    SearchResult result = searchPlacement(
        instance, *conflicts, lowerBound(buffers), peak, offsets, 1 << 24);
    EXPECT_GE(peak, minimum) << "iteration " << iteration;
    if (result.optimal) {
      ++proven;
      EXPECT_EQ(peak, minimum) << "iteration " << iteration;
    }
    // The offsets are a placement with that peak.
    int64_t top = 0;
    for (size_t i = 0; i < instance.items.size(); ++i) {
      const Item &a = instance.items[i];
      top = std::max(top, offsets[i] + a.size);
      for (size_t j = i + 1; j < instance.items.size(); ++j) {
        const Item &b = instance.items[j];
        bool live = a.lo < b.hi && b.lo < a.hi;
        bool apart = offsets[i] + a.size <= offsets[j] ||
                     offsets[j] + b.size <= offsets[i];
        EXPECT_TRUE(!live || apart) << "iteration " << iteration;
      }
    }
    EXPECT_EQ(top, peak) << "iteration " << iteration;
  }
  EXPECT_GT(proven, 1500);
}

} // namespace
