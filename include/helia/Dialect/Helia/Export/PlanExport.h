//===- PlanExport.h - the memory plan as JSON, report and SVG ---*- C++ -*-===//
//
// The exporters of a MemoryPlan (read back from a bound module by the
// Analysis library): the JSON plan (docs/PlanFormat.md), the readable report
// and the SVG timeline (docs/Report.md). They read the plan as plain data and
// never the planner's internals.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_PLANEXPORT_H
#define HELIA_DIALECT_HELIA_EXPORT_PLANEXPORT_H

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::helia {

/// Writes the plan as JSON (see docs/PlanFormat.md).
void writePlanJSON(const MemoryPlan &plan, llvm::raw_ostream &os);

/// Writes a readable report: memories, arenas, the `topTensors` largest
/// tensors with their bindings, streamed and hydrated bytes, and the peak
/// step of each scratch arena with what is live there.
void writePlanReport(const MemoryPlan &plan, llvm::raw_ostream &os,
                     unsigned topTensors = 10);

/// Writes one self-contained SVG document with a timeline per arena: x is
/// the schedule step (functions side by side), y the offset, one rectangle
/// per tensor coloured by kind and labelled where its name fits, the peak
/// step of each scratch arena marked. Rectangles are in step and byte units,
/// so their `y` and `height` are the offset and size (docs/Report.md).
void writePlanSVG(const MemoryPlan &plan, llvm::raw_ostream &os);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_PLANEXPORT_H
