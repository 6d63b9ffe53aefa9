//===- MemoryLimits.h - the memory-limit and memory-cost options *- C++ -*-===//
//
// The `memory-limit` option of helia-assign-bindings and helia-verify-plan
// (entries `name=bytes`, e.g. `dtcm=65536`): the capacities a plan must fit;
// and the `memory-cost` option of helia-assign-bindings (access costs).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_MEMORYLIMITS_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_MEMORYLIMITS_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::helia {

/// Returns the capacity in bytes of every memory of `platform`: its size,
/// or the limit given for it in `limits` (entries `name=bytes`, as the
/// passes' memory-limit option takes them). Emits a located error at `loc`
/// and fails on a malformed entry, an unknown memory or a limit above
/// kMaxMemoryBytes.
FailureOr<llvm::StringMap<int64_t>>
getMemoryCapacities(PlatformAttr platform, ArrayRef<std::string> limits,
                    Location loc);

/// Parses the `memory-cost` option of helia-assign-bindings (entries
/// `name=read,write` or `name=read,write,access_bytes`, e.g.
/// `sram=3,2` or `psram=24,24,4`) into the module attribute
/// `helia.memory_costs`: memory name to `array<i64: read_cycles,
/// write_cycles, access_bytes>`, an unset access width staying the
/// platform's. Null when `entries` is empty. Emits a located error at `loc`
/// and fails on a malformed entry, an unknown memory or a figure out of
/// range.
FailureOr<DictionaryAttr> parseMemoryCosts(PlatformAttr platform,
                                           ArrayRef<std::string> entries,
                                           Location loc);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_MEMORYLIMITS_H
