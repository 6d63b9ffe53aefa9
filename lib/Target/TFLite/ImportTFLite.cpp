//===- ImportTFLite.cpp - .tflite flatbuffers to TOSA ---------------------===//
//
// Reads the flatbuffer (verified by FlatBuffers' own verifier first), checks
// every index and shape the converters will rely on, and builds one
// function: subgraph inputs become arguments, operators are converted in
// execution order, constants are made on first use, subgraph outputs are
// returned.
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

/// Sizes above this are refused: no microcontroller holds a tensor of 2^40
/// bytes, and the bound keeps every product of dimensions far from overflow.
static constexpr int64_t kMaxElements = int64_t(1) << 40;

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext *context, StringRef fileName,
                   ArrayRef<uint8_t> bytes)
    : context(context), fileName(fileName.str()), bytes(bytes),
      builder(context) {}

Location Importer::getFileLoc() {
  return FileLineColLoc::get(context, fileName, 0, 0);
}

Location Importer::getTensorLoc(int32_t index, StringRef suffix) {
  const fb::Tensor *tensor = getTensor(index);
  std::string name = tensor->name() && tensor->name()->size()
                         ? tensor->name()->str()
                         : "tensor" + std::to_string(index);
  if (!suffix.empty())
    name += "/" + suffix.str();
  return NameLoc::get(StringAttr::get(context, name), getFileLoc());
}

std::string Importer::describeTensor(int32_t index) const {
  std::string text = "tensor " + std::to_string(index);
  const fb::Tensor *tensor = getTensor(index);
  if (tensor->name() && tensor->name()->size())
    text += " ('" + tensor->name()->str() + "')";
  return text;
}

static const char *getTensorTypeName(fb::TensorType type) {
  const char *name = fb::EnumNameTensorType(type);
  return name && *name ? name : "unknown";
}

FailureOr<RankedTensorType> Importer::getTensorType(int32_t index) {
  auto it = types.find(index);
  if (it != types.end())
    return it->second;
  const fb::Tensor *tensor = getTensor(index);
  auto fail = [&]() {
    return emitError(getFileLoc()) << describeTensor(index) << ": ";
  };
  Type element;
  switch (tensor->type()) {
  case fb::TensorType_FLOAT32:
    element = builder.getF32Type();
    break;
  case fb::TensorType_INT8:
    element = builder.getIntegerType(8);
    break;
  case fb::TensorType_INT16:
    element = builder.getIntegerType(16);
    break;
  case fb::TensorType_INT32:
    element = builder.getIntegerType(32);
    break;
  case fb::TensorType_INT64:
    element = builder.getIntegerType(64);
    break;
  case fb::TensorType_BOOL:
    element = builder.getI1Type();
    break;
  default:
    fail() << "unsupported element type " << getTensorTypeName(tensor->type())
           << " (helia imports float32, int8, int16, int32, int64 and bool "
              "tensors)";
    return failure();
  }
  if (tensor->sparsity()) {
    fail() << "sparse tensors are not supported; densify the model";
    return failure();
  }
  if (tensor->external_buffer()) {
    fail() << "refers to an external buffer; helia reads only weights stored "
              "in the file";
    return failure();
  }
  // A signature with -1 (a dynamic batch) is what converters write by
  // default; the shape holds the size the model was converted with, which
  // TFLite Micro and helia use.
  SmallVector<int64_t> shape;
  int64_t elements = 1;
  if (auto *dims = tensor->shape()) {
    for (int32_t dim : *dims) {
      if (dim < 0) {
        fail() << "has a dynamic shape (dimension " << dim
               << "); helia plans statically shaped models: convert with a "
                  "fixed size";
        return failure();
      }
      shape.push_back(dim);
      if (dim && elements > kMaxElements / dim) {
        fail() << "has more than 2^40 elements";
        return failure();
      }
      elements *= dim;
    }
  } else if (!tensor->has_rank() && !isConstantTensor(index)) {
    // A tensor with neither a shape nor a rank is of unknown rank, unless
    // it is a constant scalar.
    fail() << "has an unknown rank";
    return failure();
  }
  auto type = RankedTensorType::get(shape, element);
  types[index] = type;
  return type;
}

