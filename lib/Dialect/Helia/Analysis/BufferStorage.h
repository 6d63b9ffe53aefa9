//===- BufferStorage.h - the buffers each tensor is stored in ---*- C++ -*-===//
//
// BufferAnalysis' first step: which buffers (root tensors) each tensor of a
// function body is stored in, through BufferizableOpInterface with every op
// in place, and the storage created inside regions that no buffer of the
// plan holds (a located error).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_ANALYSIS_BUFFERSTORAGE_H
#define HELIA_LIB_DIALECT_HELIA_ANALYSIS_BUFFERSTORAGE_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::helia {

/// Reports storage that bufferization (`options`) would allocate inside a
/// region of a top-level op of `func`, which no buffer of the plan holds.
LogicalResult
checkNestedAllocations(FunctionOpInterface func,
                       const bufferization::BufferizationOptions &options);

/// The storage of each of `tensors` (the planned tensors of `func`, in
/// program order, indexed by `tensorIndex`): the sorted indices of the root
/// tensors of the buffers it may be stored in, its own index for a root.
/// Fails, with a located error, for storage created inside a region.
FailureOr<SmallVector<SmallVector<unsigned, 2>>>
resolveTensorStorage(FunctionOpInterface func, ArrayRef<TensorInfo> tensors,
                     const DenseMap<Value, unsigned> &tensorIndex);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_ANALYSIS_BUFFERSTORAGE_H
