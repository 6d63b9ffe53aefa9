//===- SlotRewriter.cpp - planned tensors into views of their slots -------===//
//
// The rewrite happens on tensors, before bufferization: each buffer's root
// (a `tensor.empty`, the init of a destination-style op, a constant, an
// argument) is replaced by `bufferization.to_tensor %view restrict writable`,
// so One-Shot Bufferize uses the view as the op's buffer. Values that the
// plan gives a slot of their own but that bufferize into some other buffer
// (an argument, a call result, a view of an argument) are copied into their
// slot with `bufferization.materialize_in_destination`.
//
//===----------------------------------------------------------------------===//

#include "MaterializeSlots.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::helia;

/// True when two bindings name the same bytes.
static bool isSameSlot(BindingAttr a, BindingAttr b) {
  return a && b && a.getArena() == b.getArena() &&
         a.getOffset() == b.getOffset();
}

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

void SlotRewriter::forgetAndErase(Operation *op) {
  for (Value result : op->getResults())
    state.bindings.erase(result);
  op->erase();
}

/// Creates the tensor of a planned slot: a view of the arena at the
/// binding's offset, wrapped so that One-Shot Bufferize writes into it.
Value SlotRewriter::createSlot(OpBuilder &builder, Location loc,
                               BindingAttr binding, TensorType type,
                               bool writable) {
  Value base = bases.getBase(binding.getArena().getAttr(), /*blob=*/false);
  Value view = bases.createView(builder, loc, base, binding.getOffset(), type);
  Value tensor = bufferization::ToTensorOp::create(
      builder, loc, type, view, /*restrict=*/true, writable);
  state.bindings[tensor] = binding;
  return tensor;
}

/// An argument lives in its slot: the caller's tensor is copied there on
/// entry (as a heliaAOT caller copies its input into the arena).
void SlotRewriter::lowerArgument(OpBuilder &builder, BlockArgument arg) {
  BindingAttr binding = state.bindings.lookup(arg);
  auto type = cast<TensorType>(arg.getType());
  Value slot = createSlot(builder, arg.getLoc(), binding, type, true);
  auto copy = bufferization::MaterializeInDestinationOp::create(
      builder, arg.getLoc(), arg, slot);
  arg.replaceAllUsesExcept(copy.getResult(), copy);
  state.bindings[copy.getResult()] = binding;
  ++numPlanCopies;
}

/// A constant becomes a read-only view of its arena; a streamed one is
/// copied into its pool slot right before its first reader and read there.
void SlotRewriter::lowerConstant(OpBuilder &builder, Operation *op) {
  Value result = op->getResult(0);
  BindingAttr binding = state.bindings.lookup(result);
  auto type = cast<TensorType>(result.getType());
  Location loc = op->getLoc();
  if (binding.getRole() != ArenaRole::Constant) {
    // A constant planned in writable memory gets its value at run time.
    builder.setInsertionPointAfter(op);
    Value slot = createSlot(builder, loc, binding, type, true);
    auto copy = bufferization::MaterializeInDestinationOp::create(
        builder, loc, result, slot);
    result.replaceAllUsesExcept(copy.getResult(), copy);
    ++numPlanCopies;
    return;
  }
  if (result.use_empty())
    return forgetAndErase(op);
  Value tensor;
  if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
    Block *block = op->getBlock();
    Operation *firstReader = nullptr;
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!firstReader || ancestor->isBeforeInBlock(firstReader))
        firstReader = ancestor;
    }
    builder.setInsertionPoint(firstReader);
    Value source = bases.createView(
        builder, loc, bases.getBase(binding.getArena().getAttr(), false),
        binding.getOffset(), type);
    Value target =
        bases.createView(builder, loc, bases.getBase(pool.getAttr(), false),
                         *binding.getStreamOffset(), type);
    StreamOp::create(builder, loc, source, target);
    tensor = bufferization::ToTensorOp::create(builder, loc, type, target,
                                               /*restrict=*/true,
                                               /*writable=*/false);
    ++numStreams;
  } else {
    builder.setInsertionPoint(op);
    // Staged constants are read from their runtime copy, cold ones in
    // place; neither is ever written, so the tensor is not writable.
    tensor = createSlot(builder, loc, binding, type, /*writable=*/false);
  }
  state.bindings[tensor] = binding;
  result.replaceAllUsesWith(tensor);
  forgetAndErase(op);
}

