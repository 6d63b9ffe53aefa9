//===- ConvertSoftmax.cpp - SOFTMAX ---------------------------------------===//
//
// Quantized SOFTMAX computes what TFLite Micro's reference kernels compute,
// bit for bit (docs/TFLite.md, "LOGISTIC, TANH and SOFTMAX"):
//
// - int8 SOFTMAX: exp of the difference to the row's maximum is a function
//   of that difference (a 256-entry table), the sum and its gemmlowp
//   reciprocal (Newton-Raphson in Q2.29) are computed per row, the product
//   rounded and saturated per element.
// - int16 SOFTMAX: the kernel's two interpolated 513-entry tables (exp and
//   1 / (1 + x)), filled as the kernel's Prepare fills them, and its
//   integer rescaling around them.
//
// Float tensors map to a TOSA softmax.
//
//===----------------------------------------------------------------------===//

#include "FixedPoint.h"
#include "NonlinearBuilders.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;
namespace fp = mlir::helia::tflite::fixedpoint;

/// The rank-r shape with the last dimension 1.
static RankedTensorType getRowType(RankedTensorType type, Type element) {
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = 1;
  return RankedTensorType::get(shape, element);
}

/// int8 input, int8 or int16 output: reference_ops::Softmax.
static LogicalResult convertSoftmaxInt8(OpContext &ctx, Value input,
                                        float beta) {
  OpBuilder &b = ctx.b;
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  RankedTensorType outType = ctx.getOutputType();
  Type element = outType.getElementType();
  bool wide = element.isInteger(16);
  if (wide ? (qo.getZeroPoint() != -32768 ||
              std::abs(qo.getScale() - 1.0f / 65536) > 0.001f / 65536)
           : (qo.getZeroPoint() != -128 || qo.getScale() != 1.0f / 256))
    return ctx.emitError() << "SOFTMAX to " << element
                           << " needs the output quantization TFLite "
                              "requires (scale "
                           << (wide ? "1/65536" : "1/256") << ", zero point "
                           << (wide ? -32768 : -128) << "), has scale "
                           << qo.getScale() << " and zero point "
                           << qo.getZeroPoint();
  fp::SoftmaxInt8Params params = fp::prepareSoftmaxInt8(beta, qi.getScale());
  if (!params.valid)
    return ctx.emitError() << "beta " << beta << " times the input scale "
                           << qi.getScale()
                           << " is too small for TFLite's int8 SOFTMAX "
                              "(needs a multiplier above 1 in Q5.26)";
  int64_t depth = outType.getShape().back();
  // Each exp contributes at most 2^19 to the Q12.19 sum; the kernel's final
  // shift must stay within 31 bits.
  if (depth >= (wide ? (int64_t(1) << 12) : 512))
    return ctx.emitError() << "SOFTMAX to " << element << " over " << depth
                           << " classes overflows TFLite's fixed-point sum "
                              "(at most "
                           << (wide ? 4095 : 511) << ")";
  std::array<int32_t, 256> exps = fp::softmaxInt8ExpTable(params);
  Type i32 = b.getI32Type();
  Value table = buildTable<int32_t>(b, ctx.getLoc("exp_table"), i32,
                                    ArrayRef<int32_t>(exps));
  RankedTensorType rowType = getRowType(outType, element);
  Value max = tosa::ReduceMaxOp::create(
      b, ctx.getLoc("max"), getRowType(outType, ctx.getInputType(0)
                                                    .getElementType()),
      input, static_cast<uint32_t>(outType.getRank() - 1));
  RankedTensorType wideType = outType.clone(i32);
  Value exp = buildElementwise(
      b, ctx.getLoc("exp"), wideType, {input, max},
      [&](FixedPointBuilder &f, ValueRange args) {
        Value d = f.sub(f.ext(args[1], i32), f.ext(args[0], i32));
        return f.extract(table, d);
      });
  Value terms = buildElementwise(
      b, ctx.getLoc("terms"), wideType, {exp},
      [&](FixedPointBuilder &f, ValueRange args) {
        return f.roundingDivideByPOT(args[0], f.i32(12));
      });
  RankedTensorType sumType = rowType.clone(i32);
  Value sum = tosa::ReduceSumOp::create(
      b, ctx.getLoc("sum"), sumType, terms,
      b.getI32IntegerAttr(outType.getRank() - 1));
  // GetReciprocal: the sum normalised to [1, 2), minus one, in Q0.31.
  Value scale = buildElementwise(
      b, ctx.getLoc("reciprocal"), sumType, {sum},
      [&](FixedPointBuilder &f, ValueRange args) {
        Value shifted = f.shl(args[0], f.clz(args[0]));
        return f.oneOverOnePlusX(f.sub(shifted, f.i32(INT32_MIN)));
      });
  int bits = element.getIntOrFloatBitWidth();
  int64_t outMin = -(int64_t(1) << (bits - 1)), outMax = -outMin - 1;
  Value result = buildElementwise(
      b, ctx.getLoc(), outType, {exp, scale, sum},
      [&](FixedPointBuilder &f, ValueRange args) {
        // num_bits_over_unit + 31 - bits, num_bits_over_unit = 12 - clz.
        Value exponent = f.sub(f.i32(12 + 31 - bits), f.clz(args[2]));
        Value unsaturated =
            f.roundingDivideByPOT(f.srdhm(args[1], args[0]), exponent);
        return f.trunc(f.clamp(f.add(unsaturated, f.i32(outMin)), outMin,
                               outMax),
                       element);
      });
  return ctx.setOutput(0, result);
}

