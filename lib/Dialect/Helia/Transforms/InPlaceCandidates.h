//===- InPlaceCandidates.h - elementwise writes over dying inputs -*- C++ -*-===//
//
// The candidates of helia-elementwise-in-place: ops whose result may be
// written over an input that nothing reads afterwards, found on the
// analysis of a function before anything changes.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_INPLACECANDIDATES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_INPLACECANDIDATES_H

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::helia {

/// One rewrite decided on the analysis of a function: the result of `op`
/// for init `init` (linalg) or its one result (a marked op) is written over
/// the buffer of `input`.
struct InPlaceWrite {
  Operation *op;
  /// The init operand of a linalg op; null for an op without bufferization.
  OpOperand *init;
  /// The input operand whose buffer the result takes.
  OpOperand *input;
  /// The init before applyLinalgWrite.
  Value oldInit = {};
};

/// Finds, for the linalg op `op` at `step`, an init whose result may be
/// written over a dying input (the first init that finds one); appends it to
/// `writes` and its buffer to `taken`.
void findLinalgWrites(linalg::LinalgOp op, int64_t step,
                      const BufferAnalysis &analysis,
                      DenseSet<const BufferInfo *> &taken,
                      SmallVectorImpl<InPlaceWrite> &writes);

/// Finds, for an elementwise op without bufferization (the `tfl.*` table)
/// at `step`, an operand its one result may be written over.
void findMarkedWrite(Operation *op, int64_t step,
                     const BufferAnalysis &analysis,
                     DenseSet<const BufferInfo *> &taken,
                     SmallVectorImpl<InPlaceWrite> &writes);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_INPLACECANDIDATES_H
