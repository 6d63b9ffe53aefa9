//===- ConvertElementwise.cpp - arithmetic and activations ----------------===//
//
// ADD, SUB and MUL follow TFLite's quantized formulas step by step: inputs
// shifted into int32, each scaled by its own multiplier
// (MultiplyByQuantizedMultiplier, double rounding: `tosa.rescale` with
// DOUBLE_ROUND computes the same), combined, rescaled to the output. The
// multipliers are derived as TFLite's Prepare derives them, including where
// it computes in float before widening to double (LEAKY_RELU, RELU).
// LOGISTIC and TANH are in ConvertNonlinear.cpp, SOFTMAX in
// ConvertSoftmax.cpp, QUANTIZE and DEQUANTIZE in ConvertQuantize.cpp.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::helia::tflite;

/// Reshapes `value` to `rank` dimensions by prepending 1s (TOSA broadcasts
/// operands of equal rank only).
static Value broadcastRank(OpContext &ctx, Value value, int64_t rank) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == rank)
    return value;
  SmallVector<int64_t> shape(rank - type.getRank(), 1);
  llvm::append_range(shape, type.getShape());
  return buildReshape(ctx.b, ctx.getLoc("broadcast"), value, shape);
}

static LogicalResult checkQuantized(OpContext &ctx, unsigned numInputs) {
  for (unsigned i = 0; i < numInputs; ++i)
    if (!ctx.getInputQuant(i).isQuantized() ||
        ctx.getInputQuant(i).isPerChannel())
      return ctx.emitError() << "input " << i
                             << " needs one scale and zero point";
  if (!ctx.getOutputQuant().isQuantized() || ctx.getOutputQuant().isPerChannel())
    return ctx.emitError() << "output needs one scale and zero point";
  return success();
}

LogicalResult mlir::helia::tflite::convertAddSub(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 2, 1)))
    return failure();
  bool isSub = ctx.getCode() == 41;
  fb::ActivationFunctionType act = fb::ActivationFunctionType_NONE;
  if (isSub) {
    FailureOr<const fb::SubOptions *> opts = ctx.getOptions<fb::SubOptions>();
    if (failed(opts))
      return failure();
    if (*opts)
      act = (*opts)->fused_activation_function();
  } else {
    FailureOr<const fb::AddOptions *> opts = ctx.getOptions<fb::AddOptions>();
    if (failed(opts))
      return failure();
    if (*opts)
      act = (*opts)->fused_activation_function();
  }
  RankedTensorType outType = ctx.getOutputType();
  int64_t rank = outType.getRank();
  FailureOr<Value> lhs = ctx.getInput(0), rhs = ctx.getInput(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  Type element = outType.getElementType();
  if (ctx.getInputType(0).getElementType() != element ||
      ctx.getInputType(1).getElementType() != element)
    return ctx.emitError() << "inputs and output must have one element type";
  Value a = broadcastRank(ctx, *lhs, rank), b = broadcastRank(ctx, *rhs, rank);
  if (isa<FloatType>(element) || element.isInteger(32)) {
    Value result =
        isSub ? Value(tosa::SubOp::create(ctx.b, ctx.getLoc(), outType, a, b))
              : Value(tosa::AddOp::create(ctx.b, ctx.getLoc(), outType, a, b));
    FailureOr<Value> activated = applyActivation(ctx, result, act);
    if (failed(activated))
      return failure();
    return ctx.setOutput(0, *activated);
  }
  if (!isQuantizedInt(element) || failed(checkQuantized(ctx, 2)))
    return failed(checkQuantized(ctx, 2))
               ? failure()
               : ctx.emitError() << "unsupported element type " << element;
  const TensorQuant &q1 = ctx.getInputQuant(0), &q2 = ctx.getInputQuant(1),
                    &qo = ctx.getOutputQuant();
  int leftShift = element.isInteger(16) ? 15 : 20;
  // As TFLite prepares ADD and SUB (the golden data of TFLite's own SUB
  // tests agree with these double expressions, not with float ones).
  double twiceMax =
      2 * static_cast<double>(std::max(q1.getScale(), q2.getScale()));
  double r1 = static_cast<double>(q1.getScale()) / twiceMax;
  double r2 = static_cast<double>(q2.getScale()) / twiceMax;
  double ro =
      twiceMax / ((1 << leftShift) * static_cast<double>(qo.getScale()));
  if (ro >= 1.0)
    return ctx.emitError() << "output scale " << qo.getScale()
                           << " is too small for the inputs' scales (TFLite "
                              "requires a multiplier below 1)";
  Type i32 = ctx.b.getIntegerType(32);
  Value sa = buildToInt32(ctx.b, ctx.getLoc("lhs"), a, q1.getZeroPoint(),
                          leftShift);
  Value sb = buildToInt32(ctx.b, ctx.getLoc("rhs"), b, q2.getZeroPoint(),
                          leftShift);
  FailureOr<Value> scaledA = rescaleBy(ctx, ctx.getLoc("lhs"), sa, i32, r1, 0, 0);
  FailureOr<Value> scaledB = rescaleBy(ctx, ctx.getLoc("rhs"), sb, i32, r2, 0, 0);
  if (failed(scaledA) || failed(scaledB))
    return failure();
  auto sumType = outType.clone(i32);
  Value sum = isSub ? Value(tosa::SubOp::create(ctx.b, ctx.getLoc("raw"),
                                                sumType, *scaledA, *scaledB))
                    : Value(tosa::AddOp::create(ctx.b, ctx.getLoc("raw"),
                                                sumType, *scaledA, *scaledB));
  FailureOr<Value> out =
      rescaleBy(ctx, ctx.getLoc("requantized"), sum, element, ro, 0,
                qo.getZeroPoint());
  if (failed(out))
    return failure();
  FailureOr<Value> activated = applyActivation(ctx, *out, act);
  if (failed(activated))
    return failure();
  return ctx.setOutput(0, *activated);
}

