//===- helia-npz-fuzzer.cpp - the NumPy reader under libFuzzer ------------===//
//
// Feeds arbitrary bytes to parseNpz (an .npz, the golden data of
// helia-compile --test-data) and to parseNpy. Either the parse fails with a
// message, or every array it returns is consistent (its data holds exactly
// its elements) and survives a round trip through writeNpz; never a crash.
//
//===----------------------------------------------------------------------===//

#include "helia/Support/NumPy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace helia::numpy;

[[noreturn]] static void fail(const llvm::Twine &what) {
  llvm::errs() << "helia npz fuzzer: " << what << "\n";
  std::abort();
}

static void checkArrays(const std::vector<Array> &arrays) {
  for (const Array &array : arrays)
    if (static_cast<uint64_t>(array.numElements()) * array.dtype.bytes !=
        array.data.size())
      fail("array '" + array.name + "' holds " +
           llvm::Twine(array.data.size()) + " bytes for its shape");
  llvm::Expected<std::string> written = writeNpz(arrays);
  if (!written)
    fail("writeNpz failed: " + llvm::toString(written.takeError()));
  llvm::Expected<std::vector<Array>> again = parseNpz(*written);
  if (!again)
    fail("its own .npz does not parse: " + llvm::toString(again.takeError()));
  if (again->size() != arrays.size())
    fail("the round trip changed the number of arrays");
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Array &a = arrays[i], &b = (*again)[i];
    if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape ||
        a.data != b.data)
      fail("the round trip changed array '" + a.name + "'");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<std::vector<Array>> arrays = parseNpz(bytes);
  if (arrays) {
    checkArrays(*arrays);
  } else {
    std::string message = llvm::toString(arrays.takeError());
    if (message.empty())
      fail("parseNpz failed without a message");
  }
  llvm::Expected<Array> array = parseNpy(bytes, "fuzz");
  if (array) {
    checkArrays({*array});
  } else {
    std::string message = llvm::toString(array.takeError());
    if (message.empty())
      fail("parseNpy failed without a message");
  }
  return 0;
}
