//===- FuseAccumulators.cpp - wide accumulators one tile at a time --------===//
//
// Tiles the elementwise consumer of each reduction op (convolution, matmul,
// pooling: a linalg op with a reduction loop) along its leading dimensions
// and fuses the reduction op and the ops that initialise its output into
// the tile loop (upstream tileConsumerAndFuseProducersUsingSCF), so that the
// accumulator is one tile. Operands other than the output's initialisation
// (a padded input, weights) are not fused: they stay whole and statically
// shaped.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAFUSEACCUMULATORS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;

namespace {
struct HeliaFuseAccumulators
    : mlir::helia::impl::HeliaFuseAccumulatorsBase<HeliaFuseAccumulators> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// A linalg op with a reduction loop and one tensor result that it writes
/// through a projection (tiling needs one: convolutions, matmuls, pooling
/// and sums all write theirs so).
static bool isReduction(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
         op.getNumReductionLoops() > 0 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0))
             .isProjectedPermutation();
}

/// The elementwise consumer worth tiling: a parallel linalg.generic that is
/// the reduction's only user, reads it through an identity map and iterates
/// over exactly its shape.
static linalg::GenericOp getTileableConsumer(linalg::LinalgOp reduction) {
  Value result = reduction->getResult(0);
  if (!result.hasOneUse())
    return {};
  auto consumer = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  if (!consumer || !consumer.hasPureTensorSemantics() ||
      consumer.getNumReductionLoops() != 0 || consumer->getNumResults() != 1)
    return {};
  auto type = cast<RankedTensorType>(result.getType());
  if (!type.hasStaticShape() || type.getRank() < 2)
    return {};
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input->get() == result &&
        !consumer.getMatchingIndexingMap(input).isIdentity())
      return {};
  SmallVector<int64_t> ranges = consumer.getStaticLoopRanges();
  if (ArrayRef<int64_t>(ranges) != type.getShape())
    return {};
  return consumer;
}

/// One tile: one element of every dimension but the trailing unit ones (a
/// depthwise convolution's channel multiplier), so that the accumulator is
/// one scalar. Each output element of a convolution or matmul is computed
/// from its own window exactly once either way: a smaller tile costs loop
/// overhead, not arithmetic. Empty when a tile would be the whole tensor.
static SmallVector<OpFoldResult> getTileSizes(OpBuilder &b,
                                              ArrayRef<int64_t> shape) {
  SmallVector<OpFoldResult> sizes;
  bool splits = false;
  for (int64_t dim : shape) {
    splits |= dim > 1;
    sizes.push_back(b.getIndexAttr(1));
  }
  return splits ? sizes : SmallVector<OpFoldResult>();
}

