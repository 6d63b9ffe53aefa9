//===- NestedStorage.cpp - region storage before the analysis ----------===//

#include "NestedStorage.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

/// True when `op`, nested in `top` (an op of a function body), sits in
/// control flow only (branches and loop bodies that see the values defined
/// before `top`).
static bool isInControlFlow(Operation *op, Operation *top) {
  for (Operation *parent = op->getParentOp(); parent != top->getParentOp();
       parent = parent->getParentOp())
    if (!isa<RegionBranchOpInterface>(parent) ||
        parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return false;
  return true;
}

/// A call's results are the callee's buffers (a planned callee's slots live
/// only during its call); at the top level of a body, helia-lower-to-memref
/// copies them into the caller's slots. Inside a branch or a loop body the
/// copy is made here, into a new tensor that bufferization analyses like any
/// other destination (and that moves to the top level: hoistNestedStorage).
void mlir::helia::copyNestedCallResults(FunctionOpInterface func) {
  Block &body = func.getFunctionBody().front();
  for (Operation &top : body) {
    SmallVector<CallOpInterface> calls;
    top.walk([&](CallOpInterface call) {
      if (call.getOperation() != &top && isInControlFlow(call, &top))
        calls.push_back(call);
    });
    for (CallOpInterface call : calls) {
      OpBuilder builder(call);
      builder.setInsertionPointAfter(call);
      for (OpResult result : call->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !type.hasStaticShape() || result.use_empty())
          continue;
        Value init = tensor::EmptyOp::create(builder, call.getLoc(),
                                             type.getShape(),
                                             type.getElementType(),
                                             type.getEncoding());
        auto copy = linalg::CopyOp::create(builder, call.getLoc(), result,
                                           init);
        result.replaceAllUsesExcept(copy.getResult(0), copy);
      }
    }
  }
}

/// Rewrites `op`, a `tensor.pad` or `tensor.concat` nested in a region, in
/// destination-passing style: a `tensor.empty` and the writes into it
/// (upstream's own rewrites, as the lowering uses at the top level).
static LogicalResult rewriteNestedInDestinationStyle(IRRewriter &rewriter,
                                                     Operation *op) {
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return linalg::rewriteInDestinationPassingStyle(rewriter, pad);
  auto concat = cast<tensor::ConcatOp>(op);
  FailureOr<SmallVector<Value>> values = concat.decomposeOperation(rewriter);
  if (failed(values))
    return failure();
  rewriter.replaceOp(op, *values);
  return success();
}

/// True for an op of a function body whose regions are control flow
/// (`scf.if`, `scf.for`, ...) that sees the values defined before it: a
/// tensor.pad or a linalg op has a region of its own, which holds no
/// storage.
static bool isControlFlow(Operation &top) {
  return isa<RegionBranchOpInterface, LoopLikeOpInterface>(top) &&
         !top.hasTrait<OpTrait::IsIsolatedFromAbove>();
}

/// Ops nested in control flow that bufferize to an allocation (a
/// `tensor.pad`, a `tensor.concat`) are rewritten in destination-passing
/// style, into a `tensor.empty` and writes into it, which the hoisting
/// below gives a top-level buffer. (At the top level, the lowering does
/// the same into the op's slot.)
LogicalResult mlir::helia::rewriteNestedAllocations(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return success();
  IRRewriter rewriter(func.getContext());
  for (Operation &top : func.getFunctionBody().front()) {
    if (!isControlFlow(top))
      continue;
    SmallVector<Operation *> allocating;
    top.walk([&](Operation *op) {
      if (op != &top && isa<tensor::PadOp, tensor::ConcatOp>(op))
        allocating.push_back(op);
    });
    for (Operation *op : allocating) {
      rewriter.setInsertionPoint(op);
      if (failed(rewriteNestedInDestinationStyle(rewriter, op)))
        return op->emitError("cannot rewrite this '")
               << op->getName()
               << "' in destination-passing style; move it before the '"
               << top.getName() << "'";
    }
  }
  return success();
}

/// Storage that ops nested in regions would create, made plannable before
/// the analysis: a tensor constant moves before its top-level op (it is
/// read-only data, the same on every run of the region), and so does a
/// `tensor.empty` of static shape, where the planner counts one buffer for
/// it, reused on every run of the region.
void mlir::helia::hoistNestedStorage(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block &body = func.getFunctionBody().front();
  for (Operation &top : body) {
    if (!isControlFlow(top))
      continue;
    SmallVector<Operation *> hoisted;
    top.walk([&](Operation *op) {
      if (op == &top)
        return;
      bool isolated = false;
      for (Operation *parent = op->getParentOp(); parent != &top;
           parent = parent->getParentOp())
        isolated |= parent->hasTrait<OpTrait::IsIsolatedFromAbove>();
      if (isolated || op->getNumResults() != 1)
        return;
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!type || !type.hasStaticShape())
        return;
      if ((op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0) ||
          (isa<tensor::EmptyOp>(op) && op->getNumOperands() == 0))
        hoisted.push_back(op);
    });
    // An empty tensor that nothing uses any more (writeYieldsIntoIterArgs
    // gave its op the iter_arg) would be a buffer nothing writes.
    for (Operation *op : hoisted)
      if (op->use_empty())
        op->erase();
      else
        op->moveBefore(&top);
  }
}
