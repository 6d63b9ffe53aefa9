//===- ExportPlan.cpp - helia-export-plan: JSON, report and SVG -----------===//

#include "OutputFile.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Export/PlanJSON.h"
#include "helia/Dialect/Helia/Export/PlanReport.h"
#include "helia/Dialect/Helia/Export/PlanSVG.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAEXPORTPLAN
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaExportPlan
    : WithBufferizationModels<mlir::helia::impl::HeliaExportPlanBase<
          HeliaExportPlan>> {
  using WithBufferizationModels::WithBufferizationModels;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (json.empty() && report.empty() && svg.empty()) {
      module.emitError("helia-export-plan needs json=<path>, report=<path> "
                       "or svg=<path> ('-' for stdout)");
      return signalPassFailure();
    }
    // The platform first, so that its errors come before the schedule's.
    if (failed(lookupPlatform(module, platform)))
      return signalPassFailure();
    FailureOr<const ModuleSchedule *> schedule =
        getAnalysis<ModuleScheduleAnalysis>().getSchedule();
    if (failed(schedule))
      return signalPassFailure();
    FailureOr<MemoryPlan> plan = MemoryPlan::build(module, platform, *schedule);
    if (failed(plan))
      return signalPassFailure();
    if (!json.empty() &&
        failed(write(json, [&](raw_ostream &os) { writePlanJSON(*plan, os); })))
      return signalPassFailure();
    if (!report.empty() && failed(write(report, [&](raw_ostream &os) {
          writePlanReport(*plan, os, top);
        })))
      return signalPassFailure();
    if (!svg.empty() &&
        failed(write(svg, [&](raw_ostream &os) { writePlanSVG(*plan, os); })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

private:
  LogicalResult write(StringRef path,
                      function_ref<void(raw_ostream &)> writer) {
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputCreatingParents(path, &message);
    if (!file)
      return getOperation().emitError("cannot write plan to '")
             << path << "': " << message;
    writer(file->os());
    file->keep();
    return success();
  }
};
} // namespace
