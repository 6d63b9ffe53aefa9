//===- MaterializeSlots.h - helpers of helia-materialize-slots --*- C++ -*-===//
//
// helia-materialize-slots (MaterializeSlots.cpp) drives ArenaStorage
// (ArenaStorage.h: the arena globals and the hydrate function) and
// SlotRewriter (SlotRewriter.h: each planned function rewritten into views
// of its slots, which a SlotBuilder makes, SlotBuilder.h). The pass file
// also defines the two helpers below, which SlotBuilder uses.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MATERIALIZESLOTS_H

#include "ArenaTable.h"

#include "mlir/IR/Builders.h"

namespace mlir::helia {

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