FailureOr<const TensorQuant *> Importer::getTensorQuant(int32_t index) {
  auto it = quants.find(index);
  if (it != quants.end())
    return it->second.get();
  auto quant = std::make_unique<TensorQuant>();
  const fb::Tensor *tensor = getTensor(index);
  if (const fb::QuantizationParameters *q = tensor->quantization()) {
    if (q->details_type() != fb::QuantizationDetails_NONE) {
      emitError(getFileLoc())
          << describeTensor(index)
          << ": custom or blockwise quantization is not supported";
      return failure();
    }
    if (q->scale())
      for (float scale : *q->scale())
        quant->scales.push_back(scale);
    if (q->zero_point())
      for (int64_t zp : *q->zero_point())
        quant->zeroPoints.push_back(zp);
    quant->dimension = q->quantized_dimension();
    if (!quant->zeroPoints.empty() &&
        quant->zeroPoints.size() != quant->scales.size()) {
      emitError(getFileLoc())
          << describeTensor(index) << ": " << quant->scales.size()
          << " quantization scales but " << quant->zeroPoints.size()
          << " zero points";
      return failure();
    }
    for (float scale : quant->scales)
      if (!(scale > 0.0f) || !std::isfinite(scale)) {
        emitError(getFileLoc()) << describeTensor(index)
                                << ": quantization scale " << scale
                                << " is not a positive finite number";
        return failure();
      }
  }
  const TensorQuant *result = quant.get();
  quants[index] = std::move(quant);
  return result;
}

bool Importer::isConstantTensor(int32_t index) {
  uint32_t buffer = getTensor(index)->buffer();
  if (buffer == 0 || buffer >= model->buffers()->size())
    return false;
  const fb::Buffer *data = model->buffers()->Get(buffer);
  return data && data->data() && data->data()->size() > 0;
}

FailureOr<ArrayRef<uint8_t>> Importer::getTensorData(int32_t index) {
  uint32_t buffer = getTensor(index)->buffer();
  if (buffer == 0)
    return ArrayRef<uint8_t>();
  // verifyModel checked the index.
  const fb::Buffer *data = model->buffers()->Get(buffer);
  if (data->offset() > 1 || data->size() > 0) {
    emitError(getFileLoc())
        << describeTensor(index)
        << ": its data lies outside the flatbuffer (a model over 2 GB); "
           "helia reads weights stored inside the file";
    return failure();
  }
  if (!data->data())
    return ArrayRef<uint8_t>();
  return ArrayRef<uint8_t>(data->data()->data(), data->data()->size());
}

FailureOr<Value> Importer::materializeConstant(int32_t index) {
  FailureOr<RankedTensorType> type = getTensorType(index);
  if (failed(type))
    return failure();
  FailureOr<ArrayRef<uint8_t>> data = getTensorData(index);
  if (failed(data))
    return failure();
  unsigned bits = type->getElementType().getIntOrFloatBitWidth();
  uint64_t expected = type->getNumElements() * std::max(bits / 8, 1u);
  if (data->size() != expected) {
    emitError(getFileLoc()) << describeTensor(index) << ": buffer holds "
                            << data->size() << " bytes, its type "
                            << *type << " needs " << expected;
    return failure();
  }
  DenseElementsAttr attr;
  if (bits == 1) {
    SmallVector<bool> flags;
    for (uint8_t byte : *data)
      flags.push_back(byte != 0);
    attr = DenseElementsAttr::get(*type, flags);
  } else {
    ArrayRef<char> raw(reinterpret_cast<const char *>(data->data()),
                       data->size());
    attr = DenseElementsAttr::getFromRawBuffer(*type, raw);
  }
  OpBuilder::InsertionGuard guard(builder);
  Block *entry = builder.getBlock();
  builder.setInsertionPointToStart(entry);
  // Constants go to the top of the function in tensor order, so that the
  // output does not depend on which operator used them first.
  Operation *after = nullptr;
  for (Operation &op : *entry) {
    auto constant = dyn_cast<tosa::ConstOp>(op);
    if (!constant)
      break;
    auto other = constant->getAttrOfType<IntegerAttr>("tfl.tensor");
    if (!other || other.getInt() > index)
      break;
    after = &op;
  }
  if (after)
    builder.setInsertionPointAfter(after);
  auto op = tosa::ConstOp::create(builder, getTensorLoc(index), *type, attr);
  op->setAttr("tfl.tensor", builder.getI32IntegerAttr(index));
  return op.getResult();
}

