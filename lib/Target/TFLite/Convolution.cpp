//===- Convolution.cpp - what the convolution converters share ------------===//
//
// The accumulator a convolution uses, its bias, its requantisation to the
// output type and the layout of its filter, for CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED and TRANSPOSE_CONV (Convolution.h). The requantisation
// follows TFLite's:
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

#include "Convolution.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cstring>

using namespace mlir;
using namespace mlir::helia::tflite;

FailureOr<ConvKind>
mlir::helia::tflite::getConvKind(OpContext &ctx, unsigned inputIdx,
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

FailureOr<Value> mlir::helia::tflite::buildBias(OpContext &ctx, int biasIdx,
                                                int64_t channels,
                                                const ConvKind &kind) {
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

FailureOr<Value> mlir::helia::tflite::requantize(
    OpContext &ctx, Value acc, const ConvKind &kind, unsigned inputIdx,
    unsigned filterIdx, int64_t channels, fb::ActivationFunctionType act,
    int64_t outputZp, bool floatProduct) {
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

int64_t mlir::helia::tflite::getActivationZp(const ConvKind &kind,
                                             const TensorQuant &q) {
  return kind.is16x8 ? 0 : q.getZeroPoint();
}

Value mlir::helia::tflite::buildZeros(OpContext &ctx, Type element,
                                      int64_t zp, StringRef what) {
  return buildZeroPoint(ctx.b, ctx.getLoc(what), element, zp);
}

FailureOr<Value> mlir::helia::tflite::buildFilter(
    OpContext &ctx, unsigned filterIdx, ArrayRef<int64_t> newShape,
    function_ref<int64_t(ArrayRef<int64_t>)> newIndexOf) {
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

LogicalResult mlir::helia::tflite::checkRank(OpContext &ctx, unsigned i,
                                             int64_t rank, StringRef what) {
  if (ctx.getInputType(i).getRank() != rank)
    return ctx.emitError() << what << " must have rank " << rank << ", not "
                           << ctx.getInputType(i).getRank();
  return success();
}
