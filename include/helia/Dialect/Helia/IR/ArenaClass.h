//===- ArenaClass.h - what an arena is: role and memories -------*- C++ -*-===//
//
// The one definition of an arena's class, "staged" and "cold" included: the
// helia.arena op, the planner's arena keys and the lowering's arena table
// all answer these questions through it.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_IR_ARENACLASS_H
#define HELIA_DIALECT_HELIA_IR_ARENACLASS_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::helia {

/// An arena's role, the memory its tensors live in at run time, and the
/// memory its bytes come from in the image (the same one except for a staged
/// constant arena).
struct ArenaClass {
  ArenaRole role;
  llvm::StringRef memory;
  llvm::StringRef source;

  bool isConstant() const { return role == ArenaRole::Constant; }
  /// A constant arena copied at init from a blob in another memory.
  bool isStaged() const { return isConstant() && source != memory; }
  /// A constant arena read in place, never written at run time.
  bool isCold() const { return isConstant() && source == memory; }
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_IR_ARENACLASS_H
