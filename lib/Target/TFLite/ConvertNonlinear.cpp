//===- ConvertNonlinear.cpp - LOGISTIC, TANH and SOFTMAX ------------------===//
//
// Quantized LOGISTIC, TANH and SOFTMAX compute what TFLite Micro's
// reference kernels compute, bit for bit (docs/TFLite.md, "LOGISTIC, TANH
// and SOFTMAX"):
//
// - int8 LOGISTIC and TANH are functions of the input byte: the importer
//   evaluates the kernels' gemmlowp arithmetic for all 256 bytes
//   (FixedPoint.cpp) and emits a `tosa.table`.
// - int16 LOGISTIC and TANH rescale the input with the kernels' 15-bit
//   multiplier and interpolate TFLite's sigmoid table: the same integer
//   steps in a `linalg.generic`.
// - int8 SOFTMAX: exp of the difference to the row's maximum is a function
//   of that difference (a 256-entry table), the sum and its gemmlowp
//   reciprocal (Newton-Raphson in Q2.29) are computed per row, the product
//   rounded and saturated per element.
// - int16 SOFTMAX: the kernel's two interpolated 513-entry tables (exp and
//   1 / (1 + x)), filled as the kernel's Prepare fills them, and its
//   integer rescaling around them.
//
// Float tensors map to `tosa.sigmoid`, `tosa.tanh` and a TOSA softmax.
//
//===----------------------------------------------------------------------===//

#include "FixedPoint.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;
namespace fp = mlir::helia::tflite::fixedpoint;

namespace {
/// Scalar integer arithmetic in a `linalg.generic` body: the gemmlowp
/// primitives on i32 (with i64 products), as FixedPoint.cpp computes them.
class FixedPointBuilder {
public:
  FixedPointBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shrs(Value x, Value y) { return arith::ShRSIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value ext(Value x, Type t) { return arith::ExtSIOp::create(b, loc, t, x); }
  Value trunc(Value x, Type t) { return arith::TruncIOp::create(b, loc, t, x); }
  Value clamp(Value x, int64_t lo, int64_t hi) {
    Value c = arith::MaxSIOp::create(b, loc, x, i32(lo));
    return arith::MinSIOp::create(b, loc, c, i32(hi));
  }
  Value min(Value x, int64_t bound) {
    return arith::MinSIOp::create(b, loc, x, i32(bound));
  }
  Value clz(Value x) { return math::CountLeadingZerosOp::create(b, loc, x); }

  /// SaturatingRoundingDoublingHighMul.
  Value srdhm(Value x, Value y) {
    Type t64 = b.getI64Type();
    Value product = mul(ext(x, t64), ext(y, t64));
    Value nonNegative = cmp(arith::CmpIPredicate::sge, product, i64(0));
    Value nudge = select(nonNegative, i64(1 << 30), i64(1 - (1 << 30)));
    // divsi truncates toward zero, as the kernels' division does.
    Value high = trunc(
        arith::DivSIOp::create(b, loc, add(product, nudge), i64(1LL << 31)),
        b.getI32Type());
    Value min = i32(INT32_MIN);
    Value overflow =
        andi(cmp(arith::CmpIPredicate::eq, x, min),
             cmp(arith::CmpIPredicate::eq, y, min));
    return select(overflow, i32(INT32_MAX), high);
  }
  /// RoundingDivideByPOT by an exponent in [0, 31] (a value).
  Value roundingDivideByPOT(Value x, Value exponent) {
    Value mask = sub(shl(i32(1), exponent), i32(1));
    Value remainder = andi(x, mask);
    Value negative = cmp(arith::CmpIPredicate::slt, x, i32(0));
    Value threshold = add(shrs(mask, i32(1)), select(negative, i32(1), i32(0)));
    Value up = cmp(arith::CmpIPredicate::sgt, remainder, threshold);
    return add(shrs(x, exponent), select(up, i32(1), i32(0)));
  }
  /// SaturatingRoundingMultiplyByPOT<exponent> for exponent > 0.
  Value saturatingShiftLeft(Value x, int exponent) {
    int32_t threshold = (1 << (31 - exponent)) - 1;
    Value shifted = shl(x, i32(exponent));
    Value low = select(cmp(arith::CmpIPredicate::slt, x, i32(-threshold)),
                       i32(INT32_MIN), shifted);
    return select(cmp(arith::CmpIPredicate::sgt, x, i32(threshold)),
                  i32(INT32_MAX), low);
  }
  /// MultiplyByQuantizedMultiplier(int32) with double rounding.
  Value multiplyByQuantizedMultiplier(Value x, int32_t multiplier, int shift) {
    Value shifted = shift > 0 ? shl(x, i32(shift)) : x;
    Value high = srdhm(shifted, i32(multiplier));
    return shift < 0 ? roundingDivideByPOT(high, i32(-shift)) : high;
  }
  /// gemmlowp's one_over_one_plus_x_for_x_in_0_1 (Q0.31 in and out).
  Value oneOverOnePlusX(Value a) {
    Type t64 = b.getI64Type();
    Value sum = add(ext(a, t64), i64(INT32_MAX));
    Value sign = select(cmp(arith::CmpIPredicate::sge, sum, i64(0)), i64(1),
                        i64(-1));
    Value halfDenominator =
        trunc(arith::DivSIOp::create(b, loc, add(sum, sign), i64(2)),
              b.getI32Type());
    Value x = add(i32(1515870810), srdhm(halfDenominator, i32(-1010580540)));
    for (int i = 0; i < 3; ++i) {
      Value oneMinus = sub(i32(1 << 29), srdhm(halfDenominator, x));
      x = add(x, saturatingShiftLeft(srdhm(x, oneMinus), 2));
    }
    return saturatingShiftLeft(x, 1);
  }
  /// TFLite's LUTLookup(int16) on a 513-entry table held in i32.
  Value lookupInterpolated(Value table, Value value) {
    Value index = add(shrs(value, i32(7)), i32(256));
    Value offset = andi(value, i32(0x7f));
    Value base = extract(table, index);
    Value next = extract(table, add(index, i32(1)));
    // The slope is an int16_t in the kernel.
    Type i16 = b.getI16Type();
    Value slope = ext(trunc(sub(next, base), i16), b.getI32Type());
    Value delta = shrs(add(mul(slope, offset), i32(64)), i32(7));
    return ext(trunc(add(base, delta), i16), b.getI32Type());
  }
  Value extract(Value table, Value index) {
    Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
    return tensor::ExtractOp::create(b, loc, table, ValueRange{i});
  }

private:
  OpBuilder &b;
  Location loc;
};
} // namespace

/// A `tosa.const` of rank 1 holding `values` as `element`.
template <typename T>
static Value buildTable(OpBuilder &b, Location loc, Type element,
                        ArrayRef<T> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    element);
  SmallVector<int64_t> wide(values.begin(), values.end());
  return buildConst(b, loc, type, wide);
}

