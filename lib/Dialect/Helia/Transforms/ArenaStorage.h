//===- ArenaStorage.h - arena globals and hydration -------------*- C++ -*-===//
//
// The first half of helia-materialize-slots: ArenaStorage turns the
// `helia.arena` ops into memref globals (constant blobs with their bytes,
// runtime arenas) and writes `<prefix>_hydrate_constants`.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENASTORAGE_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENASTORAGE_H

#include "ArenaTable.h"
#include "LoweringEntries.h"

namespace mlir::helia {

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

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_ARENASTORAGE_H