/// Every init of a destination-style op becomes the slot of its tied result:
/// an empty init is replaced by the slot, an init in another slot is copied
/// into it (when the op reads it), an init already in the slot is kept.
void SlotRewriter::lowerDestinationStyle(OpBuilder &builder,
                                         DestinationStyleOpInterface op) {
  builder.setInsertionPoint(op);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    OpResult result = op.getTiedOpResult(&init);
    BindingAttr binding = state.bindings.lookup(result);
    if (!binding)
      continue;
    Value value = init.get();
    auto type = cast<TensorType>(value.getType());
    if (value.getDefiningOp<tensor::EmptyOp>()) {
      init.set(createSlot(builder, op.getLoc(), binding, type, true));
      continue;
    }
    if (isSameSlot(state.bindings.lookup(value), binding))
      continue;
    Value slot = createSlot(builder, op.getLoc(), binding, type, true);
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
    if (!linalgOp || linalgOp.payloadUsesValueFromOperand(&init)) {
      slot = bufferization::MaterializeInDestinationOp::create(
                 builder, op.getLoc(), value, slot)
                 .getResult();
      ++numPlanCopies;
    }
    init.set(slot);
  }
}

/// Ops that bufferize to a fresh allocation are first rewritten in
/// destination-passing style; the `tensor.empty` at the root of the new
/// chain then becomes the slot.
LogicalResult SlotRewriter::lowerAllocating(IRRewriter &rewriter,
                                                  Operation *op) {
  BindingAttr binding = state.bindings.lookup(op->getResult(0));
  Type resultType = op->getResult(0).getType();
  rewriter.setInsertionPoint(op);
  Value replacement;
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    FailureOr<SmallVector<Value>> values = concat.decomposeOperation(rewriter);
    if (failed(values))
      return op->emitError("cannot rewrite this concatenation into its "
                           "planned slot");
    replacement = values->front();
    rewriter.replaceOp(op, *values);
  } else {
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
    replacement = (*newOp)->getResult(0);
  }
  // A shape cast may close the chain (a concat of one operand).
  Value root = replacement;
  while (true) {
    if (auto cast = root.getDefiningOp<tensor::CastOp>()) {
      root = cast.getSource();
      continue;
    }
    auto dps = root.getDefiningOp<DestinationStyleOpInterface>();
    if (!dps)
      break;
    root = dps.getTiedOpOperand(cast<OpResult>(root))->get();
  }
  // The chain starts at a tensor.empty or, for linalg's rewrites, at an
  // alloc_tensor without a copy: both are undefined bytes, i.e. the slot.
  Operation *empty = root.getDefiningOp<tensor::EmptyOp>();
  if (auto alloc = root.getDefiningOp<bufferization::AllocTensorOp>();
      alloc && !alloc.getCopy() && alloc.getDynamicSizes().empty())
    empty = alloc;
  if (!empty || root.getType() != resultType) {
    // Nothing to place: copy the value into the slot instead.
    state.bindings[replacement] = binding;
    copyIntoSlots(rewriter, replacement.getDefiningOp());
    return success();
  }
  rewriter.setInsertionPoint(empty);
  Value slot = createSlot(rewriter, empty->getLoc(), binding,
                          cast<TensorType>(root.getType()), true);
  rewriter.replaceOp(empty, slot);
  state.bindings[replacement] = binding;
  return success();
}

/// A buffer that copy insertion made explicit (helia-insert-tensor-copies)
/// is its slot: `alloc_tensor()` becomes the slot itself, `alloc_tensor
/// copy(%v)` a copy of `%v` into the slot.
void SlotRewriter::lowerAllocTensor(IRRewriter &rewriter,
                                          bufferization::AllocTensorOp alloc) {
  BindingAttr binding = state.bindings.lookup(alloc.getResult());
  rewriter.setInsertionPoint(alloc);
  Value replacement = createSlot(rewriter, alloc.getLoc(), binding,
                                 alloc.getType(), /*writable=*/true);
  if (Value copy = alloc.getCopy()) {
    replacement = bufferization::MaterializeInDestinationOp::create(
                      rewriter, alloc.getLoc(), copy, replacement)
                      .getResult();
    ++numPlanCopies;
  }
  rewriter.replaceOp(alloc, replacement);
  state.bindings[replacement] = binding;
  state.explicitCopies.insert(replacement);
}

/// Tensors passed to a function are in the default memory space at its
/// boundary: each planned operand of `call` is handed over as its slot cast
/// to the default memory space, read-only (a callee that writes into an
/// argument gets a copy, which in a planned function is reported), except
/// the copy that helia-insert-tensor-copies made for the call, which the
/// plan counts.
void SlotRewriter::castCallOperands(OpBuilder &builder,
                                          func::CallOp call) {
  builder.setInsertionPoint(call);
  for (OpOperand &operand : call->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    BindingAttr binding = state.lookupStorage(operand.get());
    if (!type || type.getEncoding() || !binding)
      continue;
    // A copy that copy insertion made for this call (the callee writes into
    // its argument) is the callee's to write: nothing else reads it.
    bool writable = state.explicitCopies.contains(operand.get()) &&
                    operand.get().hasOneUse();
    operand.set(castToDefaultMemorySpace(
        builder, call.getLoc(), operand.get(), type,
        MemorySpaceAttr::get(call.getContext(),
                              getSlotMemory(arenas, binding)),
        writable));
  }
}

