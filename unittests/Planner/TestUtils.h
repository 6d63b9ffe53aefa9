//===- TestUtils.h - Helpers of the planner's unit tests --------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_UNITTESTS_PLANNER_TESTUTILS_H
#define HELIA_UNITTESTS_PLANNER_TESTUTILS_H

#include "helia/Planner/Planner.h"

#include "gtest/gtest.h"

namespace helia::planner {

/// A buffer in TFLM terms: aligned size, first and last scope.
inline Buffer makeBuffer(int64_t id, int64_t size, int64_t first,
                         int64_t last) {
  Buffer buffer;
  buffer.id = id;
  buffer.size = size;
  buffer.firstStep = first;
  buffer.lastStep = last;
  return buffer;
}

/// The kind of `error`, a PlanError (a test failure otherwise).
inline PlanErrorKind errorKind(llvm::Error error) {
  PlanErrorKind kind = PlanErrorKind::InvalidBuffer;
  bool seen = false;
  llvm::handleAllErrors(std::move(error), [&](const PlanError &planError) {
    kind = planError.getKind();
    seen = true;
  });
  EXPECT_TRUE(seen);
  return kind;
}

} // namespace helia::planner

#endif // HELIA_UNITTESTS_PLANNER_TESTUTILS_H
