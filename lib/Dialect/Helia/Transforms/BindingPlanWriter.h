//===- BindingPlanWriter.h - a binding plan written into the IR --*- C++ -*-===//
//
// The IR writer of helia-assign-bindings: a BindingPlan (the planners'
// result, Analysis/BindingPlan.h) becomes `helia.arena` ops and the
// `#helia.binding` of every tensor.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_BINDINGPLANWRITER_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_BINDINGPLANWRITER_H

#include "helia/Dialect/Helia/Analysis/BindingPlan.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {

/// Writes `plan` into `module`: replaces its `helia.arena` ops with one per
/// arena of the plan (source-blob keys have none) and sets the
/// `#helia.binding` of every tensor.
void writeBindingPlan(ModuleOp module, const BindingPlan &plan);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_BINDINGPLANWRITER_H
