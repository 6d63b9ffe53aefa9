//===- Lowering.h - shared pieces of the lowering passes ---------*- C++ -*-===//
//
// The passes of helia-lower-to-memref (buildHeliaLoweringPipeline) share the
// table of arenas, the planned functions and the generated helpers. The
// state each pass needs is read back from the IR: the `helia.arena` ops, the
// `helia.binding` attributes and the `helia.firmware` entries.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERING_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERING_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
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

/// The planned functions of a module (those with a `helia.binding`) and the
/// prefix of the generated helpers.
struct LoweringEntries {
  std::string prefix;
  SmallVector<func::FuncOp> planned;
  /// The names of `planned`, for lookups by callee.
  llvm::DenseSet<StringAttr> plannedNames;

  /// Appends `func` to the planned functions.
  void addPlanned(func::FuncOp func) {
    planned.push_back(func);
    plannedNames.insert(func.getSymNameAttr());
  }

  /// The entries computed from the bindings; `prefix` is the option
  /// (empty: the name of the first planned function).
  static LoweringEntries compute(ModuleOp module, StringRef prefix);
  /// The entries that helia-arena-calling-convention recorded in the
  /// module's `helia.firmware` dictionary.
  static LoweringEntries fromFirmware(ModuleOp module);

  std::string getHydrateName() const { return getHydrateFunctionName(prefix); }
  std::string getAllocName() const { return getAllocFunctionName(prefix); }
  std::string getFreeName() const { return prefix + "_free_arenas"; }
};

/// arena-mode=alloc|arg: the functions other than the planned ones that
/// call a function taking the arenas as trailing arguments, in module
/// order; they own the arenas. Reports a located error (and fails) when
/// such a call cannot be supplied.
FailureOr<SmallVector<func::FuncOp>>
collectArenaOwners(ModuleOp module, const LoweringEntries &entries,
                   ArenaMode mode);

/// True when `callee` takes the arenas as trailing arguments.
bool takesArenas(const LoweringEntries &entries, StringAttr callee);

/// The bindings of the tensors of a planned function, as the planner made
/// its buffers.
struct FunctionBindings {
  /// The binding of every planned tensor, including the tensors that replace
  /// them during the rewrite.
  DenseMap<Value, BindingAttr> bindings;
  /// Tensors that bufferization stores in an operand's buffer (the members
  /// of a buffer after its root): they are in their slot already.
  llvm::DenseSet<Value> storedInOperand;

  /// The binding of the slot `value` is stored in: its own, or, for a value
  /// nested in a region (which has none), that of the tensor it is written
  /// into (a destination-style op's init) or reshapes, with the same
  /// identity layout, or that a loop carries it in (a nested loop's result,
  /// an `scf.while` after-region argument). Null for anything else (a slice
  /// is a strided view).
  BindingAttr lookupStorage(Value value) const;
};

/// Records the binding of every tensor of `func` into `result`; every tensor
/// that owns storage needs one (a located error otherwise).
LogicalResult collectBindings(func::FuncOp func, FunctionBindings &result);

/// Returns the helper function `name` of type `type`: a new public function,
/// or the one that a caller in the module wrote for it: a declaration, or a
/// stub whose body is only a return. With `acceptNoArguments`, the caller's
/// version may be `() -> ()`. The body is an empty entry block.
FailureOr<func::FuncOp> getOrCreateHelper(ModuleOp module, StringRef name,
                                          FunctionType type,
                                          bool acceptNoArguments = false);

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

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERING_H
