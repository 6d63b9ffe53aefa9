//===- ConvertConv.cpp - convolutions and fully connected layers ----------===//
//
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV become a
// TOSA convolution into an accumulator (f32, i32 for int8, i48 for 16x8)
// followed by TFLite's requantisation as a `tosa.rescale`:
// - int8: MultiplyByQuantizedMultiplier on int32, double rounding;
// - 16x8 with an int64 bias: the 64-bit overload, whose multiplier is
//   rounded to 16 bits and applied with single rounding (TOSA's 48-bit
//   rescale computes exactly that);
// - 16x8 with an int32 bias: TFLite accumulates in int32, so the i48
//   accumulator is narrowed first, then rescaled as for int8.
// The multipliers come from the scales in double, as TFLite prepares them:
// input_scale * filter_scale[c] / output_scale.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::helia::tflite;

namespace {
/// How one quantized (or float) convolution accumulates.
struct ConvKind {
  bool isFloat = false;
  /// int16 activations with int8 weights.
  bool is16x8 = false;
  /// The bias (and TFLite's accumulator) is int64.
  bool wideBias = false;
  Type accType;
};
} // namespace

/// `biasSelectsAccumulator`: TFLite's 16x8 CONV_2D and FULLY_CONNECTED
/// accumulate in the bias's type; its DEPTHWISE_CONV_2D and TRANSPOSE_CONV
/// read any 16x8 bias as int64.
static FailureOr<ConvKind> getConvKind(OpContext &ctx, unsigned inputIdx,
                                       unsigned filterIdx, int biasIdx,
                                       bool biasSelectsAccumulator) {
  ConvKind kind;
  Type in = ctx.getInputType(inputIdx).getElementType();
  Type filter = ctx.getInputType(filterIdx).getElementType();
  Type out = ctx.getOutputType().getElementType();
  if (in.isF32() && filter.isF32() && out.isF32()) {
    kind.isFloat = true;
    kind.accType = ctx.b.getF32Type();
    return kind;
  }
  if (!filter.isInteger(8) || in != out ||
      !(in.isInteger(8) || in.isInteger(16))) {
    ctx.emitError() << "unsupported types: input " << in << ", filter "
                    << filter << ", output " << out
                    << " (helia imports float32, int8 and 16x8 quantized "
                       "convolutions)";
    return failure();
  }
  if (!ctx.getInputQuant(inputIdx).isQuantized() ||
      !ctx.getInputQuant(filterIdx).isQuantized() ||
      !ctx.getOutputQuant().isQuantized()) {
    ctx.emitError() << "integer tensors without quantization parameters";
    return failure();
  }
  kind.is16x8 = in.isInteger(16);
  kind.accType = ctx.b.getIntegerType(kind.is16x8 ? 48 : 32);
  if (kind.is16x8 && !biasSelectsAccumulator) {
    kind.wideBias = true;
  } else if (biasIdx >= 0 && ctx.hasInput(biasIdx)) {
    Type bias = ctx.getInputType(biasIdx).getElementType();
    if (bias.isInteger(64))
      kind.wideBias = true;
    else if (!bias.isInteger(32)) {
      ctx.emitError() << "unsupported bias type " << bias;
      return failure();
    }
  } else {
    kind.wideBias = kind.is16x8;
  }
  if (!kind.is16x8 && kind.wideBias) {
    ctx.emitError() << "an int64 bias needs int16 activations";
    return failure();
  }
  return kind;
}

/// The bias operand: the model's bias (retyped to the accumulator) or
/// zeros.
static FailureOr<Value> buildBias(OpContext &ctx, int biasIdx,
                                  int64_t channels, const ConvKind &kind) {
  auto type = RankedTensorType::get({channels}, kind.accType);
  Location loc = ctx.getLoc("bias");
  if (biasIdx < 0 || !ctx.hasInput(biasIdx)) {
    if (kind.isFloat)
      return Value(tosa::ConstOp::create(
          ctx.b, loc, type,
          DenseElementsAttr::get(type, ctx.b.getF32FloatAttr(0.0f))));
    return buildConst(ctx.b, loc, type, SmallVector<int64_t>(channels, 0));
  }
  RankedTensorType biasType = ctx.getInputType(biasIdx);
  if (biasType.getNumElements() != channels) {
    ctx.emitError() << "bias has " << biasType.getNumElements()
                    << " elements for " << channels << " output channels";
    return failure();
  }
  if (biasType.getRank() != 1 || biasType.getElementType() == kind.accType)
    ; // handled below
  if (biasType.getElementType() == kind.accType && biasType.getRank() == 1)
    return ctx.getInput(biasIdx);
  // An int64 bias held as i48, or an int32 bias under an i48 accumulator.
  FailureOr<SmallVector<int64_t>> values = ctx.getConstantInts(biasIdx);
  if (failed(values))
    return failure();
  int64_t limit = int64_t(1) << 47;
  for (int64_t v : *values)
    if (v < -limit || v >= limit) {
      ctx.emitError() << "bias value " << v
                      << " does not fit the 48-bit accumulator";
      return failure();
    }
  return buildConst(ctx.b, ctx.importer.getTensorLoc(ctx.getInputIndex(biasIdx)),
                    type, *values);
}

