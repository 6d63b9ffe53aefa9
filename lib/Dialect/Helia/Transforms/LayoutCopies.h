//===- LayoutCopies.h - copies that bufferization makes for layouts -*- C++ -*-===//
//
// Bufferization copies a buffer where its layout does not suit the use: a
// strided view passed across a function boundary (which takes the identity
// layout), or collapsed where its rows are not contiguous. These copies
// become explicit tensors before planning, so that the plan counts them.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LAYOUTCOPIES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LAYOUTCOPIES_H

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// Copies each strided view that `func` returns or passes to a call into a
/// buffer of its own: an `alloc_tensor` copy at the top level, or, for a
/// call nested in a region, a `linalg.copy` into a `tensor.empty` hoisted
/// to the top level.
void copyStridedAtBoundaries(FunctionOpInterface func);

/// Copies the source of each `tensor.collapse_shape` of `func` whose buffer
/// (as `options` bufferize it, with the identity layout of the lowering's
/// slots) is not guaranteed collapsible into an `alloc_tensor` of its own.
void copyUncollapsibleSources(FunctionOpInterface func,
                              bufferization::BufferizationOptions options);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LAYOUTCOPIES_H
