//===- MemoryLimits.cpp - the memory-limit option -------------------------===//

#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/IR/BuiltinAttributes.h"
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

FailureOr<DictionaryAttr>
mlir::helia::parseMemoryCosts(PlatformAttr platform,
                              ArrayRef<std::string> entries, Location loc) {
  if (entries.empty())
    return DictionaryAttr();
  MLIRContext *ctx = platform.getContext();
  llvm::StringMap<SmallVector<int64_t, 3>> costs;
  for (const std::string &entry : entries) {
    auto [name, figures] = StringRef(entry).split('=');
    SmallVector<StringRef> fields;
    figures.split(fields, ',');
    SmallVector<uint64_t, 3> values;
    for (StringRef field : fields) {
      uint64_t value;
      if (field.trim().getAsInteger(0, value))
        break;
      values.push_back(value);
    }
    if (values.size() != fields.size() ||
        (values.size() != 2 && values.size() != 3))
      return emitError(loc) << "memory-cost '" << entry
                            << "' is not name=read,write or "
                               "name=read,write,access_bytes in cycles per "
                               "access (e.g. sram=3,2)",
             failure();
    MemoryDescAttr memory = platform.lookupMemory(name);
    if (!memory)
      return emitError(loc) << "memory-cost names unknown memory '" << name
                            << "'; platform '" << platform.getName()
                            << "' has: "
                            << platform.getMemoryNamesForDiagnostic(),
             failure();
    if (values.size() == 2)
      values.push_back(memory.getAccessBytes());
    if (values[0] > kMaxAccessCycles || values[1] > kMaxAccessCycles ||
        values[2] == 0 || values[2] > kMaxAccessBytes)
      return emitError(loc) << "memory-cost '" << entry
                            << "' is out of range; give at most "
                            << kMaxAccessCycles
                            << " cycles per access and 1 to "
                            << kMaxAccessBytes << " bytes per access",
             failure();
    costs[name] = {static_cast<int64_t>(values[0]),
                   static_cast<int64_t>(values[1]),
                   static_cast<int64_t>(values[2])};
  }
  SmallVector<NamedAttribute> attrs;
  for (MemoryDescAttr memory : platform.getMemoryList()) {
    auto it = costs.find(memory.getName());
    if (it != costs.end())
      attrs.push_back(NamedAttribute(memory.getName(),
                                     DenseI64ArrayAttr::get(ctx, it->second)));
  }
  return DictionaryAttr::get(ctx, attrs);
}
