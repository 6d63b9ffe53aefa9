#include "helia/Planner/Planner.h"
#include "gtest/gtest.h"
TEST(Planner, Empty) {
  helia::planner::Problem problem;
  auto solution = helia::planner::plan(problem);
  ASSERT_TRUE(!!solution);
  EXPECT_EQ(solution->peak, 0);
}
