//===- BufferOwners.h - the buffers a value may be stored in ----*- C++ -*-===//
//
// The one answer to "which buffers may this value's storage be", as
// One-Shot Bufferize will store it: a value that bufferization stores in an
// operand's buffer (BufferizableOpInterface::getAliasingOpOperands: a view
// and its source, a destination-style result and its init, a loop result
// and its init) is stored where that operand is; the result of a branch op
// (`scf.if`, `scf.index_switch`) where the value the taken branch yields is.
// Copy insertion (which writes need a copy of their own, which values a
// loop body yields beside its carried one) and the lowering (which branch
// results need their yields cast) all ask it.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_BUFFEROWNERS_H
#define HELIA_DIALECT_HELIA_ANALYSIS_BUFFEROWNERS_H

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::helia {

/// Collects the buffers `value` may be stored in, as the values that own
/// them: followed through the ops bufferization stores in an operand's
/// buffer (`state`) and through the yields of branch ops, whose result is
/// the buffer of whichever value the taken branch yields. Block arguments
/// (a function's, a loop's iter_args), call results, results of ops without
/// bufferization and allocations own their buffer.
void collectBufferOwners(Value value, const bufferization::AnalysisState &state,
                         llvm::SetVector<Value> &owners);

/// True when `value` may be stored in any of several buffers
/// (collectBufferOwners finds more than one owner).
bool mayBeSeveralBuffers(Value value,
                         const bufferization::AnalysisState &state);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_BUFFEROWNERS_H
