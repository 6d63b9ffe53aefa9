//===- ConvertTransposeConv.cpp - TRANSPOSE_CONV --------------------------===//
//
// TRANSPOSE_CONV becomes a correlation: the input spread by zero insertion
// (the inserted elements hold the input's zero point, which adds nothing),
// padded or cropped to the output's size, and a tosa.conv2d with the
// flipped filter into an accumulator requantised as TFLite does
// (Convolution.h).
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::helia::tflite;

namespace {
/// The sizes of one TRANSPOSE_CONV: input [n, ih, iw, c], output [., oh, ow,
/// .], filter [., kh, kw, c], strides, and TFLite's padding before the
/// output (as if the output were a convolution's input).
struct TransposeGeometry {
  int64_t n, ih, iw, c;
  int64_t oh, ow;
  int64_t kh, kw;
  int64_t sh, sw;
  int64_t padTop, padLeft;
};

/// The padding of the correlation over the spread input.
struct CorrelationPadding {
  int64_t top, bottom, left, right;
};
} // namespace

/// Zero insertion: [N, H, W, C] -> [N, H, sh, W, sw, C] -> [N, H*sh, W*sw, C].
static Value spreadInput(OpContext &ctx, Value input, const ConvKind &kind,
                         const TransposeGeometry &g, Type element,
                         int64_t inZp) {
  if (g.sh == 1 && g.sw == 1)
    return input;
  Value expanded = buildReshape(ctx.b, ctx.getLoc("spread"), input,
                                {g.n, g.ih, 1, g.iw, 1, g.c});
  auto padType =
      RankedTensorType::get({g.n, g.ih, g.sh, g.iw, g.sw, g.c}, element);
  Value padConst =
      kind.isFloat
          ? buildScalarFloat(ctx.b, ctx.getLoc("pad_value"), element, 0.0)
          : buildScalar(ctx.b, ctx.getLoc("pad_value"), element, inZp);
  Value padded = tosa::PadOp::create(
      ctx.b, ctx.getLoc("spread"), padType, expanded,
      buildShape(ctx.b, ctx.getLoc("spread"),
                 {0, 0, 0, 0, 0, g.sh - 1, 0, 0, 0, g.sw - 1, 0, 0}),
      padConst);
  return buildReshape(ctx.b, ctx.getLoc("spread"), padded,
                      {g.n, g.ih * g.sh, g.iw * g.sw, g.c});
}

/// A correlation with the flipped filter over the spread input padded by
/// (K - 1 - pad) before; the length after makes the output size exact. Where
/// that length is negative, `spread` is cropped instead.
static FailureOr<CorrelationPadding>
fitSpreadToOutput(OpContext &ctx, Value &spread, const TransposeGeometry &g,
                  Type element) {
  CorrelationPadding p;
  p.top = g.kh - 1 - g.padTop;
  p.left = g.kw - 1 - g.padLeft;
  p.bottom = g.oh + g.kh - 1 - p.top - g.ih * g.sh;
  p.right = g.ow + g.kw - 1 - p.left - g.iw * g.sw;
  if (p.top < 0 || p.left < 0) {
    ctx.emitError() << "padding larger than the filter is not supported";
    return failure();
  }
  if (p.bottom < 0 || p.right < 0) {
    int64_t h = g.ih * g.sh + std::min<int64_t>(p.bottom, 0);
    int64_t w = g.iw * g.sw + std::min<int64_t>(p.right, 0);
    auto sliceType = RankedTensorType::get({g.n, h, w, g.c}, element);
    spread = tosa::SliceOp::create(
        ctx.b, ctx.getLoc("spread"), sliceType, spread,
        buildShape(ctx.b, ctx.getLoc("spread"), {0, 0, 0, 0}),
        buildShape(ctx.b, ctx.getLoc("spread"), {g.n, h, w, g.c}));
    p.bottom = std::max<int64_t>(p.bottom, 0);
    p.right = std::max<int64_t>(p.right, 0);
  }
  return p;
}

