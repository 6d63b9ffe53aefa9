//===- Builders.cpp - TOSA builders the converters share ------------------===//

#include "Importer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;

Type mlir::helia::tflite::getElementType(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

Value mlir::helia::tflite::buildScalar(OpBuilder &b, Location loc,
                                       Type elementType, int64_t value) {
  auto type = RankedTensorType::get({1}, elementType);
  return buildConst(b, loc, type, {value});
}

Value mlir::helia::tflite::buildScalarFloat(OpBuilder &b, Location loc,
                                            Type elementType, double value) {
  auto type = RankedTensorType::get({1}, elementType);
  auto attr = DenseElementsAttr::get(type, b.getFloatAttr(elementType, value));
  return tosa::ConstOp::create(b, loc, type, attr);
}

Value mlir::helia::tflite::buildZeroPoint(OpBuilder &b, Location loc,
                                          Type type, int64_t value) {
  if (isa<FloatType>(type))
    return buildScalarFloat(b, loc, type, 0.0);
  return buildScalar(b, loc, type, value);
}

Value mlir::helia::tflite::buildConst(OpBuilder &b, Location loc,
                                      RankedTensorType type,
                                      ArrayRef<int64_t> values) {
  auto intType = cast<IntegerType>(type.getElementType());
  SmallVector<APInt> elements;
  elements.reserve(values.size());
  for (int64_t v : values)
    elements.push_back(APInt(intType.getWidth(), v, /*isSigned=*/true,
                             /*implicitTrunc=*/true));
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, elements));
}

Value mlir::helia::tflite::buildShape(OpBuilder &b, Location loc,
                                      ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get({static_cast<int64_t>(shape.size())},
                                    b.getIndexType());
  auto attr = DenseIntElementsAttr::get(type, shape);
  return tosa::ConstShapeOp::create(
      b, loc, tosa::shapeType::get(b.getContext(), shape.size()), attr);
}

Value mlir::helia::tflite::buildReshape(OpBuilder &b, Location loc,
                                        Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  auto result = RankedTensorType::get(shape, type.getElementType());
  return tosa::ReshapeOp::create(b, loc, result, value,
                                 buildShape(b, loc, shape));
}

Value mlir::helia::tflite::buildRescale(OpBuilder &b, Location loc,
                                        Value input, Type outType,
                                        ArrayRef<int32_t> multipliers,
                                        ArrayRef<int32_t> shifts,
                                        int64_t inputZp, int64_t outputZp,
                                        bool scale32,
                                        tosa::RoundingMode rounding) {
  auto inType = cast<RankedTensorType>(input.getType());
  auto resultType = inType.clone(outType);
  int64_t n = multipliers.size();
  Value mult = buildConst(
      b, loc, RankedTensorType::get({n}, b.getIntegerType(scale32 ? 32 : 16)),
      SmallVector<int64_t>(multipliers.begin(), multipliers.end()));
  Value shift =
      buildConst(b, loc, RankedTensorType::get({n}, b.getIntegerType(8)),
                 SmallVector<int64_t>(shifts.begin(), shifts.end()));
  Value inZp = buildScalar(b, loc, inType.getElementType(), inputZp);
  Value outZp = buildScalar(b, loc, outType, outputZp);
  return tosa::RescaleOp::create(
      b, loc, resultType, input, mult, shift, inZp, outZp,
      b.getBoolAttr(scale32),
      tosa::RoundingModeAttr::get(b.getContext(), rounding),
      b.getBoolAttr(n > 1), b.getBoolAttr(false), b.getBoolAttr(false));
}

Value mlir::helia::tflite::buildToInt32(OpBuilder &b, Location loc,
                                        Value input, int64_t inputZp,
                                        int leftShift) {
  // (v - zp) * 2^30 >> (30 - leftShift) is exact: the rounding term is
  // below the shifted-out bits.
  return buildRescale(b, loc, input, b.getIntegerType(32), {1 << 30},
                      {30 - leftShift}, inputZp, 0, /*scale32=*/true,
                      tosa::RoundingMode::SINGLE_ROUND);
}

Value mlir::helia::tflite::buildClampInt(OpBuilder &b, Location loc,
                                         Value input, int64_t min,
                                         int64_t max) {
  Type element = getElementType(input);
  return tosa::ClampOp::create(b, loc, input.getType(), input,
                               b.getIntegerAttr(element, min),
                               b.getIntegerAttr(element, max),
                               tosa::NanPropagationMode::PROPAGATE);
}

Value mlir::helia::tflite::buildClampFloat(OpBuilder &b, Location loc,
                                           Value input, float min, float max) {
  Type element = getElementType(input);
  return tosa::ClampOp::create(b, loc, input.getType(), input,
                               b.getFloatAttr(element, min),
                               b.getFloatAttr(element, max),
                               tosa::NanPropagationMode::PROPAGATE);
}

