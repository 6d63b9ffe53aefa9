//===- ConstantBytes.cpp - bytes of constant tensors ----------------------===//

#include "ConstantBytes.h"

#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::helia;

/// Stores the low `bytes` bytes of `bits` little-endian at `out`.
static void storeLittleEndian(const APInt &bits, uint8_t *out,
                              uint64_t bytes) {
  for (uint64_t i = 0; i < bytes; ++i) {
    uint64_t lo = 8 * i;
    out[i] = lo >= bits.getBitWidth()
                 ? 0
                 : static_cast<uint8_t>(bits.extractBitsAsZExtValue(
                       std::min<unsigned>(8, bits.getBitWidth() - lo), lo));
  }
}

LogicalResult mlir::helia::packConstantBytes(Attribute value,
                                             MutableArrayRef<uint8_t> out,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return emitError(loc) << "constant value " << value
                          << " is not an elements attribute; helia packs "
                             "only dense or dense_resource tensor constants";
  ShapedType type = elements.getShapedType();
  std::optional<uint64_t> size = getTensorByteSize(type);
  if (!size || *size != out.size())
    return emitError(loc) << "constant of type " << type << " holds "
                          << (size ? *size : 0) << " bytes but its slot holds "
                          << out.size();
  Type elementType = type.getElementType();

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "constant refers to resource '"
                            << resource.getRawHandle().getKey()
                            << "' whose blob is missing";
    ArrayRef<char> data = blob->getData();
    // A resource is stored in the host layout of its elements; only exact
    // bytes per element keep that layout identical to the packed one.
    if (!hasExactElementBytes(elementType) || data.size() != out.size())
      return emitError(loc) << "resource constant of type " << type
                            << " has " << data.size()
                            << " bytes; helia packs resources only when "
                               "they hold whole-byte elements of the "
                               "tensor's size";
    std::memcpy(out.data(), data.data(), data.size());
    return success();
  }

  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !(elementType.isIntOrIndexOrFloat()))
    return emitError(loc) << "constant of type " << type
                          << " has no byte layout helia knows; use integer "
                             "or float elements in a dense or dense_resource "
                             "attribute";
  uint64_t elementBytes = *getElementByteSize(elementType);
  uint8_t *cursor = out.data();
  if (isa<FloatType>(elementType)) {
    for (const APFloat &element : dense.getValues<APFloat>()) {
      storeLittleEndian(element.bitcastToAPInt(), cursor, elementBytes);
      cursor += elementBytes;
    }
    return success();
  }
  for (const APInt &element : dense.getValues<APInt>()) {
    storeLittleEndian(element, cursor, elementBytes);
    cursor += elementBytes;
  }
  return success();
}

DenseElementsAttr mlir::helia::getByteInitializer(MLIRContext *ctx,
                                                  ArrayRef<uint8_t> bytes) {
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                    IntegerType::get(ctx, 8));
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(bytes.data()),
                           bytes.size()));
}
