//===- BufferizeInPlace.cpp - One-Shot Bufferize into the planned views ---===//
//
// Runs One-Shot Bufferize (with helia's options, getBufferizationOptions())
// on a module whose planned tensors are views of their slots. Upstream
// one-shot-bufferize would silently copy where it must write out of place;
// here that is an error in a planned function, because the plan did not
// count the memory of the copy.
//
//===----------------------------------------------------------------------===//

#include "FunctionBufferization.h"
#include "LoweringEntries.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

/// `view` with the subviews peeled that repeat `other`'s: two subviews of
/// the same source with the same offsets, sizes and strides are the same
/// memory.
static Value skipCarriedBuffers(Value value);

static bool isSameView(Value a, Value b) {
  a = skipCarriedBuffers(a);
  b = skipCarriedBuffers(b);
  if (a == b)
    return true;
  auto va = a.getDefiningOp<memref::SubViewOp>();
  auto vb = b.getDefiningOp<memref::SubViewOp>();
  if (!va || !vb || va.getType() != vb.getType() ||
      !isSameView(va.getSource(), vb.getSource()))
    return false;
  return llvm::equal(va.getMixedOffsets(), vb.getMixedOffsets()) &&
         llvm::equal(va.getMixedSizes(), vb.getMixedSizes()) &&
         llvm::equal(va.getMixedStrides(), vb.getMixedStrides());
}

/// The buffer an scf.for result is, when the loop yields the buffer it
/// carries unchanged (as bufferized loops that write in place do).
static Value skipCarriedBuffers(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    auto loop = dyn_cast<scf::ForOp>(result.getOwner());
    if (!loop)
      break;
    unsigned i = result.getResultNumber();
    Value yielded = loop.getBody()->getTerminator()->getOperand(i);
    if (skipCarriedBuffers(yielded) != loop.getRegionIterArgs()[i])
      break;
    value = loop.getInitArgs()[i];
  }
  return value;
}

/// Erases the copies bufferization makes of a view onto itself: an
/// insert_slice of a tile computed in place (a fused loop writes each tile
/// into the slice it then inserts) or of a tensor produced into the padded
/// buffer it is inserted into (helia-pad-in-place).
static void eraseSelfCopies(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (isSameView(copy.getSource(), copy.getTarget()))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies)
    copy.erase();
}

namespace {
struct HeliaBufferizeInPlace
    : WithBufferizationModels<mlir::helia::impl::HeliaBufferizeInPlaceBase<
          HeliaBufferizeInPlace>> {
  using WithBufferizationModels::WithBufferizationModels;

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
    // Planned functions that call each other go in batches first (upstream
    // builds a symbol table of the module for every call), the rest with
    // the module.
    if (failed(bufferization::insertTensorCopies(module, state,
                                                 bufferizationState)))
      return signalPassFailure();
    FailureOr<unsigned> batched =
        bufferizeFunctionsInBatches(module, entries.planned, options);
    if (failed(batched) ||
        failed(bufferization::bufferizeModuleOp(module, options,
                                                bufferizationState)))
      return signalPassFailure();
    numBatched += *batched;
    eraseSelfCopies(module);
  }
};
} // namespace
