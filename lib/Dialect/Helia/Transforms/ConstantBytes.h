//===- ConstantBytes.h - bytes of constant tensors --------------*- C++ -*-===//
//
// Constant arenas hold the bytes of their tensors in the image. These helpers
// turn a constant's value into the bytes TFLite Micro would store: every
// element rounded up to whole bytes, little-endian, in row-major order.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CONSTANTBYTES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CONSTANTBYTES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

namespace mlir::helia {

/// Writes the bytes of `value` (a dense or dense-resource elements attribute
/// of integer or float elements) into `out`, which must hold exactly the
/// tensor's byte size. Emits a located error at `loc` and fails for a value
/// helia cannot pack.
LogicalResult packConstantBytes(Attribute value, MutableArrayRef<uint8_t> out,
                                Location loc);

/// Returns `bytes` as a `tensor<Nxi8>` initializer for a `memref.global`.
DenseElementsAttr getByteInitializer(MLIRContext *ctx, ArrayRef<uint8_t> bytes);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_CONSTANTBYTES_H
