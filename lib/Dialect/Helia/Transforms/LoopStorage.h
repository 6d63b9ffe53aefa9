//===- LoopStorage.h - storage of loop bodies the planner can count -*- C++ -*-===//
//
// helia plans the buffers of a function's top level. A loop body that
// creates tensors gets them from storage hoisted before the loop; a loop
// that carries a freshly computed tensor from one iteration to the next
// writes it into the buffer it carries (its iter_arg), when the previous
// value is no longer read.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOOPSTORAGE_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOOPSTORAGE_H

#include "CarriedCopies.h"
#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// Gives every use of a `tensor.empty` nested in a loop or branch its own
/// `tensor.empty`, and every op that accumulates into a shared fill of an
/// empty tensor a fill of its own: each destination then has a buffer of its
/// own, which hoisting turns into one top-level buffer per temporary,
/// instead of one shared buffer that the analysis would copy inside the
/// region.
void splitNestedEmptyTensors(FunctionOpInterface func);

/// For each `scf.for` (or `scf.while`) of `func` that yields a tensor
/// computed in its body into a fresh destination (a `tensor.empty`, possibly filled), makes the
/// iter_arg that value is yielded for the destination instead, when the
/// iter_arg is not read from that write on and nothing aliases it. The
/// tensor program computes the same values (the destination's contents are
/// never read); bufferization then keeps the loop-carried value in one
/// buffer instead of allocating one per iteration.
///
/// Each loop records, per tensor iter_arg it decides on, the choice and
/// its reason in `helia.carried` (recordCarried): `in-place` when the
/// successor now goes into the carried buffer, `slot-and-copy` with the
/// read that prevents it. With `inPlace` false no iter_arg is rewired
/// (every such successor gets a slot of its own and a copy back:
/// copyYieldsIntoIterArgs), which measures what one slot saves.
void writeYieldsIntoIterArgs(FunctionOpInterface func, bool inPlace = true);

/// The loop whose body `yield` ends (an `scf.for`, or the after region of an
/// `scf.while`), or null.
Operation *getLoopOfYield(scf::YieldOp yield);

/// Records (or replaces) the choice for iter_arg `index` of `loop` in its
/// `helia.carried` attribute (kCarriedAttrName, read by MemoryPlan).
void recordCarried(Operation *loop, unsigned index, StringRef choice,
                   StringRef reason);

/// Makes the loops that read a top-level `tensor.empty` of `func` as a
/// destination (a partial `tensor.insert_slice` of a concatenation written
/// in destination-passing style) carry it as an iter_arg. Its planned slot
/// holds defined bytes for bufferization, so a loop body that reads it
/// where it writes it again in the next iteration would be written out of
/// place; carried, the buffer is updated in place, as an accumulator is.
/// Where a branch lies between the loop and the read (nothing to carry it
/// through), the read is of a zero fill of the buffer made right before it.
void carryReadStorageThroughLoops(FunctionOpInterface func);

/// Copies `source`, at `builder`'s insertion point inside the op `top` of a
/// function body, into a `tensor.empty` of its type created right before
/// `top`: one top-level buffer the plan counts, which serves every run of
/// the region. Returns the copy.
Value copyIntoTopLevelTensor(OpBuilder &builder, Location loc, Operation *top,
                             Value source);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOOPSTORAGE_H
