//===- YieldCopyBacks.h - copies back into the buffers loops carry -*- C++ -*-===//
//
// After One-Shot Analysis, a loop body that yields a value in a buffer made
// in the iteration (a copy of copy insertion) writes it back into the
// buffer the loop carries instead: one slot for the carried value and one
// for the iteration's temporary, instead of a buffer per iteration.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_YIELDCOPYBACKS_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_YIELDCOPYBACKS_H

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// For each value that a loop body (`scf.for`, `scf.while`'s after region)
/// yields in a buffer created in the iteration (an `alloc_tensor` of copy
/// insertion: a copy of a value stored in a buffer the loop does not carry,
/// or the copy an op wrote into because it could not write into the carried
/// value, e.g. an inner loop that reads the old value while it updates a
/// copy), writes the value back into the carried buffer right before the
/// yield: one slot for the carried value plus one for the iteration's
/// temporary (hoisted to the top level), instead of a buffer per iteration.
/// A copy used only by the yield is replaced by the copy back. `state`
/// answers which operand's buffer an op stores its result in. Returns true
/// if it changed anything (the module must then be analysed again: the loop
/// now writes into its iter_arg).
bool copyYieldsIntoIterArgs(FunctionOpInterface func,
                            const bufferization::AnalysisState &state);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_YIELDCOPYBACKS_H