/// The constant filter [O, KH, KW, I] flipped in KH and KW.
static FailureOr<Value> buildFlippedFilter(OpContext &ctx, int64_t channels,
                                           const TransposeGeometry &g) {
  int64_t kh = g.kh, kw = g.kw, c = g.c;
  return buildFilter(
      ctx, 1, {channels, kh, kw, c}, [&](ArrayRef<int64_t> idx) {
        return ((idx[0] * kh + (kh - 1 - idx[1])) * kw + (kw - 1 - idx[2])) *
                   c +
               idx[3];
      });
}

LogicalResult mlir::helia::tflite::convertTransposeConv(OpContext &ctx) {
  // Inputs: output shape, filter [O, KH, KW, I], input, optional bias.
  if (failed(ctx.checkArity(3, 4, 1)) ||
      failed(checkRank(ctx, 1, 4, "filter")) ||
      failed(checkRank(ctx, 2, 4, "input")))
    return failure();
  FailureOr<const fb::TransposeConvOptions *> opts =
      ctx.getRequiredOptions<fb::TransposeConvOptions>();
  if (failed(opts))
    return failure();
  FailureOr<ConvKind> kind = getConvKind(ctx, 2, 1, 3, false);
  if (failed(kind))
    return failure();
  RankedTensorType inType = ctx.getInputType(2);
  RankedTensorType filterType = ctx.getInputType(1);
  RankedTensorType outType = ctx.getOutputType();
  if (outType.getRank() != 4)
    return ctx.emitError() << "output must have rank 4";
  int64_t channels = filterType.getDimSize(0);
  TransposeGeometry g{inType.getDimSize(0),     inType.getDimSize(1),
                      inType.getDimSize(2),     inType.getDimSize(3),
                      outType.getDimSize(1),    outType.getDimSize(2),
                      filterType.getDimSize(1), filterType.getDimSize(2),
                      (*opts)->stride_h(),      (*opts)->stride_w(),
                      0,                        0};
  if (g.sh < 1 || g.sw < 1)
    return ctx.emitError() << "strides must be positive";
  if (filterType.getDimSize(3) != inType.getDimSize(3))
    return ctx.emitError() << "filter has " << filterType.getDimSize(3)
                           << " input channels, the input "
                           << inType.getDimSize(3);
  // TFLite pads as if the output were a convolution's input.
  if ((*opts)->padding() == fb::Padding_SAME) {
    g.padTop = getSamePadding(g.oh, g.ih, g.sh, 1, g.kh).first;
    g.padLeft = getSamePadding(g.ow, g.iw, g.sw, 1, g.kw).first;
  }
  Type element = inType.getElementType();
  int64_t inZp = getActivationZp(*kind, ctx.getInputQuant(2));
  FailureOr<Value> input = ctx.getInput(2);
  if (failed(input))
    return failure();
  Value spread = spreadInput(ctx, *input, *kind, g, element, inZp);
  FailureOr<CorrelationPadding> pad =
      fitSpreadToOutput(ctx, spread, g, element);
  if (failed(pad))
    return failure();
  if (!ctx.isInputConstant(1))
    return ctx.emitError() << "the filter must be a constant";
  FailureOr<Value> filter = buildFlippedFilter(ctx, channels, g);
  FailureOr<Value> bias = buildBias(ctx, 3, channels, *kind);
  if (failed(filter) || failed(bias))
    return failure();
  Value inZpV = buildZeros(ctx, element, inZp, "input_zp");
  Value filterZp =
      buildZeros(ctx, filterType.getElementType(), 0, "filter_zp");
  auto accType = outType.clone(kind->accType);
  Value acc = tosa::Conv2DOp::create(
      ctx.b, kind->isFloat ? ctx.getLoc() : ctx.getLoc("acc"), accType,
      spread, *filter, *bias, inZpV, filterZp,
      ctx.b.getDenseI64ArrayAttr({pad->top, pad->bottom, pad->left, pad->right}),
      ctx.b.getDenseI64ArrayAttr({1, 1}), ctx.b.getDenseI64ArrayAttr({1, 1}),
      TypeAttr::get(kind->accType));
  FailureOr<Value> result =
      requantize(ctx, acc, *kind, 2, 1, channels,
                 (*opts)->fused_activation_function(),
                 getActivationZp(*kind, ctx.getOutputQuant()));
  if (failed(result))
    return failure();
  return ctx.setOutput(0, *result);
}