LogicalResult mlir::helia::tflite::convertMul(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 2, 1)))
    return failure();
  FailureOr<const fb::MulOptions *> opts = ctx.getOptions<fb::MulOptions>();
  if (failed(opts))
    return failure();
  fb::ActivationFunctionType act =
      *opts ? (*opts)->fused_activation_function()
            : fb::ActivationFunctionType_NONE;
  RankedTensorType outType = ctx.getOutputType();
  Type element = outType.getElementType();
  if (ctx.getInputType(0).getElementType() != element ||
      ctx.getInputType(1).getElementType() != element)
    return ctx.emitError() << "inputs and output must have one element type";
  FailureOr<Value> lhs = ctx.getInput(0), rhs = ctx.getInput(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  Value a = broadcastRank(ctx, *lhs, outType.getRank());
  Value b = broadcastRank(ctx, *rhs, outType.getRank());
  Value noShift = buildScalar(ctx.b, ctx.getLoc("shift"), ctx.b.getI8Type(), 0);
  if (isa<FloatType>(element) || element.isInteger(32)) {
    Value product =
        tosa::MulOp::create(ctx.b, ctx.getLoc(), outType, a, b, noShift);
    FailureOr<Value> activated = applyActivation(ctx, product, act);
    if (failed(activated))
      return failure();
    return ctx.setOutput(0, *activated);
  }
  if (!isQuantizedInt(element))
    return ctx.emitError() << "unsupported element type " << element;
  if (failed(checkQuantized(ctx, 2)))
    return failure();
  const TensorQuant &q1 = ctx.getInputQuant(0), &q2 = ctx.getInputQuant(1),
                    &qo = ctx.getOutputQuant();
  Value wa = buildToInt32(ctx.b, ctx.getLoc("lhs"), a, q1.getZeroPoint());
  Value wb = buildToInt32(ctx.b, ctx.getLoc("rhs"), b, q2.getZeroPoint());
  Value product = tosa::MulOp::create(ctx.b, ctx.getLoc("raw"),
                                      outType.clone(ctx.b.getIntegerType(32)),
                                      wa, wb, noShift);
  double real = static_cast<double>(q1.getScale()) *
                static_cast<double>(q2.getScale()) /
                static_cast<double>(qo.getScale());
  FailureOr<Value> out = rescaleBy(ctx, ctx.getLoc("requantized"), product,
                                   element, real, 0, qo.getZeroPoint());
  if (failed(out))
    return failure();
  FailureOr<Value> activated = applyActivation(ctx, *out, act);
  if (failed(activated))
    return failure();
  return ctx.setOutput(0, *activated);
}

