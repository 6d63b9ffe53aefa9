//===- Passes.td - helia passes ----------------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD

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
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

def HeliaAssignBindings : Pass<"helia-assign-bindings", "::mlir::ModuleOp"> {
  let summary = "Bind every tensor to an arena offset and create the arenas";
  let description = [{
    Groups tensors into buffers (views and destination-style results share
    their source's storage), computes lifetimes on the schedule, chooses a
    memory for every tensor the rules left open (the platform's preferred
    order, spilling to the next memory when one is full; constants cold in
    the first non-volatile memory; PSRAM never), schedules streamed
    constants into the stream pool, and packs every arena with the packing
    library. Writes a `#helia.binding` on every tensor and one `helia.arena`
    per (role, memory, source memory). Over capacity is a located error that
    names the memory, the shortfall and the tensors live at the peak step.
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
           "Explain spills and stream fallbacks with remarks">,
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
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    ListOption<"memoryLimits", "memory-limit", "std::string",
               "Byte limit of a memory, as name=bytes (repeatable)">,
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
    Option<"top", "top", "unsigned", /*default=*/"10",
           "Number of largest tensors the report lists">,
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
