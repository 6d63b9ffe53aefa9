//===- ConvertLSTM.cpp - UNIDIRECTIONAL_SEQUENCE_LSTM ---------------------===//
//
// TFLite Micro's LSTM kernel (kernels/lstm_eval.h, lstm_eval_common.cc) as
// an `scf.for` over the time steps whose iteration arguments are the output
// sequence, the hidden state and the cell state; LSTMStep.cpp builds one
// step (the gates, the cell and hidden states). This file checks the
// operator (its variant, shapes, types and quantization) and builds the
// loop. The `intermediates` of the operator carry no scales TFLite Micro
// reads (it fixes the gate scales), so the importer does not read them
// either.
//
// Peephole, projection, layer normalisation and CIFG (no input gate) are
// variants TFLite Micro rejects; the importer rejects them with an error
// naming the variant, and accepts the cell gate activation TANH only (the
// only one TFLite Micro evaluates).
//
//===----------------------------------------------------------------------===//

#include "LSTM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::helia::tflite;

using LstmOptions = fb::UnidirectionalSequenceLSTMOptions;

/// The variant: TANH for the cell gate, no peephole, projection, layer
/// normalisation or CIFG, every input TFLite Micro reads present.
static LogicalResult checkVariant(OpContext &ctx, const LstmOptions *opts) {
  auto act = opts ? opts->fused_activation_function()
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
  if (opts && opts->diagonal_recurrent_tensors())
    return ctx.emitError() << "diagonal recurrent weights are not supported";
  return success();
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

/// The sizes (batch, steps, features, units), the layout and the cell clip,
/// checked against every weight, bias and state.
static LogicalResult readShapes(Lstm &l, const LstmOptions *opts) {
  OpContext &ctx = l.ctx;
  RankedTensorType inType = ctx.getInputType(kInput);
  RankedTensorType outType = ctx.getOutputType();
  if (inType.getRank() != 3 || outType.getRank() != 3)
    return ctx.emitError() << "input and output must have rank 3 (time, "
                              "batch, features or batch, time, features)";
  bool timeMajor = opts && opts->time_major();
  if (ctx.getInputType(kRecurrentToForget).getRank() != 2)
    return ctx.emitError() << "recurrent weights (input " << kRecurrentToForget
                           << ") must have rank 2";
  l.timeMajor = timeMajor;
  l.batch = timeMajor ? inType.getDimSize(1) : inType.getDimSize(0);
  l.steps = timeMajor ? inType.getDimSize(0) : inType.getDimSize(1);
  l.inputDim = inType.getDimSize(2);
  l.stateDim = ctx.getInputType(kRecurrentToForget).getDimSize(0);
  l.cellClip = opts ? opts->cell_clip() : 0.0f;
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
  return success();
}

/// The scales and zero points of an integer LSTM (`is8`: 8x8_16, else 16x8):
/// one per tensor, the output's the hidden state's, a symmetric cell state.
static LogicalResult readQuantization(Lstm &l, bool is8) {
  OpContext &ctx = l.ctx;
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
  if (oQ.getScale() != hQ.getScale() || oQ.getZeroPoint() != hQ.getZeroPoint())
    return ctx.emitError() << "output quantization differs from the "
                              "hidden state's (TFLite Micro copies one to "
                              "the other)";
  if (cQ.getZeroPoint() != 0)
    return ctx.emitError() << "cell state zero point " << cQ.getZeroPoint()
                           << " must be 0";
  if (!is8 && (inQ.getZeroPoint() != 0 || hQ.getZeroPoint() != 0))
    return ctx.emitError() << "int16 activations need zero point 0";
  l.inputScale = inQ.getScale();
  l.inputZp = inQ.getZeroPoint();
  l.hiddenScale = hQ.getScale();
  l.hiddenZp = hQ.getZeroPoint();
  l.cellScale = cQ.getScale();
  // CheckedLog2: the rounded exponent of the cell scale.
  l.cellScalePower = static_cast<int>(std::round(std::log2(l.cellScale)));
  return success();
}

/// The kind: every tensor float, or one of TFLite Micro's integer kernels.
static LogicalResult readKind(Lstm &l) {
  OpContext &ctx = l.ctx;
  Type act8 = ctx.getInputType(kInput).getElementType();
  Type weight = ctx.getInputType(kInputToForget).getElementType();
  Type biasT = ctx.getInputType(kForgetGateBias).getElementType();
  Type hidden = ctx.getInputType(kOutputState).getElementType();
  Type cell = ctx.getInputType(kCellState).getElementType();
  Type out = ctx.getOutputType().getElementType();
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
    return success();
  }
  if (!act8.isInteger(8) && !act8.isInteger(16))
    return typeError();
  bool is8 = act8.isInteger(8);
  if (!weight.isInteger(8) || !biasT.isInteger(is8 ? 32 : 64) ||
      hidden != act8 || !cell.isInteger(16) || out != act8)
    return typeError();
  l.kind = is8 ? LstmKind::Int8 : LstmKind::Int16;
  return readQuantization(l, is8);
}

