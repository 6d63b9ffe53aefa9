//===- SlotBuilder.cpp - the tensors of planned slots ---------------------===//
//
// Every planned tensor becomes a view of its arena at its binding's offset,
// as `bufferization.to_tensor %view restrict`, so that One-Shot Bufferize
// uses the view as the tensor's buffer; a value that lives elsewhere (an
// argument, a call result) is copied into its slot with
// `bufferization.materialize_in_destination`.
//
//===----------------------------------------------------------------------===//

#include "MaterializeSlots.h"
#include "SlotBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::helia;

bool SlotBuilder::isInSlot(Value value, BindingAttr binding) const {
  BindingAttr current = lookup(value);
  return current && binding && current.getArena() == binding.getArena() &&
         current.getOffset() == binding.getOffset();
}

void SlotBuilder::createBases(Block &entry) {
  // The arena memrefs come first, in declaration order.
  llvm::DenseSet<StringAttr> used;
  auto markUsed = [&](Value value) {
    BindingAttr binding = lookup(value);
    if (!binding)
      return;
    used.insert(binding.getArena().getAttr());
    if (FlatSymbolRefAttr pool = binding.getStreamArena())
      used.insert(pool.getAttr());
  };
  for (BlockArgument arg : entry.getArguments())
    markUsed(arg);
  for (Operation &op : entry.without_terminator())
    for (Value result : op.getResults())
      markUsed(result);
  for (auto &[name, arena] : arenas)
    if (used.contains(name))
      (void)bases.getBase(name, /*blob=*/false);
}

Value SlotBuilder::createSlot(OpBuilder &builder, Location loc,
                              BindingAttr binding, TensorType type,
                              bool writable) {
  Value base = bases.getBase(binding.getArena().getAttr(), /*blob=*/false);
  Value view = bases.createView(builder, loc, base, binding.getOffset(), type);
  Value tensor = bufferization::ToTensorOp::create(
      builder, loc, type, view, /*restrict=*/true, writable);
  bind(tensor, binding);
  return tensor;
}

Value SlotBuilder::copyIntoSlot(OpBuilder &builder, Location loc, Value value,
                                BindingAttr binding, TensorType type) {
  Value slot = createSlot(builder, loc, binding, type, /*writable=*/true);
  Value copy = bufferization::MaterializeInDestinationOp::create(
                   builder, loc, value, slot)
                   .getResult();
  ++numPlanCopies;
  return copy;
}

Value SlotBuilder::moveIntoSlot(OpBuilder &builder, Location loc, Value value,
                                BindingAttr binding) {
  Value copy = copyIntoSlot(builder, loc, value, binding,
                            cast<TensorType>(value.getType()));
  value.replaceAllUsesExcept(copy, copy.getDefiningOp());
  bind(copy, binding);
  return copy;
}

Value SlotBuilder::streamConstant(OpBuilder &builder, Location loc,
                                  BindingAttr binding, TensorType type) {
  FlatSymbolRefAttr pool = binding.getStreamArena();
  Value source = bases.createView(
      builder, loc, bases.getBase(binding.getArena().getAttr(), false),
      binding.getOffset(), type);
  Value target =
      bases.createView(builder, loc, bases.getBase(pool.getAttr(), false),
                       *binding.getStreamOffset(), type);
  StreamOp::create(builder, loc, source, target);
  ++numStreams;
  return bufferization::ToTensorOp::create(builder, loc, type, target,
                                           /*restrict=*/true,
                                           /*writable=*/false);
}

void SlotBuilder::copyResultsIntoSlots(OpBuilder &builder, Operation *op) {
  for (OpResult result : op->getResults()) {
    BindingAttr binding = lookup(result);
    if (!binding || result.use_empty() || state.storedInOperand.contains(result))
      continue;
    // Closed lifetimes overlap at the op's step, so a result shares bytes
    // with an operand only when the plan made them one buffer.
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          return isInSlot(operand, binding);
        }))
      continue;
    builder.setInsertionPointAfter(op);
    moveIntoSlot(builder, op->getLoc(), result, binding);
  }
}

/// Tensors passed to a function are in the default memory space at its
/// boundary: each planned operand of `call` is handed over as its slot cast
/// to the default memory space, read-only (a callee that writes into an
/// argument gets a copy, which in a planned function is reported), except
/// the copy that helia-insert-tensor-copies made for the call, which the
/// plan counts.
void SlotBuilder::castCallOperands(OpBuilder &builder, func::CallOp call) {
  builder.setInsertionPoint(call);
  for (OpOperand &operand : call->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    BindingAttr binding = state.lookupStorage(operand.get());
    if (!type || type.getEncoding() || !binding)
      continue;
    // An argument the callee never uses is handed over as a view of the
    // operand's slot, not as the operand: One-Shot Analysis would count
    // the hand-over as a read of the value, which may conflict with a
    // write into its buffer later in a loop (and copy it out of place),
    // while no byte of it is read.
    if (state.ignoredArguments.contains(
            {call.getCalleeAttr().getAttr(), operand.getOperandNumber()})) {
      Value view = bases.createView(
          builder, call.getLoc(),
          bases.getBase(binding.getArena().getAttr(), /*blob=*/false),
          binding.getOffset(), type);
      if (cast<MemRefType>(view.getType()).getMemorySpace())
        view = memref::MemorySpaceCastOp::create(
            builder, call.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType()), view);
      operand.set(bufferization::ToTensorOp::create(
          builder, call.getLoc(), type, view, /*restrict=*/true,
          /*writable=*/false));
      continue;
    }
    // A copy that copy insertion made for this call (the callee writes into
    // its argument) is the callee's to write: nothing else reads it.
    // So is a copy into such a buffer that only this call reads (a copy
    // for a call in a region, hoistRegionStorage).
    Value copied = operand.get();
    if (auto copy = copied.getDefiningOp<linalg::CopyOp>();
        copy && copy.getOutputs()[0].hasOneUse())
      copied = copy.getOutputs()[0];
    bool writable = state.explicitCopies.contains(copied) &&
                    operand.get().hasOneUse();
    operand.set(castToDefaultMemorySpace(
        builder, call.getLoc(), operand.get(), type,
        MemorySpaceAttr::get(call.getContext(),
                              getSlotMemory(arenas, binding)),
        writable));
  }
}

void SlotBuilder::forgetAndErase(Operation *op) {
  for (Value result : op->getResults())
    state.bindings.erase(result);
  op->erase();
}
