//===- NonlinearBuilders.h - integer kernels as IR --------------*- C++ -*-===//
//
// What the LOGISTIC, TANH (ConvertNonlinear.cpp) and SOFTMAX
// (ConvertSoftmax.cpp) converters share: gemmlowp's fixed-point primitives
// as scalar IR in a `linalg.generic` body, look-up tables as constants, and
// their checks of a quantized operator.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_NONLINEARBUILDERS_H
#define HELIA_LIB_TARGET_TFLITE_NONLINEARBUILDERS_H

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::helia::tflite {

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

/// A `tosa.const` of rank 1 holding `values` as `element`.
template <typename T>
Value buildTable(OpBuilder &b, Location loc, Type element,
                        ArrayRef<T> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    element);
  SmallVector<int64_t> wide(values.begin(), values.end());
  return buildConst(b, loc, type, wide);
}

/// An elementwise `linalg.generic` producing `outType` from `inputs`, each
/// of the output's shape or broadcast along the dimensions where it has
/// size 1.
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType outType,
                       ValueRange inputs,
                       function_ref<Value(FixedPointBuilder &, ValueRange)> body);

/// Input 0 and the output have one scale and zero point each.
LogicalResult checkOneQuantization(OpContext &ctx);

} // namespace mlir::helia::tflite

#endif // HELIA_LIB_TARGET_TFLITE_NONLINEARBUILDERS_H
