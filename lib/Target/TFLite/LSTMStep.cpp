//===- LSTMStep.cpp - one time step of UNIDIRECTIONAL_SEQUENCE_LSTM -------===//
//
// One step of TFLite Micro's LSTM kernel (kernels/lstm_eval.h,
// lstm_eval_common.cc), for the four gates (input i, forget f, cell g,
// output o):
//
//   gate = act(FC(x_t, W_gate) + bias_gate + FC(h, R_gate))
//   c = clip(f * c + i * g),   h = tanh(c) * o,   out[t] = h
//
// with sigmoid for i, f, o and TANH for g. Float models compute this in f32.
// The integer kernels (int8 activations and weights with an int16 cell
// state, "8x8_16"; int16 activations with int8 weights, "16x8") follow
// TFLite Micro's arithmetic exactly:
// - each FC accumulates in int32 (int64 for 16x8) and requantises to int16
//   at TFLite Micro's fixed gate scale 2^-12 (MultiplyByQuantizedMultiplier
//   from input_scale * weight_scale in float, divided in double);
// - the two FCs of a gate are added with int16 saturation;
// - sigmoid and tanh are TFLite's int16 look-up-table kernels
//   (reference_integer_ops::Logistic and ::Tanh, buildInt16Activation as
//   for int16 LOGISTIC and TANH), outputs at 2^-15;
// - the products are MulElementwise: an int32 product requantised with the
//   multiplier of s1 * s2 / s_out, into the cell state (int16) or the hidden
//   state (with its zero point);
// - the cell clip is TFLite Micro's quantized clip.
//
//===----------------------------------------------------------------------===//

#include "LSTM.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;

/// A rescale with TFLite's MultiplyByQuantizedMultiplier (int32, double
/// rounding) of `real`, or an error.
static FailureOr<Value> buildRequantize32(Lstm &l, Location loc, Value input,
                                          Type outType, double real,
                                          int64_t outputZp) {
  QuantizedMultiplier qm = quantizeMultiplier(real);
  int shift;
  if (!getRescale32Shift(qm, shift)) {
    l.ctx.emitError() << "LSTM scale " << real << " is out of TOSA's range";
    return failure();
  }
  return buildRescale(l.b(), loc, input, outType, {qm.multiplier}, {shift}, 0,
                      outputZp, /*scale32=*/true,
                      tosa::RoundingMode::DOUBLE_ROUND);
}

/// The accumulator's element type of the gates' fully connected layers.
static Type getAccElement(Lstm &l) {
  if (l.isFloat())
    return l.b().getF32Type();
  if (l.kind == LstmKind::Int16)
    return l.b().getIntegerType(48);
  return l.b().getI32Type();
}

LogicalResult mlir::helia::tflite::prepareOperands(Lstm &l) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  for (unsigned i = kInputToInput; i <= kRecurrentToOutput; ++i) {
    FailureOr<Value> weights = ctx.getInput(i);
    if (failed(weights))
      return failure();
    int64_t depth = cast<RankedTensorType>(weights->getType()).getDimSize(1);
    l.operands[i] =
        buildReshape(b, ctx.importer.getTensorLoc(ctx.getInputIndex(i)),
                     *weights, {l.stateDim, 1, 1, depth});
  }
  Type acc = getAccElement(l);
  auto biasType = RankedTensorType::get({l.stateDim}, acc);
  for (unsigned i = kInputGateBias; i <= kOutputGateBias; ++i) {
    Location loc = ctx.importer.getTensorLoc(ctx.getInputIndex(i));
    if (l.kind != LstmKind::Int16) {
      FailureOr<Value> value = ctx.getInput(i);
      if (failed(value))
        return failure();
      l.operands[i] = *value;
      continue;
    }
    // The int64 bias, exactly, in the 48-bit accumulator.
    FailureOr<SmallVector<int64_t>> values = ctx.getConstantInts(i);
    if (failed(values))
      return failure();
    for (int64_t v : *values)
      if (v < -(int64_t(1) << 47) || v >= (int64_t(1) << 47))
        return ctx.emitError() << "LSTM bias value " << v << " (input " << i
                               << ") does not fit the 48-bit accumulator";
    l.operands[i] = buildConst(b, loc, biasType, *values);
  }
  Location loc = ctx.getLoc("zero_bias");
  l.zeroBias =
      l.isFloat()
          ? Value(tosa::ConstOp::create(
                b, loc, biasType,
                DenseElementsAttr::get(biasType, b.getF32FloatAttr(0.0f))))
          : buildConst(b, loc, biasType, SmallVector<int64_t>(l.stateDim, 0));
  return success();
}

