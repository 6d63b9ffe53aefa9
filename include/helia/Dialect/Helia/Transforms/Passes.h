//===- Passes.h - helia passes ----------------------------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Planner/Planner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::helia {

#define GEN_PASS_DECL
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H
