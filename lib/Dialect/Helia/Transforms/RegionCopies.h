//===- RegionCopies.h - copies bufferization makes inside regions -*- C++ -*-===//
//
// Copy insertion leaves the copies (and the undefined tensors) that One-Shot
// Bufferize makes inside `scf.if` branches and loop bodies where it made
// them. The planner counts the buffers of a function's top level: each such
// buffer moves there when one buffer serves every run of its region, and a
// loop that carries a copy from one iteration to the next writes it back
// into the buffer it carries.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONCOPIES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONCOPIES_H

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {

/// True when `op`, nested in `top` (an op of a function body), sits only in
/// regions that run at most once each time `top` runs (`scf.if` branches,
/// not loop bodies), and that see the values defined before `top`.
bool isOnlyInBranches(Operation *op, Operation *top);

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

/// A branch (`scf.if`, `scf.index_switch`) in a loop body that yields one
/// value for two results, where another branch yields two different values
/// for them, yields a copy of it for the second (an `alloc_tensor copy`
/// there, which hoistRegionStorage gives a top-level slot). One-Shot Analysis puts
/// every value yielded for a result in the result's alias set, so a value
/// yielded twice would join the two sets: a loop's iter_arg yielded for one
/// result would alias a value yielded for the other (a read-only argument, a
/// value the loop reads in its next iteration), and neither a write into the
/// iter_arg nor a copy back into it could be in place.
void copyValuesYieldedTwice(FunctionOpInterface func);

/// A branch (`scf.if`, `scf.index_switch`) in a loop body that yields, for
/// one result, a value stored in a loop's carried buffer (an iter_arg, or a
/// value written into one) in one branch and a value that may be stored
/// outside the innermost loop around it (a function argument, a constant, a
/// value of the function body, an enclosing loop's iter_arg, a view of one,
/// or a nested branch's result that may be one) in another, yields a copy
/// of the outer value there (an `alloc_tensor copy`,
/// which hoistRegionStorage gives a top-level slot), when the loop writes
/// into that carried buffer. One-Shot Analysis puts every value yielded for
/// a result in one alias set, so the carried buffer would alias the outer
/// one (read-only, or read again after the loop), and neither a write into
/// it nor a copy back into it could be in place: a buffer per iteration
/// instead of one slot for the loop's step.
void copyOuterValuesYieldedBesideCarried(FunctionOpInterface func);

/// The same branch yielding, beside a carried value, a value computed into
/// a static `tensor.empty` of the loop body: the empty becomes an
/// `alloc_tensor()` there, which hoistNestedStorage leaves in place. Moved
/// out of the loop before the analysis, the empty would be a value of the
/// body around the loop in the carried buffer's alias set (an outer value,
/// as above), and One-Shot would copy every value the loop yields for it;
/// left in the loop, it is a buffer of the iteration, which
/// hoistRegionStorage gives its top-level slot once the analysis is done
/// (the same slot that hoisting the empty would have given it).
void allocateFreshValuesYieldedBesideCarried(FunctionOpInterface func);
} // namespace mlir::helia
#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONCOPIES_H