FailureOr<Value> Importer::getValue(int32_t index) {
  auto it = values.find(index);
  if (it != values.end())
    return it->second;
  if (!isConstantTensor(index)) {
    emitError(getFileLoc())
        << describeTensor(index)
        << " is read before any operator writes it and holds no data";
    return failure();
  }
  FailureOr<Value> value = materializeConstant(index);
  if (succeeded(value))
    values[index] = *value;
  return value;
}

LogicalResult Importer::verifyModel() {
  Location loc = getFileLoc();
  if (bytes.size() < 8) {
    return emitError(loc) << "is not a TFLite model: " << bytes.size()
                          << " bytes is too short for a flatbuffer";
  }
  if (!fb::ModelBufferHasIdentifier(bytes.data())) {
    return emitError(loc)
           << "is not a TFLite model: the flatbuffer identifier is not "
              "'TFL3'";
  }
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!fb::VerifyModelBuffer(verifier)) {
    return emitError(loc) << "is not a valid TFLite flatbuffer (the "
                             "FlatBuffers verifier rejects it: truncated or "
                             "corrupted)";
  }
  model = fb::GetModel(bytes.data());
  if (!model->subgraphs() || model->subgraphs()->size() == 0)
    return emitError(loc) << "has no subgraph";
  if (model->subgraphs()->size() > 1) {
    return emitError(loc)
           << "has " << model->subgraphs()->size()
           << " subgraphs; helia imports single-subgraph models (control "
              "flow ops such as WHILE and IF are not supported)";
  }
  subgraph = model->subgraphs()->Get(0);
  if (!subgraph->tensors())
    return emitError(loc) << "subgraph 0 has no tensor list";
  if (!model->buffers() || model->buffers()->size() == 0)
    return emitError(loc) << "has no buffer list (buffer 0 must exist)";
  unsigned numTensors = subgraph->tensors()->size();
  unsigned numBuffers = model->buffers()->size();
  for (unsigned i = 0; i < numTensors; ++i) {
    const fb::Tensor *tensor = subgraph->tensors()->Get(i);
    if (!tensor)
      return emitError(loc) << "tensor " << i << " is missing";
    if (tensor->buffer() >= numBuffers) {
      return emitError(loc)
             << describeTensor(i) << ": buffer index " << tensor->buffer()
             << " is out of range (the model has " << numBuffers
             << " buffers)";
    }
  }
  auto checkIndices = [&](const flatbuffers::Vector<int32_t> *list,
                          StringRef what, bool allowAbsent) -> LogicalResult {
    if (!list)
      return success();
    for (int32_t index : *list) {
      if (index == -1 && allowAbsent)
        continue;
      if (index < 0 || static_cast<unsigned>(index) >= numTensors) {
        return emitError(loc) << what << " refers to tensor " << index
                              << ", out of range (the subgraph has "
                              << numTensors << " tensors)";
      }
    }
    return success();
  };
  if (failed(checkIndices(subgraph->inputs(), "subgraph input", false)) ||
      failed(checkIndices(subgraph->outputs(), "subgraph output", false)))
    return failure();
  unsigned numCodes =
      model->operator_codes() ? model->operator_codes()->size() : 0;
  if (subgraph->operators()) {
    for (unsigned i = 0; i < subgraph->operators()->size(); ++i) {
      const fb::Operator *op = subgraph->operators()->Get(i);
      std::string what = "operator " + std::to_string(i);
      if (!op)
        return emitError(loc) << what << " is missing";
      if (op->opcode_index() >= numCodes) {
        return emitError(loc)
               << what << ": opcode index " << op->opcode_index()
               << " is out of range (the model has " << numCodes
               << " operator codes)";
      }
      if (failed(checkIndices(op->inputs(), what + " input", true)) ||
          failed(checkIndices(op->outputs(), what + " output", false)))
        return failure();
    }
  }
  return success();
}

