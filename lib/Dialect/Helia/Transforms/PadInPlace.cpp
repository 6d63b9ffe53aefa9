//===- PadInPlace.cpp - producers of padded tensors write into the pad ----===//
//
// For each tensor.pad with a constant padding value whose source is
// computed into a tensor.empty, fills a padded tensor before the producer
// and makes the producer write into its interior (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAPADINPLACE
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;

namespace {
struct HeliaPadInPlace
    : mlir::helia::impl::HeliaPadInPlaceBase<HeliaPadInPlace> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The tensor.empty that `value` is computed into, following destination
/// operands, scf.for iter_args and insert_slice destinations, and at most
/// one collapse of unit dimensions (a depthwise convolution's [N, H, W, C,
/// 1] result), when every value on the way has no other reader; null
/// otherwise. `collapse` is set to the collapse met on the way.
static tensor::EmptyOp getRootEmpty(Value value,
                                    tensor::CollapseShapeOp &collapse) {
  collapse = {};
  while (true) {
    if (!value.hasOneUse())
      return {};
    if (auto empty = value.getDefiningOp<tensor::EmptyOp>())
      return empty;
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return {};
    Operation *op = result.getOwner();
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      value = forOp.getInitArgs()[result.getResultNumber()];
      continue;
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      value = insert.getDest();
      continue;
    }
    if (auto reshape = dyn_cast<tensor::CollapseShapeOp>(op)) {
      if (collapse || !reshape.getSrcType().hasStaticShape())
        return {};
      collapse = reshape;
      value = reshape.getSrc();
      continue;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || !dps.hasPureTensorSemantics())
      return {};
    value = dps.getTiedOpOperand(result)->get();
  }
}

void HeliaPadInPlace::runOnOperation() {
  SmallVector<tensor::PadOp> pads;
  getOperation()->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  IRRewriter rewriter(&getContext());
  for (tensor::PadOp pad : pads) {
    Value padValue = pad.getConstantPaddingValue();
    auto resultType = pad.getResultType();
    if (!padValue || !resultType.hasStaticShape() || pad.getNofold())
      continue;
    if (!pad.getSourceType().hasStaticShape())
      continue;
    tensor::CollapseShapeOp collapse;
    tensor::EmptyOp root = getRootEmpty(pad.getSource(), collapse);
    if (!root || root->getBlock() != pad->getBlock())
      continue;
    // The padding value must be available where the padded tensor is
    // filled, before the producer: a constant defined later is cloned.
    DominanceInfo dominance(getOperation());
    bool cloneValue = false;
    if (!dominance.properlyDominates(padValue, root)) {
      Operation *def = padValue.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>())
        continue;
      cloneValue = true;
    }
    SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
    if (!llvm::all_of(offsets, [](OpFoldResult ofr) {
          return getConstantIntValue(ofr).has_value();
        }))
      continue;
    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(root);
    if (cloneValue)
      padValue = rewriter.clone(*padValue.getDefiningOp())->getResult(0);
    Value padded = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                           resultType.getElementType());
    Value filled = linalg::FillOp::create(rewriter, loc, ValueRange{padValue},
                                          ValueRange{padded})
                       .getResult(0);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, pad.getSource());
    SmallVector<OpFoldResult> strides(offsets.size(),
                                      rewriter.getIndexAttr(1));
    Value interior = tensor::ExtractSliceOp::create(
        rewriter, root.getLoc(), pad.getSourceType(), filled, offsets, sizes,
        strides);
    if (collapse)
      interior = tensor::ExpandShapeOp::create(
          rewriter, root.getLoc(), root.getType(), interior,
          collapse.getReassociationIndices());
    rewriter.replaceOp(root, interior);
    rewriter.setInsertionPoint(pad);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, pad.getSource(), filled, offsets, sizes, strides);
    ++numPads;
  }
}
