//===- MemoryLimits.cpp - the memory-limit option -------------------------===//

#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::helia;

FailureOr<llvm::StringMap<int64_t>>
mlir::helia::getMemoryCapacities(PlatformAttr platform,
                                 ArrayRef<std::string> limits, Location loc) {
  llvm::StringMap<int64_t> capacity;
  for (MemoryDescAttr memory : platform.getMemoryList())
    capacity[memory.getName()] = static_cast<int64_t>(memory.getUsableSize());
  for (const std::string &entry : limits) {
    auto [name, bytes] = StringRef(entry).split('=');
    uint64_t value;
    if (bytes.getAsInteger(0, value))
      return emitError(loc) << "memory-limit '" << entry
                            << "' is not name=bytes (e.g. dtcm=65536)",
             failure();
    if (value > kMaxMemoryBytes)
      return emitError(loc) << "memory-limit '" << entry
                            << "' is larger than the 2^62 bytes helia "
                               "supports",
             failure();
    if (!platform.lookupMemory(name))
      return emitError(loc) << "memory-limit names unknown memory '" << name
                            << "'; platform '" << platform.getName()
                            << "' has: "
                            << platform.getMemoryNamesForDiagnostic(),
             failure();
    capacity[name] = static_cast<int64_t>(value);
  }
  return capacity;
}
