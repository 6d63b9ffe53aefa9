//===- MakeBuffer.h - A buffer for the planner's unit tests -----*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_UNITTESTS_PLANNER_MAKEBUFFER_H
#define HELIA_UNITTESTS_PLANNER_MAKEBUFFER_H

#include "helia/Planner/Planner.h"

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

} // namespace helia::planner

#endif // HELIA_UNITTESTS_PLANNER_MAKEBUFFER_H
