//===- RegionCopies.h - copies of values branches in loop bodies yield -*- C++ -*-===//
//
// A branch in a loop body puts every value it yields for a result in one
// alias set for One-Shot Analysis: where one of them is stored in the
// buffer the loop carries, the others (a value yielded twice, an outer
// value, fresh storage) get a buffer of their own, so that the loop can
// still write its carried buffer in place. The copies back into carried
// buffers (YieldCopyBacks.h) and the hoisting of region storage
// (RegionHoisting.h) come after the analysis.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONCOPIES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_REGIONCOPIES_H

#include "RegionHoisting.h"
#include "YieldCopyBacks.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::helia {

/// True when `op`, nested in `top` (an op of a function body), sits only in
/// regions that run at most once each time `top` runs (`scf.if` branches,
/// not loop bodies), and that see the values defined before `top`.
bool isOnlyInBranches(Operation *op, Operation *top);

/// Collects the values whose buffers `value` may be stored in, as far as the
/// ops of a loop body show: through views, the inits of destination-style
/// ops, and every branch of an `scf.if` or `scf.index_switch`, and with
/// `throughLoops` from a nested loop's result to its init. The roots are
/// block arguments and the results of other ops.
void collectStorageRoots(Value value, llvm::SmallSetVector<Value, 4> &roots,
                         bool throughLoops);

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
