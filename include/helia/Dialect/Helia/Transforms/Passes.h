//===- Passes.h - helia passes ----------------------------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Planner/Planner.h"
#include "helia/Planner/Traffic.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::helia {

/// Name of the location helia-lower-copies gives the copies of hydrate and
/// stream (a NameLoc around the original location), by which
/// helia-assign-sections finds them after the conversion to LLVM.
inline constexpr ::llvm::StringLiteral kPlanCopyLocName = "helia.copy";

#define GEN_PASS_DECL
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_H