/// An elementwise `linalg.generic` producing `outType` from `inputs`, each
/// of the output's shape or broadcast along the dimensions where it has
/// size 1.
static Value
buildElementwise(OpBuilder &b, Location loc, RankedTensorType outType,
                 ValueRange inputs,
                 function_ref<Value(FixedPointBuilder &, ValueRange)> body) {
  unsigned rank = outType.getRank();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < rank; ++d)
      exprs.push_back(type.getDimSize(d) == 1 && outType.getDimSize(d) != 1
                          ? b.getAffineConstantExpr(0)
                          : b.getAffineDimExpr(d));
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                       outType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, outType, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        FixedPointBuilder fb(nb, nloc);
        linalg::YieldOp::create(nb, nloc,
                                body(fb, args.drop_back(1)));
      });
  return generic.getResult(0);
}

static bool isQuantizedInt(Type type) {
  return type.isInteger(8) || type.isInteger(16);
}

static LogicalResult checkOneQuantization(OpContext &ctx) {
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  if (!qi.isQuantized() || qi.isPerChannel())
    return ctx.emitError() << "input 0 needs one scale and zero point";
  if (!qo.isQuantized() || qo.isPerChannel())
    return ctx.emitError() << "output needs one scale and zero point";
  return success();
}

Value mlir::helia::tflite::buildSigmoidTable(OpBuilder &b, Location loc) {
  SmallVector<int32_t> table(fp::sigmoidTableUInt16.begin(),
                             fp::sigmoidTableUInt16.end());
  return buildTable<int32_t>(b, loc, b.getI32Type(), table);
}

Value mlir::helia::tflite::buildInt16Activation(OpBuilder &b, Location loc,
                                                Value sigmoid, Value input,
                                                int32_t multiplier, int shift,
                                                bool isTanh) {
  int32_t round = shift > 0 ? 1 << (shift - 1) : 0;
  // Interpolation on the absolute value: logistic has 9 fractional bits
  // per table step, tanh (the table at twice the argument) 8.
  int fraction = isTanh ? 8 : 9;
  Value result = buildElementwise(
      b, loc, cast<RankedTensorType>(input.getType()), {input},
      [&](FixedPointBuilder &f, ValueRange args) -> Value {
        using P = arith::CmpIPredicate;
        Value x = f.ext(args[0], b.getI32Type());
        Value scaled =
            f.shrs(f.add(f.mul(x, f.i32(multiplier)), f.i32(round)),
                   f.i32(shift));
        Value nonNegative = f.cmp(P::sge, scaled, f.i32(0));
        Value magnitude = f.select(nonNegative, scaled, f.sub(f.i32(0), scaled));
        Value step = f.shrs(magnitude, f.i32(fraction));
        Value saturated = f.cmp(P::sge, step, f.i32(255));
        // Clamped so that the saturated case reads inside the table.
        Value index = f.min(step, 254);
        Value ua = f.extract(sigmoid, index);
        Value ub = f.extract(sigmoid, f.add(index, f.i32(1)));
        Value ut = f.andi(magnitude, f.i32((1 << fraction) - 1));
        Value interpolated =
            f.add(f.shl(ua, f.i32(fraction)), f.mul(ut, f.sub(ub, ua)));
        Value r;
        if (isTanh) {
          r = f.select(saturated, f.i32(0xFFFF << 8), interpolated);
          r = f.select(nonNegative,
                       f.add(f.sub(r, f.i32(1 << 23)), f.i32(1 << 7)),
                       f.add(f.sub(f.i32(1 << 23), r), f.i32((1 << 7) - 1)));
          r = f.shrs(r, f.i32(8));
        } else {
          r = f.select(saturated, f.i32(0x7FFF << 10), interpolated);
          r = f.select(nonNegative, f.add(r, f.i32(1 << 9)),
                       f.sub(f.i32((1 << 25) + (1 << 9) - 1), r));
          r = f.shrs(r, f.i32(10));
        }
        return f.trunc(r, b.getI16Type());
      });
  return result;
}

