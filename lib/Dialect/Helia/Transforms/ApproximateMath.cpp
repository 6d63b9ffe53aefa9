//===- ApproximateMath.cpp - math functions without a libm ----------------===//
//
// The conversion to LLVM turns `math.exp`, `math.tanh`, `math.log`, ... into
// calls of libm (`expf`, `tanhf`, `logf`), and leaves `math.erf`, which
// LLVM has no intrinsic for. A firmware image has no libm, and a libm of
// the board would compute other bits than the host's. This pass rewrites
// them into the upstream polynomial approximations (plain arithmetic, f32
// accuracy), so that the module calls no math library and the host and the
// device compute the same bits.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAAPPROXIMATEMATH
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;

namespace {
struct HeliaApproximateMath
    : mlir::helia::impl::HeliaApproximateMathBase<HeliaApproximateMath> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    auto every = [](StringRef) { return true; };
    // Expansions first (powf, tan, sinh, ... in terms of exp and log), then
    // the approximations of what is left.
    math::populateExpansionPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, every);
    populateMathPolynomialApproximationPatterns(patterns, every);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
