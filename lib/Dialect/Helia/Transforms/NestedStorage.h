//===- NestedStorage.h - region storage before the analysis -*- C++ -*-===//
//
// helia plans the buffers of a function body's top level. Before One-Shot
// Analysis, the storage that ops nested in branches and loop bodies would
// create (call results, a `tensor.pad` or `tensor.concat`, constants and
// `tensor.empty`) becomes storage the planner counts: a copy into a new
// tensor, writes into a `tensor.empty`, or the op moved to the top level.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_NESTEDSTORAGE_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_NESTEDSTORAGE_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// A call's results are the callee's buffers (a planned callee's slots live
/// only during its call); at the top level of a body, helia-lower-to-memref
/// copies them into the caller's slots. Inside a branch or a loop body the
/// copy is made here, into a new tensor (hoistNestedStorage moves it to the
/// top level).
void copyNestedCallResults(FunctionOpInterface func);

/// Rewrites the ops nested in control flow that bufferize to an allocation
/// (a `tensor.pad`, a `tensor.concat`) in destination-passing style. Fails,
/// with a located error, for one that cannot be.
LogicalResult rewriteNestedAllocations(FunctionOpInterface func);

/// Moves the tensor constants and static `tensor.empty` ops nested in
/// control flow before their top-level op (erasing an empty that nothing
/// uses any more).
void hoistNestedStorage(FunctionOpInterface func);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_NESTEDSTORAGE_H