/// int16 LOGISTIC and TANH as TFLM's reference kernels compute them.
static LogicalResult convertActivationInt16(OpContext &ctx, Value input,
                                            bool isTanh) {
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  if (qi.getZeroPoint() != 0 || qo.getZeroPoint() != 0)
    return ctx.emitError() << "int16 " << ctx.getOpName()
                           << " needs zero points 0 (TFLite's kernel is "
                              "symmetric), has input "
                           << qi.getZeroPoint() << " and output "
                           << qo.getZeroPoint();
  int outLog2 = 0;
  if (!fp::checkedLog2(qo.getScale(), outLog2) || outLog2 != -15)
    return ctx.emitError() << "int16 " << ctx.getOpName()
                           << " needs an output scale of 2^-15, has "
                           << qo.getScale();
  fp::Int16ActivationParams params =
      fp::prepareInt16Activation(qi.getScale(), isTanh);
  if (params.multiplier > 32767)
    return ctx.emitError() << "input scale " << qi.getScale()
                           << " is too large for TFLite's int16 "
                           << ctx.getOpName() << " (at most 2.66)";
  return ctx.setOutput(
      0, buildInt16Activation(ctx.b, ctx.getLoc(),
                              buildSigmoidTable(ctx.b,
                                                ctx.getLoc("sigmoid_table")),
                              input, params.multiplier, params.shift, isTanh));
}

LogicalResult mlir::helia::tflite::convertLogisticTanh(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1, 1)))
    return failure();
  bool isTanh = ctx.getCode() == 28;
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  RankedTensorType outType = ctx.getOutputType();
  Type element = outType.getElementType();
  Type in = ctx.getInputType(0).getElementType();
  if (element.isF32() && in.isF32()) {
    if (isTanh)
      return ctx.setOutput(
          0, tosa::TanhOp::create(ctx.b, ctx.getLoc(), outType, *input));
    return ctx.setOutput(
        0, tosa::SigmoidOp::create(ctx.b, ctx.getLoc(), outType, *input));
  }
  if (!isQuantizedInt(element) || in != element)
    return ctx.emitError() << "unsupported element types " << in << " and "
                           << element;
  if (failed(checkOneQuantization(ctx)))
    return failure();
  if (element.isInteger(16))
    return convertActivationInt16(ctx, *input, isTanh);
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  // The kernels' outputs are fixed: Q0.8 offset by -128 for LOGISTIC, Q0.7
  // for TANH (TFLite's Prepare requires these quantizations).
  float scale = isTanh ? 1.0f / 128 : 1.0f / 256;
  int64_t zp = isTanh ? 0 : -128;
  if (qo.getScale() != scale || qo.getZeroPoint() != zp)
    return ctx.emitError() << "int8 " << ctx.getOpName()
                           << " needs the output quantization TFLite "
                              "requires (scale "
                           << (isTanh ? "1/128" : "1/256") << ", zero point "
                           << zp << "), has scale " << qo.getScale()
                           << " and zero point " << qo.getZeroPoint();
  fp::Int8ActivationParams params = fp::prepareInt8Activation(qi.getScale());
  if (params.leftShift < 0)
    return ctx.emitError() << "input scale " << qi.getScale()
                           << " is too small for TFLite's int8 "
                           << ctx.getOpName() << " (at least 2^-28)";
  std::array<int8_t, 256> values =
      isTanh ? fp::tanhInt8Table(qi.getScale(), qi.getZeroPoint())
             : fp::logisticInt8Table(qi.getScale(), qi.getZeroPoint());
  Value table = buildTable<int8_t>(ctx.b, ctx.getLoc("table"), element,
                                   ArrayRef<int8_t>(values));
  return ctx.setOutput(0, tosa::TableOp::create(ctx.b, ctx.getLoc(), outType,
                                                *input, table));
}

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
