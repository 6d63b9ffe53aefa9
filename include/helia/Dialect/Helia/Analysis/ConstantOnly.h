//===- ConstantOnly.h - scratch computed from constants alone ---*- C++ -*-===//
//
// Frontends broadcast and transpose weights at run time: scratch buffers whose
// every value is computed from constants. They cost RAM that folding at
// compile time (helia-fold-constant-subgraphs) would move to flash; the plan
// report, the JSON plan and assign-bindings' remarks name them.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_CONSTANTONLY_H
#define HELIA_DIALECT_HELIA_ANALYSIS_CONSTANTONLY_H

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::helia {

/// Marks, by buffer index, the scratch buffers of `analysis`'s function
/// whose every value is computed from constants alone (once they hold data:
/// a buffer that is only an empty tensor is not marked).
llvm::BitVector findConstantOnlyBuffers(FunctionOpInterface func,
                                        const BufferAnalysis &analysis);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_CONSTANTONLY_H
