//===- PlanningPasses.td - Planning passes -----------------*- tablegen -*-===//
//
// Planning: resolve every tensor's placement, bind it to an arena offset,
// verify the plan independently, export it (buildHeliaPlanningPipeline,
// buildHeliaPlanOutputPipeline).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PLANNINGPASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PLANNINGPASSES_TD

include "mlir/Pass/PassBase.td"

def HeliaResolveResidency : Pass<"helia-resolve-residency", "::mlir::ModuleOp"> {
  let summary = "Give every tensor its kind and its resolved placement";
  let description = [{
    For every tensor of every function (op results and entry-block
    arguments) decides its kind (`constant`, `persistent`, `scratch`), applies
    the placement rules with heliaAOT's precedence, and attaches the merged
    attributes as `helia.placement`. See docs/Rules.md.
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    Option<"rulesFile", "rules-file", "std::string", /*default=*/"\"\"",
           "JSON rules file (heliaAOT field names); overrides helia.rules">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark per tensor saying which rule set each field">,
    Option<"allPlacements", "all-placements", "bool", /*default=*/"false",
           "Write a #helia.placement on every tensor, also those that no "
           "rule places (to inspect ids, names and kinds); by default only "
           "tensors a rule or helia.attributes sets a field of get one">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaAssignBindings : Pass<"helia-assign-bindings", "::mlir::ModuleOp"> {
  let summary = "Bind every tensor to an arena offset and create the arenas";
  let description = [{
    Groups tensors into the buffers One-Shot Bufferize creates (a value
    stored in an operand's buffer, e.g. a view or a destination-style
    result, joins it; see helia-insert-tensor-copies), computes lifetimes
    on the schedule, chooses a
    memory for every tensor the rules left open (the platform's preferred
    order, spilling to the next memory when one is full; constants cold in
    the first non-volatile memory, never in one empty at boot such as
    PSRAM), schedules streamed constants into the stream pool, and packs
    every arena with the packing library. Writes a `#helia.binding` on every
    tensor and one `helia.arena` per (role, memory, source memory). Over
    capacity is a located error that names the memory, the shortfall and the
    tensors live at the peak step. The planning is the planner classes'
    (`Analysis/BindingPlanner.h`); the pass parses its options, builds the
    schedule and writes the plan.
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    Option<"algorithm", "algorithm", "::helia::planner::Algorithm",
           /*default=*/"::helia::planner::Algorithm::Best",
           "Packing algorithm",
           [{::llvm::cl::values(
             clEnumValN(::helia::planner::Algorithm::GreedyBySize,
                        "greedy-by-size", "TFLite Micro's greedy planner"),
             clEnumValN(::helia::planner::Algorithm::Heuristic, "heuristic",
                        "portfolio of greedy orderings, no search"),
             clEnumValN(::helia::planner::Algorithm::Best, "best",
                        "heuristics, then branch-and-bound search"))}]>,
    Option<"effort", "effort", "uint64_t",
           /*default=*/"::helia::planner::kDefaultEffort",
           "Search budget of algorithm=best, in search nodes">,
    Option<"streamPool", "stream-pool", "std::string", /*default=*/"\"\"",
           "Memory of the stream pool (default: the first preferred memory)">,
    Option<"streamBudget", "stream-budget", "uint64_t", /*default=*/"0",
           "Byte budget of the stream pool (0: only the memory's capacity)">,
    ListOption<"memoryLimits", "memory-limit", "std::string",
               "Byte limit of a memory, as name=bytes (repeatable)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Explain spills, stream fallbacks and the objective's choices "
           "with remarks">,
    Option<"objective", "objective", "::helia::planner::Objective",
           /*default=*/"::helia::planner::Objective::Default",
           "What the homes of open constants and the scratch spills "
           "optimise (docs/Placement.md)",
           [{::llvm::cl::values(
             clEnumValN(::helia::planner::Objective::Default, "default",
                        "constants cold where the rules put them"),
             clEnumValN(::helia::planner::Objective::Traffic, "traffic",
                        "predicted memory cycles per inference"),
             clEnumValN(::helia::planner::Objective::Exact, "exact",
                        "the same, solved exactly (small models)"),
             clEnumValN(::helia::planner::Objective::Hand, "hand",
                        "pin the constants with the most traffic that fit"),
             clEnumValN(::helia::planner::Objective::FastShare, "fast-share",
                        "pin by size x readers, the fast_share proxy"))}]>,
    Option<"amortize", "amortize", "uint64_t", /*default=*/"1000",
           "Inferences a pin's one hydration is amortised over">,
    ListOption<"memoryCosts", "memory-cost", "std::string",
               "Access costs of a memory, as name=read,write[,access_bytes] "
               "in cycles (repeatable)">,
    Option<"trafficProfile", "traffic-profile", "std::string",
           /*default=*/"\"\"",
           "Measured traffic per tensor (bench/traffic.py --profile) that "
           "the objective prices placements by instead of the static model; "
           "tensors it does not give keep the static model's">,
  ];
  let statistics = [
    Statistic<"numProfiled", "profiled",
              "Buffers whose traffic comes from the traffic profile">,
    Statistic<"numSpilled", "spilled",
              "Scratch buffers moved to a later preferred memory">,
    Statistic<"numPinnedByObjective", "pinned-by-objective",
              "Constants the objective pinned into a preferred memory">,
    Statistic<"numStreamFallbacks", "stream-fallbacks",
              "Streamed constants read in place instead">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaVerifyPlan : Pass<"helia-verify-plan", "::mlir::ModuleOp"> {
  let summary = "Check a bound module independently of the planner";
  let description = [{
    Recomputes buffers and lifetimes and checks the plan written in the IR:
    every tensor bound; tensors that share storage bound alike; no two
    tensors live at the same step overlap in the same arena (constants and
    persistent tensors are live for the whole program; stream slots from
    their copy to their last reader); every tensor inside its arena and
    aligned; every memory's arenas within its capacity.

    Then, without the module timeline the planner packs on, it replays the
    module's execution (calls, argument and result copies, stream copies,
    hydration) and checks that every read of a tensor finds the bytes its
    buffer wrote (docs/Design.md, "Time across calls"). `replay-only` runs
    that check alone.

    A plan with staged constants needs `<prefix>_hydrate_constants` called
    once before the model runs: host code in the module (an
    `helia.unplanned` function) that calls a planned function with no call
    of the hydrate function before it draws a warning, unless the lowering
    hydrates by itself (`hydrate=first-call`).
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    ListOption<"memoryLimits", "memory-limit", "std::string",
               "Byte limit of a memory, as name=bytes (repeatable)">,
    Option<"replayOnly", "replay-only", "bool", /*default=*/"false",
           "Only replay the module's execution (no module timeline)">,
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Prefix of <prefix>_hydrate_constants (default: the first "
           "planned function's name, as helia-lower-to-memref)">,
    Option<"hydrate", "hydrate", "::mlir::helia::HydrateMode",
           /*default=*/"::mlir::helia::HydrateMode::Explicit",
           "Who hydrates staged constants: first-call (the pipeline then "
           "runs helia-hydrate-on-first-call) needs no call in host code",
           [{::llvm::cl::values(
             clEnumValN(::mlir::helia::HydrateMode::Explicit, "explicit",
                        "host code must call <prefix>_hydrate_constants"),
             clEnumValN(::mlir::helia::HydrateMode::FirstCall, "first-call",
                        "the model hydrates itself"))}]>,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaExportPlan : Pass<"helia-export-plan", "::mlir::ModuleOp"> {
  let summary = "Write the memory plan of a bound module as JSON or a report";
  let description = [{
    Reads the plan back from the IR (arenas, bindings, lifetimes, streams)
    and writes it as JSON (docs/PlanFormat.md) and/or as a readable report.
    The IR is not changed.
  }];
  let options = [
    Option<"json", "json", "std::string", /*default=*/"\"\"",
           "Path of the JSON plan ('-' for stdout)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Path of the readable report ('-' for stdout)">,
    Option<"svg", "svg", "std::string", /*default=*/"\"\"",
           "Path of the SVG timeline of every arena ('-' for stdout)">,
    Option<"top", "top", "unsigned", /*default=*/"10",
           "Number of largest tensors the report lists">,
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PLANNINGPASSES_TD