/// One gate's fully connected layer: `input` [B, 1, 1, K] times weights
/// `weightIdx` [S, K] plus the bias `biasIdx` (-1: none), in float or
/// requantised to int16 at 2^-12. `inScale`/`inZp` quantize `input`.
static FailureOr<Value> buildGateFC(Lstm &l, Value input, unsigned weightIdx,
                                    int biasIdx, float inScale, int64_t inZp,
                                    StringRef name) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  Location loc = ctx.getLoc(name);
  Value filter = l.operands.lookup(weightIdx);
  Value bias = biasIdx < 0 ? l.zeroBias : l.operands.lookup(biasIdx);
  Type inElement = getElementType(input);
  Type accElement = getAccElement(l);
  const TensorQuant &wq = ctx.getInputQuant(weightIdx);
  Value inZpV = l.isFloat() ? buildZeroPoint(b, loc, inElement, 0)
                            : buildScalar(b, loc, inElement, inZp);
  Value wZp = l.isFloat()
                  ? buildZeroPoint(b, loc, b.getF32Type(), 0)
                  : buildScalar(b, loc, b.getI8Type(), wq.getZeroPoint());
  auto accType = RankedTensorType::get({l.batch, 1, 1, l.stateDim}, accElement);
  Value acc = tosa::Conv2DOp::create(
      b, loc, accType, input, filter, bias, inZpV, wZp,
      b.getDenseI64ArrayAttr({0, 0, 0, 0}), b.getDenseI64ArrayAttr({1, 1}),
      b.getDenseI64ArrayAttr({1, 1}), TypeAttr::get(accElement));
  if (l.isFloat())
    return acc;
  // GetQuantizedConvolutionMultipler: the scales multiplied in float, the
  // division by the gate scale 2^-12 in double.
  double real = static_cast<double>(inScale * wq.getScale()) /
                static_cast<double>(std::ldexp(1.0f, -12));
  QuantizedMultiplier qm = quantizeMultiplier(real);
  Type i16 = b.getI16Type();
  if (l.kind == LstmKind::Int16) {
    int16_t m16;
    int shift;
    if (!getRescale16(qm, m16, shift)) {
      ctx.emitError() << "LSTM gate scale " << real
                      << " is out of TOSA's range";
      return failure();
    }
    return buildRescale(b, loc, acc, i16, {m16}, {shift}, 0, 0,
                        /*scale32=*/false, tosa::RoundingMode::SINGLE_ROUND);
  }
  return buildRequantize32(l, loc, acc, i16, real, 0);
}

/// `a + b` saturated to int16 (AddElementWise), or the float sum.
static Value buildGateAdd(Lstm &l, Location loc, Value a, Value b2) {
  OpBuilder &b = l.b();
  auto type = cast<RankedTensorType>(a.getType());
  if (l.isFloat())
    return tosa::AddOp::create(b, loc, type, a, b2);
  auto wide = type.clone(b.getI32Type());
  Value sum =
      tosa::AddOp::create(b, loc, wide, tosa::CastOp::create(b, loc, wide, a),
                          tosa::CastOp::create(b, loc, wide, b2));
  return tosa::CastOp::create(b, loc, type,
                              buildClampInt(b, loc, sum, -32768, 32767));
}

/// One gate: act(FC(x) + bias + FC(h)).
static FailureOr<Value> buildGate(Lstm &l, Value x, Value h, unsigned inW,
                                  unsigned recW, unsigned bias, bool tanh,
                                  StringRef name) {
  FailureOr<Value> fromInput = buildGateFC(
      l, x, inW, bias, l.inputScale, l.inputZp, (name + "/input_fc").str());
  FailureOr<Value> fromState =
      buildGateFC(l, h, recW, -1, l.hiddenScale, l.hiddenZp,
                  (name + "/recurrent_fc").str());
  if (failed(fromInput) || failed(fromState))
    return failure();
  Location loc = l.ctx.getLoc(name);
  Value sum = buildGateAdd(l, l.ctx.getLoc((name + "/sum").str()), *fromInput,
                           *fromState);
  auto type = cast<RankedTensorType>(sum.getType());
  if (l.isFloat())
    return tanh ? Value(tosa::TanhOp::create(l.b(), loc, type, sum))
                : Value(tosa::SigmoidOp::create(l.b(), loc, type, sum));
  // Gate inputs are at 2^-12: the tanh kernel's left shift is 0.
  return buildInt16Activation(l.b(), loc, l.table, sum, 3, 0, tanh);
}

/// An elementwise product requantised as MulElementwise does (both inputs
/// symmetric), or the float product.
static FailureOr<Value> buildMul(Lstm &l, Location loc, Value a, Value b2,
                                 double s1, double s2, double sOut,
                                 Type outElement, int64_t outZp) {
  OpBuilder &b = l.b();
  auto type = cast<RankedTensorType>(a.getType());
  Value noShift = buildScalar(b, loc, b.getI8Type(), 0);
  if (l.isFloat())
    return Value(tosa::MulOp::create(b, loc, type, a, b2, noShift));
  Value product =
      tosa::MulOp::create(b, loc, type.clone(b.getI32Type()), a, b2, noShift);
  return buildRequantize32(l, loc, product, outElement, s1 * s2 / sOut, outZp);
}

