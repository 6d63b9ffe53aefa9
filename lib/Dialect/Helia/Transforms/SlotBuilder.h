//===- SlotBuilder.h - the tensors of planned slots -------------*- C++ -*-===//
//
// What helia-materialize-slots builds in a planned function: views of the
// arena memrefs at a binding's offset, copies into them, streamed constants
// and the slots handed over to calls (SlotBuilder), and the state the
// rewrite of every planned function shares (SlotState).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTBUILDER_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTBUILDER_H

#include "ArenaTable.h"
#include "FunctionBindings.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::helia {

/// What the rewrite of every planned function adds to and reads from.
struct SlotState : FunctionBindings {
  /// The copies that copy insertion made explicit before planning (and the
  /// undefined tensors it created), as they are after the rewrite: a call
  /// that is their only user may write into them.
  llvm::DenseSet<Value> explicitCopies;
  /// The arguments that no op of their function's body uses, as (function
  /// name, argument number), for every function with a body: a call hands
  /// such an argument over without reading its operand.
  llvm::DenseSet<std::pair<StringAttr, unsigned>> ignoredArguments;
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

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_SLOTBUILDER_H
