//===- Pipelines.h - the helia memory pipeline ------------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H
#define HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Planner/Planner.h"
#include "helia/Planner/Traffic.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace helia {

/// The options of helia-lower-to-memref (buildHeliaLoweringPipeline).
struct HeliaLoweringPipelineOptions
    : public PassPipelineOptions<HeliaLoweringPipelineOptions> {
  PassOptions::Option<ArenaMode> arenaMode{
      *this, "arena-mode",
      llvm::cl::desc("How writable arenas are materialized"),
      llvm::cl::init(ArenaMode::Global),
      llvm::cl::values(
          clEnumValN(ArenaMode::Global, "global", "one memref.global per arena"),
          clEnumValN(ArenaMode::Alloc, "alloc",
                     "trailing arena arguments, allocated by "
                     "<prefix>_alloc_arenas"),
          clEnumValN(ArenaMode::Arg, "arg",
                     "trailing arena arguments supplied by the caller"))};
  PassOptions::Option<std::string> prefix{
      *this, "prefix",
      llvm::cl::desc("Prefix of the generated functions (default: the name "
                     "of the first planned function)")};
};

/// Lowers a bound module to memref, one job per pass (as Bufferization
/// chains its passes): helia-verify-lowerable, helia-arena-calling-convention,
/// helia-materialize-slots, helia-bufferize-in-place,
/// helia-verify-no-allocations. Registered as helia-lower-to-memref.
void buildHeliaLoweringPipeline(OpPassManager &pm, ArenaMode arenaMode,
                                StringRef prefix);

