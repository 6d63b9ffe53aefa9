//===- ByteSize.h - how many bytes a tensor or memref takes -----*- C++ -*-===//
//
// The one byte-size rule of helia. Planning, the binding verifier, the copy
// ops' verifiers, constant packing and folding, slot alias scopes and the
// exports all call it, so that they cannot disagree about a type.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_IR_BYTESIZE_H
#define HELIA_DIALECT_HELIA_IR_BYTESIZE_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::helia {

/// Bytes of one `index` element. MLIR's default data layout gives `index` 64
/// bits, and so does the LLVM lowering unless told otherwise; a module whose
/// data layout says otherwise is rejected where tensors are collected.
inline constexpr uint64_t kIndexByteSize = 8;

/// Returns the bytes one element of `type` takes in a planned buffer:
/// integers and floats rounded up to whole bytes (as TFLite Micro does),
/// `index` kIndexByteSize, `complex<T>` twice T. Nullopt for any other type.
std::optional<uint64_t> getElementByteSize(Type type);

/// Whether an element of `type` fills its getElementByteSize exactly: an
/// integer or float whose width is a power-of-two number of whole bytes
/// (i8, i16, f32, ...), not i1, i4, i24 or `index`. Such elements are laid
/// out alike in a planned buffer, in a dense or dense_resource attribute's
/// raw bytes and in LLVM memory, so moving their bytes moves the elements.
bool hasExactElementBytes(Type type);

/// Returns the byte size of a statically shaped tensor or memref (elements
/// per getElementByteSize), or nullopt if it has no static shape, its
/// element type has no byte size, or the size overflows 64 bits.
std::optional<uint64_t> getTensorByteSize(Type type);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_IR_BYTESIZE_H