LogicalResult Importer::convertOperators() {
  if (!subgraph->operators())
    return success();
  for (unsigned i = 0; i < subgraph->operators()->size(); ++i) {
    const fb::Operator *op = subgraph->operators()->Get(i);
    const fb::OperatorCode *opcode =
        model->operator_codes()->Get(op->opcode_index());
    // Codes below 127 may sit in the deprecated byte only (older files).
    int32_t code = std::max<int32_t>(opcode->deprecated_builtin_code(),
                                     opcode->builtin_code());
    OpContext ctx(*this, i, op, code, opcode->version());
    if (code == 32 /*CUSTOM*/) {
      ctx.emitError() << "is the custom operator '"
                      << (opcode->custom_code() ? opcode->custom_code()->str()
                                                : std::string("?"))
                      << "', which helia cannot import";
      return failure();
    }
    if (op->builtin_options_2_type() != 0)
      return ctx.emitError() << "uses BuiltinOptions2, which helia does not "
                                "read";
    if (op->outputs())
      for (int32_t output : *op->outputs())
        if (values.count(output))
          return ctx.emitError() << "writes " << describeTensor(output)
                                 << ", which already has a value";
    if (failed(convertOperator(ctx)))
      return failure();
    if (op->outputs())
      for (int32_t output : *op->outputs())
        if (!values.count(output))
          return ctx.emitError() << "left " << describeTensor(output)
                                 << " without a value";
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::import(StringRef functionName,
                                       bool persistent) {
  persistentVariables = persistent;
  if (failed(verifyModel()))
    return {};
  Location loc = getFileLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<int32_t> inputs, outputs;
  if (subgraph->inputs())
    inputs.assign(subgraph->inputs()->begin(), subgraph->inputs()->end());
  if (subgraph->outputs())
    outputs.assign(subgraph->outputs()->begin(), subgraph->outputs()->end());
  for (int32_t index : inputs) {
    FailureOr<RankedTensorType> type = getTensorType(index);
    if (failed(type))
      return {};
    argTypes.push_back(*type);
  }
  for (int32_t index : outputs) {
    FailureOr<RankedTensorType> type = getTensorType(index);
    if (failed(type))
      return {};
    resultTypes.push_back(*type);
  }
  // Persistent variables: the variable tensors operators read, in tensor
  // order, after the subgraph's inputs and outputs.
  SmallVector<int32_t> variables;
  if (persistentVariables && subgraph->operators()) {
    llvm::SmallDenseSet<int32_t, 4> seen;
    for (const fb::Operator *op : *subgraph->operators())
      if (op->inputs())
        for (int32_t index : *op->inputs())
          if (index >= 0 && getTensor(index)->is_variable() &&
              !llvm::is_contained(inputs, index) && seen.insert(index).second)
            variables.push_back(index);
    llvm::sort(variables);
    for (int32_t index : variables) {
      FailureOr<RankedTensorType> type = getTensorType(index);
      if (failed(type))
        return {};
      argTypes.push_back(*type);
      resultTypes.push_back(*type);
    }
  }
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, loc, functionName,
                                   builder.getFunctionType(argTypes,
                                                           resultTypes));
  Block *entry = func.addEntryBlock();
  for (auto [i, index] : llvm::enumerate(inputs)) {
    BlockArgument arg = entry->getArgument(i);
    arg.setLoc(getTensorLoc(index));
    if (values.count(index)) {
      emitError(loc) << describeTensor(index)
                     << " is listed twice as a subgraph input";
      return {};
    }
    values[index] = arg;
    func.setArgAttr(i, "helia.name",
                    cast<NameLoc>(getTensorLoc(index)).getName());
  }
  llvm::DenseMap<int32_t, Value> argOf;
  for (auto [k, index] : llvm::enumerate(variables)) {
    unsigned i = inputs.size() + k;
    BlockArgument arg = entry->getArgument(i);
    argOf[index] = arg;
    arg.setLoc(getTensorLoc(index));
    values[index] = arg;
    func.setArgAttr(i, "helia.name",
                    cast<NameLoc>(getTensorLoc(index)).getName());
    func.setArgAttr(i, "helia.persistent", builder.getUnitAttr());
  }
  builder.setInsertionPointToEnd(entry);
  if (failed(convertOperators()))
    return {};
  SmallVector<Value> results;
  for (int32_t index : outputs) {
    FailureOr<Value> value = getValue(index);
    if (failed(value))
      return {};
    results.push_back(*value);
  }
  // Each variable's state after the run, written back into its argument:
  // the result lives in the argument's persistent slot, so that a caller
  // whose state input is that slot carries the state from run to run
  // without a copy (and one that passes its own buffer copies the result
  // back).
  for (int32_t index : variables) {
    Value state = variableStates.lookup(index);
    if (!state)
      state = values[index];
    RankedTensorType type = *getTensorType(index);
    Location stateLoc = getTensorLoc(index, "next");
    state = buildReshape(builder, stateLoc, state, type.getShape());
    Value init = argOf[index];
    auto copy = linalg::CopyOp::create(builder, stateLoc, state, init);
    results.push_back(copy.getResult(0));
  }
  func::ReturnOp::create(builder, loc, results);
  // The constants' tensor indices only ordered them.
  func.walk([](tosa::ConstOp op) { op->removeAttr("tfl.tensor"); });
  if (failed(mlir::verify(*module)))
    return {};
  return module;
}

//===----------------------------------------------------------------------===//
// OpContext
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::string mlir::helia::tflite::getDefaultFunctionName(StringRef fileName) {
  std::string name = llvm::sys::path::stem(fileName).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (name.empty())
    return "model";
  if (llvm::isDigit(name.front()))
    name = "m_" + name;
  return name;
}

void mlir::helia::tflite::registerImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  scf::SCFDialect, tensor::TensorDialect, tosa::TosaDialect>();
}

