//===- InitHelia.cpp - register everything helia provides -----------------===//

#include "helia/InitHelia.h"

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Pipelines/Pipelines.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::helia::registerHeliaDialect(DialectRegistry &registry) {
  registry.insert<HeliaDialect>();
}

void mlir::helia::registerHeliaPasses() {
  registerHeliaTransformsPasses();
  registerHeliaPipelines();
}