/// Builds the window `slice` reads from a padded tensor without the padded
/// tensor: a tile filled with the padding value, into which the part of the
/// window that lies in the unpadded source is inserted. The source slice
/// is clamped to the source (possibly empty at a corner), so only the
/// window, never the padded tensor, takes memory.
static Value buildWindow(OpBuilder &b, tensor::ExtractSliceOp slice,
                         tensor::PadOp pad) {
  Location loc = slice.getLoc();
  Value padValue = pad.getConstantPaddingValue();
  RankedTensorType windowType = slice.getResultType();
  ArrayRef<int64_t> low = pad.getStaticLow();
  ArrayRef<int64_t> sourceShape = pad.getSourceType().getShape();
  Value window = tensor::EmptyOp::create(b, loc, windowType.getShape(),
                                         windowType.getElementType());
  window = linalg::FillOp::create(b, loc, ValueRange{padValue},
                                  ValueRange{window})
               .getResult(0);
  SmallVector<OpFoldResult> srcOffsets, srcSizes, dstOffsets;
  SmallVector<int64_t> srcShape;
  MLIRContext *context = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, context);
  for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
    int64_t size = windowType.getDimSize(d);
    if (low[d] == 0 && pad.getStaticHigh()[d] == 0) {
      srcOffsets.push_back(offset);
      srcSizes.push_back(b.getIndexAttr(size));
      dstOffsets.push_back(b.getIndexAttr(0));
      srcShape.push_back(size);
      continue;
    }
    // Source coordinates [start, start + size), clamped to [0, extent].
    int64_t extent = sourceShape[d];
    OpFoldResult start = affine::makeComposedFoldedAffineApply(
        b, loc, d0 - low[d], {offset});
    OpFoldResult lo = affine::makeComposedFoldedAffineMin(
        b, loc,
        AffineMap::get(1, 0, {b.getAffineConstantExpr(extent), d0}, context),
        {affine::makeComposedFoldedAffineMax(
            b, loc,
            AffineMap::get(1, 0, {b.getAffineConstantExpr(0), d0}, context),
            {start})});
    OpFoldResult hi = affine::makeComposedFoldedAffineMax(
        b, loc,
        AffineMap::get(1, 0, {b.getAffineConstantExpr(0), d0}, context),
        {affine::makeComposedFoldedAffineMin(
            b, loc,
            AffineMap::get(1, 0, {b.getAffineConstantExpr(extent), d0 + size},
                           context),
            {start})});
    AffineExpr d1 = getAffineDimExpr(1, context);
    OpFoldResult length = affine::makeComposedFoldedAffineMax(
        b, loc, AffineMap::get(2, 0, {b.getAffineConstantExpr(0), d1 - d0},
                               context),
        {lo, hi});
    OpFoldResult into =
        affine::makeComposedFoldedAffineApply(b, loc, d1 - d0, {start, lo});
    srcOffsets.push_back(lo);
    srcSizes.push_back(length);
    dstOffsets.push_back(into);
    std::optional<int64_t> constant = getConstantIntValue(length);
    srcShape.push_back(constant ? *constant : ShapedType::kDynamic);
  }
  SmallVector<OpFoldResult> ones(srcOffsets.size(), b.getIndexAttr(1));
  auto srcType = RankedTensorType::get(srcShape, windowType.getElementType());
  Value part = tensor::ExtractSliceOp::create(
      b, loc, srcType, pad.getSource(), srcOffsets, srcSizes, ones);
  return tensor::InsertSliceOp::create(b, loc, part, window, dstOffsets,
                                       srcSizes, ones);
}

/// Replaces each window a tiled reduction reads from a padded tensor by a
/// window built from the unpadded source (buildWindow).
static void fuseWindows(RewriterBase &rewriter, Operation *tiled) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(tiled);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0)
    return;
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() ||
        !slice.getResultType().hasStaticShape() ||
        slice.getResultType().getRank() != slice.getSourceType().getRank())
      continue;
    auto pad = slice.getSource().getDefiningOp<tensor::PadOp>();
    if (!pad || !pad.getConstantPaddingValue() || pad.getNofold() ||
        !pad.getSourceType().hasStaticShape() ||
        ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh()))
      continue;
    rewriter.setInsertionPoint(slice);
    Value window = buildWindow(rewriter, slice, pad);
    rewriter.modifyOpInPlace(tiled, [&] { input->set(window); });
  }
}

