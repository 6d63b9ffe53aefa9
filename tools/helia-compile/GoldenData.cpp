//===- GoldenData.cpp - the golden-data file against the entry point ------===//
//
// Reads the .npz of --test-data and checks every array against the input or
// output of the entry point it stands for, so that a wrong file is a located
// error before anything is built.
//
//===----------------------------------------------------------------------===//

#include "GoldenTest.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
namespace numpy = ::helia::numpy;

namespace helia::compile {

/// NumPy's dtype for an element type of the model.
static std::optional<numpy::DType> getDType(Type type) {
  if (type.isF16())
    return numpy::DType{'f', 2};
  if (type.isF32())
    return numpy::DType{'f', 4};
  if (type.isF64())
    return numpy::DType{'f', 8};
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  unsigned width = integer.getWidth();
  if (width == 1)
    return numpy::DType{'b', 1};
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return std::nullopt;
  // Signless integers are TFLite's signed ones (int8_t in the header).
  return numpy::DType{integer.isUnsigned() ? 'u' : 'i', width / 8};
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

FailureOr<std::vector<TensorSpec>> getTensorSpecs(func::FuncOp entry) {
  std::vector<TensorSpec> specs;
  FunctionType type = entry.getFunctionType();
  auto add = [&](Type t, StringRef kind, unsigned index) -> LogicalResult {
    std::string key = (kind + "_" + Twine(index)).str();
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return emitError(entry.getLoc())
             << "--test-data needs statically shaped tensors, but " << kind
             << " " << index << " of '" << entry.getName() << "' is "
             << printType(t);
    std::optional<numpy::DType> dtype = getDType(tensor.getElementType());
    if (!dtype)
      return emitError(entry.getLoc())
             << "--test-data cannot hold " << kind << " " << index << " of '"
             << entry.getName() << "' (" << printType(t)
             << "): NumPy has no array of its element type";
    TensorSpec spec;
    spec.key = key;
    spec.dtype = *dtype;
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    spec.type = printType(t);
    spec.elements = tensor.getNumElements();
    specs.push_back(std::move(spec));
    return success();
  };
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (failed(add(t, "input", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(type.getResults()))
    if (failed(add(t, "output", i)))
      return failure();
  return specs;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// "(samples, 1, 49, 10, 1)".
static std::string sampledShape(ArrayRef<int64_t> shape) {
  std::string text = "(samples";
  for (int64_t dim : shape)
    text += ", " + std::to_string(dim);
  return text + ")";
}

FailureOr<GoldenData> loadGoldenData(MLIRContext *ctx,
                                     const TestOptions &options,
                                     std::vector<TensorSpec> specs) {
  Location loc = FileLineColLoc::get(ctx, options.dataPath, 0, 0);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(options.dataPath, /*IsText=*/false);
  if (!buffer)
    return emitError(loc) << "cannot read the test data '" << options.dataPath
                          << "': " << buffer.getError().message();
  llvm::Expected<std::vector<numpy::Array>> arrays =
      numpy::parseNpz((*buffer)->getBuffer());
  if (!arrays)
    return emitError(loc) << "the test data "
                          << llvm::toString(arrays.takeError());

  llvm::StringMap<size_t> byKey;
  for (auto [i, array] : llvm::enumerate(*arrays))
    byKey[array.name] = i;
  for (const numpy::Array &array : *arrays)
    if (llvm::none_of(specs, [&](const TensorSpec &spec) {
          return spec.key == array.name;
        }))
      return emitError(loc)
             << "the test data holds an array '" << array.name
             << "' that is no input or output of the model (its keys are "
             << "input_0..input_<n-1> and output_0..output_<m-1>)";

  GoldenData data;
  std::string firstKey;
  for (TensorSpec &spec : specs) {
    auto it = byKey.find(spec.key);
    if (it == byKey.end())
      return emitError(loc) << "the test data has no array '" << spec.key
                            << "' (" << spec.type << ")";
    numpy::Array &array = (*arrays)[it->second];
    if (array.dtype != spec.dtype)
      return emitError(loc)
             << "array '" << spec.key << "' has dtype " << array.dtype.name()
             << ", but the model's " << spec.key << " is " << spec.type
             << "; save it as " << spec.dtype.name() << " (np."
             << spec.dtype.name() << ")";
    // A leading sample axis, then the tensor's shape or its elements flat
    // (one axis; none for a one-element tensor).
    ArrayRef<int64_t> shape = array.shape;
    bool sampled = !shape.empty();
    ArrayRef<int64_t> rest = sampled ? shape.drop_front() : shape;
    bool asTensor = rest == ArrayRef<int64_t>(spec.shape);
    bool flat = (rest.size() == 1 && rest[0] == spec.elements) ||
                (rest.empty() && spec.elements == 1);
    if (!sampled || (!asTensor && !flat))
      return emitError(loc)
             << "array '" << spec.key << "' has shape " << shapeString(shape)
             << ", but " << spec.key << " of the model is " << spec.type
             << ": give it the shape " << sampledShape(spec.shape)
             << " or (samples, " << spec.elements
             << ") with each sample's elements flat";
    if (data.arrays.empty()) {
      data.samples = shape[0];
      firstKey = spec.key;
    } else if (shape[0] != data.samples) {
      return emitError(loc)
             << "array '" << spec.key << "' holds " << shape[0]
             << " samples, but '" << firstKey << "' holds " << data.samples
             << ": every array needs the same leading sample count";
    }
    data.arrays.push_back(std::move(array));
  }
  if (data.samples == 0)
    return emitError(loc) << "the test data holds no sample (its leading "
                          << "axis is 0)";
  data.numInputs = llvm::count_if(specs, [](const TensorSpec &spec) {
    return StringRef(spec.key).starts_with("input_");
  });
  data.specs = std::move(specs);
  return data;
}

} // namespace helia::compile
