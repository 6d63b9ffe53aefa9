//===- ArenaTable.h - the arenas as the lowering reads them -----*- C++ -*-===//
//
// The passes of helia-lower-to-memref (buildHeliaLoweringPipeline) read the
// `helia.arena` ops back into an ArenaTable: every arena's role, memories,
// size and argument position, and, per function, the memrefs it is viewed
// from (ArenaBases). The planned functions and the generated helpers are in
// LoweringEntries.h, the bindings of one function in FunctionBindings.h.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENATABLE_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENATABLE_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::helia {

/// One arena of the plan and the storage it lowers to.
struct Arena {
  StringAttr name;
  ArenaRole role;
  StringAttr memory;
  StringAttr sourceMemory;
  int64_t size = 0;
  int64_t alignment = 1;
  Location loc;
  /// Constant arenas: the bytes of the blob, filled from the constants.
  SmallVector<uint8_t> bytes;
  /// Constant arenas: the global that holds `bytes` in the image. For a cold
  /// arena it is the arena itself; for a staged one a separate global in the
  /// source memory.
  StringAttr blobGlobal;
  /// Position among the trailing arena arguments (arena-mode=alloc|arg), or
  /// -1 when the arena is a global.
  int argIndex = -1;

  ArenaClass getArenaClass() const {
    return {role, memory.getValue(), sourceMemory.getValue()};
  }
  bool isConstant() const { return getArenaClass().isConstant(); }
  bool isStaged() const { return getArenaClass().isStaged(); }
  bool isCold() const { return getArenaClass().isCold(); }

  MemRefType getType(StringAttr space) const;
  /// The type of the memref that tensors are viewed from at run time.
  MemRefType getRuntimeType() const { return getType(memory); }
  /// The type of the blob global of a constant arena.
  MemRefType getBlobType() const { return getType(sourceMemory); }
};

/// The arenas of a module in declaration order, with their argument
/// positions under `mode`.
class ArenaTable {
public:
  ArenaTable(ModuleOp module, ArenaMode mode);

  Arena &lookup(StringAttr name) { return arenas.find(name)->second; }
  const Arena &lookup(StringAttr name) const {
    return arenas.find(name)->second;
  }
  auto begin() { return arenas.begin(); }
  auto end() { return arenas.end(); }
  auto begin() const { return arenas.begin(); }
  auto end() const { return arenas.end(); }
  size_t size() const { return arenas.size(); }
  bool empty() const { return arenas.empty(); }
  bool anyStaged() const;
  /// The types of the trailing arena arguments, in order.
  SmallVector<Type> getArgTypes() const;
  unsigned getNumArgs() const;

private:
  llvm::MapVector<StringAttr, Arena> arenas;
};

/// The memrefs of the arenas inside one function, created at its top in the
/// order they are first asked for, and the offset constants of its views.
class ArenaBases {
public:
  ArenaBases(const ArenaTable &arenas, func::FuncOp func)
      : arenas(arenas), func(func) {}

  /// The memref of `arenaName`: its runtime storage, or with `blob` its
  /// read-only blob.
  Value getBase(StringAttr arenaName, bool blob);
  Value getOffsetConstant(uint64_t offset);
  /// A view of `base` at `offset` with the shape of `type`.
  Value createView(OpBuilder &builder, Location loc, Value base,
                   uint64_t offset, TensorType type);

private:
  template <typename OpTy, typename... Args>
  OpTy createAtTop(Location loc, Args &&...args);

  const ArenaTable &arenas;
  func::FuncOp func;
  DenseMap<StringAttr, Value> bases;
  DenseMap<uint64_t, Value> offsets;
  Operation *lastBase = nullptr;
};

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENATABLE_H