/// Merges chains of elementwise generics (bias, rescale, clamp) into one,
/// as linalg-fuse-elementwise-ops does, but never into a reduction: a
/// rescale fused into the sum of a pooling op would leave the convolution
/// before it without an elementwise consumer to tile.
static LogicalResult fuseElementwise(Operation *func) {
  MLIRContext *context = func->getContext();
  RewritePatternSet patterns(context);
  linalg::ControlFusionFn control = [](OpOperand *fused) {
    auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
    Operation *producer = fused->get().getDefiningOp();
    return producer && producer->hasOneUse() &&
           (!consumer || consumer.getNumReductionLoops() == 0);
  };
  linalg::populateElementwiseOpsFusionPatterns(patterns, control);
  // The unit-dimension collapse after a depthwise convolution (its
  // [N, H, W, C, 1] accumulator) moves below the elementwise consumer, so
  // that the consumer reads the accumulator directly. No other reshape
  // moves: expanding a generic would hide it from the matcher below.
  linalg::ControlFusionFn reshapes = [](OpOperand *fused) {
    auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return false;
    auto source = collapse.getSrc().getDefiningOp<linalg::LinalgOp>();
    return source && source.getNumReductionLoops() > 0;
  };
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, reshapes);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// Tiles `consumer` and fuses `reductions` (the reductions that feed it)
/// into its tile loop; false when it has no tile sizes or tiling fails.
static bool fuseIntoConsumer(IRRewriter &rewriter, linalg::GenericOp consumer,
                             ArrayRef<linalg::LinalgOp> reductions) {
  rewriter.setInsertionPoint(consumer);
  auto shape =
      cast<RankedTensorType>(consumer->getResult(0).getType()).getShape();
  SmallVector<OpFoldResult> sizes = getTileSizes(rewriter, shape);
  if (sizes.empty())
    return false;
  // Fuse the reductions and, through their output operands, whatever
  // initialises the accumulators (a fill or a broadcast of the bias) when
  // a reduction is its only reader (checked before tiling adds the tile
  // loop's slice of it); never an input, which would make its slices
  // dynamically shaped at the borders.
  llvm::SmallPtrSet<Operation *, 4> targets;
  llvm::SmallDenseSet<Value, 4> inits;
  for (linalg::LinalgOp reduction : reductions) {
    targets.insert(reduction);
    Value init = reduction.getDpsInits()[0];
    if (init.hasOneUse() && init.getDefiningOp<linalg::LinalgOp>())
      inits.insert(init);
  }
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(scf::SCFTilingOptions().setTileSizes(sizes));
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (targets.contains(producer.getOwner()) || inits.contains(producer))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(consumer.getOperation()), options);
  if (failed(fused))
    return false;
  // A reduction left outside the tile loop is still correct, only whole:
  // say so rather than fail.
  for (linalg::LinalgOp reduction : reductions)
    if (!fused->fusedProducers.contains(reduction))
      reduction.emitWarning("this op's result stays whole: it could not be "
                            "fused into its consumer's tile loop");
  for (OpResult result : consumer->getResults())
    rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
  for (Operation *tiled : fused->tiledAndFusedOps)
    fuseWindows(rewriter, tiled);
  // A window depends on the output position, not on the output channel:
  // it is built once per position, out of the innermost loop only (a
  // window hoisted out of every loop would be written in each iteration
  // while the next reads it, which bufferization must copy).
  if (!fused->loops.empty())
    moveLoopInvariantCode(fused->loops.back());
  return true;
}

/// The accumulator's tensor.empty, sliced per tile, becomes a tile-sized
/// tensor.empty; the reductions' now unused originals go away.
static LogicalResult cleanUpTiles(Operation *func) {
  MLIRContext *context = func->getContext();
  RewritePatternSet patterns(context);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(func, std::move(patterns));
}

void HeliaFuseAccumulators::runOnOperation() {
  Operation *func = getOperation();
  if (failed(fuseElementwise(func)))
    return signalPassFailure();
  // Each consumer with every reduction feeding it (a residual ADD reads
  // two convolutions), in program order.
  llvm::MapVector<Operation *, SmallVector<linalg::LinalgOp>> candidates;
  func->walk([&](linalg::LinalgOp op) {
    // Only the function's own steps: a reduction inside a region (an
    // LSTM's gates in its time loop) accumulates per iteration already, and
    // tile loops nested in it would carry the region's values through
    // buffers the plan shares.
    if (!isReduction(op) || op->getParentOp() != func)
      return;
    if (linalg::GenericOp consumer = getTileableConsumer(op))
      candidates[consumer].push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (auto &[consumerOp, reductions] : candidates) {
    if (fuseIntoConsumer(rewriter, cast<linalg::GenericOp>(consumerOp),
                         reductions))
      numFused += reductions.size();
  }
  if (failed(cleanUpTiles(func)))
    return signalPassFailure();
}
