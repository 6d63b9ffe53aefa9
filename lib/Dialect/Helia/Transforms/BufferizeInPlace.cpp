//===- BufferizeInPlace.cpp - One-Shot Bufferize into the planned views ---===//
//
// Runs One-Shot Bufferize (with helia's options, getBufferizationOptions())
// on a module whose planned tensors are views of their slots. Upstream
// one-shot-bufferize would silently copy where it must write out of place;
// here that is an error in a planned function, because the plan did not
// count the memory of the copy.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIABUFFERIZEINPLACE
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

/// The plan counted one buffer per slot: an out-of-place write would need
/// one more.
static LogicalResult
checkInPlace(ArrayRef<func::FuncOp> planned,
             const bufferization::OneShotAnalysisState &state) {
  bool ok = true;
  for (func::FuncOp func : planned) {
    func.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<TensorType>(operand.get().getType()) ||
            !state.bufferizesToMemoryWrite(operand) || state.isInPlace(operand))
          continue;
        if (auto call = dyn_cast<func::CallOp>(op)) {
          call.emitError("@")
              << call.getCallee() << " may write into argument #"
              << operand.getOperandNumber()
              << ", a planned tensor, so bufferization would copy it into "
                 "memory the plan did not count; if the callee only reads "
                 "it, say so on its declaration ({bufferization.access = "
                 "\"read\"}) or give it a body";
          ok = false;
          continue;
        }
        op->emitError("bufferization must write operand #")
            << operand.getOperandNumber()
            << " out of place because its old value is read later; the "
               "plan shares that buffer, so the copy would need memory it "
               "did not count (give the result a slot of its own)";
        ok = false;
      }
    });
  }
  return success(ok);
}

namespace {
struct HeliaBufferizeInPlace
    : mlir::helia::impl::HeliaBufferizeInPlaceBase<HeliaBufferizeInPlace> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // One-Shot Bufferize needs the external models of the ops it meets.
    registerBufferizationModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LoweringEntries entries = LoweringEntries::fromFirmware(module);
    bufferization::OneShotBufferizationOptions options =
        getBufferizationOptions();
    bufferization::OneShotAnalysisState state(module, options);
    if (failed(bufferization::analyzeModuleOp(module, state)) ||
        failed(checkInPlace(entries.planned, state)))
      return signalPassFailure();
    bufferization::BufferizationState bufferizationState;
    if (failed(bufferization::insertTensorCopies(module, state,
                                                 bufferizationState)) ||
        failed(bufferization::bufferizeModuleOp(module, options,
                                                bufferizationState)))
      return signalPassFailure();
  }
};
} // namespace
