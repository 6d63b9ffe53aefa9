//===- MemoryLimits.h - the memory-limit option -----------------*- C++ -*-===//
//
// The `memory-limit` option of helia-assign-bindings and helia-verify-plan
// (entries `name=bytes`, e.g. `dtcm=65536`): the capacities a plan must fit.
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

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_MEMORYLIMITS_H