/// Rescales the accumulator to the output type and applies the fused
/// activation.
/// `floatProduct`: TFLite's per-tensor FULLY_CONNECTED multiplies the input
/// and filter scales in float before dividing in double.
static FailureOr<Value> requantize(OpContext &ctx, Value acc,
                                   const ConvKind &kind, unsigned inputIdx,
                                   unsigned filterIdx, int64_t channels,
                                   fb::ActivationFunctionType act,
                                   int64_t outputZp,
                                   bool floatProduct = false) {
  if (kind.isFloat)
    return applyActivation(ctx, acc, act);
  const TensorQuant &inQ = ctx.getInputQuant(inputIdx);
  const TensorQuant &filterQ = ctx.getInputQuant(filterIdx);
  const TensorQuant &outQ = ctx.getOutputQuant();
  if (filterQ.isPerChannel() &&
      static_cast<int64_t>(filterQ.scales.size()) != channels) {
    ctx.emitError() << "filter has " << filterQ.scales.size()
                    << " scales for " << channels << " output channels";
    return failure();
  }
  SmallVector<int32_t> multipliers, shifts;
  for (float filterScale : filterQ.scales) {
    double real =
        floatProduct
            ? static_cast<double>(inQ.getScale() * filterScale) /
                  static_cast<double>(outQ.getScale())
            : static_cast<double>(inQ.getScale()) *
                  static_cast<double>(filterScale) /
                  static_cast<double>(outQ.getScale());
    QuantizedMultiplier qm = quantizeMultiplier(real);
    if (kind.wideBias) {
      int16_t m16;
      int shift;
      if (!getRescale16(qm, m16, shift)) {
        ctx.emitError() << "requantisation scale " << real
                        << " is out of TOSA's range";
        return failure();
      }
      multipliers.push_back(m16);
      shifts.push_back(shift);
    } else {
      int shift;
      if (!getRescale32Shift(qm, shift)) {
        ctx.emitError() << "requantisation scale " << real
                        << " is out of TOSA's range";
        return failure();
      }
      multipliers.push_back(qm.multiplier);
      shifts.push_back(shift);
    }
  }
  Type outElement = ctx.getOutputType().getElementType();
  Value value = acc;
  if (kind.is16x8 && !kind.wideBias) {
    // TFLite accumulates in int32 here; the sum is the same while it fits.
    auto type = cast<RankedTensorType>(acc.getType())
                    .clone(ctx.b.getIntegerType(32));
    value = tosa::CastOp::create(ctx.b, ctx.getLoc("acc32"), type, acc);
  }
  value = buildRescale(ctx.b, ctx.getLoc("requantized"), value, outElement,
                       multipliers, shifts, 0, outputZp,
                       /*scale32=*/!kind.wideBias,
                       kind.wideBias ? tosa::RoundingMode::SINGLE_ROUND
                                     : tosa::RoundingMode::DOUBLE_ROUND);
  return applyActivation(ctx, value, act);
}

/// The zero point TFLite's convolution kernels apply to an activation: none
/// for 16x8.
static int64_t getActivationZp(const ConvKind &kind, const TensorQuant &q) {
  return kind.is16x8 ? 0 : q.getZeroPoint();
}

static Value buildZeros(OpContext &ctx, Type element, int64_t zp,
                        StringRef what) {
  return buildZeroPoint(ctx.b, ctx.getLoc(what), element, zp);
}

