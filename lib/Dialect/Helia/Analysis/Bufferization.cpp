//===- Bufferization.cpp - the One-Shot Bufferize options of helia --------===//

#include "helia/Dialect/Helia/Analysis/Bufferization.h"

#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::helia;

bufferization::OneShotBufferizationOptions
mlir::helia::getBufferizationOptions() {
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.allowUnknownOps = true;
  // A loop whose body yields a tensor that is not its iter_arg's buffer
  // needs a buffer per iteration. Upstream's verifier would reject it with
  // "Yield operand #N is not equivalent"; helia's planner reports the
  // allocation in the loop body instead, with what to change
  // (BufferAnalysis), and host code bufferizes it with allocations.
  options.allowReturnAllocsFromLoops = true;
  // Arguments take plain identity-layout memrefs from the caller; results
  // are the views themselves, in their arena's memory space.
  options.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  options.inferFunctionResultLayout = true;
  // helia-lower-to-memref gives the results of planned functions their
  // memory as tensor encoding, so that the result type is the view's type.
  options.defaultMemorySpaceFn =
      [](TensorType type) -> std::optional<Attribute> {
    if (auto ranked = dyn_cast<RankedTensorType>(type))
      if (auto space = dyn_cast_or_null<MemorySpaceAttr>(ranked.getEncoding()))
        return space;
    return Attribute();
  };
  return options;
}

void mlir::helia::registerBufferizationModels(DialectRegistry &registry) {
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}
