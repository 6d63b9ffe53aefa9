//===- ConvertNonlinear.cpp - LOGISTIC and TANH ---------------------------===//
//
// Quantized LOGISTIC and TANH compute what TFLite Micro's reference kernels
// compute, bit for bit (docs/TFLite.md, "LOGISTIC, TANH and SOFTMAX"):
//
// - int8 LOGISTIC and TANH are functions of the input byte: the importer
//   evaluates the kernels' gemmlowp arithmetic for all 256 bytes
//   (FixedPoint.cpp) and emits a `tosa.table`.
// - int16 LOGISTIC and TANH rescale the input with the kernels' 15-bit
//   multiplier and interpolate TFLite's sigmoid table: the same integer
//   steps in a `linalg.generic`.
//
// Float tensors map to `tosa.sigmoid` and `tosa.tanh`.
//
//===----------------------------------------------------------------------===//

#include "FixedPoint.h"
#include "NonlinearBuilders.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;
namespace fp = mlir::helia::tflite::fixedpoint;

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
