//===- ConvertPool.cpp - pooling and reductions ---------------------------===//
//
// MEAN, MAX_POOL_2D and AVERAGE_POOL_2D. AVERAGE_POOL_2D on integers sums
// the raw values of the window's in-image taps and divides with rounding
// half away from zero, as TFLite does (a `tosa.avg_pool2d` rounds
// differently); MEAN folds 1/n into its multiplier by truncating division,
// as TFLite's QuantizedMeanOrSum does.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::helia::tflite;

/// The sum over `axes` of `value`, dimensions kept as 1, accumulated in i32
/// for integers: a linalg reduction that widens each element as it reads
/// it, so that no full-size i32 copy of the input exists.
static Value buildSum(OpContext &ctx, Value value, ArrayRef<int64_t> axes) {
  OpBuilder &b = ctx.b;
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  Type acc = isa<FloatType>(element) ? element : b.getIntegerType(32);
  // The reduction writes the kept dimensions only (a projection, which
  // tiling needs); an expand_shape restores the reduced ones as 1s.
  SmallVector<int64_t> shape(type.getShape()), kept;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (reduced)
      shape[d] = 1;
    else
      kept.push_back(shape[d]);
    if (!reduced || groups.empty())
      groups.emplace_back();
    groups.back().push_back(d);
  }
  auto resultType = RankedTensorType::get(kept, acc);
  Location loc = ctx.getLoc("sum");
  Value init = tensor::EmptyOp::create(b, loc, kept, acc);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(acc));
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{init})
          .getResult(0);
  unsigned rank = type.getRank();
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (!reduced)
      outExprs.push_back(b.getAffineDimExpr(d));
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
  }
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, outExprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, ValueRange{value}, ValueRange{filled}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value in = args[0];
        Value sum;
        if (isa<FloatType>(acc)) {
          sum = arith::AddFOp::create(nb, nloc, in, args[1]);
        } else {
          if (in.getType() != acc)
            in = arith::ExtSIOp::create(nb, nloc, acc, in);
          sum = arith::AddIOp::create(nb, nloc, in, args[1]);
        }
        linalg::YieldOp::create(nb, nloc, sum);
      });
  if (kept.empty() || groups.size() != kept.size())
    return buildReshape(b, loc, generic.getResult(0), shape);
  return tensor::ExpandShapeOp::create(b, loc,
                                       RankedTensorType::get(shape, acc),
                                       generic.getResult(0), groups);
}

