//===- Importer.h - the TFLite importer's internals -------------*- C++ -*-===//
//
// The model reader (Importer) and the view of one operator that each
// converter gets (OpContext), plus the few TOSA builders the converters
// share. Converters live in Convert*.cpp, one family of operators a file.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_IMPORTER_H
#define HELIA_LIB_TARGET_TFLITE_IMPORTER_H

#include "Quantization.h"
#include "TFLiteSchema_generated.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::helia::tflite {
namespace fb = ::helia::tfl;

/// A tensor's quantization: one scale and zero point per tensor, or one per
/// slice along `dimension` (per-channel weights).
struct TensorQuant {
  llvm::SmallVector<float> scales;
  llvm::SmallVector<int64_t> zeroPoints;
  int32_t dimension = 0;

  bool isQuantized() const { return !scales.empty(); }
  bool isPerChannel() const { return scales.size() > 1; }
  float getScale() const { return scales.empty() ? 1.0f : scales.front(); }
  int64_t getZeroPoint() const {
    return zeroPoints.empty() ? 0 : zeroPoints.front();
  }
};

/// Reads one model and builds its function.
class Importer {
public:
  Importer(MLIRContext *context, llvm::StringRef fileName,
           llvm::ArrayRef<uint8_t> bytes);

  OwningOpRef<ModuleOp> import(llvm::StringRef functionName,
                               bool persistentVariables = false);

  MLIRContext *getContext() { return context; }
  OpBuilder &getBuilder() { return builder; }
  llvm::StringRef getFileName() const { return fileName; }

  /// The location of the file (errors about the model as a whole).
  Location getFileLoc();
  /// The location of tensor `index`: its TFLite name around the file.
  Location getTensorLoc(int32_t index, llvm::StringRef suffix = {});

  const fb::Tensor *getTensor(int32_t index) const {
    return subgraph->tensors()->Get(index);
  }
  unsigned getNumTensors() const { return subgraph->tensors()->size(); }
  std::string describeTensor(int32_t index) const;

  /// The builtin type of tensor `index`, or an error naming what is wrong.
  FailureOr<RankedTensorType> getTensorType(int32_t index);
  FailureOr<const TensorQuant *> getTensorQuant(int32_t index);
  /// The bytes of a constant tensor, or an empty array for a tensor
  /// without data.
  FailureOr<llvm::ArrayRef<uint8_t>> getTensorData(int32_t index);
  bool isConstantTensor(int32_t index);

  /// The value of tensor `index`: a function argument, an earlier
  /// operator's result, or a constant made from its buffer on first use.
  FailureOr<Value> getValue(int32_t index);
  void setValue(int32_t index, Value value) { values[index] = value; }
  bool hasValue(int32_t index) const { return values.count(index); }

  /// Persistent variables (ImportOptions::persistentVariables): whether
  /// they are on, and the value variable `index` holds after an operator
  /// updated it.
  bool hasPersistentVariables() const { return persistentVariables; }
  void setVariableState(int32_t index, Value value) {
    variableStates[index] = value;
  }

private:
  /// The checks of the flatbuffer before anything is read from it: the
  /// FlatBuffers verifier and one subgraph (verifyFlatbuffer), every
  /// tensor's buffer and the subgraph's inputs and outputs (verifyTensors),
  /// every operator's code and tensor indices (verifyOperators).
  LogicalResult verifyModel();
  LogicalResult verifyFlatbuffer();
  LogicalResult verifyTensors();
  LogicalResult verifyOperators();
  LogicalResult convertOperators();
  FailureOr<Value> materializeConstant(int32_t index);

  /// The variable tensors operators read that are not subgraph inputs, in
  /// tensor order (with persistent variables; none otherwise).
  SmallVector<int32_t> collectVariables(ArrayRef<int32_t> inputs) const;
  /// The imported function's type: the inputs then the variables as
  /// arguments, the outputs then the variables as results.
  FailureOr<FunctionType> getFunctionType(ArrayRef<int32_t> inputs,
                                          ArrayRef<int32_t> outputs,
                                          ArrayRef<int32_t> variables);
  /// Makes the entry block's arguments the values of the inputs and the
  /// variables, with their names.
  LogicalResult bindArguments(func::FuncOp func, ArrayRef<int32_t> inputs,
                              ArrayRef<int32_t> variables);
  /// Returns the outputs, then every variable's state copied into its
  /// argument.
  LogicalResult buildReturn(func::FuncOp func, ArrayRef<int32_t> inputs,
                            ArrayRef<int32_t> outputs,
                            ArrayRef<int32_t> variables);

  MLIRContext *context;
  std::string fileName;
  llvm::ArrayRef<uint8_t> bytes;
  OpBuilder builder;
  const fb::Model *model = nullptr;
  const fb::SubGraph *subgraph = nullptr;
  llvm::DenseMap<int32_t, Value> values;
  llvm::DenseMap<int32_t, RankedTensorType> types;
  llvm::DenseMap<int32_t, std::unique_ptr<TensorQuant>> quants;
  bool persistentVariables = false;
  llvm::DenseMap<int32_t, Value> variableStates;
};

