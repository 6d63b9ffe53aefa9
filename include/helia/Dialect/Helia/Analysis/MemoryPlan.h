//===- MemoryPlan.h - the memory plan of a bound module ---------*- C++ -*-===//
//
// The plan as plain data, read back from a module that
// helia-assign-bindings has bound: memories, arenas, every tensor with its
// binding and lifetime, and the stream schedule. The exporters (JSON, the
// text report, the SVG timeline; Export/PlanJSON.h, PlanReport.h,
// PlanSVG.h) read this, never the planner's internals.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_MEMORYPLAN_H
#define HELIA_DIALECT_HELIA_ANALYSIS_MEMORYPLAN_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Planner/Traffic.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>
#include <vector>

namespace mlir::helia {

class BufferAnalysis;

class ModuleSchedule;

struct PlanMemory {
  std::string name;
  /// The capacity the plan was made for: the memory-limit it obeyed, else
  /// the memory's usable size.
  int64_t capacity = 0;
  /// The memory's usable size on the platform (its size less reserved
  /// bytes).
  int64_t physical = 0;
  /// Bytes of the arenas in this memory (source blobs of staged arenas
  /// included).
  int64_t used = 0;
  /// Its access costs: the platform's, or the plan's memory-cost.
  ::helia::planner::AccessCost cost;
};

struct PlanArena {
  std::string name;
  ArenaRole role;
  std::string memory;
  std::string sourceMemory;
  int64_t size = 0;
  int64_t alignment = 0;
  bool staged = false;
  bool stream = false;
};

struct PlanTensor {
  std::string function;
  uint64_t tensorId = 0;
  /// The buffer holding the tensor, numbered across the plan: tensors that
  /// share storage (views, destination-style results) share it.
  unsigned buffer = 0;
  /// True for the first tensor of its buffer (the one that defines the
  /// storage); reports count each buffer once through it.
  bool primary = true;
  std::string name;
  TensorKind kind;
  int64_t size = 0;
  /// Lifetime on the function's schedule (closed).
  int64_t firstStep = 0;
  int64_t lastStep = 0;
  /// The ops that read the buffer (one per step that reads a member; a
  /// returned value counts its return): `size * readers` is the bytes it is
  /// accessed with, what its memory's speed multiplies.
  int64_t readers = 0;
  /// Predicted bytes the buffer is read and written with per inference
  /// (TrafficAnalysis); on the buffer's primary tensor, 0 on the others.
  uint64_t readBytes = 0;
  uint64_t writeBytes = 0;
  /// Effective residency of a constant (pin for staged, stream when it has a
  /// stream slot, direct otherwise); unset for other kinds.
  std::optional<Residency> residency;
  /// Index into MemoryPlan::arenas.
  unsigned arena = 0;
  ArenaRole role;
  std::string memory;
  std::string sourceMemory;
  int64_t offset = 0;
  /// Streamed constants: the pool arena, the slot and the step of the copy.
  std::optional<unsigned> streamArena;
  int64_t streamOffset = 0;
  int64_t streamStep = 0;
  int64_t streamLastStep = 0;
  /// True for a constant whose rules asked for streaming but that is read in
  /// place because the stream pool could not hold it.
  bool streamFallback = false;
  /// True for a scratch tensor computed from constants alone (e.g. weights
  /// broadcast at run time): it costs RAM that folding it into a constant
  /// at compile time would move to flash.
  bool constantOnly = false;

