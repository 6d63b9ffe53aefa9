//===- SlotRewriter.cpp - planned tensors into views of their slots -------===//
//
// The rewrite happens on tensors, before bufferization: each buffer's root
// (a `tensor.empty`, the init of a destination-style op, a constant, an
// argument) is replaced by its slot (SlotBuilder), so One-Shot Bufferize uses
// the view as the op's buffer. Values that the plan gives a slot of their own
// but that bufferize into some other buffer (an argument, a call result, a
// view of an argument) are copied into their slot.
//
//===----------------------------------------------------------------------===//

#include "SlotRewriter.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::helia;

namespace {
/// Forgets the bindings of the results of every op that a rewrite erases.
struct ForgetErasedBindings : public RewriterBase::Listener {
  explicit ForgetErasedBindings(DenseMap<Value, BindingAttr> &bindings)
      : bindings(bindings) {}
  void notifyOperationErased(Operation *op) override {
    for (Value result : op->getResults())
      bindings.erase(result);
  }
  DenseMap<Value, BindingAttr> &bindings;
};
} // namespace

/// An argument lives in its slot: the caller's tensor is copied there on
/// entry (as a heliaAOT caller copies its input into the arena).
void SlotRewriter::lowerArgument(OpBuilder &builder, BlockArgument arg) {
  slots.moveIntoSlot(builder, arg.getLoc(), arg, slots.lookup(arg));
}

/// A constant becomes a read-only view of its arena; a streamed one is
/// copied into its pool slot right before its first reader and read there.
void SlotRewriter::lowerConstant(OpBuilder &builder, Operation *op) {
  Value result = op->getResult(0);
  BindingAttr binding = slots.lookup(result);
  auto type = cast<TensorType>(result.getType());
  Location loc = op->getLoc();
  if (!slots.getArena(binding).isConstant()) {
    // A constant planned in writable memory gets its value at run time. The
    // copy is not bound (unlike moveIntoSlot's).
    builder.setInsertionPointAfter(op);
    Value copy = slots.copyIntoSlot(builder, loc, result, binding, type);
    result.replaceAllUsesExcept(copy, copy.getDefiningOp());
    return;
  }
  if (result.use_empty())
    return slots.forgetAndErase(op);
  Value tensor;
  if (binding.getStreamArena()) {
    Block *block = op->getBlock();
    Operation *firstReader = nullptr;
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!firstReader || ancestor->isBeforeInBlock(firstReader))
        firstReader = ancestor;
    }
    builder.setInsertionPoint(firstReader);
    tensor = slots.streamConstant(builder, loc, binding, type);
  } else {
    builder.setInsertionPoint(op);
    // Staged constants are read from their runtime copy, cold ones in
    // place; neither is ever written, so the tensor is not writable.
    tensor = slots.createSlot(builder, loc, binding, type, /*writable=*/false);
  }
  slots.bind(tensor, binding);
  result.replaceAllUsesWith(tensor);
  slots.forgetAndErase(op);
}

/// Every init of a destination-style op becomes the slot of its tied result:
/// an empty init is replaced by the slot, an init in another slot is copied
/// into it (when the op reads it), an init already in the slot is kept.
void SlotRewriter::lowerDestinationStyle(OpBuilder &builder,
                                         DestinationStyleOpInterface op) {
  builder.setInsertionPoint(op);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    OpResult result = op.getTiedOpResult(&init);
    BindingAttr binding = slots.lookup(result);
    if (!binding)
      continue;
    Value value = init.get();
    auto type = cast<TensorType>(value.getType());
    if (value.getDefiningOp<tensor::EmptyOp>()) {
      init.set(slots.createSlot(builder, op.getLoc(), binding, type, true));
      continue;
    }
    if (slots.isInSlot(value, binding))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
    bool reads = !linalgOp || linalgOp.payloadUsesValueFromOperand(&init);
    init.set(reads
                 ? slots.copyIntoSlot(builder, op.getLoc(), value, binding, type)
                 : slots.createSlot(builder, op.getLoc(), binding, type, true));
  }
}

/// Rewrites `op`, an op that bufferizes to a fresh allocation, in
/// destination-passing style; returns the value that replaces its result.
static FailureOr<Value> rewriteInDestinationStyle(IRRewriter &rewriter,
                                                  Operation *op) {
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    FailureOr<SmallVector<Value>> values = concat.decomposeOperation(rewriter);
    if (failed(values))
      return op->emitError("cannot rewrite this concatenation into its "
                           "planned slot");
    Value replacement = values->front();
    rewriter.replaceOp(op, *values);
    return replacement;
  }
  FailureOr<Operation *> newOp = failure();
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    newOp = linalg::rewriteInDestinationPassingStyle(rewriter, pad);
  else if (auto generate = dyn_cast<tensor::GenerateOp>(op))
    newOp = linalg::rewriteInDestinationPassingStyle(rewriter, generate);
  else if (auto elements = dyn_cast<tensor::FromElementsOp>(op))
    newOp = linalg::rewriteInDestinationPassingStyle(rewriter, elements);
  if (failed(newOp))
    return op->emitError("cannot rewrite '")
           << op->getName() << "' into its planned slot";
  return (*newOp)->getResult(0);
}

/// The value at the root of the destination-passing chain that ends in
/// `value`, through the tied inits of destination-style ops and the shape
/// casts that may close the chain (a concat of one operand).
static Value getChainRoot(Value value) {
  Value root = value;
  while (true) {
    if (auto cast = root.getDefiningOp<tensor::CastOp>()) {
      root = cast.getSource();
      continue;
    }
    auto dps = root.getDefiningOp<DestinationStyleOpInterface>();
    if (!dps)
      return root;
    root = dps.getTiedOpOperand(cast<OpResult>(root))->get();
  }
}

