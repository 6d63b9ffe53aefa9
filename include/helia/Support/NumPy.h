//===- NumPy.h - NumPy .npy and .npz files ----------------------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Reads and writes the arrays of NumPy's `np.save` (.npy) and `np.savez` /
// `np.savez_compressed` (.npz, a zip archive of .npy members, stored or
// deflated). helia-compile's golden-data test reads its samples from an
// .npz and writes what the device computed to one. The reader treats its
// input as hostile: every malformed file is an llvm::Error that says which
// member and what is wrong, never a crash (fuzz/helia-npz-fuzzer.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_SUPPORT_NUMPY_H
#define HELIA_SUPPORT_NUMPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace helia::numpy {

/// An element type of the numeric kinds NumPy writes in the array
/// protocol's spelling: `b1` (bool), `i1`..`i8`, `u1`..`u8`, `f2`, `f4`,
/// `f8`.
struct DType {
  /// 'b' (bool), 'i' (signed), 'u' (unsigned) or 'f' (IEEE float).
  char kind = 'f';
  /// Bytes per element.
  unsigned bytes = 4;

  bool operator==(const DType &other) const {
    return kind == other.kind && bytes == other.bytes;
  }
  bool operator!=(const DType &other) const { return !(*this == other); }
  /// The `descr` of a little-endian array of this type (`<i1`, `<f4`).
  std::string descr() const;
  /// NumPy's name of the type (`int8`, `float32`, `bool`).
  std::string name() const;
};

/// One array, its elements little-endian in row-major (C) order.
struct Array {
  /// The member's name without `.npy` (the key of `np.load(...)[key]`).
  std::string name;
  DType dtype;
  llvm::SmallVector<int64_t> shape;
  /// numElements() * dtype.bytes bytes.
  std::vector<uint8_t> data;

  int64_t numElements() const;
};

/// Parses the bytes of one .npy file. `name` names the array in errors.
/// Accepts format versions 1.0, 2.0 and 3.0, either byte order (big-endian
/// elements are swapped to little-endian) and C order; a Fortran-ordered
/// array, an object or structured dtype and a data size that disagrees
/// with the shape are errors.
llvm::Expected<Array> parseNpy(llvm::StringRef bytes, llvm::StringRef name);

/// Parses the bytes of an .npz archive: every `*.npy` member, in the order
/// of the archive's central directory. Members may be stored or deflated
/// (zip method 0 or 8) and use zip64 records; each member's CRC-32 is
/// checked. A member that is not named `*.npy`, or a name given twice, is
/// an error.
llvm::Expected<std::vector<Array>> parseNpz(llvm::StringRef bytes);

/// Whether this build can read deflated members (np.savez_compressed).
bool canInflate();

/// The bytes of `array` as a version 1.0 .npy file (little-endian, C order).
std::string writeNpy(const Array &array);

/// The bytes of an .npz archive (members stored, as `np.savez` writes them)
/// holding `arrays` as `<name>.npy`; an error past what a zip without
/// zip64 records holds (4 GiB, 65535 members).
llvm::Expected<std::string> writeNpz(llvm::ArrayRef<Array> arrays);

} // namespace helia::numpy

#endif // HELIA_SUPPORT_NUMPY_H
