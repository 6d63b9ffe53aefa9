//===- ConvertQuantize.cpp - QUANTIZE and DEQUANTIZE ----------------------===//
//
// DEQUANTIZE computes `(float)(x - zp) * scale` as TFLite does; QUANTIZE
// from float rounds TFLite's float quotient half away from zero (an
// elementwise linalg.generic: TOSA has no float division), and between
// integer types is a requantisation (MultiplyByQuantizedMultiplier).
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

/// `(float)(x - zp) * scale`, as TFLite's DEQUANTIZE computes it: the f32
/// product of two exactly represented factors is the double product
/// rounded once.
static Value buildDequantize(OpContext &ctx, Location loc, Value input,
                             const TensorQuant &q) {
  auto type = cast<RankedTensorType>(input.getType());
  auto floatType = type.clone(ctx.b.getF32Type());
  Value asFloat = tosa::CastOp::create(ctx.b, loc, floatType, input);
  Value zp = buildSplatFloat(ctx, loc, input,
                             static_cast<float>(q.getZeroPoint()));
  Value centred = tosa::SubOp::create(ctx.b, loc, floatType, asFloat, zp);
  Value scale = buildSplatFloat(ctx, loc, input, q.getScale());
  Value noShift = buildScalar(ctx.b, loc, ctx.b.getI8Type(), 0);
  return tosa::MulOp::create(ctx.b, loc, floatType, centred, scale, noShift);
}

/// `clamp(round(x / scale) + zp)` with TFLite's float division and rounding
/// half away from zero, as an elementwise linalg.generic (TOSA has no float
/// division).
static Value buildQuantize(OpContext &ctx, Location loc, Value input,
                           RankedTensorType outType, const TensorQuant &q) {
  OpBuilder &b = ctx.b;
  auto inType = cast<RankedTensorType>(input.getType());
  Value init = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                       outType.getElementType());
  unsigned rank = inType.getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Type element = outType.getElementType();
  unsigned bits = element.getIntOrFloatBitWidth();
  double qmin = -std::ldexp(1.0, bits - 1), qmax = std::ldexp(1.0, bits - 1) - 1;
  float scale = q.getScale();
  int64_t zp = q.getZeroPoint();
  auto generic = linalg::GenericOp::create(
      b, loc, outType, ValueRange{input}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Type f32 = nb.getF32Type();
        Value x = args[0];
        Value s = arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(scale));
        Value q = arith::DivFOp::create(nb, nloc, x, s);
        Value r = math::RoundOp::create(nb, nloc, q);
        // Adding the zero point and clamping in float is exact: every
        // value involved is an integer below 2^24 once clamped.
        Value shifted = arith::AddFOp::create(
            nb, nloc, r,
            arith::ConstantOp::create(nb, nloc,
                                      nb.getFloatAttr(f32, double(zp))));
        Value lo = arith::ConstantOp::create(nb, nloc, nb.getFloatAttr(f32, qmin));
        Value hi = arith::ConstantOp::create(nb, nloc, nb.getFloatAttr(f32, qmax));
        Value clamped = arith::MinimumFOp::create(
            nb, nloc, arith::MaximumFOp::create(nb, nloc, shifted, lo), hi);
        Value out = arith::FPToSIOp::create(nb, nloc, element, clamped);
        linalg::YieldOp::create(nb, nloc, out);
      });
  return generic.getResult(0);
}

LogicalResult mlir::helia::tflite::convertQuantize(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  Type in = inType.getElementType(), out = outType.getElementType();
  const TensorQuant &qo = ctx.getOutputQuant();
  if (!qo.isQuantized() || qo.isPerChannel())
    return ctx.emitError() << "output needs one scale and zero point";
  if (!isQuantizedInt(out) && !out.isInteger(32))
    return ctx.emitError() << "unsupported output type " << out;
  if (in.isF32())
    return ctx.setOutput(0, buildQuantize(ctx, ctx.getLoc(), *input, outType,
                                          qo));
  const TensorQuant &qi = ctx.getInputQuant(0);
  if (!qi.isQuantized() || qi.isPerChannel())
    return ctx.emitError() << "input needs one scale and zero point";
  if (!isQuantizedInt(in) && !in.isInteger(32))
    return ctx.emitError() << "unsupported input type " << in;
  double real =
      static_cast<double>(qi.getScale()) / static_cast<double>(qo.getScale());
  Value value = *input;
  int64_t inZp = qi.getZeroPoint();
  if (in.isInteger(32) && inZp != 0) {
    // TOSA takes no zero point for an int32 input.
    Value zp = buildSplat(ctx, ctx.getLoc("input_zp"), value, in, inZp);
    value = tosa::SubOp::create(ctx.b, ctx.getLoc("centred"), inType, value,
                                zp);
    inZp = 0;
  }
  FailureOr<Value> result =
      rescaleBy(ctx, ctx.getLoc(), value, out, real, inZp, qo.getZeroPoint());
  if (failed(result))
    return failure();
  return ctx.setOutput(0, *result);
}

LogicalResult mlir::helia::tflite::convertDequantize(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  Type in = ctx.getInputType(0).getElementType();
  if (!ctx.getOutputType().getElementType().isF32() || !isQuantizedInt(in))
    return ctx.emitError() << "supports int8 and int16 to float32";
  const TensorQuant &qi = ctx.getInputQuant(0);
  if (!qi.isQuantized() || qi.isPerChannel())
    return ctx.emitError() << "input needs one scale and zero point";
  return ctx.setOutput(0, buildDequantize(ctx, ctx.getLoc(), *input, qi));
}