/// A constant filter re-laid out for TOSA: `permute(old index) -> new
/// index` over the same bytes, or a reshape when the layout is unchanged.
static FailureOr<Value>
buildFilter(OpContext &ctx, unsigned filterIdx, ArrayRef<int64_t> newShape,
            function_ref<int64_t(ArrayRef<int64_t>)> newIndexOf = nullptr) {
  RankedTensorType type = ctx.getInputType(filterIdx);
  if (!newIndexOf) {
    FailureOr<Value> filter = ctx.getInput(filterIdx);
    if (failed(filter))
      return failure();
    if (type.getShape() == newShape)
      return *filter;
    return buildReshape(ctx.b, ctx.getLoc("filter"), *filter, newShape);
  }
  FailureOr<ArrayRef<uint8_t>> bytes = ctx.getConstantBytes(filterIdx);
  if (failed(bytes))
    return failure();
  unsigned width = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes->size() != static_cast<size_t>(type.getNumElements()) * width) {
    ctx.emitError() << "filter buffer holds " << bytes->size()
                    << " bytes, its type needs "
                    << type.getNumElements() * width;
    return failure();
  }
  SmallVector<char> out(bytes->size());
  SmallVector<int64_t> index(type.getRank(), 0);
  for (int64_t linear = 0; linear < type.getNumElements(); ++linear) {
    int64_t target = newIndexOf(index);
    std::memcpy(out.data() + target * width, bytes->data() + linear * width,
                width);
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  auto newType = RankedTensorType::get(newShape, type.getElementType());
  auto attr = DenseElementsAttr::getFromRawBuffer(newType, out);
  return Value(tosa::ConstOp::create(
      ctx.b, ctx.importer.getTensorLoc(ctx.getInputIndex(filterIdx)), newType,
      attr));
}

static LogicalResult checkRank(OpContext &ctx, unsigned i, int64_t rank,
                               StringRef what) {
  if (ctx.getInputType(i).getRank() != rank)
    return ctx.emitError() << what << " must have rank " << rank << ", not "
                           << ctx.getInputType(i).getRank();
  return success();
}

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

