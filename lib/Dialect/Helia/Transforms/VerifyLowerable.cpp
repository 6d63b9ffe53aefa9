//===- VerifyLowerable.cpp - can the plan be lowered to memref? -----------===//
//
// The first pass of helia-lower-to-memref: checks what must hold before
// anything is rewritten, so that the passes after it never fail half-way on
// a precondition. Every op with tensors can be bufferized; in
// arena-mode=alloc|arg every call to a function that takes the arenas can be
// supplied with them; every planned function has one block and a binding
// on every tensor that owns storage. Warns about a module that was never
// planned.
//
//===----------------------------------------------------------------------===//

#include "FunctionBindings.h"
#include "LoweringEntries.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAVERIFYLOWERABLE
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

static bool hasTensorSemantics(Operation *op) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// A module that never went through the planning passes bufferizes with
/// plain allocations: legal, but rarely what was meant.
static void warnIfNeverPlanned(ModuleOp module) {
  for (auto func : module.getOps<FunctionOpInterface>()) {
    bool hasTensors =
        func.walk([](Operation *op) {
              return llvm::any_of(op->getResultTypes(),
                                  llvm::IsaPred<TensorType>)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted() ||
        llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<TensorType>);
    if (!isPlannedFunction(func) || !hasTensors)
      continue;
    emitWarning(func.getLoc())
        << "function '" << func.getName()
        << "' was never planned (the module has no helia.arena and no "
           "helia.binding), so its tensors get plain allocations; run "
           "helia-resolve-residency and helia-assign-bindings first (or "
           "helia-memory-pipeline), or mark it helia.unplanned";
    return;
  }
}

/// Every op with tensors must have a bufferization.
static LogicalResult checkBufferizable(ModuleOp module) {
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  WalkResult walk = module.walk([&](Operation *op) {
    if (!hasTensorSemantics(op) || options.dynCastBufferizableOp(op))
      return WalkResult::advance();
    op->emitError("'")
        << op->getName()
        << "' has no bufferization, so its tensors cannot live in arena "
           "views; lower it first (e.g. --tosa-to-linalg for TOSA) or stop "
           "after helia-verify-plan";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

struct HeliaVerifyLowerable
    : WithBufferizationModels<mlir::helia::impl::HeliaVerifyLowerableBase<
          HeliaVerifyLowerable>> {
  using WithBufferizationModels::WithBufferizationModels;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LoweringEntries entries = LoweringEntries::compute(module, prefix);
    if (entries.planned.empty() && module.getOps<ArenaOp>().empty())
      warnIfNeverPlanned(module);
    if (failed(checkBufferizable(module)))
      return signalPassFailure();
    if (arenaMode != ArenaMode::Global &&
        failed(collectArenaOwners(module, entries, arenaMode)))
      return signalPassFailure();
    for (func::FuncOp func : entries.planned) {
      FunctionBindings bindings;
      if (failed(collectBindings(func, bindings)))
        return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
