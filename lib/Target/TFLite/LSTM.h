//===- LSTM.h - the state of one UNIDIRECTIONAL_SEQUENCE_LSTM ---*- C++ -*-===//
//
// What the LSTM converter (ConvertLSTM.cpp: checks, time loop) and its time
// step (LSTMStep.cpp: gates, cell and hidden states) share: the operator's
// input indices, its kind and the values every step reads.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_LSTM_H
#define HELIA_LIB_TARGET_TFLITE_LSTM_H

#include "Importer.h"

#include "llvm/ADT/DenseMap.h"

#include <utility>

namespace mlir::helia::tflite {

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

/// Builds, before the loop, the filters and biases every step reads.
LogicalResult prepareOperands(Lstm &l);

/// The initial value of a state input: its value when it is not a variable
/// tensor or when variables are persistent (the function's argument);
/// otherwise what TFLite Micro resets a variable to (the zero point for
/// int8, zero otherwise), whatever its buffer holds.
FailureOr<Value> buildInitialState(Lstm &l, unsigned i, RankedTensorType type);

/// One time step on `x4` ([B, 1, 1, I]) from the states `h` and `c`: the
/// four gates, then the new hidden and cell states.
FailureOr<std::pair<Value, Value>> buildStep(Lstm &l, Value x4, Value h,
                                             Value c);

} // namespace mlir::helia::tflite

#endif // HELIA_LIB_TARGET_TFLITE_LSTM_H