LogicalResult mlir::helia::tflite::convertMean(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 2, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  FailureOr<SmallVector<int64_t>> axesIn = ctx.getConstantInts(1);
  if (failed(input) || failed(axesIn))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  int64_t rank = inType.getRank();
  SmallVector<int64_t> axes;
  int64_t count = 1;
  for (int64_t axis : *axesIn) {
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return ctx.emitError() << "axis " << axis << " is out of range";
    if (llvm::is_contained(axes, axis))
      continue;
    axes.push_back(axis);
    count *= inType.getDimSize(axis);
  }
  llvm::sort(axes);
  if (count == 0)
    return ctx.emitError() << "reduces an empty axis";
  Value sum = buildSum(ctx, *input, axes);
  auto sumType = cast<RankedTensorType>(sum.getType());
  Type element = outType.getElementType();
  Value result;
  if (element.isF32()) {
    auto splat = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                       ctx.b.getF32Type());
    Value inv = tosa::ConstOp::create(
        ctx.b, ctx.getLoc("count"), splat,
        DenseElementsAttr::get(splat, ctx.b.getF32FloatAttr(1.0f / count)));
    Value noShift =
        buildScalar(ctx.b, ctx.getLoc("shift"), ctx.b.getI8Type(), 0);
    result = tosa::MulOp::create(ctx.b, ctx.getLoc("mean"), sumType, sum, inv,
                                 noShift);
  } else if (element.isInteger(8) || element.isInteger(16)) {
    const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
    if (!qi.isQuantized() || !qo.isQuantized())
      return ctx.emitError() << "integer tensors without quantization";
    QuantizedMultiplier qm = quantizeMultiplier(
        static_cast<double>(qi.getScale()) / static_cast<double>(qo.getScale()));
    // 1/n folded into the multiplier, as TFLite's QuantizedMeanOrSum does.
    int k = std::min(63 - llvm::countl_zero(static_cast<uint64_t>(count)), 32);
    k = std::min(k, 31 + qm.shift);
    k = std::max(k, 0);
    qm.multiplier = static_cast<int32_t>(
        (static_cast<int64_t>(qm.multiplier) << k) / count);
    qm.shift -= k;
    auto splat = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                       ctx.b.getIntegerType(32));
    Value offset = buildConst(ctx.b, ctx.getLoc("zp_sum"), splat,
                              {qi.getZeroPoint() * count});
    Value centred =
        tosa::SubOp::create(ctx.b, ctx.getLoc("centred"), sumType, sum, offset);
    int shift;
    if (!getRescale32Shift(qm, shift))
      return ctx.emitError() << "requantisation is out of TOSA's range";
    result = buildRescale(ctx.b, ctx.getLoc("mean"), centred, element,
                          {qm.multiplier}, {shift}, 0, qo.getZeroPoint(),
                          true, tosa::RoundingMode::DOUBLE_ROUND);
  } else {
    return ctx.emitError() << "unsupported element type " << element;
  }
  return ctx.setOutput(0,
                       buildReshape(ctx.b, ctx.getLoc(), result,
                                    outType.getShape()));
}

namespace {
struct PoolGeometry {
  int64_t kh, kw, sh, sw;
  SmallVector<int64_t> pad; // top, bottom, left, right
};
} // namespace

static FailureOr<PoolGeometry> getPoolGeometry(OpContext &ctx,
                                               const fb::Pool2DOptions *opts) {
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  if (inType.getRank() != 4 || outType.getRank() != 4) {
    ctx.emitError() << "input and output must have rank 4";
    return failure();
  }
  PoolGeometry g{opts->filter_height(), opts->filter_width(), opts->stride_h(),
                 opts->stride_w(), {0, 0, 0, 0}};
  if (g.kh < 1 || g.kw < 1 || g.sh < 1 || g.sw < 1) {
    ctx.emitError() << "filter sizes and strides must be positive";
    return failure();
  }
  if (opts->padding() == fb::Padding_SAME) {
    auto [top, bottom] = getSamePadding(inType.getDimSize(1),
                                        outType.getDimSize(1), g.sh, 1, g.kh);
    auto [left, right] = getSamePadding(inType.getDimSize(2),
                                        outType.getDimSize(2), g.sw, 1, g.kw);
    g.pad = {top, bottom, left, right};
  }
  return g;
}

/// The pooled input, sliced where TOSA's window arithmetic needs it.
static Value fitPoolWindow(OpContext &ctx, Value input, PoolGeometry &g) {
  RankedTensorType outType = ctx.getOutputType();
  return fitWindow(ctx.b, ctx.getLoc("window"), input, g.pad,
                   {outType.getDimSize(1), outType.getDimSize(2)},
                   {g.sh, g.sw}, {g.kh, g.kw});
}

namespace {
/// What both pools read first: the options, the window and the input.
struct PoolOperands {
  const fb::Pool2DOptions *opts;
  PoolGeometry geometry;
  Value input;
};
} // namespace

/// Checks a pool's arity and reads its options, window and input.
static FailureOr<PoolOperands> getPoolOperands(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<const fb::Pool2DOptions *> opts =
      ctx.getRequiredOptions<fb::Pool2DOptions>();
  if (failed(opts))
    return failure();
  FailureOr<PoolGeometry> g = getPoolGeometry(ctx, *opts);
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(g) || failed(input))
    return failure();
  return PoolOperands{*opts, std::move(*g), *input};
}

