//===- ModelTensors.cpp - the tensors of a .tflite model ------------------===//
//
// What the importer reads about one tensor of the subgraph: its location
// and description in diagnostics, its builtin type (checked against the
// bounds below), its quantization, its bytes, and its value: a function
// argument, an earlier operator's result, or a constant made on first use.
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
