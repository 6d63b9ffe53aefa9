//===- FunctionBindings.h - the bindings of one planned function *- C++ -*-===//
//
// The `#helia.binding` of every tensor of a planned function, read back from
// the IR as the planner made its buffers, and the slot a value nested in a
// region is stored in.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBINDINGS_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBINDINGS_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::helia {

/// The bindings of the tensors of a planned function, as the planner made
/// its buffers.
struct FunctionBindings {
  /// The binding of every planned tensor, including the tensors that replace
  /// them during the rewrite.
  DenseMap<Value, BindingAttr> bindings;
  /// Tensors that bufferization stores in an operand's buffer (the members
  /// of a buffer after its root): they are in their slot already.
  llvm::DenseSet<Value> storedInOperand;

  /// The binding of the slot `value` is stored in: its own, or, for a value
  /// nested in a region (which has none), that of the tensor it is written
  /// into (a destination-style op's init) or reshapes, with the same
  /// identity layout, or that a loop carries it in (a nested loop's result,
  /// an `scf.while` after-region argument), or that every branch of an
  /// `scf.if` yields it in. Null for anything else (a slice is a strided
  /// view).
  BindingAttr lookupStorage(Value value) const;
};

/// Records the binding of every tensor of `func` into `result`; every tensor
/// that owns storage needs one (a located error otherwise).
LogicalResult collectBindings(func::FuncOp func, FunctionBindings &result);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_FUNCTIONBINDINGS_H
