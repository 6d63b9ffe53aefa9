//===- ImportTFLite.cpp - .tflite flatbuffers to TOSA ---------------------===//
//
// Reads the flatbuffer (verified by FlatBuffers' own verifier first), checks
// every index the converters will rely on, and builds one function: subgraph
// inputs become arguments, operators are converted in execution order
// (OpContext.cpp), constants are made on first use (ModelTensors.cpp),
// subgraph outputs are returned.
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

Importer::Importer(MLIRContext *context, StringRef fileName,
                   ArrayRef<uint8_t> bytes)
    : context(context), fileName(fileName.str()), bytes(bytes),
      builder(context) {}

/// Checks that every index of `list` names a tensor of the subgraph (or is
/// -1, an absent optional input, with `allowAbsent`).
static LogicalResult checkTensorIndices(Location loc,
                                        const flatbuffers::Vector<int32_t> *list,
                                        StringRef what, unsigned numTensors,
                                        bool allowAbsent) {
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
}

LogicalResult Importer::verifyFlatbuffer() {
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
  return success();
}

LogicalResult Importer::verifyTensors() {
  Location loc = getFileLoc();
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
  if (failed(checkTensorIndices(loc, subgraph->inputs(), "subgraph input",
                                numTensors, false)) ||
      failed(checkTensorIndices(loc, subgraph->outputs(), "subgraph output",
                                numTensors, false)))
    return failure();
  return success();
}

LogicalResult Importer::verifyOperators() {
  Location loc = getFileLoc();
  unsigned numTensors = subgraph->tensors()->size();
  unsigned numCodes =
      model->operator_codes() ? model->operator_codes()->size() : 0;
  if (!subgraph->operators())
    return success();
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
    if (failed(checkTensorIndices(loc, op->inputs(), what + " input",
                                  numTensors, true)) ||
        failed(checkTensorIndices(loc, op->outputs(), what + " output",
                                  numTensors, false)))
      return failure();
  }
  return success();
}

LogicalResult Importer::verifyModel() {
  if (failed(verifyFlatbuffer()) || failed(verifyTensors()) ||
      failed(verifyOperators()))
    return failure();
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

SmallVector<int32_t>
Importer::collectVariables(ArrayRef<int32_t> inputs) const {
  SmallVector<int32_t> variables;
  if (!persistentVariables || !subgraph->operators())
    return variables;
  llvm::SmallDenseSet<int32_t, 4> seen;
  for (const fb::Operator *op : *subgraph->operators())
    if (op->inputs())
      for (int32_t index : *op->inputs())
        if (index >= 0 && getTensor(index)->is_variable() &&
            !llvm::is_contained(inputs, index) && seen.insert(index).second)
          variables.push_back(index);
  llvm::sort(variables);
  return variables;
}

FailureOr<FunctionType>
Importer::getFunctionType(ArrayRef<int32_t> inputs, ArrayRef<int32_t> outputs,
                          ArrayRef<int32_t> variables) {
  SmallVector<Type> argTypes, resultTypes;
  for (int32_t index : inputs) {
    FailureOr<RankedTensorType> type = getTensorType(index);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
  }
  for (int32_t index : outputs) {
    FailureOr<RankedTensorType> type = getTensorType(index);
    if (failed(type))
      return failure();
    resultTypes.push_back(*type);
  }
  for (int32_t index : variables) {
    FailureOr<RankedTensorType> type = getTensorType(index);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    resultTypes.push_back(*type);
  }
  return builder.getFunctionType(argTypes, resultTypes);
}

LogicalResult Importer::bindArguments(func::FuncOp func,
                                      ArrayRef<int32_t> inputs,
                                      ArrayRef<int32_t> variables) {
  Block &entry = func.getBody().front();
  for (auto [i, index] : llvm::enumerate(inputs)) {
    BlockArgument arg = entry.getArgument(i);
    arg.setLoc(getTensorLoc(index));
    if (values.count(index)) {
      return emitError(getFileLoc())
             << describeTensor(index) << " is listed twice as a subgraph input";
    }
    values[index] = arg;
    func.setArgAttr(i, "helia.name",
                    cast<NameLoc>(getTensorLoc(index)).getName());
  }
  for (auto [k, index] : llvm::enumerate(variables)) {
    unsigned i = inputs.size() + k;
    BlockArgument arg = entry.getArgument(i);
    arg.setLoc(getTensorLoc(index));
    values[index] = arg;
    func.setArgAttr(i, "helia.name",
                    cast<NameLoc>(getTensorLoc(index)).getName());
    func.setArgAttr(i, "helia.persistent", builder.getUnitAttr());
  }
  return success();
}

LogicalResult Importer::buildReturn(func::FuncOp func,
                                    ArrayRef<int32_t> inputs,
                                    ArrayRef<int32_t> outputs,
                                    ArrayRef<int32_t> variables) {
  SmallVector<Value> results;
  for (int32_t index : outputs) {
    FailureOr<Value> value = getValue(index);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  // Each variable's state after the run, written back into its argument:
  // the result lives in the argument's persistent slot, so that a caller
  // whose state input is that slot carries the state from run to run
  // without a copy (and one that passes its own buffer copies the result
  // back).
  for (auto [k, index] : llvm::enumerate(variables)) {
    Value state = variableStates.lookup(index);
    if (!state)
      state = values[index];
    RankedTensorType type = *getTensorType(index);
    Location stateLoc = getTensorLoc(index, "next");
    state = buildReshape(builder, stateLoc, state, type.getShape());
    Value init = func.getArgument(inputs.size() + k);
    auto copy = linalg::CopyOp::create(builder, stateLoc, state, init);
    results.push_back(copy.getResult(0));
  }
  func::ReturnOp::create(builder, getFileLoc(), results);
  return success();
}

OwningOpRef<ModuleOp> Importer::import(StringRef functionName,
                                       bool persistent) {
  persistentVariables = persistent;
  if (failed(verifyModel()))
    return {};
  Location loc = getFileLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  SmallVector<int32_t> inputs, outputs;
  if (subgraph->inputs())
    inputs.assign(subgraph->inputs()->begin(), subgraph->inputs()->end());
  if (subgraph->outputs())
    outputs.assign(subgraph->outputs()->begin(), subgraph->outputs()->end());
  // Persistent variables: the variable tensors operators read, in tensor
  // order, after the subgraph's inputs and outputs.
  SmallVector<int32_t> variables = collectVariables(inputs);
  FailureOr<FunctionType> type = getFunctionType(inputs, outputs, variables);
  if (failed(type))
    return {};
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, loc, functionName, *type);
  Block *entry = func.addEntryBlock();
  if (failed(bindArguments(func, inputs, variables)))
    return {};
  builder.setInsertionPointToEnd(entry);
  if (failed(convertOperators()) ||
      failed(buildReturn(func, inputs, outputs, variables)))
    return {};
  // The constants' tensor indices only ordered them.
  func.walk([](tosa::ConstOp op) { op->removeAttr("tfl.tensor"); });
  if (failed(mlir::verify(*module)))
    return {};
  return module;
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