/// int16 input and output: reference_ops::SoftmaxInt16.
static LogicalResult convertSoftmaxInt16(OpContext &ctx, Value input,
                                         float beta) {
  OpBuilder &b = ctx.b;
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  RankedTensorType outType = ctx.getOutputType();
  if (qi.getZeroPoint() != 0 || qo.getZeroPoint() != 0 ||
      std::abs(qo.getScale() - 1.0f / 32768) > 0.001f / 32768)
    return ctx.emitError() << "int16 SOFTMAX needs input zero point 0 and "
                              "output scale 1/32768 with zero point 0 "
                              "(TFLite's kernel), has input zero point "
                           << qi.getZeroPoint() << ", output scale "
                           << qo.getScale() << " and zero point "
                           << qo.getZeroPoint();
  int64_t depth = outType.getShape().back();
  if (depth > 65535)
    return ctx.emitError() << "int16 SOFTMAX over " << depth
                           << " classes overflows TFLite's int32 sum (at "
                              "most 65535)";
  // Differences in [-65535, 0] scaled to [-10, 0] (exp(-10) is negligible
  // to the sum), as the kernel's Prepare scales them.
  QuantizedMultiplier qm =
      quantizeMultiplier(static_cast<double>(qi.getScale()) *
                         static_cast<double>(beta) / (10.0 / 65535.0));
  if (qm.shift > 30)
    return ctx.emitError() << "beta " << beta << " times the input scale "
                           << qi.getScale()
                           << " is too large for TFLite's int16 SOFTMAX";
  Type i32 = b.getI32Type();
  std::array<int16_t, 513> expValues = fp::softmaxExpTable();
  std::array<int16_t, 513> recipValues = fp::softmaxReciprocalTable();
  Value expTable = buildTable<int16_t>(b, ctx.getLoc("exp_table"), i32,
                                       ArrayRef<int16_t>(expValues));
  Value recipTable =
      buildTable<int16_t>(b, ctx.getLoc("reciprocal_table"), i32,
                          ArrayRef<int16_t>(recipValues));
  Value max = tosa::ReduceMaxOp::create(
      b, ctx.getLoc("max"), getRowType(outType, outType.getElementType()),
      input, static_cast<uint32_t>(outType.getRank() - 1));
  RankedTensorType wideType = outType.clone(i32);
  Value exp = buildElementwise(
      b, ctx.getLoc("exp"), wideType, {input, max},
      [&](FixedPointBuilder &f, ValueRange args) {
        Value diff = f.sub(f.ext(args[0], i32), f.ext(args[1], i32));
        Value scaled =
            f.multiplyByQuantizedMultiplier(diff, qm.multiplier, qm.shift);
        return f.lookupInterpolated(
            expTable, f.clamp(f.add(scaled, f.i32(32767)), -32768, 32767));
      });
  RankedTensorType sumType = getRowType(outType, i32);
  Value sum = tosa::ReduceSumOp::create(
      b, ctx.getLoc("sum"), sumType, exp,
      b.getI32IntegerAttr(outType.getRank() - 1));
  Value result = buildElementwise(
      b, ctx.getLoc(), outType, {exp, sum},
      [&](FixedPointBuilder &f, ValueRange args) {
        Type i64 = b.getI64Type();
        Value headroomPlusOne = f.clz(args[1]);
        // The sum normalised to Q1.15 in [1, 2), minus 1, recentred on 0.
        Value normalised = f.trunc(
            f.shrs(f.add(f.shl(f.ext(args[1], i64),
                               f.ext(f.sub(headroomPlusOne, f.i32(1)), i64)),
                         f.i64(1 << 13)),
                   f.i64(14)),
            i32);
        Value centred = f.clamp(f.sub(normalised, f.i32((1 << 15) + (1 << 16))),
                                -32768, 32767);
        Value reciprocal = f.lookupInterpolated(recipTable, centred);
        Value rightShift = f.sub(f.i32(31), headroomPlusOne);
        Value round = f.ext(f.shl(f.i32(1), f.sub(rightShift, f.i32(1))), i64);
        Value product = f.add(f.mul(f.ext(args[0], i64), f.ext(reciprocal, i64)),
                              round);
        Value scaled = f.trunc(f.shrs(product, f.ext(rightShift, i64)), i32);
        return f.trunc(f.clamp(scaled, 0, 32767), b.getI16Type());
      });
  return ctx.setOutput(0, result);
}

