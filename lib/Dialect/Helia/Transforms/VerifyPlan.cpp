//===- VerifyPlan.cpp - check a bound module independently ----------------===//
//
// Trusts nothing the planner decided: derives storage groups and lifetimes
// from the IR on its own (PlanLiveness, not the planner's BufferAnalysis or
// its cached ModuleSchedule) and runs the checks of PlanChecks.h: bindings
// and arena symbols, shared storage bound alike, every arena's slots
// (capacity, alignment, no overlap of live slots, stream slots), hydration,
// the replay across calls, every memory's capacity.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"
#include "helia/Dialect/Helia/Analysis/PlanReplay.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Dialect/Helia/Transforms/PlanChecks.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAVERIFYPLAN
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaVerifyPlan
    : WithBufferizationModels<mlir::helia::impl::HeliaVerifyPlanBase<
          HeliaVerifyPlan>> {
  using WithBufferizationModels::WithBufferizationModels;
  void runOnOperation() override;
};

} // namespace

void HeliaVerifyPlan::runOnOperation() {
  ModuleOp module = getOperation();
  // Nothing the planner cached is used: drop it (peak memory on large
  // modules); the passes after this one build it again if they need it.
  getAnalysisManager().invalidate(mlir::detail::PreservedAnalyses());
  FailureOr<ModuleLiveness> liveness = ModuleLiveness::analyze(module);
  if (failed(liveness))
    return signalPassFailure();
  if (replayOnly) {
    if (failed(replayPlan(module, *liveness)))
      return signalPassFailure();
    return markAllAnalysesPreserved();
  }
  FailureOr<PlatformAttr> platformAttr = lookupPlatform(module, platform);
  if (failed(platformAttr))
    return signalPassFailure();

  SymbolTable symbols(module);
  for (const FunctionLiveness &function : liveness->functions)
    if (failed(checkBindings(function, symbols, *platformAttr)) ||
        failed(checkSharedBindings(function)))
      return signalPassFailure();
  for (auto &[name, slots] : collectArenaSlots(*liveness, symbols))
    if (failed(checkArenaSlots(symbols.lookup<ArenaOp>(name), slots)))
      return signalPassFailure();
  if (hydrate == HydrateMode::Explicit)
    warnMissingHydrate(module, prefix);
  // Across calls: replay the module and check that every read finds its
  // tensor's bytes intact.
  if (failed(replayPlan(module, *liveness)) ||
      failed(checkMemoryCapacities(module, *platformAttr, memoryLimits)))
    return signalPassFailure();
  markAllAnalysesPreserved();
}
