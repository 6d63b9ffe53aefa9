//===- TestUtils.h - Helpers of the planner's unit tests --------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_UNITTESTS_PLANNER_TESTUTILS_H
#define HELIA_UNITTESTS_PLANNER_TESTUTILS_H

#include "helia/Planner/Planner.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

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

/// The minimum peak by brute force: every placement can be compacted into
/// one where buffers, taken in order of offset, each sit on the highest
/// conflicting buffer before them; try all orders.
inline int64_t bruteForcePeak(const Problem &problem) {
  size_t n = problem.buffers.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> offsets(n);
  do {
    int64_t peak = 0;
    for (size_t k = 0; k < n; ++k) {
      const Buffer &buffer = problem.buffers[order[k]];
      int64_t offset = 0;
      for (size_t j = 0; j < k; ++j) {
        const Buffer &below = problem.buffers[order[j]];
        if (buffer.overlapsInTime(below))
          offset = std::max(offset, offsets[order[j]] + below.size);
      }
      offsets[order[k]] = offset;
      peak = std::max(peak, offset + buffer.size);
    }
    best = std::min(best, peak);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
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