  /// The name reports give the tensor: its name, else `#<tensorId>`.
  std::string getDisplayName() const {
    return getTensorDisplayName(name, tensorId);
  }
};

/// The name of the loop attribute in which helia-insert-tensor-copies
/// records how each tensor iter_arg of an `scf.for` is stored: an array of
/// `{iter_arg = i, choice = "in-place" | "slot-and-copy", reason = "..."}`
/// (the dialect's `carried` attribute, which it verifies).
inline constexpr llvm::StringLiteral kCarriedAttrName = "helia.carried";

/// How a loop stores one tensor it carries from iteration to iteration.
struct PlanCarried {
  std::string function;
  /// The loop, as a location, and the iter_arg's position.
  std::string loop;
  unsigned iterArg = 0;
  /// The tensor whose buffer the loop carries (its init, at the top level).
  std::optional<uint64_t> tensorId;
  int64_t size = 0;
  /// `in-place`: each iteration writes its successor into the carried
  /// buffer (one slot). `slot-and-copy`: the successor is computed in a
  /// slot of its own (`successorId`) and copied back into the carried slot
  /// before the next iteration (two slots, a copy per iteration).
  /// `copy-from-iter-arg`: the iter_arg carries the old value of another
  /// iter_arg of the loop (`copiedFrom`), copied into its one slot every
  /// iteration before the loop writes over the other's.
  std::string choice;
  std::optional<unsigned> copiedFrom;
  std::optional<uint64_t> successorId;
  int64_t successorSize = 0;
  std::string reason;
};

/// The step of an arena with the most live bytes.
struct PlanPeak {
  std::string function;
  int64_t step = 0;
  int64_t bytes = 0;
};

/// How much of the scratch accesses the fast memory serves.
struct PlanFastShare {
  /// The platform's first preferred memory.
  std::string memory;
  /// Sum of size * readers over scratch buffers: all of them, and those in
  /// `memory`.
  int64_t accessedBytes = 0;
  int64_t fastAccessedBytes = 0;
  /// fastAccessedBytes / accessedBytes; none when no scratch is read.
  std::optional<double> share;
};

/// Predicted traffic of one memory or arena per inference, in the shape of
/// the measured traffic (docs/Placement.md): bytes and accesses (whole
/// accesses of the memory's width) read and written, and the cycles the
/// memory's costs give them.
struct PlanTrafficEntry {
  std::string name;
  std::string memory;
  uint64_t readBytes = 0, writeBytes = 0;
  uint64_t reads = 0, writes = 0;
  double cycles = 0;
};

struct PlanTraffic {
  /// One per memory of the platform, in its order; one per arena.
  std::vector<PlanTrafficEntry> memories, arenas;
  /// The sum of the memories' cycles per inference.
  double cycles = 0;
  /// The one hydration of the staged arenas, before the first inference:
  /// its bytes (read from the sources, written into the arenas) and cycles.
  uint64_t hydrateBytes = 0;
  double hydrateCycles = 0;
};

struct MemoryPlan {
  std::string platform;
  /// The platform's first preferred memory (empty if it prefers none).
  std::string fastMemory;
  std::vector<std::string> functions;
  std::vector<PlanMemory> memories;
  std::vector<PlanArena> arenas;
  std::vector<PlanTensor> tensors;
  /// Every tensor an `scf.for` of a planned function carries, in program
  /// order (docs/PlanFormat.md, `carried`).
  std::vector<PlanCarried> carried;

  /// Reads the plan of a bound module. Fails with a located error when a
  /// tensor has no binding or a binding names no arena. With `schedule`
  /// (the module's, e.g. from ModuleScheduleAnalysis), its buffer analyses
  /// are reused instead of analyzing each function again.
  static FailureOr<MemoryPlan> build(ModuleOp module,
                                     StringRef platformOverride = {},
                                     const ModuleSchedule *schedule = nullptr);

  /// The peak of arena `arena`: the (function, step) with the most live
  /// bytes, ties to the first in (function name, step) order. Tensors count
  /// by their lifetime in their arena and by their slot's lifetime in a
  /// stream pool; tensors that share storage count once. None for an arena
  /// that holds nothing. A LiveProfile per function (Planner/Intervals.h):
  /// O(n log n).
  std::optional<PlanPeak> findPeak(unsigned arena) const;
  /// The step with the most live bytes, counting `bytesIn(tensor, arena)`
  /// for each tensor in its arena and in its stream slot's (0: not counted).
  std::optional<PlanPeak> findPeak(
      llvm::function_ref<int64_t(const PlanTensor &, unsigned)> bytesIn) const;

  /// The share of the scratch buffers' accessed bytes (size * readers, each
  /// buffer once) that the fast memory holds: what decides speed on the
  /// device once scratch spills (docs/PlanFormat.md, `fast_share`).
  PlanFastShare getFastShare() const;

  /// The predicted traffic per memory and per arena: every buffer's reads
  /// and writes in its arena, a streamed constant's reads in its pool slot
  /// plus its copy (read from its arena, written into the pool) on every
  /// inference; the hydration apart.
  PlanTraffic getTraffic() const;
};

/// The block argument of `loop` (an `scf.for`, or the after region of an
/// `scf.while`) that holds, when its body's `scf.yield` runs, the buffer the
/// loop carries into operand `index` of that yield: an `scf.for`'s iter_arg,
/// the after-region argument an `scf.while`'s condition passes that
/// before-region argument to. Null when there is none.
BlockArgument getCarriedIterArg(Operation *loop, unsigned index);

/// Appends to `carried` every tensor a loop of `func` carries, in program
/// order, with the choice of storage helia-insert-tensor-copies recorded
/// (MemoryPlanCarried.cpp).
void collectCarriedTensors(FunctionOpInterface func,
                           const BufferAnalysis &analysis,
                           std::vector<PlanCarried> &carried);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_MEMORYPLAN_H