/// The body of the time loop: x_t sliced from `input`, one step, h written
/// into the output sequence.
static LogicalResult buildLoopBody(Lstm &l, scf::ForOp loop, Value input) {
  OpContext &ctx = l.ctx;
  OpBuilder &b = l.b();
  int64_t S = l.stateDim, I = l.inputDim;
  bool timeMajor = l.timeMajor;
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
          : SmallVector<OpFoldResult>{b.getIndexAttr(0), t, b.getIndexAttr(0)};
  SmallVector<int64_t> stepIn = timeMajor ? SmallVector<int64_t>{1, l.batch, I}
                                          : SmallVector<int64_t>{l.batch, 1, I};
  SmallVector<OpFoldResult> sizes, strides(3, b.getIndexAttr(1));
  for (int64_t d : stepIn)
    sizes.push_back(b.getIndexAttr(d));
  auto sliceType =
      RankedTensorType::get(stepIn, ctx.getInputType(kInput).getElementType());
  Value xt = tensor::ExtractSliceOp::create(b, ctx.getLoc("step_input"),
                                            sliceType, input, offsets, sizes,
                                            strides);
  Value x4 = buildReshape(b, ctx.getLoc("step_input"), xt, {l.batch, 1, 1, I});
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
  scf::YieldOp::create(b, ctx.getLoc(), ValueRange{updated, newH, newC});
  return success();
}

LogicalResult
mlir::helia::tflite::convertUnidirectionalSequenceLSTM(OpContext &ctx) {
  if (failed(ctx.checkArity(20, 24, 1)))
    return failure();
  FailureOr<const LstmOptions *> opts = ctx.getOptions<LstmOptions>();
  if (failed(opts))
    return failure();
  Lstm l(ctx);
  if (failed(checkVariant(ctx, *opts)) || failed(readShapes(l, *opts)) ||
      failed(readKind(l)))
    return failure();

  OpBuilder &b = ctx.b;
  Type cellElement = b.getI16Type();
  if (l.isFloat())
    cellElement = b.getF32Type();
  Type hidden = ctx.getInputType(kOutputState).getElementType();
  l.hiddenType = RankedTensorType::get({l.batch, 1, 1, l.stateDim}, hidden);
  l.cellType = RankedTensorType::get({l.batch, 1, 1, l.stateDim}, cellElement);
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
  RankedTensorType outType = ctx.getOutputType();
  Value init = tensor::EmptyOp::create(b, ctx.getLoc("init"),
                                       outType.getShape(),
                                       outType.getElementType());
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, l.steps);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop =
      scf::ForOp::create(b, loc, lb, ub, one, ValueRange{init, *h0, *c0});
  // On failure the loop stays without a terminator: the import fails and
  // the module is dropped.
  if (failed(buildLoopBody(l, loop, *input)))
    return failure();
  if (ctx.importer.hasPersistentVariables())
    for (auto [i, result] :
         {std::pair{kOutputState, 1u}, std::pair{kCellState, 2u}})
      if (ctx.importer.getTensor(ctx.getInputIndex(i))->is_variable())
        ctx.importer.setVariableState(ctx.getInputIndex(i),
                                      loop.getResult(result));
  return ctx.setOutput(0, loop.getResult(0));
}