OwningOpRef<ModuleOp>
mlir::helia::tflite::importTFLite(llvm::MemoryBufferRef buffer,
                                  MLIRContext *context,
                                  const ImportOptions &options) {
  DialectRegistry registry;
  registerImportDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();
  ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer.getBufferStart()),
      buffer.getBufferSize());
  Importer importer(context, buffer.getBufferIdentifier(), bytes);
  std::string name = options.functionName.empty()
                         ? getDefaultFunctionName(buffer.getBufferIdentifier())
                         : options.functionName;
  return importer.import(name, options.persistentVariables);
}

static llvm::cl::opt<bool> clPersistentVariables(
    "tflite-persistent-variables",
    llvm::cl::desc("variable tensors (an LSTM's states) become trailing "
                   "helia.persistent arguments and results (default: every "
                   "run starts from their reset state)"),
    llvm::cl::init(false));

static llvm::cl::opt<std::string>
    clFunctionName("tflite-function",
                   llvm::cl::desc("name of the imported function (default: "
                                  "the file's stem)"),
                   llvm::cl::init(""));

void mlir::helia::tflite::registerImportTFLiteTranslation() {
  TranslateToMLIRRegistration registration(
      "import-tflite", "import a .tflite flatbuffer as TOSA",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        ImportOptions options;
        options.functionName = clFunctionName;
        options.persistentVariables = clPersistentVariables;
        return importTFLite(buffer->getMemBufferRef(), context, options);
      },
      [](DialectRegistry &registry) { registerImportDialects(registry); });
}
