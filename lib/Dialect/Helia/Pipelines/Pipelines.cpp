//===- Pipelines.cpp - the helia memory pipeline --------------------------===//

#include "helia/Dialect/Helia/Pipelines/Pipelines.h"

#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::helia;

//===----------------------------------------------------------------------===//
// The options of each pass, from the pipeline's
//===----------------------------------------------------------------------===//

HeliaInsertTensorCopiesOptions
HeliaMemoryPipelineOptions::getInsertTensorCopiesOptions() const {
  HeliaInsertTensorCopiesOptions copies;
  copies.carryInPlace = carryInPlace;
  return copies;
}

HeliaResolveResidencyOptions
HeliaMemoryPipelineOptions::getResolveResidencyOptions() const {
  HeliaResolveResidencyOptions resolve;
  resolve.platform = platform;
  resolve.rulesFile = rulesFile;
  resolve.explain = explain;
  return resolve;
}

HeliaAssignBindingsOptions
HeliaMemoryPipelineOptions::getAssignBindingsOptions() const {
  HeliaAssignBindingsOptions assign;
  assign.algorithm = algorithm;
  assign.effort = effort;
  assign.streamPool = streamPool;
  assign.streamBudget = streamBudget;
  assign.memoryLimits.assign(memoryLimits.begin(), memoryLimits.end());
  assign.remarks = remarks;
  assign.objective = objective;
  assign.amortize = amortize;
  assign.trafficProfile = trafficProfile;
  assign.memoryCosts.assign(memoryCosts.begin(), memoryCosts.end());
  return assign;
}

HeliaVerifyPlanOptions
HeliaMemoryPipelineOptions::getVerifyPlanOptions() const {
  HeliaVerifyPlanOptions verify;
  verify.memoryLimits.assign(memoryLimits.begin(), memoryLimits.end());
  verify.prefix = prefix;
  verify.hydrate = hydrate;
  return verify;
}

HeliaExportPlanOptions
HeliaMemoryPipelineOptions::getExportPlanOptions() const {
  HeliaExportPlanOptions exportPlan;
  exportPlan.json = planJson;
  exportPlan.report = planReport;
  exportPlan.svg = planSvg;
  return exportPlan;
}

HeliaLowerCopiesOptions
HeliaMemoryPipelineOptions::getLowerCopiesOptions() const {
  HeliaLowerCopiesOptions copies;
  copies.mode = copyMode;
  return copies;
}

HeliaAssignSectionsOptions
HeliaMemoryPipelineOptions::getAssignSectionsOptions() const {
  HeliaAssignSectionsOptions sections;
  sections.ld = planLd;
  sections.ldMemory = planLdMemory;
  sections.header = planHeader;
  sections.triple = triple;
  sections.dataLayout = dataLayout;
  sections.modelApi = modelApi;
  return sections;
}

HeliaNameSlotAddressesOptions
HeliaMemoryPipelineOptions::getNameSlotAddressesOptions() const {
  HeliaNameSlotAddressesOptions names;
  names.arenas = slotAddresses;
  return names;
}

//===----------------------------------------------------------------------===//
// The pipelines
//===----------------------------------------------------------------------===//

void mlir::helia::buildHeliaMemoryPipeline(
    OpPassManager &pm, const HeliaMemoryPipelineOptions &options) {
  buildHeliaPlanningPipeline(pm, options);
  buildHeliaPlanOutputPipeline(pm, options);
}

void mlir::helia::buildHeliaPlanningPipeline(
    OpPassManager &pm, const HeliaMemoryPipelineOptions &options) {
  if (options.foldConstants)
    pm.addNestedPass<func::FuncOp>(createHeliaFoldConstantSubgraphs());
  if (options.fuseAccumulators)
    pm.addNestedPass<func::FuncOp>(createHeliaFuseAccumulators());
  // Every copy bufferization will make becomes an explicit op, so that the
  // planner counts exactly the buffers bufferization creates.
  pm.addPass(
      createHeliaInsertTensorCopies(options.getInsertTensorCopiesOptions()));
  // Elementwise results over dying inputs, on the buffers bufferization
  // creates (each destination its own tensor); the pass keeps only the
  // destinations One-Shot Analysis writes in place without a new copy.
  if (options.inPlace)
    pm.addPass(createHeliaElementwiseInPlace());

  pm.addPass(createHeliaResolveResidency(options.getResolveResidencyOptions()));
  // Resolve makes the platform the module's `helia.platform`: every later
  // pass reads it there (and helia-assign-sections from the firmware record
  // helia-lower-copies makes of it), none is given it again.

  pm.addPass(createHeliaAssignBindings(options.getAssignBindingsOptions()));
  pm.addPass(createHeliaVerifyPlan(options.getVerifyPlanOptions()));
}

