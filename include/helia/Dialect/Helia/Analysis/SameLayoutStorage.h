//===- SameLayoutStorage.h - the value a tensor is stored in ----*- C++ -*-===//
//
// The value whose buffer a tensor shares with the same layout (a reshape's
// source, a destination-style result's init, a loop iter_arg's init): the
// one step every storage chain of the planner and the lowering follows.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_SAMELAYOUTSTORAGE_H
#define HELIA_DIALECT_HELIA_ANALYSIS_SAMELAYOUTSTORAGE_H

#include "mlir/IR/Value.h"

namespace mlir::helia {

/// The value whose buffer `value` is stored in, with the same layout: the
/// source of a reshape or cast, a destination-style result's tied init, or
/// a loop iter_arg's init; null for anything else (a slice is a strided
/// view of its source).
Value getSameLayoutStorage(Value value);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_SAMELAYOUTSTORAGE_H