LogicalResult mlir::helia::tflite::convertSoftmax(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  FailureOr<const fb::SoftmaxOptions *> opts =
      ctx.getOptions<fb::SoftmaxOptions>();
  if (failed(opts))
    return failure();
  float beta = *opts ? (*opts)->beta() : 1.0f;
  RankedTensorType outType = ctx.getOutputType();
  int64_t rank = outType.getRank();
  if (rank < 1)
    return ctx.emitError() << "needs a tensor of rank 1 or more";
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  Type element = outType.getElementType();
  Type in = ctx.getInputType(0).getElementType();
  if (in.isInteger(8) && isQuantizedInt(element)) {
    if (failed(checkOneQuantization(ctx)))
      return failure();
    return convertSoftmaxInt8(ctx, *input, beta);
  }
  if (in.isInteger(16) && element.isInteger(16)) {
    if (failed(checkOneQuantization(ctx)))
      return failure();
    return convertSoftmaxInt16(ctx, *input, beta);
  }
  if (!in.isF32() || !element.isF32())
    return ctx.emitError() << "unsupported element types " << in << " and "
                           << element;
  OpBuilder &b = ctx.b;
  Value x = *input;
  RankedTensorType reducedType = getRowType(outType, element);
  Value max = tosa::ReduceMaxOp::create(b, ctx.getLoc("max"), reducedType, x,
                                        static_cast<uint32_t>(rank - 1));
  Value diff = tosa::SubOp::create(b, ctx.getLoc("diff"), outType, x, max);
  if (beta != 1.0f) {
    auto betaType = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                          b.getF32Type());
    Value betaV = tosa::ConstOp::create(
        b, ctx.getLoc("beta"), betaType,
        DenseElementsAttr::get(betaType, b.getF32FloatAttr(beta)));
    Value noShift = buildScalar(b, ctx.getLoc("shift"), b.getI8Type(), 0);
    diff = tosa::MulOp::create(b, ctx.getLoc("scaled"), outType, diff, betaV,
                               noShift);
  }
  Value exp = tosa::ExpOp::create(b, ctx.getLoc("exp"), outType, diff);
  Value sum = tosa::ReduceSumOp::create(b, ctx.getLoc("sum"), reducedType, exp,
                                        b.getI32IntegerAttr(rank - 1));
  Value inv =
      tosa::ReciprocalOp::create(b, ctx.getLoc("reciprocal"), reducedType, sum);
  Value noShift = buildScalar(b, ctx.getLoc("shift"), b.getI8Type(), 0);
  return ctx.setOutput(
      0, tosa::MulOp::create(b, ctx.getLoc(), outType, exp, inv, noShift));
}