static std::pair<int64_t, int64_t> getIntegerRange(Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

FailureOr<std::pair<int64_t, int64_t>>
mlir::helia::tflite::getQuantizedActivationRange(OpContext &ctx,
                                                 fb::ActivationFunctionType act,
                                                 const TensorQuant &quant,
                                                 Type elementType) {
  auto [qmin, qmax] = getIntegerRange(elementType);
  float scale = quant.getScale();
  int64_t zp = quant.getZeroPoint();
  // TFLite quantizes the bounds in float: zp + round(f / scale).
  auto quantize = [&](float f) {
    return zp + static_cast<int64_t>(std::round(f / scale));
  };
  switch (act) {
  case fb::ActivationFunctionType_NONE:
    return std::make_pair(qmin, qmax);
  case fb::ActivationFunctionType_RELU:
    return std::make_pair(std::max(qmin, quantize(0.0f)), qmax);
  case fb::ActivationFunctionType_RELU6:
    return std::make_pair(std::max(qmin, quantize(0.0f)),
                          std::min(qmax, quantize(6.0f)));
  case fb::ActivationFunctionType_RELU_N1_TO_1:
    return std::make_pair(std::max(qmin, quantize(-1.0f)),
                          std::min(qmax, quantize(1.0f)));
  default:
    ctx.emitError() << "fused activation "
                    << fb::EnumNameActivationFunctionType(act)
                    << " is not supported";
    return failure();
  }
}

FailureOr<Value> mlir::helia::tflite::applyActivation(
    OpContext &ctx, Value value, fb::ActivationFunctionType act, unsigned j) {
  // The output's name moves to the clamp, if there is one.
  if (act != fb::ActivationFunctionType_NONE)
    if (Operation *def = value.getDefiningOp())
      if (def->getLoc() == ctx.getLoc(j))
        def->setLoc(ctx.getLoc("pre_activation"));
  Type element = getElementType(value);
  if (isa<FloatType>(element)) {
    float inf = std::numeric_limits<float>::infinity();
    switch (act) {
    case fb::ActivationFunctionType_NONE:
      return value;
    case fb::ActivationFunctionType_RELU:
      return buildClampFloat(ctx.b, ctx.getLoc(j), value, 0.0f, inf);
    case fb::ActivationFunctionType_RELU6:
      return buildClampFloat(ctx.b, ctx.getLoc(j), value, 0.0f, 6.0f);
    case fb::ActivationFunctionType_RELU_N1_TO_1:
      return buildClampFloat(ctx.b, ctx.getLoc(j), value, -1.0f, 1.0f);
    default:
      ctx.emitError() << "fused activation "
                      << fb::EnumNameActivationFunctionType(act)
                      << " is not supported";
      return failure();
    }
  }
  FailureOr<std::pair<int64_t, int64_t>> range =
      getQuantizedActivationRange(ctx, act, ctx.getOutputQuant(j), element);
  if (failed(range))
    return failure();
  if (*range == getIntegerRange(element))
    return value;
  return buildClampInt(ctx.b, ctx.getLoc(j), value, range->first,
                       range->second);
}

std::pair<int64_t, int64_t>
mlir::helia::tflite::getSamePadding(int64_t in, int64_t out, int64_t stride,
                                    int64_t dilation, int64_t filter) {
  int64_t effective = (filter - 1) * dilation + 1;
  int64_t total = std::max<int64_t>(0, (out - 1) * stride + effective - in);
  return {total / 2, total - total / 2};
}

Value mlir::helia::tflite::fitWindow(OpBuilder &b, Location loc, Value input,
                                     SmallVectorImpl<int64_t> &pad,
                                     ArrayRef<int64_t> outHW,
                                     ArrayRef<int64_t> strides,
                                     ArrayRef<int64_t> effectiveKernel) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> sizes(type.getShape());
  bool slice = false;
  for (int d = 0; d < 2; ++d) {
    int64_t in = type.getDimSize(1 + d);
    int64_t needed =
        (outHW[d] - 1) * strides[d] + effectiveKernel[d] - pad[2 * d];
    int64_t after = needed - in;
    if (after >= 0) {
      pad[2 * d + 1] = after;
      continue;
    }
    // The window never reads the last -after elements.
    pad[2 * d + 1] = 0;
    sizes[1 + d] = needed;
    slice = true;
  }
  if (!slice)
    return input;
  auto sliced = RankedTensorType::get(sizes, type.getElementType());
  return tosa::SliceOp::create(b, loc, sliced, input,
                               buildShape(b, loc, {0, 0, 0, 0}),
                               buildShape(b, loc, sizes));
}

bool mlir::helia::tflite::isQuantizedInt(Type type) {
  return type.isInteger(8) || type.isInteger(16);
}

FailureOr<Value> mlir::helia::tflite::rescaleBy(OpContext &ctx, Location loc,
                                                Value value, Type outType,
                                                double real, int64_t inputZp,
                                                int64_t outputZp) {
  QuantizedMultiplier qm = quantizeMultiplier(real);
  int shift;
  if (real < 0 || !getRescale32Shift(qm, shift)) {
    ctx.emitError() << "requantisation scale " << real
                    << " is out of TOSA's range";
    return failure();
  }
  return buildRescale(ctx.b, loc, value, outType, {qm.multiplier}, {shift},
                      inputZp, outputZp, /*scale32=*/true,
                      tosa::RoundingMode::DOUBLE_ROUND);
}

Value mlir::helia::tflite::buildSplat(OpContext &ctx, Location loc,
                                      Value like, Type type,
                                      int64_t element) {
  int64_t rank = cast<RankedTensorType>(like.getType()).getRank();
  auto constType = RankedTensorType::get(SmallVector<int64_t>(rank, 1), type);
  return buildConst(ctx.b, loc, constType, {element});
}

Value mlir::helia::tflite::buildSplatFloat(OpContext &ctx, Location loc,
                                           Value like, float element) {
  int64_t rank = cast<RankedTensorType>(like.getType()).getRank();
  auto constType = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                         ctx.b.getF32Type());
  return tosa::ConstOp::create(
      ctx.b, loc, constType,
      DenseElementsAttr::get(constType, ctx.b.getF32FloatAttr(element)));
}
