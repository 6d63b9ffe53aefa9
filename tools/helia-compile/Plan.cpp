//===- Plan.cpp - helia-compile's plan stage ------------------------------===//
//
// The TFLite recipe (TOSA to linalg, wide accumulators tiled), then the
// planning half of helia-memory-pipeline with and without
// helia-pad-in-place; the smaller scratch arena is kept (docs/Compile.md).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::helia;
using namespace ::helia::compile;

/// The sum of the scratch arenas (stream pools included) of a planned
/// module.
static int64_t scratchBytes(ModuleOp module) {
  int64_t total = 0;
  for (ArenaOp arena : module.getOps<ArenaOp>())
    if (arena.getRole() == ArenaRole::Scratch)
      total += arena.getSize();
  return total;
}

Candidate Driver::planVariant(ModuleOp module, bool withPadInPlace) {
  Candidate candidate;
  candidate.module = module.clone();
  candidate.padInPlace = withPadInPlace;
  llvm::raw_string_ostream os(candidate.diagnostics);
  SourceMgrDiagnosticHandler capture(sourceMgr, &ctx, os);
  PassManager pm(&ctx);
  if (withPadInPlace)
    pm.nest<func::FuncOp>().addPass(createHeliaPadInPlace());
  buildHeliaPlanningPipeline(pm, options);
  candidate.planned = succeeded(pm.run(*candidate.module));
  if (candidate.planned)
    candidate.scratch = scratchBytes(*candidate.module);
  return candidate;
}

FailureOr<Candidate> Driver::plan(ModuleOp module) {
  Stopwatch watch;
  // The TFLite recipe (docs/TFLite.md): TOSA to linalg with TFLite's
  // rescale, then wide accumulators tiled so that they exist one tile at a
  // time.
  PassManager frontend(&ctx);
  OpPassManager &funcs = frontend.nest<func::FuncOp>();
  funcs.addPass(tosa::createTosaToLinalgNamed());
  funcs.addPass(tosa::createTosaToLinalg());
  TosaToArithPassOptions arith;
  arith.includeApplyRescale = true;
  funcs.addPass(createTosaToArithPass(arith));
  funcs.addPass(createTosaToTensorPass());
  funcs.addPass(createHeliaFuseAccumulators());
  if (failed(frontend.run(module)))
    return failure();

  PadInPlaceMode mode = flags.padInPlace;
  SmallVector<Candidate, 2> candidates;
  if (mode != PadInPlaceMode::Always)
    candidates.push_back(planVariant(module, /*withPadInPlace=*/false));
  if (mode != PadInPlaceMode::Never)
    candidates.push_back(planVariant(module, /*withPadInPlace=*/true));

  // The smaller scratch wins; a tie keeps the variant without the rewrite.
  Candidate *kept = nullptr;
  for (Candidate &candidate : candidates)
    if (candidate.planned && (!kept || candidate.scratch < kept->scratch))
      kept = &candidate;
  if (!kept) {
    // Neither plans: the errors of the plain recipe (the first variant).
    llvm::errs() << candidates.front().diagnostics;
    return failure();
  }
  llvm::errs() << kept->diagnostics;
  Candidate *other = nullptr;
  for (Candidate &candidate : candidates)
    if (&candidate != kept)
      other = &candidate;

  auto describe = [](const Candidate &c) -> std::string {
    if (!c.planned)
      return "does not plan";
    return std::to_string(c.scratch) + " bytes";
  };
  std::string what = "scratch " + std::to_string(kept->scratch) + " bytes, " +
                     (kept->padInPlace ? "with" : "without") +
                     " helia-pad-in-place";
  if (other)
    what += std::string(" (") + (other->padInPlace ? "with" : "without") +
            ": " + describe(*other) + ")";
  else
    what += " (--pad-in-place=" +
            std::string(mode == PadInPlaceMode::Always ? "always" : "never") +
            ")";
  choice = what;
  progress("plan", watch, what);
  return std::move(*kept);
}

/// Appends the front-end choice to the readable report.
LogicalResult Driver::noteChoice() {
  std::string path = outputPath(".plan.txt");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return emitError(inputLoc())
           << "cannot write '" << path << "': " << ec.message();
  os << "\nhelia-compile\n  " << choice << "\n";
  return success();
}