/// Ops that bufferize to a fresh allocation are first rewritten in
/// destination-passing style; the `tensor.empty` at the root of the new
/// chain then becomes the slot.
LogicalResult SlotRewriter::lowerAllocating(IRRewriter &rewriter,
                                            Operation *op) {
  BindingAttr binding = slots.lookup(op->getResult(0));
  Type resultType = op->getResult(0).getType();
  rewriter.setInsertionPoint(op);
  FailureOr<Value> replacement = rewriteInDestinationStyle(rewriter, op);
  if (failed(replacement))
    return failure();
  Value root = getChainRoot(*replacement);
  // The chain starts at a tensor.empty or, for linalg's rewrites, at an
  // alloc_tensor without a copy: both are undefined bytes, i.e. the slot.
  Operation *empty = root.getDefiningOp<tensor::EmptyOp>();
  if (auto alloc = root.getDefiningOp<bufferization::AllocTensorOp>();
      alloc && !alloc.getCopy() && alloc.getDynamicSizes().empty())
    empty = alloc;
  if (!empty || root.getType() != resultType) {
    // Nothing to place: copy the value into the slot instead.
    slots.bind(*replacement, binding);
    slots.copyResultsIntoSlots(rewriter, replacement->getDefiningOp());
    return success();
  }
  rewriter.setInsertionPoint(empty);
  Value slot = slots.createSlot(rewriter, empty->getLoc(), binding,
                                cast<TensorType>(root.getType()), true);
  rewriter.replaceOp(empty, slot);
  slots.bind(*replacement, binding);
  return success();
}

/// A buffer that copy insertion made explicit (helia-insert-tensor-copies)
/// is its slot: `alloc_tensor()` becomes the slot itself, `alloc_tensor
/// copy(%v)` a copy of `%v` into the slot.
void SlotRewriter::lowerAllocTensor(IRRewriter &rewriter,
                                    bufferization::AllocTensorOp alloc) {
  BindingAttr binding = slots.lookup(alloc.getResult());
  rewriter.setInsertionPoint(alloc);
  Value copy = alloc.getCopy();
  Value replacement =
      copy ? slots.copyIntoSlot(rewriter, alloc.getLoc(), copy, binding,
                                alloc.getType())
           : slots.createSlot(rewriter, alloc.getLoc(), binding,
                              alloc.getType(), /*writable=*/true);
  rewriter.replaceOp(alloc, replacement);
  slots.bind(replacement, binding);
  state.explicitCopies.insert(replacement);
}

LogicalResult
SlotRewriter::lowerOp(IRRewriter &rewriter, Operation *op,
                      SmallVectorImpl<tensor::EmptyOp> &empties) {
  bool hasBinding = llvm::any_of(op->getResults(), [&](Value result) {
    return static_cast<bool>(slots.lookup(result));
  });
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    empties.push_back(empty);
    return success();
  }
  if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
      alloc && hasBinding) {
    lowerAllocTensor(rewriter, alloc);
    return success();
  }
  if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
      hasBinding) {
    lowerConstant(rewriter, op);
    return success();
  }
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      dps && dps.hasPureTensorSemantics()) {
    lowerDestinationStyle(rewriter, dps);
    return success();
  }
  // Calls in the op's regions too (a call in an scf.if branch).
  op->walk([&](func::CallOp call) { slots.castCallOperands(rewriter, call); });
  if (!hasBinding)
    return success();
  if (isa<tensor::PadOp, tensor::GenerateOp, tensor::FromElementsOp,
          tensor::ConcatOp>(op))
    return lowerAllocating(rewriter, op);
  slots.copyResultsIntoSlots(rewriter, op);
  return success();
}

/// An empty tensor still used by something other than a destination-style
/// init (e.g. returned as is) is its own slot.
void SlotRewriter::lowerEmpty(IRRewriter &rewriter, tensor::EmptyOp empty) {
  BindingAttr binding = slots.lookup(empty.getResult());
  if (!empty.getResult().use_empty() && binding) {
    rewriter.setInsertionPoint(empty);
    Value slot = slots.createSlot(rewriter, empty.getLoc(), binding,
                                  empty.getType(), true);
    rewriter.replaceOp(empty, slot);
    return;
  }
  if (empty.getResult().use_empty())
    rewriter.eraseOp(empty);
}

LogicalResult SlotRewriter::run() {
  Block &entry = func.getBody().front();
  ForgetErasedBindings listener(state.bindings);
  IRRewriter rewriter(func.getContext(), &listener);

  SmallVector<Operation *> ops;
  for (Operation &op : entry.without_terminator())
    ops.push_back(&op);
  slots.createBases(entry);

  // Arguments first, after the arena memrefs, in order.
  for (BlockArgument arg : entry.getArguments()) {
    if (!slots.lookup(arg))
      continue;
    if (!ops.empty())
      rewriter.setInsertionPoint(ops.front());
    else
      rewriter.setInsertionPoint(entry.getTerminator());
    lowerArgument(rewriter, arg);
  }

  SmallVector<tensor::EmptyOp> empties;
  for (Operation *op : ops)
    if (failed(lowerOp(rewriter, op, empties)))
      return failure();
  for (tensor::EmptyOp empty : empties)
    lowerEmpty(rewriter, empty);
  return success();
}