/// One operator of the subgraph, as its converter sees it.
class OpContext {
public:
  OpContext(Importer &importer, unsigned index, const fb::Operator *op,
            int32_t code, int32_t version);

  OpBuilder &b;

  unsigned getIndex() const { return index; }
  int32_t getCode() const { return code; }
  int32_t getVersion() const { return version; }
  llvm::StringRef getOpName() const;

  unsigned getNumInputs() const;
  unsigned getNumOutputs() const;
  /// False for an absent optional input (index -1) or one past the end.
  bool hasInput(unsigned i) const;
  int32_t getInputIndex(unsigned i) const;
  int32_t getOutputIndex(unsigned j) const;

  FailureOr<Value> getInput(unsigned i);
  RankedTensorType getInputType(unsigned i);
  RankedTensorType getOutputType(unsigned j = 0);
  const TensorQuant &getInputQuant(unsigned i);
  const TensorQuant &getOutputQuant(unsigned j = 0);
  bool isInputConstant(unsigned i);
  /// The elements of a constant integer input (int32 or int64), or an error.
  FailureOr<llvm::SmallVector<int64_t>> getConstantInts(unsigned i);
  FailureOr<llvm::ArrayRef<uint8_t>> getConstantBytes(unsigned i);

  /// The options table, checked against the union's type; null when the
  /// operator has none (callers use TFLite's defaults then).
  template <typename T>
  FailureOr<const T *> getOptions() {
    if (op->builtin_options_type() == fb::BuiltinOptions_NONE)
      return static_cast<const T *>(nullptr);
    if (op->builtin_options_type() != fb::BuiltinOptionsTraits<T>::enum_value) {
      emitError() << "has builtin options of type "
                  << static_cast<int>(op->builtin_options_type())
                  << ", expected "
                  << static_cast<int>(fb::BuiltinOptionsTraits<T>::enum_value);
      return failure();
    }
    return static_cast<const T *>(op->builtin_options());
  }
  /// The options table of an operator that cannot go without it: an error
  /// naming the missing table when the operator has none.
  template <typename T>
  FailureOr<const T *> getRequiredOptions() {
    FailureOr<const T *> opts = getOptions<T>();
    if (succeeded(opts) && !*opts)
      return emitError() << "has no "
                         << fb::EnumNameBuiltinOptions(
                                fb::BuiltinOptionsTraits<T>::enum_value);
    return opts;
  }

  /// The location of output `j` (its TFLite name), or of an intermediate
  /// value named `<output name>/<suffix>`.
  Location getLoc(unsigned j = 0);
  Location getLoc(llvm::StringRef suffix);

  /// An error located at the file: "operator N (NAME vV): ...".
  InFlightDiagnostic emitError();
  /// Checks `value` against output `j`'s type and records it.
  LogicalResult setOutput(unsigned j, Value value);

  /// Checks that the operator has at least `minInputs` and at most
  /// `maxInputs` inputs and exactly `numOutputs` outputs.
  LogicalResult checkArity(unsigned minInputs, unsigned maxInputs,
                           unsigned numOutputs);

  Importer &importer;

private:
  unsigned index;
  const fb::Operator *op;
  int32_t code;
  int32_t version;
};

/// TFLite's name for builtin operator `code`, or "" if helia does not know
/// it.
llvm::StringRef getBuiltinOperatorName(int32_t code);

/// Converts one operator; reports an error for an unsupported one.
LogicalResult convertOperator(OpContext &ctx);

// The converters, by family (Convert*.cpp).
LogicalResult convertConv2D(OpContext &ctx);
LogicalResult convertDepthwiseConv2D(OpContext &ctx);
LogicalResult convertFullyConnected(OpContext &ctx);
LogicalResult convertTransposeConv(OpContext &ctx);
LogicalResult convertAveragePool2D(OpContext &ctx);
LogicalResult convertMaxPool2D(OpContext &ctx);
LogicalResult convertAddSub(OpContext &ctx);
LogicalResult convertMul(OpContext &ctx);
LogicalResult convertLeakyRelu(OpContext &ctx);
LogicalResult convertRelu(OpContext &ctx);
LogicalResult convertQuantize(OpContext &ctx);
LogicalResult convertDequantize(OpContext &ctx);
LogicalResult convertLogisticTanh(OpContext &ctx);
LogicalResult convertSoftmax(OpContext &ctx);
LogicalResult convertReshape(OpContext &ctx);
LogicalResult convertPad(OpContext &ctx);
LogicalResult convertStridedSlice(OpContext &ctx);
LogicalResult convertTranspose(OpContext &ctx);
LogicalResult convertConcatenation(OpContext &ctx);
LogicalResult convertMean(OpContext &ctx);
LogicalResult convertUnidirectionalSequenceLSTM(OpContext &ctx);

