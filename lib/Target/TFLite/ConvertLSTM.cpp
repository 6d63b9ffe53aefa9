//===- ConvertLSTM.cpp - UNIDIRECTIONAL_SEQUENCE_LSTM ---------------------===//
//
// TFLite Micro's LSTM kernel (kernels/lstm_eval.h, lstm_eval_common.cc) as
// an `scf.for` over the time steps whose iteration arguments are the output
// sequence, the hidden state and the cell state. One step computes, for the
// four gates (input i, forget f, cell g, output o):
//
//   gate = act(FC(x_t, W_gate) + bias_gate + FC(h, R_gate))
//   c = clip(f * c + i * g),   h = tanh(c) * o,   out[t] = h
//
// with sigmoid for i, f, o and the fused activation (TANH, the only one
// TFLite Micro evaluates) for g. Float models compute this in f32. The
// integer kernels (int8 activations and weights with an int16 cell state,
// "8x8_16"; int16 activations with int8 weights, "16x8") follow TFLite
// Micro's arithmetic exactly:
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
// The `intermediates` of the operator carry no scales TFLite Micro reads
// (it fixes the gate scales), so the importer does not read them either.
//
// Peephole, projection, layer normalisation and CIFG (no input gate) are
// variants TFLite Micro rejects; the importer rejects them with an error
// naming the variant.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;

namespace {
/// The inputs of UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite's lstm_shared.h).
enum LstmInput : unsigned {
  kInput = 0,
  kInputToInput = 1,
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecurrentToInput = 5,
  kRecurrentToForget = 6,
  kRecurrentToCell = 7,
  kRecurrentToOutput = 8,
  kCellToInput = 9,
  kCellToForget = 10,
  kCellToOutput = 11,
  kInputGateBias = 12,
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
};

/// The element types of one LSTM: float, 8x8_16 or 16x8.
enum class LstmKind { Float, Int8, Int16 };

/// What every step of one LSTM needs.
struct Lstm {
  explicit Lstm(OpContext &ctx) : ctx(ctx) {}
  OpContext &ctx;
  LstmKind kind = LstmKind::Float;
  int64_t batch = 0, steps = 0, inputDim = 0, stateDim = 0;
  bool timeMajor = false;
  float cellClip = 0;
  /// [B, 1, 1, S] state types.
  RankedTensorType hiddenType, cellType;
  // Integer parameters.
  int64_t inputZp = 0, hiddenZp = 0;
  float inputScale = 1, hiddenScale = 1, cellScale = 1;
  int cellScalePower = 0;
  Value table;
  /// Built before the loop: the weights as [S, 1, 1, K] filters and the
  /// biases in the accumulator's type, by input index; a zero bias.
  llvm::DenseMap<unsigned, Value> operands;
  Value zeroBias;

  bool isFloat() const { return kind == LstmKind::Float; }
  OpBuilder &b() { return ctx.b; }
};
} // namespace

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