LogicalResult mlir::helia::tflite::convertFullyConnected(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 3, 1)) || failed(checkRank(ctx, 1, 2, "filter")))
    return failure();
  FailureOr<const fb::FullyConnectedOptions *> opts =
      ctx.getOptions<fb::FullyConnectedOptions>();
  if (failed(opts))
    return failure();
  fb::ActivationFunctionType act =
      *opts ? (*opts)->fused_activation_function()
            : fb::ActivationFunctionType_NONE;
  if (*opts && (*opts)->weights_format() != 0)
    return ctx.emitError() << "shuffled weights are not supported";
  FailureOr<ConvKind> kind = getConvKind(ctx, 0, 1, 2, true);
  if (failed(kind))
    return failure();
  RankedTensorType inType = ctx.getInputType(0);
  RankedTensorType filterType = ctx.getInputType(1);
  RankedTensorType outType = ctx.getOutputType();
  int64_t units = filterType.getDimSize(0), depth = filterType.getDimSize(1);
  if (depth == 0 || inType.getNumElements() % depth != 0)
    return ctx.emitError() << "input " << inType
                           << " does not split into rows of " << depth;
  int64_t batch = inType.getNumElements() / depth;
  if (outType.getNumElements() != batch * units)
    return ctx.emitError() << "output " << outType << " is not " << batch
                           << " rows of " << units;
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  Value rows = buildReshape(ctx.b, ctx.getLoc("rows"), *input,
                            {batch, 1, 1, depth});
  FailureOr<Value> filter = buildFilter(ctx, 1, {units, 1, 1, depth});
  FailureOr<Value> bias = buildBias(ctx, 2, units, *kind);
  if (failed(filter) || failed(bias))
    return failure();
  // The per-tensor kernel applies the filter's zero point, the per-channel
  // one does not; both apply the activations' (16x8 included).
  const TensorQuant &filterQ = ctx.getInputQuant(1);
  int64_t inputZp = ctx.getInputQuant(0).getZeroPoint();
  if (kind->is16x8 && inputZp != 0)
    return ctx.emitError() << "int16 input with zero point " << inputZp
                           << " is not supported (TOSA needs 0)";
  Value inZp = buildZeros(ctx, inType.getElementType(), inputZp, "input_zp");
  Value filterZp = buildZeros(
      ctx, filterType.getElementType(),
      filterQ.isPerChannel() ? 0 : filterQ.getZeroPoint(), "filter_zp");
  auto accType = RankedTensorType::get({batch, 1, 1, units}, kind->accType);
  Value acc = tosa::Conv2DOp::create(
      ctx.b, ctx.getLoc("acc"), accType, rows, *filter, *bias, inZp, filterZp,
      ctx.b.getDenseI64ArrayAttr({0, 0, 0, 0}),
      ctx.b.getDenseI64ArrayAttr({1, 1}), ctx.b.getDenseI64ArrayAttr({1, 1}),
      TypeAttr::get(kind->accType));
  FailureOr<Value> result =
      requantize(ctx, acc, *kind, 0, 1, units, act,
                 ctx.getOutputQuant().getZeroPoint(),
                 /*floatProduct=*/!filterQ.isPerChannel());
  if (failed(result))
    return failure();
  return ctx.setOutput(
      0, buildReshape(ctx.b, ctx.getLoc(), *result, outType.getShape()));
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
  int64_t kh = filterType.getDimSize(1), kw = filterType.getDimSize(2);
  int64_t ih = inType.getDimSize(1), iw = inType.getDimSize(2);
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2);
  int64_t sh = (*opts)->stride_h(), sw = (*opts)->stride_w();
  if (sh < 1 || sw < 1)
    return ctx.emitError() << "strides must be positive";
  if (filterType.getDimSize(3) != inType.getDimSize(3))
    return ctx.emitError() << "filter has " << filterType.getDimSize(3)
                           << " input channels, the input "
                           << inType.getDimSize(3);
  // TFLite pads as if the output were a convolution's input.
  int64_t padTop = 0, padLeft = 0;
  if ((*opts)->padding() == fb::Padding_SAME) {
    padTop = getSamePadding(oh, ih, sh, 1, kh).first;
    padLeft = getSamePadding(ow, iw, sw, 1, kw).first;
  }
  Type element = inType.getElementType();
  int64_t inZp = getActivationZp(*kind, ctx.getInputQuant(2));
  FailureOr<Value> input = ctx.getInput(2);
  if (failed(input))
    return failure();
  // Zero insertion: [N, H, W, C] -> [N, H, sh, W, sw, C] -> [N, H*sh, W*sw, C];
  // the inserted elements hold the input's zero point, which adds nothing.
  int64_t n = inType.getDimSize(0), c = inType.getDimSize(3);
  Value spread = *input;
  if (sh > 1 || sw > 1) {
    Value expanded =
        buildReshape(ctx.b, ctx.getLoc("spread"), *input, {n, ih, 1, iw, 1, c});
    auto padType = RankedTensorType::get({n, ih, sh, iw, sw, c}, element);
    Value padConst = kind->isFloat
                         ? buildScalarFloat(ctx.b, ctx.getLoc("pad_value"),
                                            element, 0.0)
                         : buildScalar(ctx.b, ctx.getLoc("pad_value"), element,
                                       inZp);
    Value padded = tosa::PadOp::create(
        ctx.b, ctx.getLoc("spread"), padType, expanded,
        buildShape(ctx.b, ctx.getLoc("spread"),
                   {0, 0, 0, 0, 0, sh - 1, 0, 0, 0, sw - 1, 0, 0}),
        padConst);
    spread = buildReshape(ctx.b, ctx.getLoc("spread"), padded,
                          {n, ih * sh, iw * sw, c});
  }
  // A correlation with the flipped filter over the spread input padded by
  // (K - 1 - pad) before; the length after makes the output size exact.
  int64_t top = kh - 1 - padTop, left = kw - 1 - padLeft;
  int64_t bottom = oh + kh - 1 - top - ih * sh;
  int64_t right = ow + kw - 1 - left - iw * sw;
  if (top < 0 || left < 0)
    return ctx.emitError() << "padding larger than the filter is not "
                              "supported";
  if (bottom < 0 || right < 0) {
    int64_t h = ih * sh + std::min<int64_t>(bottom, 0);
    int64_t w = iw * sw + std::min<int64_t>(right, 0);
    auto sliceType = RankedTensorType::get({n, h, w, c}, element);
    spread = tosa::SliceOp::create(
        ctx.b, ctx.getLoc("spread"), sliceType, spread,
        buildShape(ctx.b, ctx.getLoc("spread"), {0, 0, 0, 0}),
        buildShape(ctx.b, ctx.getLoc("spread"), {n, h, w, c}));
    bottom = std::max<int64_t>(bottom, 0);
    right = std::max<int64_t>(right, 0);
  }
  if (!ctx.isInputConstant(1))
    return ctx.emitError() << "the filter must be a constant";
  FailureOr<Value> filter = buildFilter(
      ctx, 1, {channels, kh, kw, c}, [&](ArrayRef<int64_t> idx) {
        return ((idx[0] * kh + (kh - 1 - idx[1])) * kw + (kw - 1 - idx[2])) *
                   c +
               idx[3];
      });
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
      ctx.b.getDenseI64ArrayAttr({top, bottom, left, right}),
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
