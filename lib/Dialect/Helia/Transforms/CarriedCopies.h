//===- CarriedCopies.h - copies between the buffers a loop carries -*- C++ -*-===//
//
// Before One-Shot Analysis, a loop body that passes an iter_arg's old value
// on to another iter_arg (a shift register, a swap), or an `scf.while` body
// that yields a value not stored in the buffer it carries, gets explicit
// copies into the carried buffers: each carried value keeps one slot, and
// bufferization needs no buffer per iteration.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CARRIEDCOPIES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CARRIEDCOPIES_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// For each iter_arg of a loop (`scf.for`, `scf.while`'s after region) whose
/// yielded value is another iter_arg's old value (`yield f(a), a` for
/// `(a, b)`: a shift register, the previous state beside the new one),
/// copies that old value into the iter_arg's own buffer before the body
/// first writes over it, where the iter_arg's own old value has been read
/// for the last time: each carried value keeps its one slot, with one copy
/// per iteration, instead of a buffer per iteration.
void copyCarriedIntoOtherIterArgs(FunctionOpInterface func);

/// For the iter_args of a loop whose body passes their old values on in a
/// cycle (`yield b, a` for `(a, b)`: a swap, or a rotation of more), which
/// copyCarriedIntoOtherIterArgs cannot order: before the yield, the first
/// old value of the cycle is copied into a top-level tensor (one slot the
/// plan counts, live at the loop's step), each other old value into the
/// buffer of the iter_arg it is yielded for, and the saved value last. Each
/// carried value keeps its one slot; the cycle costs one slot of the
/// largest and a copy per member per iteration.
void copyCarriedCycles(FunctionOpInterface func);

/// For each value an `scf.while` body yields that is not stored in the buffer
/// the loop carries for it (a new tensor, an outer value), copies it into
/// that buffer right before the yield, where nothing reads the old value any
/// more: the carried value keeps one slot, and bufferization needs no copy
/// in the condition and no buffer per iteration. (An `scf.for` gets the same
/// from copyYieldsIntoIterArgs, after the analysis.)
void copyWhileYieldsIntoCarriedArgs(FunctionOpInterface func);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CARRIEDCOPIES_H
