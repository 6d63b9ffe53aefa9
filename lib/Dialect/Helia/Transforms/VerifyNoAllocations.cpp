//===- VerifyNoAllocations.cpp - planned functions allocate nothing -------===//
//
// The last pass of helia-lower-to-memref: after bufferization, every buffer
// of a planned function must be a view of an arena. An allocation left in
// one is memory the plan did not count, so it is a located error.
//
//===----------------------------------------------------------------------===//

#include "LoweringEntries.h"

#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAVERIFYNOALLOCATIONS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaVerifyNoAllocations
    : mlir::helia::impl::HeliaVerifyNoAllocationsBase<
          HeliaVerifyNoAllocations> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = true;
    for (func::FuncOp func :
         LoweringEntries::fromFirmware(getOperation()).planned)
      func.walk([&](Operation *op) {
        if (!isa<memref::AllocOp, memref::AllocaOp>(op))
          return;
        InFlightDiagnostic diag = op->emitError(
            "bufferization allocated a buffer here that the plan does not "
            "count; this op needs a destination-passing form (or a slot) "
            "that helia-lower-to-memref can place");
        attachUnplannedNote(diag, func);
        ok = false;
      });
    if (!ok)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
