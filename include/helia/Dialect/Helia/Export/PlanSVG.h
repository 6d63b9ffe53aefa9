//===- PlanSVG.h - the memory plan as an SVG timeline -----------*- C++ -*-===//
//
// The SVG timeline of a MemoryPlan (docs/Report.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_PLANSVG_H
#define HELIA_DIALECT_HELIA_EXPORT_PLANSVG_H

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::helia {

/// Writes one self-contained SVG document with a timeline per arena: x is
/// the schedule step (functions side by side), y the offset, one rectangle
/// per tensor coloured by kind and labelled where its name fits, the peak
/// step of each scratch arena marked. Rectangles are in step and byte units,
/// so their `y` and `height` are the offset and size (docs/Report.md).
void writePlanSVG(const MemoryPlan &plan, llvm::raw_ostream &os);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_PLANSVG_H
