//===- LoweringEntries.h - planned functions and helpers --------*- C++ -*-===//
//
// The functions helia-lower-to-memref rewrites (those with a `helia.binding`,
// or the entries helia-arena-calling-convention recorded in the module's
// `helia.firmware`), the prefix of the helpers it generates, the callers
// that own the arenas, and the creation of a generated helper.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERINGENTRIES_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERINGENTRIES_H

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir::helia {

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

/// Returns the helper function `name` of type `type`: a new public function,
/// or the one that a caller in the module wrote for it: a declaration, or a
/// stub whose body is only a return. With `acceptNoArguments`, the caller's
/// version may be `() -> ()`. The body is an empty entry block.
FailureOr<func::FuncOp> getOrCreateHelper(ModuleOp module, StringRef name,
                                          FunctionType type,
                                          bool acceptNoArguments = false);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_LOWERINGENTRIES_H
