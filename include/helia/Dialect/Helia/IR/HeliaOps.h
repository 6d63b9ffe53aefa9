//===- HeliaOps.h - helia operations ----------------------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_IR_HELIAOPS_H
#define HELIA_DIALECT_HELIA_IR_HELIAOPS_H

#include "helia/Dialect/Helia/IR/ArenaClass.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "helia/Dialect/Helia/IR/HeliaOps.h.inc"

namespace mlir::helia {
/// Bytes the arenas of `module` take in `memory`: every arena in it, plus
/// the source blob of every staged arena whose source it is. The sum
/// saturates at INT64_MAX instead of wrapping.
int64_t getArenaBytesIn(ModuleOp module, StringRef memory);

/// The `helia.arena` that `arena` names in the module around `from`, looked
/// up through `symbols` (which caches the module's table); null if the
/// module declares no such arena.
ArenaOp lookupArena(SymbolTableCollection &symbols, Operation *from,
                    FlatSymbolRefAttr arena);
} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_IR_HELIAOPS_H
