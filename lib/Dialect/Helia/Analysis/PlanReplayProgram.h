//===- PlanReplayProgram.h - the events PlanReplay runs ---------*- C++ -*-===//
//
// The module's execution as the lowering makes it happen, as PlanReplay.cpp
// replays it: the byte ranges tensors own (owners) and, per function, the
// reads, writes and calls of its steps in order (events). See PlanReplay.h
// for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_ANALYSIS_PLANREPLAYPROGRAM_H
#define HELIA_LIB_DIALECT_HELIA_ANALYSIS_PLANREPLAYPROGRAM_H

#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>
#include <vector>

namespace mlir::helia::replay {

/// Who wrote a byte range: a buffer of a planned function (or its stream
/// slot), or the internals of a function replayed in summary.
using OwnerId = int64_t;
constexpr OwnerId kNoOwner = -1;
constexpr OwnerId kSummary = -2;

/// Where a buffer (or a stream slot) lives, and what to name it by.
struct Owner {
  unsigned arena;
  int64_t offset, size;
  Value value;
  /// The tensor's name and id, spelled out only for an error.
  StringAttr tensorName;
  uint64_t tensorId;
  StringRef function;
  std::string getName() const {
    return getTensorDisplayName(
        tensorName ? tensorName.getValue() : StringRef(), tensorId);
  }
};

struct Event {
  enum Kind : uint8_t { Write, Read, Call } kind;
  OwnerId owner = kNoOwner;
  /// The op that reads, writes or calls (for diagnostics).
  Operation *op = nullptr;
  /// Call: the callee, and its argument copies [first, first + count) in
  /// Function::copies as (caller operand, callee argument).
  unsigned callee = 0, first = 0, count = 0;
};

/// A function with a body, as events.
struct Function {
  FunctionOpInterface op;
  /// The function's storage groups, for a planned function.
  const FunctionLiveness *analysis = nullptr;
  SmallVector<Event> events;
  SmallVector<std::pair<OwnerId, OwnerId>> copies;
  /// Owners of the entry-block arguments and of the returned values.
  SmallVector<OwnerId> args, results;
  /// Every owner of the function.
  SmallVector<OwnerId> owned;
  /// Functions it calls.
  SmallVector<unsigned> callees;
};

/// The owners and the events of every function with a body of a module.
struct Program {
  /// The writable arenas (cold constants are never written), by index.
  SmallVector<StringRef> arenaNames;
  std::vector<Owner> owners;
  /// In module order.
  std::vector<Function> functions;
  /// Buffers of staged constants: hydrated before everything.
  SmallVector<OwnerId> hydrated;
};

/// Builds the program of the bound `module`, with the storage groups and
/// read steps of `liveness`.
Program buildProgram(ModuleOp module, const ModuleLiveness &liveness);

} // namespace mlir::helia::replay

#endif // HELIA_LIB_DIALECT_HELIA_ANALYSIS_PLANREPLAYPROGRAM_H