void mlir::helia::buildHeliaPlanOutputPipeline(
    OpPassManager &pm, const HeliaMemoryPipelineOptions &options) {
  if (!options.planJson.empty() || !options.planReport.empty() ||
      !options.planSvg.empty()) {
    pm.addPass(createHeliaExportPlan(options.getExportPlanOptions()));
  }

  if (!options.lower)
    return;
  buildHeliaLoweringPipeline(pm, options.arenaMode, options.prefix);
  if (options.hydrate == HydrateMode::FirstCall)
    pm.addPass(createHeliaHydrateOnFirstCall());
  bool toLLVM = options.getToLLVM();
  if (!options.lowerCopies && !toLLVM)
    return;
  pm.addPass(createHeliaLowerCopies(options.getLowerCopiesOptions()));
  if (toLLVM)
    buildHeliaToLLVMPipeline(pm, options);
}

void mlir::helia::buildHeliaLoweringPipeline(OpPassManager &pm,
                                             ArenaMode arenaMode,
                                             StringRef prefix) {
  HeliaVerifyLowerableOptions verify;
  verify.arenaMode = arenaMode;
  verify.prefix = prefix.str();
  pm.addPass(createHeliaVerifyLowerable(verify));
  HeliaArenaCallingConventionOptions convention;
  convention.arenaMode = arenaMode;
  convention.prefix = prefix.str();
  pm.addPass(createHeliaArenaCallingConvention(convention));
  HeliaMaterializeSlotsOptions slots;
  slots.arenaMode = arenaMode;
  pm.addPass(createHeliaMaterializeSlots(slots));
  pm.addPass(createHeliaBufferizeInPlace());
  pm.addPass(createHeliaVerifyNoAllocations());
}

void mlir::helia::buildHeliaToLLVMPipeline(
    OpPassManager &pm, const HeliaMemoryPipelineOptions &options) {
  // The conversion docs/Lowering.md runs by hand, with non-contiguous
  // copies as loops so that the object needs no memrefCopy.
  pm.addPass(createHeliaExpandStridedCopies());
  // A quantized model's rescales are `tosa.apply_scale` inside the loops
  // tosa-to-linalg made; tosa-to-arith lowers them only when asked, with
  // 64-bit arithmetic as the TOSA specification computes them.
  TosaToArithPassOptions tosaToArith;
  tosaToArith.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(tosaToArith));
  // No libm in a firmware image: exp, tanh, log, erf, ... as arithmetic.
  if (options.approximateMath)
    pm.addNestedPass<func::FuncOp>(createHeliaApproximateMath());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // One function per op's loop nest: its registers and spills its own.
  if (options.outlineOps)
    pm.addPass(createHeliaOutlineLoopNests());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Distinct slots of one arena are offsets into one object to LLVM: mark
  // which bytes each access touches, so that LLVM knows which loads and
  // stores of different slots cannot alias (docs/Firmware.md). Before
  // expand-strided-metadata, while subviews (in bounds by construction)
  // are not yet reinterpret casts.
  pm.addPass(createHeliaMarkSlotAliasScopes());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Dynamic: each op converted with the data layout in scope, so that a
  // module's `dlti.dl_spec` sets the width of `index` (helia-compile gives
  // 32 bits on a 32-bit core); without one, 64 as before.
  ConvertToLLVMPassOptions toLLVMOptions;
  toLLVMOptions.useDynamic = true;
  pm.addPass(createConvertToLLVMPass(toLLVMOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createHeliaAttachSlotAliasScopes());
  // Every slot's address a symbol of its own: the code of an op the same
  // whatever offsets and arenas the plan gives its operands.
  if (options.slotAddresses != "none") {
    pm.addPass(
        createHeliaNameSlotAddresses(options.getNameSlotAddressesOptions()));
  }
  pm.addPass(createHeliaVerifyLLVM());
  pm.addPass(createHeliaAssignSections(options.getAssignSectionsOptions()));
}

void mlir::helia::registerHeliaPipelines() {
  PassPipelineRegistration<HeliaMemoryPipelineOptions>(
      "helia-memory-pipeline",
      "Resolve placements, assign bindings, verify the plan, and lower it "
      "(lower=true)",
      buildHeliaMemoryPipeline);
  PassPipelineRegistration<HeliaLoweringPipelineOptions>(
      "helia-lower-to-memref",
      "Lower a memory plan to arenas, views into them, and copies "
      "(helia-verify-lowerable, helia-arena-calling-convention, "
      "helia-materialize-slots, helia-bufferize-in-place, "
      "helia-verify-no-allocations)",
      [](OpPassManager &pm, const HeliaLoweringPipelineOptions &options) {
        buildHeliaLoweringPipeline(pm, options.arenaMode, options.prefix);
      });
}
