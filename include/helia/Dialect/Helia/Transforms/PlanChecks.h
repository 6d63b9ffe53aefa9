//===- PlanChecks.h - the checks of helia-verify-plan -----------*- C++ -*-===//
//
// Each check takes the bound module (and PlanLiveness's storage groups,
// derived from the IR independently of the planner) and fails with a
// located error at the first violation. helia-verify-plan runs them in the
// order below; each can be called on its own.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PLANCHECKS_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_PLANCHECKS_H

#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "mlir/IR/SymbolTable.h"

#include <map>

namespace mlir::helia {

/// Bindings and arena symbol uses: every tensor that owns storage is bound;
/// its arena (and stream pool) is a `helia.arena` of `symbols`, in a memory
/// of `platform`.
LogicalResult checkBindings(const FunctionLiveness &function,
                            const SymbolTable &symbols, PlatformAttr platform);

/// Shared storage: a tensor stored in another tensor's group is bound to
/// the same arena and offset as the group's root.
LogicalResult checkSharedBindings(const FunctionLiveness &function);

/// One group's bytes in one arena, on the verifier's timeline.
struct ArenaSlot {
  const TensorInfo *tensor;
  int64_t offset, size, first, last;
};

/// The slots of every arena, by arena name, in program order, on
/// ModuleLiveness's timeline: constants and persistent tensors are live for
/// all of it; a stream slot from its group's first read to its last.
using ArenaSlots = std::map<StringRef, std::vector<ArenaSlot>>;
ArenaSlots collectArenaSlots(const ModuleLiveness &liveness,
                             const SymbolTable &symbols);

/// Capacity, alignment and non-overlap: every slot lies inside `arena` at
/// a multiple of its alignment, and no two slots live at the same step
/// share a byte.
LogicalResult checkArenaSlots(ArenaOp arena, ArrayRef<ArenaSlot> slots);

/// Every memory of `platform` (within `memoryLimits`, name=bytes) holds its
/// arenas and staged source blobs.
LogicalResult checkMemoryCapacities(ModuleOp module, PlatformAttr platform,
                                    ArrayRef<std::string> memoryLimits);

/// Hydration: host code (an unplanned function) that runs a planned
/// function of a plan with staged constants without calling the hydrate
/// function of `prefixOption` first draws a warning.
void warnMissingHydrate(ModuleOp module, StringRef prefixOption);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PLANCHECKS_H
