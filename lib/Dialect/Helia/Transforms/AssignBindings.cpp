//===- AssignBindings.cpp - bind every tensor to an arena offset ----------===//
//
// From resolved placements to a TensorBinding for every tensor. The pass
// parses its options and drives the planners of
// Analysis/BindingPlanner.h over the module's schedule: memory choice,
// stream schedule, scratch packing with spilling; then writes the plan.
//
//===----------------------------------------------------------------------===//

#include "BindingPlanWriter.h"
#include "helia/Dialect/Helia/Analysis/BindingPlan.h"
#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/ConstantOnly.h"
#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/Analysis/Traffic.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAASSIGNBINDINGS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaAssignBindings
    : WithBufferizationModels<mlir::helia::impl::HeliaAssignBindingsBase<
          HeliaAssignBindings>> {
  using WithBufferizationModels::WithBufferizationModels;
  void runOnOperation() override;

private:
  /// The capacities of the memories of `platformAttr` under memory-limit;
  /// records on the module the ones that differ from the memories' sizes.
  FailureOr<llvm::StringMap<int64_t>> parseLimits(PlatformAttr platformAttr);
  BindingOptions getBindingOptions() const {
    BindingOptions options;
    options.algorithm = algorithm;
    options.effort = effort;
    options.streamPool = streamPool;
    options.streamBudget = streamBudget;
    options.remarks = remarks;
    options.objective = objective;
    options.amortize = amortize;
    return options;
  }
};

} // namespace

FailureOr<llvm::StringMap<int64_t>>
HeliaAssignBindings::parseLimits(PlatformAttr platformAttr) {
  FailureOr<llvm::StringMap<int64_t>> capacities = getMemoryCapacities(
      platformAttr, memoryLimits, getOperation().getLoc());
  if (failed(capacities))
    return failure();
  // The plan records the capacities it was made for, so that its report and
  // JSON show them; a limit above the memory's size only measures packing.
  ModuleOp module = getOperation();
  SmallVector<NamedAttribute> limits;
  for (MemoryDescAttr memory : platformAttr.getMemoryList()) {
    int64_t planned = capacities->lookup(memory.getName());
    int64_t physical = static_cast<int64_t>(memory.getUsableSize());
    if (planned == physical)
      continue;
    limits.push_back(NamedAttribute(
        memory.getName(),
        IntegerAttr::get(IntegerType::get(&getContext(), 64), planned)));
    if (planned > physical)
      emitWarning(module.getLoc())
          << "memory-limit gives '" << memory.getName() << "' " << planned
          << " bytes, more than the " << physical << " it has on platform '"
          << platformAttr.getName()
          << "'; the plan may not fit the device (use such a limit only to "
             "measure packing)";
  }
  if (limits.empty())
    module->removeAttr(HeliaDialect::MemoryLimitsAttrHelper::getNameStr());
  else
    module->setAttr(HeliaDialect::MemoryLimitsAttrHelper::getNameStr(),
                    DictionaryAttr::get(&getContext(), limits));
  return capacities;
}

/// Scratch computed from constants alone costs RAM that folding at compile
/// time would move to flash: say so at each such buffer.
static void remarkConstantOnly(const ModuleSchedule &schedule) {
  for (const ModuleSchedule::Function &function : schedule.getFunctions()) {
    const BufferAnalysis &analysis = function.analysis;
    llvm::BitVector constantOnly =
        findConstantOnlyBuffers(analysis.getFunction(), analysis);
    for (unsigned index : constantOnly.set_bits()) {
      const BufferInfo &buffer = analysis.getBuffers()[index];
      // Named by the value computed into it, not by its empty tensor.
      const TensorInfo *named = &analysis.getTensors()[buffer.members.front()];
      for (unsigned member : buffer.members)
        if (!analysis.getTensors()[member]
                 .value.getDefiningOp<tensor::EmptyOp>()) {
          named = &analysis.getTensors()[member];
          break;
        }
      emitRemark(named->value.getLoc())
          << "scratch tensor '" << named->getDisplayName()
          << "' is computed from constants alone and costs " << buffer.size
          << " bytes of RAM; fold-constants=true moves it to flash when its "
             "ops only move elements (helia-fold-constant-subgraphs)";
    }
  }
}

void HeliaAssignBindings::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<PlatformAttr> platformAttr = lookupPlatform(module, platform);
  if (failed(platformAttr))
    return signalPassFailure();
  FailureOr<llvm::StringMap<int64_t>> capacities = parseLimits(*platformAttr);
  if (failed(capacities))
    return signalPassFailure();
  // Shared with helia-verify-plan and helia-export-plan after it: writing
  // bindings and arenas changes nothing the schedule reads.
  FailureOr<const ModuleSchedule *> schedule =
      getAnalysis<ModuleScheduleAnalysis>().getSchedule();
  if (failed(schedule))
    return signalPassFailure();

  FailureOr<DictionaryAttr> costOverrides =
      parseMemoryCosts(*platformAttr, memoryCosts, module.getLoc());
  if (failed(costOverrides))
    return signalPassFailure();
  // Recorded, as the limits are, so that the exports cost the plan alike.
  if (*costOverrides)
    module->setAttr(HeliaDialect::MemoryCostsAttrHelper::getNameStr(),
                    *costOverrides);
  BindingPlan plan(**schedule, *platformAttr, std::move(*capacities),
                   module.getLoc());
  BindingOptions options = getBindingOptions();
  llvm::StringMap<::helia::planner::AccessCost> costs =
      getMemoryCosts(module, *platformAttr);
  if (options.objective != ::helia::planner::Objective::Default) {
    setPredictedTraffic(plan);
    if (!trafficProfile.empty()) {
      FailureOr<::helia::planner::TrafficProfile> profile =
          loadTrafficProfile(trafficProfile, module.getLoc());
      if (failed(profile))
        return signalPassFailure();
      FailureOr<unsigned> profiled =
          applyTrafficProfile(plan, *profile, trafficProfile, remarks);
      if (failed(profiled))
        return signalPassFailure();
      numProfiled += *profiled;
    }
  } else if (!trafficProfile.empty()) {
    emitWarning(module.getLoc())
        << "traffic-profile '" << trafficProfile
        << "' is not used by objective=default; give objective=traffic";
  }
  MemoryChooser memories(plan);
  // The objective pins into what the others leave free: last.
  bool planned = succeeded(memories.chooseConstantHomes()) &&
                 succeeded(memories.choosePersistentHomes()) &&
                 succeeded(memories.checkCapacities()) &&
                 succeeded(StreamScheduler(plan, options).run()) &&
                 succeeded(ScratchPacker(plan, options).run()) &&
                 succeeded(TrafficObjective(plan, options, costs).run()) &&
                 succeeded(memories.checkCapacities());
  numSpilled += plan.getStatistics().spilled;
  numStreamFallbacks += plan.getStatistics().streamFallbacks;
  for (const BufferPlan &buffer : plan.getBuffers())
    numPinnedByObjective += buffer.pinnedByObjective;
  if (!planned)
    return signalPassFailure();
  writeBindingPlan(module, plan);
  if (remarks)
    remarkConstantOnly(**schedule);
  markAnalysesPreserved<ModuleScheduleAnalysis>();
}