/// Sets the output to `pooled` after the pool's fused activation.
static LogicalResult setActivatedOutput(OpContext &ctx, Value pooled,
                                        const fb::Pool2DOptions *opts) {
  FailureOr<Value> result =
      applyActivation(ctx, pooled, opts->fused_activation_function());
  if (failed(result))
    return failure();
  return ctx.setOutput(0, *result);
}

LogicalResult mlir::helia::tflite::convertMaxPool2D(OpContext &ctx) {
  FailureOr<PoolOperands> pool = getPoolOperands(ctx);
  if (failed(pool))
    return failure();
  PoolGeometry &g = pool->geometry;
  Value pooled = tosa::MaxPool2dOp::create(
      ctx.b, ctx.getLoc(), ctx.getOutputType(),
      fitPoolWindow(ctx, pool->input, g),
      ctx.b.getDenseI64ArrayAttr({g.kh, g.kw}),
      ctx.b.getDenseI64ArrayAttr({g.sh, g.sw}),
      ctx.b.getDenseI64ArrayAttr(g.pad), tosa::NanPropagationMode::PROPAGATE);
  return setActivatedOutput(ctx, pooled, pool->opts);
}

/// The raw sum of each window's in-image taps of an integer AVERAGE_POOL_2D,
/// in i32.
static Value buildWindowSum(OpContext &ctx, Value input, PoolGeometry &g) {
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  Type element = outType.getElementType();
  OpBuilder &b = ctx.b;
  int64_t ih = inType.getDimSize(1), iw = inType.getDimSize(2),
          c = inType.getDimSize(3);
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2);
  bool global = g.kh == ih && g.kw == iw && oh == 1 && ow == 1 &&
                llvm::all_of(g.pad, [](int64_t p) { return p == 0; });
  if (global)
    return buildSum(ctx, input, {1, 2});
  // A depthwise convolution with a filter of ones: padding taps add 0.
  bool wide = element.isInteger(16);
  Type acc = b.getIntegerType(wide ? 48 : 32);
  auto filterType =
      RankedTensorType::get({g.kh, g.kw, c, 1}, b.getIntegerType(8));
  Value ones = tosa::ConstOp::create(
      b, ctx.getLoc("ones"), filterType,
      DenseElementsAttr::get(filterType, b.getI8IntegerAttr(1)));
  Value bias =
      buildConst(b, ctx.getLoc("bias"), RankedTensorType::get({c}, acc),
                 SmallVector<int64_t>(c, 0));
  Value inZp = buildScalar(b, ctx.getLoc("zp"), element, 0);
  Value filterZp = buildScalar(b, ctx.getLoc("zp"), b.getI8Type(), 0);
  Value window = fitPoolWindow(ctx, input, g);
  Value sum = tosa::DepthwiseConv2DOp::create(
      b, ctx.getLoc("sum"), outType.clone(acc), window, ones, bias, inZp,
      filterZp, b.getDenseI64ArrayAttr(g.pad),
      b.getDenseI64ArrayAttr({g.sh, g.sw}), b.getDenseI64ArrayAttr({1, 1}),
      TypeAttr::get(acc));
  if (wide)
    sum = tosa::CastOp::create(b, ctx.getLoc("sum32"),
                               outType.clone(b.getIntegerType(32)), sum);
  return sum;
}

/// The number of in-image taps of every output position, and its half (the
/// rounding term), or an error for a window outside the image.
static LogicalResult countTaps(OpContext &ctx, const PoolGeometry &g,
                               SmallVectorImpl<int64_t> &counts,
                               SmallVectorImpl<int64_t> &halves) {
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  int64_t ih = inType.getDimSize(1), iw = inType.getDimSize(2);
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2);
  for (int64_t y = 0; y < oh; ++y)
    for (int64_t x = 0; x < ow; ++x) {
      int64_t y0 = y * g.sh - g.pad[0], x0 = x * g.sw - g.pad[2];
      int64_t rows = std::min(ih, y0 + g.kh) - std::max<int64_t>(0, y0);
      int64_t cols = std::min(iw, x0 + g.kw) - std::max<int64_t>(0, x0);
      int64_t count = std::max<int64_t>(0, rows) * std::max<int64_t>(0, cols);
      if (count == 0)
        return ctx.emitError() << "output (" << y << ", " << x
                               << ") covers no input element";
      counts.push_back(count);
      halves.push_back(count / 2);
    }
  return success();
}

