//===- ExportPlan.cpp - write the memory plan as JSON ---------------------===//

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
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
    : mlir::helia::impl::HeliaExportPlanBase<HeliaExportPlan> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (json.empty()) {
      module.emitError("helia-export-plan needs json=<path> (or json=-)");
      return signalPassFailure();
    }
    FailureOr<MemoryPlan> plan = MemoryPlan::build(module, platform);
    if (failed(plan))
      return signalPassFailure();
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(json, &message);
    if (!file) {
      module.emitError("cannot write plan to '") << json << "': " << message;
      return signalPassFailure();
    }
    plan->writeJSON(file->os());
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
