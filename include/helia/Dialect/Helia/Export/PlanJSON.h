//===- PlanJSON.h - the memory plan as JSON ---------------------*- C++ -*-===//
//
// The JSON writer of a MemoryPlan (docs/PlanFormat.md). Like the report and
// the SVG writers, it reads the plan as plain data, never the planner's
// internals.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_PLANJSON_H
#define HELIA_DIALECT_HELIA_EXPORT_PLANJSON_H

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::helia {

/// Writes the plan as JSON (see docs/PlanFormat.md).
void writePlanJSON(const MemoryPlan &plan, llvm::raw_ostream &os);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_PLANJSON_H