/// The union of the options of the passes the pipeline runs. Each option
/// reaches its passes through the get...Options functions at the end, the
/// one place that forwards them; unittests/Pipelines fails when an option
/// changes nothing in the pipeline built from it.
struct HeliaMemoryPipelineOptions
    : public PassPipelineOptions<HeliaMemoryPipelineOptions> {
  PassOptions::Option<std::string> platform{
      *this, "platform",
      llvm::cl::desc("Platform preset; overrides the module's helia.platform")};
  PassOptions::Option<bool> inPlace{
      *this, "in-place",
      llvm::cl::desc("Write elementwise results over inputs that die there "
                     "(helia-elementwise-in-place)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> carryInPlace{
      *this, "carry-in-place",
      llvm::cl::desc("Write a loop-carried tensor into the buffer the loop "
                     "carries when its old value is dead by then (false: a "
                     "second slot and a copy back; helia-insert-tensor-copies)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> rulesFile{
      *this, "rules-file",
      llvm::cl::desc("JSON rules file; overrides the module's helia.rules")};
  PassOptions::Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("Remark which rule set each field of each tensor"),
      llvm::cl::init(false)};
  PassOptions::Option<::helia::planner::Algorithm> algorithm{
      *this, "algorithm", llvm::cl::desc("Packing algorithm"),
      llvm::cl::init(::helia::planner::Algorithm::Best),
      llvm::cl::values(
          clEnumValN(::helia::planner::Algorithm::GreedyBySize,
                     "greedy-by-size", "TFLite Micro's greedy planner"),
          clEnumValN(::helia::planner::Algorithm::Heuristic, "heuristic",
                     "portfolio of greedy orderings, no search"),
          clEnumValN(::helia::planner::Algorithm::Best, "best",
                     "heuristics, then branch-and-bound search"))};
  PassOptions::Option<uint64_t> effort{
      *this, "effort",
      llvm::cl::desc("Search budget of algorithm=best, in search nodes"),
      llvm::cl::init(::helia::planner::kDefaultEffort)};
  PassOptions::Option<std::string> streamPool{
      *this, "stream-pool",
      llvm::cl::desc("Memory of the stream pool (default: first preferred)")};
  PassOptions::Option<uint64_t> streamBudget{
      *this, "stream-budget",
      llvm::cl::desc("Byte budget of the stream pool (0: capacity only)"),
      llvm::cl::init(0)};
  PassOptions::ListOption<std::string> memoryLimits{
      *this, "memory-limit",
      llvm::cl::desc("Byte limit of a memory, as name=bytes (repeatable)")};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Explain spills, stream fallbacks and the objective's "
                     "choices with remarks"),
      llvm::cl::init(false)};
  PassOptions::Option<::helia::planner::Objective> objective{
      *this, "objective",
      llvm::cl::desc("What the homes of open constants and the scratch "
                     "spills optimise (docs/Placement.md)"),
      llvm::cl::init(::helia::planner::Objective::Default),
      llvm::cl::values(
          clEnumValN(::helia::planner::Objective::Default, "default",
                     "constants cold where the rules put them"),
          clEnumValN(::helia::planner::Objective::Traffic, "traffic",
                     "predicted memory cycles per inference"),
          clEnumValN(::helia::planner::Objective::Exact, "exact",
                     "the same, solved exactly (small models)"),
          clEnumValN(::helia::planner::Objective::Hand, "hand",
                     "pin the constants with the most traffic that fit"),
          clEnumValN(::helia::planner::Objective::FastShare, "fast-share",
                     "pin by size x readers, the fast_share proxy"))};
  PassOptions::Option<uint64_t> amortize{
      *this, "amortize",
      llvm::cl::desc("Inferences a pin's one hydration is amortised over"),
      llvm::cl::init(1000)};
  PassOptions::Option<std::string> trafficProfile{
      *this, "traffic-profile",
      llvm::cl::desc("Measured traffic per tensor (bench/traffic.py "
                     "--profile) that the objective prices placements by "
                     "instead of the static model (docs/Placement.md)"),
      llvm::cl::init("")};
  PassOptions::ListOption<std::string> memoryCosts{
      *this, "memory-cost",
      llvm::cl::desc("Access costs of a memory, as "
                     "name=read,write[,access_bytes] in cycles (repeatable)")};
  PassOptions::Option<std::string> planJson{
      *this, "plan-json",
      llvm::cl::desc("Also write the plan as JSON to this path ('-': stdout)")};
  PassOptions::Option<std::string> planReport{
      *this, "plan-report",
      llvm::cl::desc("Also write a readable report to this path ('-': "
                     "stdout)")};
  PassOptions::Option<std::string> planSvg{
      *this, "plan-svg",
      llvm::cl::desc("Also write the SVG timeline of every arena to this path "
                     "('-': stdout)")};
  PassOptions::Option<bool> fuseAccumulators{
      *this, "fuse-accumulators",
      llvm::cl::desc("First compute the accumulators of convolutions, "
                     "matmuls and pooling one element at a time, with "
                     "convolution windows instead of padded inputs "
                     "(helia-fuse-accumulators): the TFLite recipe"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> foldConstants{
      *this, "fold-constants",
      llvm::cl::desc("First fold ops that only move constant elements "
                     "(broadcasts, transposes of weights) into constants "
                     "(helia-fold-constant-subgraphs): scratch RAM becomes "
                     "flash"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> lower{
      *this, "lower",
      llvm::cl::desc("Lower the plan to memref (helia-lower-to-memref); "
                     "lower=false stops after planning, e.g. for models of "
                     "ops that have no bufferization such as tfl.*"),
      llvm::cl::init(true)};
  PassOptions::Option<ArenaMode> arenaMode{
      *this, "arena-mode", llvm::cl::desc("How writable arenas are lowered"),
      llvm::cl::init(ArenaMode::Global),
      llvm::cl::values(
          clEnumValN(ArenaMode::Global, "global", "one memref.global per arena"),
          clEnumValN(ArenaMode::Alloc, "alloc",
                     "arena arguments allocated by <prefix>_alloc_arenas"),
          clEnumValN(ArenaMode::Arg, "arg",
                     "arena arguments supplied by the caller"))};
  PassOptions::Option<std::string> prefix{
      *this, "prefix",
      llvm::cl::desc("Prefix of the generated functions (default: the first "
                     "planned function's name)")};
  PassOptions::Option<HydrateMode> hydrate{
      *this, "hydrate",
      llvm::cl::desc("Who hydrates staged constants"),
      llvm::cl::init(HydrateMode::Explicit),
      llvm::cl::values(
          clEnumValN(HydrateMode::Explicit, "explicit",
                     "the caller runs <prefix>_hydrate_constants once"),
          clEnumValN(HydrateMode::FirstCall, "first-call",
                     "the model hydrates itself on its first call"))};
  PassOptions::Option<bool> lowerCopies{
      *this, "lower-copies",
      llvm::cl::desc("Also lower helia.hydrate/helia.stream and erase the "
                     "memory spaces (helia-lower-copies), so that upstream "
                     "passes take the module to LLVM"),
      llvm::cl::init(false)};
  PassOptions::Option<CopyMode> copyMode{
      *this, "copy-mode",
      llvm::cl::desc("What hydrate and stream copies become"),
      llvm::cl::init(CopyMode::Copy),
      llvm::cl::values(clEnumValN(CopyMode::Copy, "copy", "memref.copy"),
                       clEnumValN(CopyMode::Dma, "dma",
                                  "memref.dma_start + memref.dma_wait"))};
  PassOptions::Option<bool> toLLVM{
      *this, "to-llvm",
      llvm::cl::desc("Also convert to the LLVM dialect and place every arena "
                     "in its memory's section (helia-assign-sections); "
                     "implies lower-copies. plan-ld and plan-header imply "
                     "it"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> planLd{
      *this, "plan-ld",
      llvm::cl::desc("Write the linker-script fragment of the arenas to this "
                     "path ('-': stdout)")};
  PassOptions::Option<bool> planLdMemory{
      *this, "plan-ld-memory",
      llvm::cl::desc("Put the board's MEMORY block in the plan-ld fragment "
                     "(false: the application's linker script has the "
                     "regions)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> planHeader{
      *this, "plan-header",
      llvm::cl::desc("Write the C header of the entry points and arenas to "
                     "this path ('-': stdout)")};
  PassOptions::Option<std::string> triple{
      *this, "triple",
      llvm::cl::desc("Target triple of the LLVM module (with to-llvm)")};
  PassOptions::Option<std::string> dataLayout{
      *this, "data-layout",
      llvm::cl::desc("LLVM data layout string of the LLVM module (with "
                     "to-llvm)")};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Rewrite math functions (exp, tanh, log, erf, ...) as "
                     "polynomial approximations before the conversion to "
                     "LLVM, so that the module calls no libm "
                     "(helia-approximate-math; with to-llvm)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outlineOps{
      *this, "outline-ops",
      llvm::cl::desc("Give every op's loop nest a noinline function of its "
                     "own before the conversion to LLVM, so that its "
                     "registers and spills are its own and not the whole "
                     "network's (helia-outline-loop-nests; with to-llvm; "
                     "off by default: measured faster on some networks and "
                     "slower on others, docs/Firmware.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> slotAddresses{
      *this, "slot-addresses",
      llvm::cl::desc("Which arenas' slots get an address symbol of their "
                     "own after the conversion to LLVM, so that an op's "
                     "code does not change with the offsets and arenas of "
                     "its operands (helia-name-slot-addresses; with "
                     "to-llvm): all, constant, writable or none"),
      llvm::cl::init("all")};
  PassOptions::Option<bool> modelApi{
      *this, "model-api",
      llvm::cl::desc("Generate the model API of the firmware module (with "
                     "to-llvm; helia-assign-sections model-api)"),
      llvm::cl::init(true)};

  /// The options of each pass the pipeline configures, from the pipeline's.
  /// The platform is not among them: helia-resolve-residency makes it the
  /// module's, where every later pass reads it.
  HeliaInsertTensorCopiesOptions getInsertTensorCopiesOptions() const;
  HeliaResolveResidencyOptions getResolveResidencyOptions() const;
  HeliaAssignBindingsOptions getAssignBindingsOptions() const;
  HeliaVerifyPlanOptions getVerifyPlanOptions() const;
  HeliaExportPlanOptions getExportPlanOptions() const;
  HeliaLowerCopiesOptions getLowerCopiesOptions() const;
  HeliaAssignSectionsOptions getAssignSectionsOptions() const;
  HeliaNameSlotAddressesOptions getNameSlotAddressesOptions() const;
  /// Whether the pipeline goes on to the LLVM dialect: to-llvm, or a file
  /// only helia-assign-sections writes.
  bool getToLLVM() const {
    return toLLVM || !planLd.empty() || !planHeader.empty();
  }
};

/// Adds resolve, assign and verify-plan (and the export when asked, and the
/// lowering with `lower`) to `pm`, which must run on a builtin.module:
/// buildHeliaPlanningPipeline, then buildHeliaPlanOutputPipeline.
void buildHeliaMemoryPipeline(OpPassManager &pm,
                              const HeliaMemoryPipelineOptions &options);

/// The planning half: fold constants and in-place rewrites when asked,
/// insert tensor copies, resolve, assign, verify-plan. A driver that plans
/// variants of a module and keeps the best (helia-compile) runs it alone.
void buildHeliaPlanningPipeline(OpPassManager &pm,
                                const HeliaMemoryPipelineOptions &options);

/// The half after planning, on a planned module: the exports (plan-json,
/// plan-report, plan-svg) and, with `lower`, the lowering, the copies and
/// the conversion to the LLVM dialect as the options ask.
void buildHeliaPlanOutputPipeline(OpPassManager &pm,
                                  const HeliaMemoryPipelineOptions &options);

/// Adds the upstream conversion of a lowered module (after
/// helia-lower-copies) to the LLVM dialect, then helia-assign-sections with
/// the options' plan-ld, plan-header, triple and data layout (the platform
/// is the one helia-lower-copies recorded).
void buildHeliaToLLVMPipeline(OpPassManager &pm,
                              const HeliaMemoryPipelineOptions &options);

/// Registers `helia-memory-pipeline` with the global pass registry.
void registerHeliaPipelines();

} // namespace helia
} // namespace mlir

#endif // HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H
