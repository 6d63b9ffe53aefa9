//===- RegionHoisting.h - storage of regions moved to the top level -*- C++ -*-===//
//
// Copy insertion leaves the copies (and the undefined tensors) that One-Shot
// Bufferize makes inside `scf.if` branches and loop bodies where it made
// them. The planner counts the buffers of a function's top level: each such
// buffer moves there when one buffer serves every run of its region.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONHOISTING_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONHOISTING_H

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// Storage with undefined contents (`tensor.empty`, `alloc_tensor` without a
/// copy) and copies (`alloc_tensor copy(%v)`, except those handed to a
/// call) created inside a region, whose value lives no longer than one run
/// of that region (a branch, or an iteration of each loop around it: no
/// enclosing loop yields it), move to the top level: the undefined storage
/// before its top-level op, a copy as a `linalg.copy` into a `tensor.empty`
/// there. One buffer the planner counts serves every run. `state` answers
/// which values a use stores its operand in.
void hoistRegionStorage(FunctionOpInterface func,
                        const bufferization::AnalysisState &state);

/// Moves each `tensor.empty` of the body's top level that only ops nested in
/// one top-level op use (storage hoisted out of its regions) right before
/// that op, after the copies of its inits: its buffer is live from that op's
/// step, not from where the hoisting left it.
void sinkHoistedStorage(FunctionOpInterface func);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONHOISTING_H