//===----------------------------------------------------------------------===//
// Shared builders
//===----------------------------------------------------------------------===//

/// A rank-1, one-element `tosa.const` (a zero point, a shift).
Value buildScalar(OpBuilder &b, Location loc, Type elementType, int64_t value);
Value buildScalarFloat(OpBuilder &b, Location loc, Type elementType,
                       double value);
/// A zero-point operand for a value of element type `type`.
Value buildZeroPoint(OpBuilder &b, Location loc, Type type, int64_t value);
/// A `tosa.const` of `type` holding `values`.
Value buildConst(OpBuilder &b, Location loc, RankedTensorType type,
                 llvm::ArrayRef<int64_t> values);
Value buildShape(OpBuilder &b, Location loc, llvm::ArrayRef<int64_t> shape);
Value buildReshape(OpBuilder &b, Location loc, Value value,
                   llvm::ArrayRef<int64_t> shape);
/// A `tosa.rescale` from `input` to element type `outType` with one
/// multiplier/shift pair or one per channel (the last dimension).
Value buildRescale(OpBuilder &b, Location loc, Value input, Type outType,
                   llvm::ArrayRef<int32_t> multipliers,
                   llvm::ArrayRef<int32_t> shifts, int64_t inputZp,
                   int64_t outputZp, bool scale32,
                   tosa::RoundingMode rounding);
/// `(input - inputZp) * 2^leftShift` in i32, exactly.
Value buildToInt32(OpBuilder &b, Location loc, Value input, int64_t inputZp,
                   int leftShift = 0);
Value buildClampInt(OpBuilder &b, Location loc, Value input, int64_t min,
                    int64_t max);
Value buildClampFloat(OpBuilder &b, Location loc, Value input, float min,
                      float max);

/// TFLite's sigmoid_table_uint16 as a tensor<256xi32> constant.
Value buildSigmoidTable(OpBuilder &b, Location loc);
/// TFLite's int16 LOGISTIC (`isTanh` false) or TANH
/// (reference_integer_ops::Logistic / ::Tanh) of an int16 tensor, elementwise:
/// the input becomes `(x * multiplier + round) >> shift`, then the
/// interpolated `sigmoidTable` (buildSigmoidTable) gives the result at
/// 2^-15. The multiplier and shift are what the kernel applies (a
/// power-of-two scale already folded in: 3 for an input at 2^-12).
Value buildInt16Activation(OpBuilder &b, Location loc, Value sigmoidTable,
                           Value input, int32_t multiplier, int shift,
                           bool isTanh);

/// The element type `value` has.
Type getElementType(Value value);
/// int8 or int16: the element types of TFLite's quantized kernels.
bool isQuantizedInt(Type type);

/// A constant of `like`'s rank, all dimensions 1, holding `element` of
/// `type` (a broadcast operand).
Value buildSplat(OpContext &ctx, Location loc, Value like, Type type,
                 int64_t element);
Value buildSplatFloat(OpContext &ctx, Location loc, Value like,
                      float element);
/// A rescale by a real multiplier as TFLite's MultiplyByQuantizedMultiplier,
/// or an error when TOSA cannot express it.
FailureOr<Value> rescaleBy(OpContext &ctx, Location loc, Value value,
                           Type outType, double real, int64_t inputZp,
                           int64_t outputZp);

/// TFLite's activation range for a quantized output
/// (CalculateActivationRangeQuantized), or failure for an activation that
/// is not a clamp.
FailureOr<std::pair<int64_t, int64_t>>
getQuantizedActivationRange(OpContext &ctx, fb::ActivationFunctionType act,
                            const TensorQuant &quant, Type elementType);
/// Applies a fused activation to `value` (output `j`'s type).
FailureOr<Value> applyActivation(OpContext &ctx, Value value,
                                 fb::ActivationFunctionType act,
                                 unsigned j = 0);

/// SAME/VALID padding as TFLite computes it: {before, after} for one spatial
/// dimension.
std::pair<int64_t, int64_t> getSamePadding(int64_t in, int64_t out,
                                           int64_t stride, int64_t dilation,
                                           int64_t filter);

/// Makes TOSA's window arithmetic exact for an NHWC `input`: the padding
/// after each spatial dimension becomes what the output size needs, and an
/// input longer than the windows read (TFLite ignores the rest) is sliced.
Value fitWindow(OpBuilder &b, Location loc, Value input,
                llvm::SmallVectorImpl<int64_t> &pad,
                llvm::ArrayRef<int64_t> outHW, llvm::ArrayRef<int64_t> strides,
                llvm::ArrayRef<int64_t> effectiveKernel);

} // namespace mlir::helia::tflite

#endif // HELIA_LIB_TARGET_TFLITE_IMPORTER_H
