//===- ConvertConv.cpp - CONV_2D and DEPTHWISE_CONV_2D --------------------===//
//
// The windowed convolutions: CONV_2D becomes a tosa.conv2d, DEPTHWISE_CONV_2D
// a tosa.depthwise_conv2d, each into an accumulator requantised as TFLite
// does (Convolution.h), with the padding TFLite computes.
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"

using namespace mlir;
using namespace mlir::helia::tflite;

namespace {
/// The window of a CONV_2D or DEPTHWISE_CONV_2D: filter size, strides,
/// dilations and TFLite's padding mode.
struct Window {
  int64_t kh, kw, sh, sw, dh, dw;
  bool same;
};
} // namespace

/// Builds a windowed convolution (tosa.conv2d or tosa.depthwise_conv2d) of
/// input 0 with `filter` and `bias`, requantises it and sets output 0: the
/// padding TFLite computes, the input sliced where TOSA's window arithmetic
/// needs it, and TFLite's zero points.
template <typename ConvOp>
static LogicalResult buildWindowedConv(OpContext &ctx, const ConvKind &kind,
                                       Value filter, Value bias,
                                       const Window &w, int64_t channels,
                                       fb::ActivationFunctionType act) {
  RankedTensorType inType = ctx.getInputType(0);
  RankedTensorType outType = ctx.getOutputType();
  SmallVector<int64_t> pad = {0, 0, 0, 0};
  if (w.same) {
    auto [top, bottom] = getSamePadding(
        inType.getDimSize(1), outType.getDimSize(1), w.sh, w.dh, w.kh);
    auto [left, right] = getSamePadding(
        inType.getDimSize(2), outType.getDimSize(2), w.sw, w.dw, w.kw);
    pad = {top, bottom, left, right};
  }
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  Value window = fitWindow(
      ctx.b, ctx.getLoc("window"), *input, pad,
      {outType.getDimSize(1), outType.getDimSize(2)}, {w.sh, w.sw},
      {(w.kh - 1) * w.dh + 1, (w.kw - 1) * w.dw + 1});
  // TFLite's convolutions ignore the filter's zero point, and the 16x8
  // ones the activations' too.
  Value inZp = buildZeros(ctx, inType.getElementType(),
                          getActivationZp(kind, ctx.getInputQuant(0)),
                          "input_zp");
  Value filterZp = buildZeros(ctx, ctx.getInputType(1).getElementType(), 0,
                              "filter_zp");
  auto accType = outType.clone(kind.accType);
  Value acc = ConvOp::create(
      ctx.b, kind.isFloat ? ctx.getLoc() : ctx.getLoc("acc"), accType, window,
      filter, bias, inZp, filterZp, ctx.b.getDenseI64ArrayAttr(pad),
      ctx.b.getDenseI64ArrayAttr({w.sh, w.sw}),
      ctx.b.getDenseI64ArrayAttr({w.dh, w.dw}), TypeAttr::get(kind.accType));
  FailureOr<Value> result =
      requantize(ctx, acc, kind, 0, 1, channels, act,
                 getActivationZp(kind, ctx.getOutputQuant()));
  if (failed(result))
    return failure();
  return ctx.setOutput(0, *result);
}

LogicalResult mlir::helia::tflite::convertConv2D(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 3, 1)) || failed(checkRank(ctx, 0, 4, "input")) ||
      failed(checkRank(ctx, 1, 4, "filter")))
    return failure();
  FailureOr<const fb::Conv2DOptions *> opts =
      ctx.getRequiredOptions<fb::Conv2DOptions>();
  if (failed(opts))
    return failure();
  FailureOr<ConvKind> kind = getConvKind(ctx, 0, 1, 2, true);
  if (failed(kind))
    return failure();
  RankedTensorType inType = ctx.getInputType(0);
  RankedTensorType filterType = ctx.getInputType(1);
  RankedTensorType outType = ctx.getOutputType();
  if (outType.getRank() != 4)
    return ctx.emitError() << "output must have rank 4";
  int64_t channels = filterType.getDimSize(0);
  if (filterType.getDimSize(3) != inType.getDimSize(3))
    return ctx.emitError() << "filter has " << filterType.getDimSize(3)
                           << " input channels, the input "
                           << inType.getDimSize(3)
                           << " (grouped convolutions are not supported)";
  int64_t sh = (*opts)->stride_h(), sw = (*opts)->stride_w();
  int64_t dh = (*opts)->dilation_h_factor(), dw = (*opts)->dilation_w_factor();
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1)
    return ctx.emitError() << "strides and dilations must be positive";
  FailureOr<Value> filter = ctx.getInput(1);
  FailureOr<Value> bias = buildBias(ctx, 2, channels, *kind);
  if (failed(filter) || failed(bias))
    return failure();
  Window w{filterType.getDimSize(1), filterType.getDimSize(2), sh, sw, dh, dw,
           (*opts)->padding() == fb::Padding_SAME};
  return buildWindowedConv<tosa::Conv2DOp>(ctx, *kind, *filter, *bias, w,
                                           channels,
                                           (*opts)->fused_activation_function());
}

LogicalResult mlir::helia::tflite::convertDepthwiseConv2D(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 3, 1)) || failed(checkRank(ctx, 0, 4, "input")) ||
      failed(checkRank(ctx, 1, 4, "filter")))
    return failure();
  FailureOr<const fb::DepthwiseConv2DOptions *> opts =
      ctx.getRequiredOptions<fb::DepthwiseConv2DOptions>();
  if (failed(opts))
    return failure();
  FailureOr<ConvKind> kind = getConvKind(ctx, 0, 1, 2, false);
  if (failed(kind))
    return failure();
  RankedTensorType inType = ctx.getInputType(0);
  RankedTensorType filterType = ctx.getInputType(1);
  RankedTensorType outType = ctx.getOutputType();
  if (outType.getRank() != 4)
    return ctx.emitError() << "output must have rank 4";
  int64_t inChannels = inType.getDimSize(3);
  int64_t channels = filterType.getDimSize(3);
  if (filterType.getDimSize(0) != 1 || inChannels == 0 ||
      channels % inChannels != 0)
    return ctx.emitError() << "filter shape " << filterType
                           << " is not [1, H, W, C * multiplier] for "
                           << inChannels << " input channels";
  int64_t multiplier = channels / inChannels;
  int64_t kh = filterType.getDimSize(1), kw = filterType.getDimSize(2);
  int64_t sh = (*opts)->stride_h(), sw = (*opts)->stride_w();
  int64_t dh = (*opts)->dilation_h_factor(), dw = (*opts)->dilation_w_factor();
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1)
    return ctx.emitError() << "strides and dilations must be positive";
  // [1, H, W, C * M] and [H, W, C, M] hold the same bytes.
  FailureOr<Value> filter =
      buildFilter(ctx, 1, {kh, kw, inChannels, multiplier});
  FailureOr<Value> bias = buildBias(ctx, 2, channels, *kind);
  if (failed(filter) || failed(bias))
    return failure();
  Window w{kh, kw, sh, sw, dh, dw, (*opts)->padding() == fb::Padding_SAME};
  return buildWindowedConv<tosa::DepthwiseConv2DOp>(
      ctx, *kind, *filter, *bias, w, channels,
      (*opts)->fused_activation_function());
}
