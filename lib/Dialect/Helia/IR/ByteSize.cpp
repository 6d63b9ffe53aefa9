//===- ByteSize.cpp - how many bytes a tensor or memref takes -------------===//

#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

/// The bytes one element of `type` takes in memory: LLVM's allocation size,
/// which rounds a width that is not a power of two bytes up (an i48
/// accumulator takes 8 bytes, an i24 4), on the host and on Arm alike.
static uint64_t getScalarByteSize(Type type) {
  return llvm::PowerOf2Ceil(llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

std::optional<uint64_t> mlir::helia::getElementByteSize(Type type) {
  if (type.isIndex())
    return kIndexByteSize;
  if (type.isIntOrFloat())
    return getScalarByteSize(type);
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type inner = complex.getElementType();
    if (!inner.isIntOrFloat())
      return std::nullopt;
    return 2 * getScalarByteSize(inner);
  }
  return std::nullopt;
}

bool mlir::helia::hasExactElementBytes(Type type) {
  return type.isIntOrFloat() &&
         8 * getScalarByteSize(type) == type.getIntOrFloatBitWidth();
}

std::optional<uint64_t> mlir::helia::getTensorByteSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  std::optional<uint64_t> bytes = getElementByteSize(shaped.getElementType());
  if (!bytes)
    return std::nullopt;
  for (int64_t dim : shaped.getShape()) {
    bool overflow = false;
    *bytes = llvm::SaturatingMultiply(*bytes, static_cast<uint64_t>(dim),
                                      &overflow);
    if (overflow)
      return std::nullopt;
  }
  return bytes;
}
