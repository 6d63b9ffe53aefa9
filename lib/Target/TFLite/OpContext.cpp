//===- OpContext.cpp - one operator as its converter sees it --------------===//
//
// The inputs, outputs, options and constant operands of one operator of the
// subgraph, with the diagnostics that name it, and the arity check every
// converter starts with.
//
//===----------------------------------------------------------------------===//

#include "helia/Target/TFLite/ImportTFLite.h"

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::helia::tflite;

OpContext::OpContext(Importer &importer, unsigned index, const fb::Operator *op,
                     int32_t code, int32_t version)
    : b(importer.getBuilder()), importer(importer), index(index), op(op),
      code(code), version(version) {}

StringRef OpContext::getOpName() const {
  StringRef name = getBuiltinOperatorName(code);
  return name.empty() ? StringRef("unknown") : name;
}

unsigned OpContext::getNumInputs() const {
  return op->inputs() ? op->inputs()->size() : 0;
}
unsigned OpContext::getNumOutputs() const {
  return op->outputs() ? op->outputs()->size() : 0;
}
bool OpContext::hasInput(unsigned i) const {
  return i < getNumInputs() && op->inputs()->Get(i) >= 0;
}
int32_t OpContext::getInputIndex(unsigned i) const {
  return op->inputs()->Get(i);
}
int32_t OpContext::getOutputIndex(unsigned j) const {
  return op->outputs()->Get(j);
}

InFlightDiagnostic OpContext::emitError() {
  InFlightDiagnostic diag = mlir::emitError(importer.getFileLoc());
  diag << "operator " << index << " (" << getOpName() << " v" << version
       << "): ";
  return diag;
}

FailureOr<Value> OpContext::getInput(unsigned i) {
  if (!hasInput(i)) {
    emitError() << "input " << i << " is missing";
    return failure();
  }
  return importer.getValue(getInputIndex(i));
}

// checkArity and the converters ask for types of tensors verifyModel
// checked; a type error there was already reported by getTensorType, and
// callers see a null type.
RankedTensorType OpContext::getInputType(unsigned i) {
  FailureOr<RankedTensorType> type = importer.getTensorType(getInputIndex(i));
  return succeeded(type) ? *type : RankedTensorType();
}
RankedTensorType OpContext::getOutputType(unsigned j) {
  FailureOr<RankedTensorType> type = importer.getTensorType(getOutputIndex(j));
  return succeeded(type) ? *type : RankedTensorType();
}

static const TensorQuant &getQuantOrEmpty(Importer &importer, int32_t index) {
  static const TensorQuant empty;
  FailureOr<const TensorQuant *> quant = importer.getTensorQuant(index);
  return succeeded(quant) ? **quant : empty;
}
const TensorQuant &OpContext::getInputQuant(unsigned i) {
  return getQuantOrEmpty(importer, getInputIndex(i));
}
const TensorQuant &OpContext::getOutputQuant(unsigned j) {
  return getQuantOrEmpty(importer, getOutputIndex(j));
}

bool OpContext::isInputConstant(unsigned i) {
  return hasInput(i) && importer.isConstantTensor(getInputIndex(i));
}

FailureOr<ArrayRef<uint8_t>> OpContext::getConstantBytes(unsigned i) {
  if (!isInputConstant(i)) {
    emitError() << "input " << i << " must be a constant tensor";
    return failure();
  }
  return importer.getTensorData(getInputIndex(i));
}

FailureOr<SmallVector<int64_t>> OpContext::getConstantInts(unsigned i) {
  FailureOr<ArrayRef<uint8_t>> data = getConstantBytes(i);
  if (failed(data))
    return failure();
  RankedTensorType type = getInputType(i);
  if (!type)
    return failure();
  unsigned bits = type.getElementType().isInteger()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 0;
  if (bits != 32 && bits != 64) {
    emitError() << "input " << i << " must be an int32 or int64 constant";
    return failure();
  }
  if (data->size() != static_cast<size_t>(type.getNumElements()) * (bits / 8)) {
    emitError() << "input " << i << ": buffer holds " << data->size()
                << " bytes, its type " << type << " needs "
                << type.getNumElements() * (bits / 8);
    return failure();
  }
  SmallVector<int64_t> values;
  for (int64_t k = 0; k < type.getNumElements(); ++k) {
    if (bits == 32) {
      int32_t v;
      std::memcpy(&v, data->data() + 4 * k, 4);
      values.push_back(v);
    } else {
      int64_t v;
      std::memcpy(&v, data->data() + 8 * k, 8);
      values.push_back(v);
    }
  }
  return values;
}

Location OpContext::getLoc(unsigned j) {
  return importer.getTensorLoc(getOutputIndex(j));
}
Location OpContext::getLoc(StringRef suffix) {
  return importer.getTensorLoc(getOutputIndex(0), suffix);
}

LogicalResult OpContext::setOutput(unsigned j, Value value) {
  RankedTensorType expected = getOutputType(j);
  if (!expected)
    return failure();
  if (value.getType() != expected) {
    return emitError() << "computes " << value.getType() << " for "
                       << importer.describeTensor(getOutputIndex(j))
                       << ", whose type is " << expected;
  }
  // The op that computes the output carries its name, also when it was
  // built as an intermediate (a rescale whose activation clamp turned out
  // to be the identity).
  if (Operation *def = value.getDefiningOp()) {
    auto name = dyn_cast<NameLoc>(def->getLoc());
    auto output = cast<NameLoc>(getLoc(j));
    if (name && name.getName().strref().starts_with(
                    (output.getName().strref() + "/").str()))
      def->setLoc(output);
  }
  importer.setValue(getOutputIndex(j), value);
  return success();
}

LogicalResult OpContext::checkArity(unsigned minInputs, unsigned maxInputs,
                                    unsigned numOutputs) {
  if (getNumInputs() < minInputs || getNumInputs() > maxInputs) {
    InFlightDiagnostic diag = emitError();
    diag << "has " << getNumInputs() << " inputs, expected ";
    if (minInputs == maxInputs)
      diag << minInputs;
    else
      diag << minInputs << " to " << maxInputs;
    return diag;
  }
  if (getNumOutputs() != numOutputs)
    return emitError() << "has " << getNumOutputs() << " outputs, expected "
                       << numOutputs;
  for (unsigned i = 0; i < getNumInputs(); ++i)
    if (hasInput(i) && !getInputType(i))
      return failure();
  for (unsigned j = 0; j < numOutputs; ++j)
    if (!getOutputType(j))
      return failure();
  return success();
}