LogicalResult mlir::helia::tflite::convertLeakyRelu(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<const fb::LeakyReluOptions *> opts =
      ctx.getOptions<fb::LeakyReluOptions>();
  if (failed(opts))
    return failure();
  float alpha = *opts ? (*opts)->alpha() : 0.2f;
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  RankedTensorType outType = ctx.getOutputType();
  Type element = outType.getElementType();
  auto boolType = outType.clone(ctx.b.getI1Type());
  if (element.isF32()) {
    Value zero = buildSplatFloat(ctx, ctx.getLoc("zero"), *input, 0.0f);
    Value alphaV = buildSplatFloat(ctx, ctx.getLoc("alpha"), *input, alpha);
    Value noShift =
        buildScalar(ctx.b, ctx.getLoc("shift"), ctx.b.getI8Type(), 0);
    Value scaled = tosa::MulOp::create(ctx.b, ctx.getLoc("negative"), outType,
                                       *input, alphaV, noShift);
    Value positive = tosa::GreaterOp::create(ctx.b, ctx.getLoc("positive"),
                                             boolType, *input, zero);
    return ctx.setOutput(0, tosa::SelectOp::create(ctx.b, ctx.getLoc(),
                                                   outType, positive, *input,
                                                   scaled));
  }
  if (!isQuantizedInt(element) ||
      ctx.getInputType(0).getElementType() != element)
    return ctx.emitError() << "unsupported element type " << element;
  if (failed(checkQuantized(ctx, 1)))
    return failure();
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  // TFLite's Prepare computes both multipliers in float.
  double alphaReal =
      static_cast<double>(qi.getScale() * alpha / qo.getScale());
  double identityReal = static_cast<double>(qi.getScale() / qo.getScale());
  Type i32 = ctx.b.getIntegerType(32);
  int64_t zp = qi.getZeroPoint();
  FailureOr<Value> identity = rescaleBy(ctx, ctx.getLoc("identity"), *input,
                                        i32, identityReal, zp, 0);
  FailureOr<Value> negative = rescaleBy(ctx, ctx.getLoc("negative"), *input,
                                        i32, std::abs(alphaReal), zp, 0);
  if (failed(identity) || failed(negative))
    return failure();
  Value neg = *negative;
  if (alphaReal < 0) {
    Value zero = buildSplat(ctx, ctx.getLoc("zero"), neg, i32, 0);
    neg = tosa::SubOp::create(ctx.b, ctx.getLoc("negative"), neg.getType(),
                              zero, neg);
  }
  Value zpV = buildSplat(ctx, ctx.getLoc("input_zp"), *input, element, zp);
  Value nonNegative = tosa::GreaterEqualOp::create(
      ctx.b, ctx.getLoc("positive"), boolType, *input, zpV);
  Value selected =
      tosa::SelectOp::create(ctx.b, ctx.getLoc("raw"), outType.clone(i32),
                             nonNegative, *identity, neg);
  // Adds the output zero point and saturates, exactly.
  return ctx.setOutput(
      0, buildRescale(ctx.b, ctx.getLoc(), selected, element, {1 << 30}, {30},
                      0, qo.getZeroPoint(), /*scale32=*/true,
                      tosa::RoundingMode::SINGLE_ROUND));
}

LogicalResult mlir::helia::tflite::convertRelu(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  RankedTensorType outType = ctx.getOutputType();
  Type element = outType.getElementType();
  fb::ActivationFunctionType act =
      ctx.getCode() == 19   ? fb::ActivationFunctionType_RELU
      : ctx.getCode() == 21 ? fb::ActivationFunctionType_RELU6
                            : fb::ActivationFunctionType_RELU_N1_TO_1;
  if (element.isF32()) {
    FailureOr<Value> result = applyActivation(ctx, *input, act);
    if (failed(result))
      return failure();
    if (*result == *input)
      return ctx.setOutput(0, *input);
    return ctx.setOutput(0, *result);
  }
  if (!isQuantizedInt(element) ||
      ctx.getInputType(0).getElementType() != element)
    return ctx.emitError() << "unsupported element type " << element;
  if (failed(checkQuantized(ctx, 1)))
    return failure();
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  if (act == fb::ActivationFunctionType_RELU6 &&
      qi.getScale() == qo.getScale() &&
      qi.getZeroPoint() == qo.getZeroPoint()) {
    // One quantization: TFLite's requantisation is the identity, so the
    // clamp in the input's quantization (TFLM's kernel) is the same. With
    // two, TFLite rescales as for RELU and TFLM, which assumes one, would
    // be wrong.
    int64_t bits = element.getIntOrFloatBitWidth();
    int64_t qmax = (int64_t(1) << (bits - 1)) - 1;
    int64_t qmin = -qmax - 1;
    int64_t six = std::clamp<int64_t>(
        static_cast<int64_t>(std::round(6.0f / qi.getScale())) +
            qi.getZeroPoint(),
        qmin, qmax);
    return ctx.setOutput(0, buildClampInt(ctx.b, ctx.getLoc(), *input,
                                          std::clamp(qi.getZeroPoint(), qmin,
                                                     qmax),
                                          six));
  }
  double real = static_cast<double>(qi.getScale() / qo.getScale());
  FailureOr<Value> rescaled =
      rescaleBy(ctx, ctx.getLoc("requantized"), *input, element, real,
                qi.getZeroPoint(), qo.getZeroPoint());
  if (failed(rescaled))
    return failure();
  FailureOr<std::pair<int64_t, int64_t>> range =
      getQuantizedActivationRange(ctx, act, qo, element);
  if (failed(range))
    return failure();
  return ctx.setOutput(0, buildClampInt(ctx.b, ctx.getLoc(), *rescaled,
                                        range->first, range->second));
}
