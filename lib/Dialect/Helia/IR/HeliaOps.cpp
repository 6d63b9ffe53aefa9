//===- HeliaOps.cpp - helia operations ------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

LogicalResult ArenaOp::verify() {
  // The accessors are unsigned: read the stored signed values, so that
  // `size = -128` is not taken for 2^64 - 128 (nor printed as
  // `memref<-128xi8>` by the lowering).
  int64_t size = getSizeAttr().getInt();
  int64_t alignment = getAlignmentAttr().getInt();
  if (size <= 0)
    return emitOpError("size must be positive, got ") << size;
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitOpError("alignment must be a positive power of two, got ")
           << alignment;
  if (getMemory().empty())
    return emitOpError("needs a non-empty memory");
  if (getRole() != ArenaRole::Constant && isStaged())
    return emitOpError("only constant arenas may have a source_memory ('")
           << *getSourceMemory() << "') other than their memory ('"
           << getMemory() << "')";
  if (getStream() && getRole() != ArenaRole::Scratch)
    return emitOpError("a stream pool must have role scratch");
  return success();
}

int64_t mlir::helia::getArenaBytesIn(ModuleOp module, StringRef memory) {
  // Saturating: hand-written arenas of up to 2^63 - 1 bytes each must not
  // wrap the sum into a number that fits.
  uint64_t used = 0;
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    if (arena.getMemory() == memory)
      used = llvm::SaturatingAdd(used, arena.getSize());
    if (arena.isStaged() && arena.getSourceMemoryOrMemory() == memory)
      used = llvm::SaturatingAdd(used, arena.getSize());
  }
  return static_cast<int64_t>(
      std::min<uint64_t>(used, std::numeric_limits<int64_t>::max()));
}

//===----------------------------------------------------------------------===//
// HydrateOp / StreamOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyCopy(Operation *op, Value source, Value target) {
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  std::optional<uint64_t> sourceBytes = getTensorByteSize(sourceType);
  std::optional<uint64_t> targetBytes = getTensorByteSize(targetType);
  for (MemRefType type : {sourceType, targetType})
    if (!getElementByteSize(type.getElementType()))
      return op->emitOpError("copies only memrefs of integer, float, index "
                             "or complex elements, not ")
             << type;
  if (!sourceBytes || !targetBytes)
    return op->emitOpError("copies memrefs of fewer than 2^64 bytes");
  if (*sourceBytes != *targetBytes)
    return op->emitOpError("source holds ")
           << *sourceBytes << " bytes but target holds " << *targetBytes;
  return success();
}

LogicalResult HydrateOp::verify() {
  return verifyCopy(*this, getSource(), getTarget());
}

LogicalResult StreamOp::verify() {
  return verifyCopy(*this, getSource(), getTarget());
}

#define GET_OP_CLASSES
#include "helia/Dialect/Helia/IR/HeliaOps.cpp.inc"
