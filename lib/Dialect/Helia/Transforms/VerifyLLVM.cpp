//===- VerifyLLVM.cpp - only the LLVM dialect after the conversion --------===//
//
// The upstream conversions to LLVM are partial: an op that no pattern
// converts stays in the module, the pass pipeline succeeds, and the failure
// appears later in mlir-translate, far from the op. This pass makes every
// leftover a located error that names the pass that lowers it.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAVERIFYLLVM
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

/// What lowers an op of `dialect` before the conversion to LLVM.
static StringRef getMissingPass(StringRef dialect, StringRef op) {
  if (op == "tosa.apply_scale" || op == "tosa.rescale")
    return "tosa-to-arith{include-apply-rescale=true} (after tosa-to-linalg)";
  if (dialect == "tosa")
    return "tosa-to-linalg-named, tosa-to-linalg, "
           "tosa-to-arith{include-apply-rescale=true} and tosa-to-tensor, "
           "before helia-memory-pipeline";
  if (dialect == "math")
    return "helia-approximate-math (the pipeline's approximate-math=true), "
           "or convert-math-to-libm and a libm for the board";
  if (dialect == "helia")
    return "helia-lower-copies";
  if (dialect == "builtin")
    return "a conversion of the value's producer or user to LLVM (the cast "
           "is what reconcile-unrealized-casts could not remove)";
  return "a lowering of this dialect to LLVM before helia-memory-pipeline "
         "(the pipeline converts func, arith, math, memref, scf, cf, "
         "linalg, affine and vector)";
}

namespace {
struct HeliaVerifyLLVM
    : mlir::helia::impl::HeliaVerifyLLVMBase<HeliaVerifyLLVM> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == module.getOperation() || isa_and_nonnull<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      StringRef name = op->getName().getStringRef();
      StringRef dialect = op->getName().getDialectNamespace();
      op->emitError("'")
          << name << "' is left after the conversion to the LLVM dialect; "
          << "it needs " << getMissingPass(dialect, name);
      ok = false;
      // One error per op, not one per nested op.
      return WalkResult::skip();
    });
    if (!ok)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
