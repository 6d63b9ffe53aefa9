//===- ChecksTest.cpp - Tests of the checks of the packing library --------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The PlanErrors of plan() and verify() (lib/Planner/Checks.cpp): malformed
// buffers, inconsistent fixed offsets, an exceeded capacity, and the
// violations verify() finds in a placement.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "TestUtils.h"

#include "gtest/gtest.h"

#include <limits>

using namespace helia::planner;

namespace {

TEST(PlannerChecks, CapacityExceeded) {
  Problem problem;
  problem.buffers = {makeBuffer(7, 100, 0, 2), makeBuffer(8, 50, 1, 3),
                     makeBuffer(9, 70, 4, 5)};
  problem.capacity = 120;
  llvm::Expected<Solution> solution = plan(problem);
  ASSERT_FALSE(!!solution);
  bool handled = false;
  llvm::handleAllErrors(solution.takeError(), [&](const PlanError &error) {
    handled = true;
    EXPECT_EQ(error.getKind(), PlanErrorKind::CapacityExceeded);
    EXPECT_EQ(error.getRequired(), 150);
    EXPECT_EQ(error.getCapacity(), 120);
    EXPECT_EQ(error.getBuffers(), (llvm::ArrayRef<size_t>{0, 1}));
    EXPECT_NE(error.getMessage().find("short by 30"), llvm::StringRef::npos)
        << error.getMessage().str();
  });
  EXPECT_TRUE(handled);

  problem.capacity = 150;
  solution = plan(problem);
  ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
  EXPECT_EQ(solution->peak, 150);
}

TEST(PlannerChecks, InvalidInputs) {
  auto expectInvalid = [](Buffer buffer) {
    Problem problem;
    problem.buffers = {makeBuffer(0, 4, 0, 0), buffer};
    llvm::Expected<Solution> solution = plan(problem);
    ASSERT_FALSE(!!solution);
    EXPECT_EQ(errorKind(solution.takeError()), PlanErrorKind::InvalidBuffer);
  };
  expectInvalid(makeBuffer(1, -1, 0, 0));
  expectInvalid(makeBuffer(1, 4, 3, 2));
  Buffer badAlignment = makeBuffer(1, 4, 0, 0);
  badAlignment.alignment = 0;
  expectInvalid(badAlignment);
  Buffer misaligned = makeBuffer(1, 4, 0, 0);
  misaligned.alignment = 8;
  misaligned.fixedOffset = 4;
  expectInvalid(misaligned);
  Buffer negative = makeBuffer(1, 4, 0, 0);
  negative.fixedOffset = -16;
  expectInvalid(negative);
}

TEST(PlannerChecks, InfeasibleFixedOffsets) {
  Problem problem;
  problem.buffers = {makeBuffer(0, 16, 0, 4), makeBuffer(1, 16, 2, 6)};
  problem.buffers[0].fixedOffset = 0;
  problem.buffers[1].fixedOffset = 8;
  llvm::Expected<Solution> solution = plan(problem);
  ASSERT_FALSE(!!solution);
  EXPECT_EQ(errorKind(solution.takeError()),
            PlanErrorKind::InfeasibleFixedOffsets);

  // Disjoint lifetimes may share bytes.
  problem.buffers[1].firstStep = 5;
  solution = plan(problem);
  ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());

  // A fixed offset beyond the capacity is infeasible too.
  problem.capacity = 20;
  problem.buffers[1].fixedOffset = 16;
  solution = plan(problem);
  ASSERT_FALSE(!!solution);
  EXPECT_EQ(errorKind(solution.takeError()),
            PlanErrorKind::InfeasibleFixedOffsets);
}

TEST(PlannerChecks, VerifyFindsViolations) {
  Problem problem;
  problem.buffers = {makeBuffer(0, 16, 0, 4), makeBuffer(1, 16, 4, 6),
                     makeBuffer(2, 16, 5, 9)};
  problem.buffers[2].alignment = 16;
  EXPECT_FALSE(verify(problem, {0, 16, 0}));
  // Overlap at step 4.
  EXPECT_EQ(errorKind(verify(problem, {0, 8, 32})),
            PlanErrorKind::InvalidBuffer);
  // Misaligned.
  EXPECT_EQ(errorKind(verify(problem, {0, 16, 40})),
            PlanErrorKind::InvalidBuffer);
  // Fixed offset not kept.
  problem.buffers[0].fixedOffset = 64;
  EXPECT_EQ(errorKind(verify(problem, {0, 16, 0})),
            PlanErrorKind::InvalidBuffer);
  problem.buffers[0].fixedOffset.reset();
  // Capacity.
  problem.capacity = 24;
  EXPECT_EQ(errorKind(verify(problem, {0, 16, 0})),
            PlanErrorKind::CapacityExceeded);
  // Wrong count.
  EXPECT_EQ(errorKind(verify(problem, {0, 16})), PlanErrorKind::InvalidBuffer);
  // An offset whose end passes INT64_MAX is beyond every capacity; the end
  // saturates instead of wrapping negative into range.
  problem.buffers[2].alignment = 1;
  problem.capacity = 64;
  EXPECT_EQ(errorKind(verify(problem, {0, 16,
                                       std::numeric_limits<int64_t>::max() -
                                           8})),
            PlanErrorKind::CapacityExceeded);
}

} // namespace
