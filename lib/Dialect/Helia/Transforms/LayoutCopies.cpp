//===- LayoutCopies.cpp - copies that bufferization makes for layouts -----===//

#include "LayoutCopies.h"
#include "LoopStorage.h"
#include "helia/Dialect/Helia/Analysis/SameLayoutStorage.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

/// The value whose buffer an `scf.while` carries `value` in (a result or a
/// block argument of either region): the value its condition passes on, or
/// for a before-region argument, its init. Null for anything else.
static Value getWhileCarried(Value value) {
  if (auto result = dyn_cast<OpResult>(value)) {
    auto whileOp = dyn_cast<scf::WhileOp>(result.getOwner());
    return whileOp ? whileOp.getConditionOp().getArgs()[result.getResultNumber()]
                   : Value();
  }
  auto arg = cast<BlockArgument>(value);
  auto whileOp = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
  if (!whileOp)
    return {};
  if (arg.getParentRegion() == &whileOp.getAfter())
    return whileOp.getConditionOp().getArgs()[arg.getArgNumber()];
  return whileOp.getInits()[arg.getArgNumber()];
}

/// True when `value`'s buffer is a strided view of another buffer: a part of
/// it (`tensor.extract_slice`), seen through reshapes and casts, written in
/// place by a destination-style op, carried by a loop from its init (an
/// `scf.for` iter_arg or result, an `scf.while` argument or result), or
/// yielded by a branch of an `scf.if` (whose result then has a layout that
/// fits every branch, not the identity).
static bool isStridedView(Value value) {
  while (true) {
    if (Value carried = getWhileCarried(value)) {
      value = carried;
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return false;
      value = init->get();
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
      return slice.getSourceType() != slice.getResultType();
    if (auto loop = dyn_cast<LoopLikeOpInterface>(def)) {
      OpOperand *init = loop.getTiedLoopInit(cast<OpResult>(value));
      if (!init)
        return false;
      value = init->get();
      continue;
    }
    if (isa<RegionBranchOpInterface>(def)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      for (Region &region : def->getRegions())
        for (Block &block : region) {
          Operation *yield = block.getTerminator();
          if (yield && isa<RegionBranchTerminatorOpInterface>(yield) &&
              yield->getNumOperands() == def->getNumResults() &&
              isStridedView(yield->getOperand(index)))
            return true;
        }
      return false;
    }
    value = getSameLayoutStorage(value);
    if (!value)
      return false;
  }
  return false;
}

/// A function boundary holds buffers with the identity layout: a strided
/// view that is returned or passed to a call would be copied by
/// bufferization into an allocation of its own. Make that copy explicit,
/// so that the plan counts it.
///
/// A call nested in a region (an scf.if branch, a loop body) gets the copy
/// into a `tensor.empty` at the top level, one buffer the plan counts, which
/// serves every run of the region: only the call reads it.
void mlir::helia::copyStridedAtBoundaries(FunctionOpInterface func) {
  SmallVector<OpOperand *> strided;
  func.walk([&](Operation *op) {
    bool isReturn = op->hasTrait<OpTrait::ReturnLike>() &&
                    op->getParentOp() == func.getOperation();
    if (!isReturn && !isa<CallOpInterface>(op))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (type && type.hasStaticShape() && isStridedView(operand.get()))
        strided.push_back(&operand);
    }
  });
  for (OpOperand *operand : strided) {
    Operation *op = operand->getOwner();
    auto type = cast<RankedTensorType>(operand->get().getType());
    OpBuilder builder(op);
    Operation *top = op;
    while (top->getParentOp() != func.getOperation())
      top = top->getParentOp();
    if (top == op) {
      operand->set(bufferization::AllocTensorOp::create(
          builder, op->getLoc(), type, ValueRange(), operand->get()));
      continue;
    }
    operand->set(
        copyIntoTopLevelTensor(builder, op->getLoc(), top, operand->get()));
  }
}

/// Bufferization collapses a buffer in place only when its layout
/// guarantees that the collapsed dimensions are contiguous; otherwise it
/// copies the source into an allocation of its own (a slice across rows,
/// or an `scf.if` result whose branches yield different layouts and so has
/// dynamic strides). Make that copy explicit, so that the plan counts it.
/// (A source whose buffer type bufferization cannot tell is left to the
/// lowering, which reports any allocation it makes.)
void mlir::helia::copyUncollapsibleSources(FunctionOpInterface func,
                         bufferization::BufferizationOptions options) {
  // The lowering makes every buffer the plan counts (a tensor.empty, a
  // copy, a constant) a view with the identity layout of its slot.
  options.unknownTypeConverterFn = [](TensorType type, Attribute memorySpace,
                                      const bufferization::BufferizationOptions &) {
    return bufferization::getMemRefTypeWithStaticIdentityLayout(type,
                                                                memorySpace);
  };
  bufferization::BufferizationState state;
  SmallVector<tensor::CollapseShapeOp> uncollapsible;
  func.walk([&](tensor::CollapseShapeOp collapse) {
    FailureOr<bufferization::BufferLikeType> type =
        bufferization::getBufferType(collapse.getSrc(), options, state);
    auto memref = succeeded(type) ? dyn_cast<MemRefType>(*type) : MemRefType();
    if (memref && !memref::CollapseShapeOp::isGuaranteedCollapsible(
                      memref, collapse.getReassociationIndices()))
      uncollapsible.push_back(collapse);
  });
  for (tensor::CollapseShapeOp collapse : uncollapsible) {
    OpBuilder builder(collapse);
    collapse.getSrcMutable().set(bufferization::AllocTensorOp::create(
        builder, collapse.getLoc(), collapse.getSrcType(), ValueRange(),
        collapse.getSrc()));
  }
}