/// `sum / count` rounded half away from zero, as TFLite's integer
/// AveragePool divides.
static Value buildRoundedAverage(OpContext &ctx, Value sum,
                                 ArrayRef<int64_t> counts,
                                 ArrayRef<int64_t> halves) {
  RankedTensorType outType = ctx.getOutputType();
  OpBuilder &b = ctx.b;
  Type i32 = b.getIntegerType(32);
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2);
  auto countType = RankedTensorType::get({1, oh, ow, 1}, i32);
  Value count = buildConst(b, ctx.getLoc("count"), countType, counts);
  Value half = buildConst(b, ctx.getLoc("half_count"), countType, halves);
  auto sumType = outType.clone(i32);
  Value zero = buildConst(b, ctx.getLoc("zero"),
                          RankedTensorType::get({1, 1, 1, 1}, i32), {0});
  Value positive = tosa::GreaterOp::create(
      b, ctx.getLoc("positive"), outType.clone(b.getI1Type()), sum, zero);
  Value up = tosa::AddOp::create(b, ctx.getLoc("up"), sumType, sum, half);
  Value down = tosa::SubOp::create(b, ctx.getLoc("down"), sumType, sum, half);
  Value numerator = tosa::SelectOp::create(b, ctx.getLoc("numerator"), sumType,
                                           positive, up, down);
  // tosa.intdiv truncates towards zero, as C++ division does.
  return tosa::IntDivOp::create(b, ctx.getLoc("average"), sumType, numerator,
                                count);
}

LogicalResult mlir::helia::tflite::convertAveragePool2D(OpContext &ctx) {
  FailureOr<PoolOperands> pool = getPoolOperands(ctx);
  if (failed(pool))
    return failure();
  PoolGeometry &g = pool->geometry;
  const fb::Pool2DOptions *opts = pool->opts;
  Value input = pool->input;
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  Type element = outType.getElementType();
  OpBuilder &b = ctx.b;
  if (element.isF32()) {
    Value zp = buildScalarFloat(b, ctx.getLoc("zp"), element, 0.0);
    Value pooled = tosa::AvgPool2dOp::create(
        b, ctx.getLoc(), outType, fitPoolWindow(ctx, input, g), zp, zp,
        b.getDenseI64ArrayAttr({g.kh, g.kw}),
        b.getDenseI64ArrayAttr({g.sh, g.sw}), b.getDenseI64ArrayAttr(g.pad),
        TypeAttr::get(b.getF32Type()));
    return setActivatedOutput(ctx, pooled, opts);
  }
  if (!(element.isInteger(8) || element.isInteger(16)) ||
      inType.getElementType() != element)
    return ctx.emitError() << "unsupported element type " << element;
  Value sum = buildWindowSum(ctx, input, g);
  SmallVector<int64_t> counts, halves;
  if (failed(countTaps(ctx, g, counts, halves)))
    return failure();
  Value average = buildRoundedAverage(ctx, sum, counts, halves);
  FailureOr<std::pair<int64_t, int64_t>> range = getQuantizedActivationRange(
      ctx, opts->fused_activation_function(), ctx.getOutputQuant(),
      element);
  if (failed(range))
    return failure();
  Value clamped = buildClampInt(b, ctx.getLoc("clamped"), average,
                                range->first, range->second);
  return ctx.setOutput(0,
                       tosa::CastOp::create(b, ctx.getLoc(), outType, clamped));
}
