//===- consumer-opt.cpp - another compiler's opt tool, with helia in it ---===//
//
// Registers helia next to the compiler's own dialects (here: upstream ones),
// and adds a pipeline of the compiler's that calls helia's pipeline builder
// with options set in C++.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Pipelines/Pipelines.h"
#include "helia/InitHelia.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::tensor::TensorDialect>();
  mlir::helia::registerHeliaDialect(registry);
  mlir::helia::registerHeliaPasses();
  mlir::registerCanonicalizerPass();

  // The compiler's own pipeline: canonicalize, then plan for its board.
  mlir::PassPipelineRegistration<>(
      "consumer-pipeline", "Canonicalize, then plan memory for the board",
      [](mlir::OpPassManager &pm) {
        pm.addPass(mlir::createCanonicalizerPass());
        mlir::helia::HeliaMemoryPipelineOptions options;
        options.platform = "apollo4p_evb";
        options.planReport = "-";
        // This compiler lowers the planned module itself.
        options.lower = false;
        mlir::helia::buildHeliaMemoryPipeline(pm, options);
      });

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "consumer-opt: a compiler with helia inside\n", registry));
}
