//===- Pipelines.h - the helia memory pipeline ------------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H
#define HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H

#include "helia/Planner/Planner.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace helia {

/// The union of the options of the passes the pipeline runs.
struct HeliaMemoryPipelineOptions
    : public PassPipelineOptions<HeliaMemoryPipelineOptions> {
  PassOptions::Option<std::string> platform{
      *this, "platform",
      llvm::cl::desc("Platform preset; overrides the module's helia.platform")};
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
      llvm::cl::desc("Explain spills and stream fallbacks with remarks"),
      llvm::cl::init(false)};
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
};

/// Adds resolve, assign and verify-plan (and the JSON export when asked) to
/// `pm`, which must run on a builtin.module.
void buildHeliaMemoryPipeline(OpPassManager &pm,
                              const HeliaMemoryPipelineOptions &options);

/// Registers `helia-memory-pipeline` with the global pass registry.
void registerHeliaPipelines();

} // namespace helia
} // namespace mlir

#endif // HELIA_DIALECT_HELIA_PIPELINES_PIPELINES_H