/// Builds, before the loop, the filters and biases every step reads.
static LogicalResult prepareOperands(Lstm &l) {
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

/// The initial value of a state input: its value when it is not a variable
/// tensor or when variables are persistent (the function's argument);
/// otherwise what TFLite Micro resets a variable to (the zero point for
/// int8, zero otherwise), whatever its buffer holds.
static FailureOr<Value> buildInitialState(Lstm &l, unsigned i,
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

/// One time step on `x4` ([B, 1, 1, I]) from the states `h` and `c`: the
/// four gates, then the new cell and hidden states.
static FailureOr<std::pair<Value, Value>> buildStep(Lstm &l, Value x4, Value h,
                                                    Value c) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  Type cellElement = l.cellType.getElementType();
  Type hidden = l.hiddenType.getElementType();
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
  // The cell state: f * c + i * g, saturated, clipped.
  double gateOut = std::ldexp(1.0, -15);
  FailureOr<Value> fc = buildMul(l, ctx.getLoc("forget_cell"), *fg, c, gateOut,
                                 l.cellScale, l.cellScale, cellElement, 0);
  FailureOr<Value> ic = buildMul(l, ctx.getLoc("input_cell"), *ig, *gg, gateOut,
                                 gateOut, l.cellScale, cellElement, 0);
  if (failed(fc) || failed(ic))
    return failure();
  Value newC = buildGateAdd(l, ctx.getLoc("cell_state"), *fc, *ic);
  if (l.cellClip > 0) {
    if (l.isFloat()) {
      newC = buildClampFloat(b, ctx.getLoc("cell_state"), newC, -l.cellClip,
                             l.cellClip);
    } else {
      auto q = static_cast<int16_t>(
          std::min(std::max(static_cast<double>(l.cellClip) /
                                static_cast<double>(l.cellScale),
                            -32768.0),
                   32767.0));
      newC = buildClampInt(b, ctx.getLoc("cell_state"), newC, -q, q);
    }
  }
  // The hidden state: tanh(c) * o.
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
  FailureOr<Value> newH =
      buildMul(l, ctx.getLoc("hidden_state"), tanhC, *og, gateOut, gateOut,
               l.hiddenScale, hidden, l.hiddenZp);
  if (failed(newH))
    return failure();
  return std::make_pair(*newH, newC);
}

static LogicalResult checkShape(OpContext &ctx, unsigned i,
                                ArrayRef<int64_t> shape, StringRef what) {
  RankedTensorType type = ctx.getInputType(i);
  if (type.getShape() != shape) {
    InFlightDiagnostic diag = ctx.emitError();
    diag << what << " (input " << i << ") has shape " << type << ", expected [";
    llvm::interleave(shape, diag, ", ");
    return diag << "]";
  }
  return success();
}

LogicalResult
mlir::helia::tflite::convertUnidirectionalSequenceLSTM(OpContext &ctx) {
  if (failed(ctx.checkArity(20, 24, 1)))
    return failure();
  FailureOr<const fb::UnidirectionalSequenceLSTMOptions *> opts =
      ctx.getOptions<fb::UnidirectionalSequenceLSTMOptions>();
  if (failed(opts))
    return failure();
  auto act = *opts ? (*opts)->fused_activation_function()
                   : fb::ActivationFunctionType_NONE;
  if (act != fb::ActivationFunctionType_TANH)
    return ctx.emitError() << "cell gate activation "
                           << fb::EnumNameActivationFunctionType(act)
                           << " is not supported (TFLite Micro evaluates "
                              "TANH only)";
  // The variants TFLite Micro's kernel rejects.
  struct Variant {
    unsigned first, last;
    const char *what;
  };
  for (Variant v : {Variant{kCellToInput, kCellToOutput, "peephole weights"},
                    Variant{kProjectionWeights, kProjectionBias, "projection"},
                    Variant{kInputLayerNorm, kOutputLayerNorm,
                            "layer normalisation coefficients"}})
    for (unsigned i = v.first; i <= v.last; ++i)
      if (ctx.hasInput(i))
        return ctx.emitError()
               << "has " << v.what << " (input " << i
               << "); helia imports the LSTM without peephole, projection "
                  "and layer normalisation, as TFLite Micro does";
  for (unsigned i : {kInputToInput, kRecurrentToInput, kInputGateBias})
    if (!ctx.hasInput(i))
      return ctx.emitError() << "has no input gate (input " << i
                             << " is absent: a coupled input-forget gate, "
                                "CIFG), which TFLite Micro does not support";
  for (unsigned i = 0; i <= kCellState; ++i)
    if (i < kCellToInput || (i > kCellToOutput && i < kProjectionWeights) ||
        i >= kOutputState)
      if (!ctx.hasInput(i))
        return ctx.emitError() << "input " << i << " is missing";
  if (*opts && (*opts)->diagonal_recurrent_tensors())
    return ctx.emitError() << "diagonal recurrent weights are not supported";

  RankedTensorType inType = ctx.getInputType(kInput);
  RankedTensorType outType = ctx.getOutputType();
  if (inType.getRank() != 3 || outType.getRank() != 3)
    return ctx.emitError() << "input and output must have rank 3 (time, "
                              "batch, features or batch, time, features)";
  bool timeMajor = *opts && (*opts)->time_major();
  if (ctx.getInputType(kRecurrentToForget).getRank() != 2)
    return ctx.emitError() << "recurrent weights (input " << kRecurrentToForget
                           << ") must have rank 2";
  Lstm l(ctx);
  l.timeMajor = timeMajor;
  l.batch = timeMajor ? inType.getDimSize(1) : inType.getDimSize(0);
  l.steps = timeMajor ? inType.getDimSize(0) : inType.getDimSize(1);
  l.inputDim = inType.getDimSize(2);
  l.stateDim = ctx.getInputType(kRecurrentToForget).getDimSize(0);
  l.cellClip = *opts ? (*opts)->cell_clip() : 0.0f;
  int64_t S = l.stateDim, I = l.inputDim;
  for (unsigned i = kInputToInput; i <= kInputToOutput; ++i)
    if (failed(checkShape(ctx, i, {S, I}, "input weights")))
      return failure();
  for (unsigned i = kRecurrentToInput; i <= kRecurrentToOutput; ++i)
    if (failed(checkShape(ctx, i, {S, S}, "recurrent weights")))
      return failure();
  for (unsigned i = kInputGateBias; i <= kOutputGateBias; ++i)
    if (failed(checkShape(ctx, i, {S}, "gate bias")))
      return failure();
  for (unsigned i : {kOutputState, kCellState})
    if (ctx.getInputType(i).getNumElements() != l.batch * S)
      return ctx.emitError()
             << "state (input " << i << ") has "
             << ctx.getInputType(i).getNumElements() << " elements, expected "
             << l.batch * S << " (batch x units)";
  if (outType.getDimSize(0) != inType.getDimSize(0) ||
      outType.getDimSize(1) != inType.getDimSize(1) ||
      outType.getDimSize(2) != S)
    return ctx.emitError() << "output " << outType
                           << " does not match the input " << inType << " and "
                           << S << " units";
  if (l.cellClip < 0 || !std::isfinite(l.cellClip))
    return ctx.emitError() << "cell clip " << l.cellClip
                           << " must be a finite number >= 0";

  // Types: every tensor float, or one of TFLite Micro's integer kernels.
  Type act8 = inType.getElementType();
  Type weight = ctx.getInputType(kInputToForget).getElementType();
  Type biasT = ctx.getInputType(kForgetGateBias).getElementType();
  Type hidden = ctx.getInputType(kOutputState).getElementType();
  Type cell = ctx.getInputType(kCellState).getElementType();
  Type out = outType.getElementType();
  for (unsigned i = kInputToInput; i <= kRecurrentToOutput; ++i)
    if (ctx.getInputType(i).getElementType() != weight)
      return ctx.emitError() << "weights of different types";
  for (unsigned i = kInputGateBias; i <= kOutputGateBias; ++i)
    if (ctx.getInputType(i).getElementType() != biasT)
      return ctx.emitError() << "biases of different types";
  auto typeError = [&]() {
    return ctx.emitError() << "unsupported types: input " << act8
                           << ", weights " << weight << ", bias " << biasT
                           << ", hidden state " << hidden << ", cell state "
                           << cell << ", output " << out
                           << " (helia imports float32, int8 with an int16 "
                              "cell state, and 16x8, as TFLite Micro does)";
  };
  if (act8.isF32()) {
    if (!weight.isF32() || !biasT.isF32() || !hidden.isF32() || !cell.isF32() ||
        !out.isF32())
      return typeError();
    l.kind = LstmKind::Float;
  } else if (act8.isInteger(8) || act8.isInteger(16)) {
    bool is8 = act8.isInteger(8);
    if (!weight.isInteger(8) || !biasT.isInteger(is8 ? 32 : 64) ||
        hidden != act8 || !cell.isInteger(16) || out != act8)
      return typeError();
    l.kind = is8 ? LstmKind::Int8 : LstmKind::Int16;
    for (unsigned i = 0; i <= kCellState; ++i) {
      if (!ctx.hasInput(i) || (i >= kInputGateBias && i <= kOutputGateBias))
        continue;
      const TensorQuant &q = ctx.getInputQuant(i);
      if (!q.isQuantized())
        return ctx.emitError()
               << "input " << i << " has no quantization parameters";
      if (q.isPerChannel())
        return ctx.emitError()
               << "input " << i
               << " is quantized per channel; TFLite Micro's LSTM reads one "
                  "scale per tensor";
    }
    const TensorQuant &inQ = ctx.getInputQuant(kInput);
    const TensorQuant &hQ = ctx.getInputQuant(kOutputState);
    const TensorQuant &cQ = ctx.getInputQuant(kCellState);
    const TensorQuant &oQ = ctx.getOutputQuant();
    if (oQ.getScale() != hQ.getScale() ||
        oQ.getZeroPoint() != hQ.getZeroPoint())
      return ctx.emitError() << "output quantization differs from the "
                                "hidden state's (TFLite Micro copies one to "
                                "the other)";
    if (cQ.getZeroPoint() != 0)
      return ctx.emitError()
             << "cell state zero point " << cQ.getZeroPoint() << " must be 0";
    if (!is8 && (inQ.getZeroPoint() != 0 || hQ.getZeroPoint() != 0))
      return ctx.emitError() << "int16 activations need zero point 0";
    l.inputScale = inQ.getScale();
    l.inputZp = inQ.getZeroPoint();
    l.hiddenScale = hQ.getScale();
    l.hiddenZp = hQ.getZeroPoint();
    l.cellScale = cQ.getScale();
    // CheckedLog2: the rounded exponent of the cell scale.
    l.cellScalePower = static_cast<int>(std::round(std::log2(l.cellScale)));
  } else {
    return typeError();
  }

  OpBuilder &b = ctx.b;
  Type cellElement = b.getI16Type();
  if (l.isFloat())
    cellElement = b.getF32Type();
  l.hiddenType = RankedTensorType::get({l.batch, 1, 1, S}, hidden);
  l.cellType = RankedTensorType::get({l.batch, 1, 1, S}, cellElement);
  if (!l.isFloat()) {
    l.table = buildSigmoidTable(b, ctx.getLoc("sigmoid_table"));
  }
  FailureOr<Value> input = ctx.getInput(kInput);
  FailureOr<Value> h0 = buildInitialState(l, kOutputState, l.hiddenType);
  FailureOr<Value> c0 = buildInitialState(l, kCellState, l.cellType);
  if (failed(input) || failed(h0) || failed(c0))
    return failure();
  // Every weight and bias before the loop: constants stay at the top of
  // the function, reshapes outside the loop body.
  if (failed(prepareOperands(l)))
    return failure();

  Location loc = ctx.getLoc();
  Value init =
      tensor::EmptyOp::create(b, ctx.getLoc("init"), outType.getShape(), out);
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, l.steps);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop =
      scf::ForOp::create(b, loc, lb, ub, one, ValueRange{init, *h0, *c0});
  // On failure the loop stays without a terminator: the import fails and
  // the module is dropped.
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value outAcc = loop.getRegionIterArg(0);
    Value h = loop.getRegionIterArg(1);
    Value c = loop.getRegionIterArg(2);
    // x_t: [1, B, I] (time major) or [B, 1, I].
    SmallVector<OpFoldResult> offsets =
        timeMajor
            ? SmallVector<OpFoldResult>{t, b.getIndexAttr(0), b.getIndexAttr(0)}
            : SmallVector<OpFoldResult>{b.getIndexAttr(0), t,
                                        b.getIndexAttr(0)};
    SmallVector<int64_t> stepIn = timeMajor
                                      ? SmallVector<int64_t>{1, l.batch, I}
                                      : SmallVector<int64_t>{l.batch, 1, I};
    SmallVector<OpFoldResult> sizes, strides(3, b.getIndexAttr(1));
    for (int64_t d : stepIn)
      sizes.push_back(b.getIndexAttr(d));
    auto sliceType = RankedTensorType::get(stepIn, act8);
    Value xt =
        tensor::ExtractSliceOp::create(b, ctx.getLoc("step_input"), sliceType,
                                       *input, offsets, sizes, strides);
    Value x4 =
        buildReshape(b, ctx.getLoc("step_input"), xt, {l.batch, 1, 1, I});
    FailureOr<std::pair<Value, Value>> next = buildStep(l, x4, h, c);
    if (failed(next))
      return failure();
    auto [newH, newC] = *next;
    SmallVector<int64_t> stepOut = timeMajor
                                       ? SmallVector<int64_t>{1, l.batch, S}
                                       : SmallVector<int64_t>{l.batch, 1, S};
    Value row = buildReshape(b, ctx.getLoc("step_output"), newH, stepOut);
    SmallVector<OpFoldResult> outSizes;
    for (int64_t d : stepOut)
      outSizes.push_back(b.getIndexAttr(d));
    Value updated = tensor::InsertSliceOp::create(
        b, ctx.getLoc("step_output"), row, outAcc, offsets, outSizes, strides);
    scf::YieldOp::create(b, loc, ValueRange{updated, newH, newC});
  }
  if (ctx.importer.hasPersistentVariables())
    for (auto [i, result] :
         {std::pair{kOutputState, 1u}, std::pair{kCellState, 2u}})
      if (ctx.importer.getTensor(ctx.getInputIndex(i))->is_variable())
        ctx.importer.setVariableState(ctx.getInputIndex(i),
                                      loop.getResult(result));
  return ctx.setOutput(0, loop.getResult(0));
}
