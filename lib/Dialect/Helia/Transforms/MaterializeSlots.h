//===- MaterializeSlots.h - arena storage and slot rewriting -----*- C++ -*-===//
//
// The two halves of helia-materialize-slots: ArenaStorage turns the
// `helia.arena` ops into memref globals (constant blobs with their bytes,
// runtime arenas) and writes `<prefix>_hydrate_constants`; SlotRewriter
// rewrites the tensors of one planned function into views of their slots.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H

#include "Lowering.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::helia {

/// What the rewrite of every planned function adds to and reads from.
struct SlotState : FunctionBindings {
  /// The copies that copy insertion made explicit before planning (and the
  /// undefined tensors it created), as they are after the rewrite: a call
  /// that is their only user may write into them.
  llvm::DenseSet<Value> explicitCopies;
};

/// The storage of the arenas.
class ArenaStorage {
public:
  explicit ArenaStorage(ArenaTable &arenas) : arenas(arenas) {}

  /// Writes the bytes of every bound constant of `func` into its arena's
  /// blob.
  LogicalResult packConstants(func::FuncOp func,
                              const DenseMap<Value, BindingAttr> &bindings);
  /// Replaces the arena ops by globals (all of them in arena-mode=global,
  /// else only the constant blobs), where the arena ops are.
  void createGlobals(ModuleOp module);
  /// Writes the body of the hydrate function, if the module has one.
  void writeHydrateFunction(ModuleOp module, const LoweringEntries &entries);

  unsigned numConstants = 0;

private:
  ArenaTable &arenas;
};

/// Rewrites the tensors of one planned function into its arena slots.
class SlotRewriter {
public:
  SlotRewriter(const ArenaTable &arenas, func::FuncOp func, SlotState &state)
      : arenas(arenas), func(func), state(state), bases(arenas, func) {}

  LogicalResult run();

  unsigned numPlanCopies = 0;
  unsigned numStreams = 0;

private:
  Value createSlot(OpBuilder &builder, Location loc, BindingAttr binding,
                   TensorType type, bool writable);
  void lowerArgument(OpBuilder &builder, BlockArgument arg);
  void lowerConstant(OpBuilder &builder, Operation *op);
  void lowerDestinationStyle(OpBuilder &builder,
                             DestinationStyleOpInterface op);
  LogicalResult lowerAllocating(IRRewriter &rewriter, Operation *op);
  void lowerAllocTensor(IRRewriter &rewriter,
                        bufferization::AllocTensorOp alloc);
  void castCallOperands(OpBuilder &builder, func::CallOp call);
  void copyIntoSlots(OpBuilder &builder, Operation *op);
  /// Erases `op` and the bindings of its results: a later value may be
  /// allocated at the address of an erased one.
  void forgetAndErase(Operation *op);

  const ArenaTable &arenas;
  func::FuncOp func;
  SlotState &state;
  ArenaBases bases;
};

/// The memory that holds the bytes a tensor with `binding` is read from: its
/// arena's, or for a streamed constant its stream pool's.
StringAttr getSlotMemory(const ArenaTable &arenas, BindingAttr binding);

/// Returns `value`, a tensor whose buffer is an identity-layout memref in
/// `memorySpace`, as a tensor of `type` whose buffer is in the default
/// memory space.
Value castToDefaultMemorySpace(OpBuilder &builder, Location loc, Value value,
                               RankedTensorType type, Attribute memorySpace,
                               bool writable = false);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H
