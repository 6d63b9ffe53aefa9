//===- PlanReplay.h - replay a bound module, byte range by byte range -----===//
//
// An independent check of a plan across calls: it does not use the module
// timeline (ModuleSchedule) that the planner packs on, nor its buffers
// (BufferAnalysis): its storage groups are PlanLiveness's. It replays the
// module's execution as the lowering makes it happen, keeping for every
// byte range of every writable arena the tensor that wrote it last, and
// checks that every read finds its tensor's bytes intact:
//
// - an op reads its operands, writes its results, and its operands must
//   still be intact after the writes (they are read while results are
//   written); an op with regions also writes everything defined inside;
// - a streamed constant is copied into its pool slot before its first
//   reader, and read from the slot;
// - a call copies each operand into the callee's argument slot, in order,
//   runs the callee, then copies each result out of the callee's returned
//   slot into the caller's slot, in order; calls through unplanned functions
//   run the planned functions they reach in place;
// - staged constants are hydrated once before everything.
//
// A function's second and later invocations write every byte it (and what
// it calls) may touch, so that a caller's tensor live across such a call is
// caught without replaying the callee again.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_PLANREPLAY_H
#define HELIA_DIALECT_HELIA_ANALYSIS_PLANREPLAY_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {

struct ModuleLiveness;

/// Replays the bound `module`. Fails with a located error at the first read
/// of a tensor whose bytes another tensor has overwritten.
/// Storage groups and read steps come from `liveness` (PlanLiveness.h), not
/// from the planner's analyses; the overload without it builds them.
LogicalResult replayPlan(ModuleOp module, const ModuleLiveness &liveness);
LogicalResult replayPlan(ModuleOp module);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_PLANREPLAY_H