/// Results that bufferization does not store in an operand's buffer are
/// copied into their own slot right after the op: call results.
void SlotRewriter::copyIntoSlots(OpBuilder &builder, Operation *op) {
  for (OpResult result : op->getResults()) {
    BindingAttr binding = state.bindings.lookup(result);
    if (!binding || result.use_empty() || state.storedInOperand.contains(result))
      continue;
    // Closed lifetimes overlap at the op's step, so a result shares bytes
    // with an operand only when the plan made them one buffer.
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          return isSameSlot(state.bindings.lookup(operand), binding);
        }))
      continue;
    builder.setInsertionPointAfter(op);
    Value slot = createSlot(builder, op->getLoc(), binding,
                            cast<TensorType>(result.getType()), true);
    auto copy = bufferization::MaterializeInDestinationOp::create(
        builder, op->getLoc(), result, slot);
    result.replaceAllUsesExcept(copy.getResult(), copy);
    state.bindings[copy.getResult()] = binding;
    ++numPlanCopies;
  }
}

LogicalResult SlotRewriter::run() {
  Block &entry = func.getBody().front();
  ForgetErasedBindings listener(state.bindings);
  IRRewriter rewriter(func.getContext(), &listener);

  SmallVector<Operation *> ops;
  for (Operation &op : entry.without_terminator())
    ops.push_back(&op);

  // The arena memrefs come first, in declaration order.
  llvm::DenseSet<StringAttr> used;
  auto markUsed = [&](Value value) {
    BindingAttr binding = state.bindings.lookup(value);
    if (!binding)
      return;
    used.insert(binding.getArena().getAttr());
    if (FlatSymbolRefAttr pool = binding.getStreamArena())
      used.insert(pool.getAttr());
  };
  for (BlockArgument arg : entry.getArguments())
    markUsed(arg);
  for (Operation *op : ops)
    for (Value result : op->getResults())
      markUsed(result);
  for (auto &[name, arena] : arenas)
    if (used.contains(name))
      (void)bases.getBase(name, /*blob=*/false);

  // Arguments first, after the arena memrefs, in order.
  for (BlockArgument arg : entry.getArguments()) {
    if (!state.bindings.lookup(arg))
      continue;
    if (!ops.empty())
      rewriter.setInsertionPoint(ops.front());
    else
      rewriter.setInsertionPoint(entry.getTerminator());
    lowerArgument(rewriter, arg);
  }

  SmallVector<tensor::EmptyOp> empties;
  for (Operation *op : ops) {
    bool hasBinding = llvm::any_of(op->getResults(), [&](Value result) {
      return static_cast<bool>(state.bindings.lookup(result));
    });
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
      empties.push_back(empty);
      continue;
    }
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
        alloc && hasBinding) {
      lowerAllocTensor(rewriter, alloc);
      continue;
    }
    if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
        hasBinding) {
      lowerConstant(rewriter, op);
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
        dps && dps.hasPureTensorSemantics()) {
      lowerDestinationStyle(rewriter, dps);
      continue;
    }
    // Calls in the op's regions too (a call in an scf.if branch).
    op->walk([&](func::CallOp call) { castCallOperands(rewriter, call); });
    if (!hasBinding)
      continue;
    if (isa<tensor::PadOp, tensor::GenerateOp, tensor::FromElementsOp,
            tensor::ConcatOp>(op)) {
      if (failed(lowerAllocating(rewriter, op)))
        return failure();
      continue;
    }
    copyIntoSlots(rewriter, op);
  }

  // An empty tensor still used by something other than a destination-style
  // init (e.g. returned as is) is its own slot.
  for (tensor::EmptyOp empty : empties) {
    BindingAttr binding = state.bindings.lookup(empty.getResult());
    if (!empty.getResult().use_empty() && binding) {
      rewriter.setInsertionPoint(empty);
      Value slot =
          createSlot(rewriter, empty.getLoc(), binding, empty.getType(), true);
      rewriter.replaceOp(empty, slot);
      continue;
    }
    if (empty.getResult().use_empty())
      rewriter.eraseOp(empty);
  }
  return success();
}

