//===- SlotRewriter.h - a planned function rewritten into slots -*- C++ -*-===//
//
// The second half of helia-materialize-slots: SlotRewriter rewrites the
// tensors of one planned function into views of their slots, op by op, with
// a SlotBuilder.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTREWRITER_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTREWRITER_H

#include "SlotBuilder.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::helia {

/// Rewrites the tensors of one planned function into its arena slots, op by
/// op, with a SlotBuilder.
class SlotRewriter {
public:
  SlotRewriter(const ArenaTable &arenas, func::FuncOp func, SlotState &state)
      : func(func), state(state), slots(arenas, func, state) {}

  LogicalResult run();

  unsigned getNumPlanCopies() const { return slots.numPlanCopies; }
  unsigned getNumStreams() const { return slots.numStreams; }

private:
  void lowerArgument(OpBuilder &builder, BlockArgument arg);
  void lowerConstant(OpBuilder &builder, Operation *op);
  void lowerDestinationStyle(OpBuilder &builder,
                             DestinationStyleOpInterface op);
  LogicalResult lowerAllocating(IRRewriter &rewriter, Operation *op);
  void lowerAllocTensor(IRRewriter &rewriter,
                        bufferization::AllocTensorOp alloc);
  /// Lowers one op of the entry block; `empties` collects the tensor.empty
  /// ops, which are lowered last.
  LogicalResult lowerOp(IRRewriter &rewriter, Operation *op,
                        SmallVectorImpl<tensor::EmptyOp> &empties);
  void lowerEmpty(IRRewriter &rewriter, tensor::EmptyOp empty);

  func::FuncOp func;
  SlotState &state;
  SlotBuilder slots;
};

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTREWRITER_H
