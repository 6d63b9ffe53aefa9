//===- PlanReport.h - the memory plan as a readable report ------*- C++ -*-===//
//
// The text report of a MemoryPlan (docs/Report.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_PLANREPORT_H
#define HELIA_DIALECT_HELIA_EXPORT_PLANREPORT_H

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::helia {

/// Writes a readable report: memories, arenas, the `topTensors` largest
/// tensors with their bindings, streamed and hydrated bytes, and the peak
/// step of each scratch arena with what is live there.
void writePlanReport(const MemoryPlan &plan, llvm::raw_ostream &os,
                     unsigned topTensors = 10);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_PLANREPORT_H
