//===- MaterializeSlots.h - arena storage and slot rewriting -----*- C++ -*-===//
//
// The two halves of helia-materialize-slots: ArenaStorage turns the
// `helia.arena` ops into memref globals (constant blobs with their bytes,
// runtime arenas) and writes `<prefix>_hydrate_constants` (ArenaStorage.cpp);
// SlotRewriter rewrites the tensors of one planned function into views of
// their slots (SlotRewriter.cpp), which a SlotBuilder makes (SlotBuilder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H

#include "Lowering.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

/// Builds the tensors of the planned slots of one function: views of the
/// arena memrefs at a binding's offset, wrapped so that One-Shot Bufferize
/// writes into them; copies into them; streamed constants; and the slots
/// handed over to calls. Records the binding of every tensor it makes.
class SlotBuilder {
public:
  SlotBuilder(const ArenaTable &arenas, func::FuncOp func, SlotState &state)
      : arenas(arenas), state(state), bases(arenas, func) {}

  BindingAttr lookup(Value value) const { return state.bindings.lookup(value); }
  /// The arena `binding` names.
  const Arena &getArena(BindingAttr binding) const {
    return arenas.lookup(binding.getArena().getAttr());
  }
  void bind(Value value, BindingAttr binding) {
    state.bindings[value] = binding;
  }
  /// True when `value` already lives in the bytes of `binding`.
  bool isInSlot(Value value, BindingAttr binding) const;

  /// Creates, at the top of the function, the memrefs of the arenas that the
  /// arguments and the results of the ops of `entry` are bound to, in
  /// declaration order.
  void createBases(Block &entry);
  /// The tensor of a planned slot: a view of the arena at the binding's
  /// offset, as `bufferization.to_tensor restrict`.
  Value createSlot(OpBuilder &builder, Location loc, BindingAttr binding,
                   TensorType type, bool writable);
  /// A copy of `value` into a new writable slot of `binding` and `type`.
  Value copyIntoSlot(OpBuilder &builder, Location loc, Value value,
                     BindingAttr binding, TensorType type);
  /// copyIntoSlot() of `value` into its own type, which every other user of
  /// `value` reads instead, bound to `binding`. Returns the copy.
  Value moveIntoSlot(OpBuilder &builder, Location loc, Value value,
                     BindingAttr binding);
  /// The read-only tensor of a streamed constant: its bytes copied from
  /// their arena into the stream pool slot (`helia.stream`), here.
  Value streamConstant(OpBuilder &builder, Location loc, BindingAttr binding,
                       TensorType type);
  /// Copies the results of `op` that bufferization does not store in an
  /// operand's buffer (call results) into their own slot right after it.
  void copyResultsIntoSlots(OpBuilder &builder, Operation *op);
  /// Hands each planned operand of `call` over as its slot cast to the
  /// default memory space.
  void castCallOperands(OpBuilder &builder, func::CallOp call);
  /// Erases `op` and the bindings of its results: a later value may be
  /// allocated at the address of an erased one.
  void forgetAndErase(Operation *op);

  unsigned numPlanCopies = 0;
  unsigned numStreams = 0;

private:
  const ArenaTable &arenas;
  SlotState &state;
  ArenaBases bases;
};

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