FailureOr<Value>
mlir::helia::tflite::buildInitialState(Lstm &l, unsigned i,
                                       RankedTensorType type) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  int32_t index = ctx.getInputIndex(i);
  Location loc = ctx.importer.getTensorLoc(index);
  Value value;
  if (!ctx.importer.getTensor(index)->is_variable() ||
      ctx.importer.hasValue(index)) {
    FailureOr<Value> input = ctx.getInput(i);
    if (failed(input))
      return failure();
    value = *input;
  } else {
    RankedTensorType stored = ctx.getInputType(i);
    Type element = stored.getElementType();
    if (isa<FloatType>(element)) {
      value = tosa::ConstOp::create(
          b, loc, stored,
          DenseElementsAttr::get(stored, b.getFloatAttr(element, 0.0)));
    } else {
      int64_t zp =
          element.isInteger(8) ? ctx.getInputQuant(i).getZeroPoint() : 0;
      value = buildConst(b, loc, stored,
                         SmallVector<int64_t>(stored.getNumElements(), zp));
    }
  }
  return buildReshape(b, loc, value, type.getShape());
}

/// The cell state from the gates and the old state `c`: f * c + i * g,
/// saturated, clipped.
static FailureOr<Value> buildCellState(Lstm &l, Value ig, Value fg, Value gg,
                                       Value c) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  Type cellElement = l.cellType.getElementType();
  double gateOut = std::ldexp(1.0, -15);
  FailureOr<Value> fc = buildMul(l, ctx.getLoc("forget_cell"), fg, c, gateOut,
                                 l.cellScale, l.cellScale, cellElement, 0);
  FailureOr<Value> ic = buildMul(l, ctx.getLoc("input_cell"), ig, gg, gateOut,
                                 gateOut, l.cellScale, cellElement, 0);
  if (failed(fc) || failed(ic))
    return failure();
  Value newC = buildGateAdd(l, ctx.getLoc("cell_state"), *fc, *ic);
  if (l.cellClip <= 0)
    return newC;
  if (l.isFloat())
    return buildClampFloat(b, ctx.getLoc("cell_state"), newC, -l.cellClip,
                           l.cellClip);
  auto q = static_cast<int16_t>(
      std::min(std::max(static_cast<double>(l.cellClip) /
                            static_cast<double>(l.cellScale),
                        -32768.0),
               32767.0));
  return buildClampInt(b, ctx.getLoc("cell_state"), newC, -q, q);
}

/// The hidden state from the new cell state and the output gate:
/// tanh(c) * o.
static FailureOr<Value> buildHiddenState(Lstm &l, Value newC, Value og) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  Value tanhC;
  if (l.isFloat()) {
    tanhC = tosa::TanhOp::create(b, ctx.getLoc("cell_tanh"), l.cellType, newC);
  } else {
    int shift = 15 + l.cellScalePower - 3;
    int multiplier = 0;
    if (shift < 0) {
      shift = -shift;
      multiplier = 3;
    } else {
      multiplier = 3 << shift;
      shift = 0;
    }
    tanhC = buildInt16Activation(b, ctx.getLoc("cell_tanh"), l.table, newC,
                                 multiplier, shift, true);
  }
  double gateOut = std::ldexp(1.0, -15);
  return buildMul(l, ctx.getLoc("hidden_state"), tanhC, og, gateOut, gateOut,
                  l.hiddenScale, l.hiddenType.getElementType(), l.hiddenZp);
}

FailureOr<std::pair<Value, Value>>
mlir::helia::tflite::buildStep(Lstm &l, Value x4, Value h, Value c) {
  FailureOr<Value> ig = buildGate(l, x4, h, kInputToInput, kRecurrentToInput,
                                  kInputGateBias, false, "input_gate");
  FailureOr<Value> fg = buildGate(l, x4, h, kInputToForget, kRecurrentToForget,
                                  kForgetGateBias, false, "forget_gate");
  FailureOr<Value> gg = buildGate(l, x4, h, kInputToCell, kRecurrentToCell,
                                  kCellGateBias, true, "cell_gate");
  FailureOr<Value> og = buildGate(l, x4, h, kInputToOutput, kRecurrentToOutput,
                                  kOutputGateBias, false, "output_gate");
  if (failed(ig) || failed(fg) || failed(gg) || failed(og))
    return failure();
  FailureOr<Value> newC = buildCellState(l, *ig, *fg, *gg, c);
  if (failed(newC))
    return failure();
  FailureOr<Value> newH = buildHiddenState(l, *newC, *og);
  if (failed(newH))
    return failure();
  return std::make_pair(*newH, *newC);
}

