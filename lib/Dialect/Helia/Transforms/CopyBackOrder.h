//===- CopyBackOrder.h - the order of copies into carried buffers -*- C++ -*-===//
//
// A loop body that ends in several copies into the buffers the loop carries
// (its iter_args) must make them in an order where no copy overwrites a
// buffer that a later one still reads: a shift register's old value goes to
// the next buffer before that buffer's own successor is written. Where the
// copies read each other's buffers in a cycle (a swap, a rotation) no order
// does; one value then goes through a slot of its own. Every loop kind and
// every phase (before One-Shot Analysis, after it) orders its copies here.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_COPYBACKORDER_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_COPYBACKORDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::helia {

/// One copy into a buffer a loop carries, made right before the yield of
/// the loop body (`yielded`'s owner).
struct CopyBack {
  /// The yield operand whose value the copy replaces.
  OpOperand *yielded;
  /// The value copied, and the iter_arg whose buffer it is copied into.
  Value source;
  BlockArgument target;
  Location loc;
  /// The buffers `source` may be stored in (the values that own them).
  SmallVector<Value> reads;
  /// The buffers a copy into `target` writes, as far as the analysis sees
  /// it: `target` and what may be stored in it.
  SmallVector<Value> writes;
  /// Set by orderCopyBacks when `source` goes through a slot of its own:
  /// the copy of it there, made before every copy of the yield.
  Value slot = nullptr;
};

/// Orders the copies back of one yield: a copy goes before every copy that
/// writes a buffer it reads. Where the copies left read each other's
/// buffers in a cycle, the first of them gets its `slot`: its source copied
/// into a top-level tensor (copyIntoTopLevelTensor, one buffer the plan
/// counts, live at the loop's step; a tensor of the loop body when the
/// function body has more than one block), which it then copies back from.
/// Each cycle costs one slot and one copy. Returns the indices of `copies`
/// in the order their copies must be made.
SmallVector<unsigned> orderCopyBacks(MutableArrayRef<CopyBack> copies);

/// Makes the copy of `copy` at `builder`'s insertion point: from its slot,
/// if it has one, else from `source`, into its target; the yield operand
/// takes the copy's result. Returns the copy's result.
Value makeCopyBack(OpBuilder &builder, const CopyBack &copy, Value source);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_COPYBACKORDER_H
