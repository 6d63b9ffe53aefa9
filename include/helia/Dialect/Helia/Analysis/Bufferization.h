//===- Bufferization.h - the One-Shot Bufferize options of helia -*- C++ -*-===//
//
// helia plans the buffers that One-Shot Bufferize will create, so planning
// (helia-insert-tensor-copies, BufferAnalysis) and lowering
// (helia-lower-to-memref) must ask bufferization the same questions: they all
// take their options from getBufferizationOptions().
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_BUFFERIZATION_H
#define HELIA_DIALECT_HELIA_ANALYSIS_BUFFERIZATION_H

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::helia {

/// The One-Shot Bufferize options of the plan and of its lowering: function
/// boundaries are bufferized (identity layouts at every boundary), results
/// of planned functions take their memory space from their tensor encoding,
/// and ops without bufferization (an imported `tfl.*` graph, TOSA) are
/// allowed, so that analysing a module that cannot be lowered still works.
bufferization::OneShotBufferizationOptions getBufferizationOptions();

/// Registers the BufferizableOpInterface models of the dialects helia
/// lowers (arith, func, linalg, scf, tensor). Every pass that asks
/// bufferization about ops registers them, so that an embedding compiler
/// that did not register them gets the same plan as helia-opt.
void registerBufferizationModels(DialectRegistry &registry);

/// The base of a pass that asks bufferization about ops (its analyses or
/// One-Shot Bufferize itself): the generated base `PassBase` with the models
/// registered among its dependent dialects. A pass derives from
/// `WithBufferizationModels<impl::XBase<X>>` instead of overriding
/// getDependentDialects.
template <typename PassBase>
struct WithBufferizationModels : PassBase {
  using PassBase::PassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    PassBase::getDependentDialects(registry);
    registerBufferizationModels(registry);
  }
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_BUFFERIZATION_H
