//===- BindingPlanner.h - memory choice, streams, scratch packing -*- C++ -*-=//
//
// The planners that fill a BindingPlan, in the order helia-assign-bindings
// runs them:
//
// 1. MemoryChooser::chooseConstantHomes and choosePersistentHomes: every
//    constant and persistent tensor gets its memory (its rule's, else the
//    platform's defaults) and its offset; MemoryChooser::checkCapacities
//    reports a memory they overfill.
// 2. StreamScheduler: streamed constants get a slot in the stream pool, or
//    fall back to being read in place when the pool's budget cannot hold
//    them.
// 3. ScratchPacker: scratch buffers walk the preferred memories, each
//    keeping what it can hold and spilling the rest to the next one
//    (SpillLevel), then every scratch arena is packed.
// 4. TrafficObjective (objective other than default): the open constants
//    are pinned into the bytes of the preferred memories that all of the
//    above left free, so that pins never push scratch, streams or
//    persistent tensors out. checkCapacities runs once more.
//
// They report located errors (and, with BindingOptions::remarks, remarks)
// through the MLIR diagnostics of the tensors concerned. None of them builds
// the ModuleSchedule: the BindingPlan refers to the caller's.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLANNER_H
#define HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLANNER_H

#include "helia/Dialect/Helia/Analysis/BindingPlan.h"
#include "helia/Planner/TrafficProfile.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

namespace mlir::helia {

/// The memory of every constant and persistent tensor, and the capacity
/// check of every memory.
class MemoryChooser {
public:
  explicit MemoryChooser(BindingPlan &plan) : plan(plan) {}

  /// Gives every constant its arena: its source memory (its rule's, else the
  /// first non-volatile readable memory holding initialised data, else the
  /// first readable one holding any) or, when pinned, its destination
  /// memory; lays the constants of each arena out in buffer order.
  LogicalResult chooseConstantHomes();
  /// Lays the constants out again after TrafficObjective pinned some: their
  /// arenas and offsets change; the stream scheduler's decisions (which
  /// streamed constants fell back) stay.
  LogicalResult layOutConstantsAgain();
  /// Gives every persistent tensor its rule's memory, else the first
  /// preferred memory with room left, and lays them out in buffer order.
  LogicalResult choosePersistentHomes();
  /// Fails with a located error naming the arenas and the largest tensors
  /// of the first memory whose arenas exceed its capacity.
  LogicalResult checkCapacities() const;
  /// The memory of constants that no rule places, or "" if none fits.
  StringRef getDefaultConstantSource() const;

private:
  /// Where a constant or persistent tensor takes bytes of a memory.
  enum class Use { Pinned, Source, Cold, Persistent };
  using User = std::pair<unsigned, Use>;

  /// chooseConstantHomes; with `decideStreams`, also marks the constants of
  /// residency stream as streamed.
  LogicalResult layOutConstants(bool decideStreams);
  /// The buffers taking bytes of `memory` other than scratch, largest first.
  SmallVector<User> getUsers(StringRef memory) const;
  /// Names `users` in `diag` (the first few) and attaches the fixes.
  void explainUsers(InFlightDiagnostic &diag, StringRef memory, int64_t shortBy,
                    ArrayRef<User> users) const;

  BindingPlan &plan;
};

/// Fills BufferPlan::readBytes and writeBytes of every buffer from the
/// TrafficAnalysis of its function.
void setPredictedTraffic(BindingPlan &plan);

/// Reads and parses the traffic profile at `path` (Planner/TrafficProfile.h);
/// a file that cannot be read or parsed is a located error at `loc`.
FailureOr<::helia::planner::TrafficProfile>
loadTrafficProfile(StringRef path, Location loc);

/// Replaces BufferPlan::readBytes and writeBytes of every buffer `profile`
/// measured with its counts per inference; the other buffers keep the
/// static model's (a remark says how many; with `remarks`, one per
/// buffer). Fails with a located error when the profile is of another
/// model: a function or tensor it names is not this module's, a tensor's
/// name, kind or size differ, or a buffer groups other tensors. Returns the
/// number of buffers it measured.
FailureOr<unsigned>
applyTrafficProfile(BindingPlan &plan,
                    const ::helia::planner::TrafficProfile &profile,
                    StringRef path, bool remarks);

/// objective=traffic and the strategies it is compared with: which open
/// constants (no rule gave them a residency or a destination) to pin into
/// which preferred memory, from the buffers' predicted traffic
/// (BufferPlan::readBytes) and the memories' access costs. Runs after
/// every other planner (the homes the rules ask for, the stream pool, the
/// scratch arenas), so that the bytes it may give to pins are exactly the
/// free bytes left; lays the constants out again with the pins it adds.
class TrafficObjective {
public:
  TrafficObjective(BindingPlan &plan, const BindingOptions &options,
                   const llvm::StringMap<::helia::planner::AccessCost> &costs)
      : plan(plan), options(options), costs(costs) {}

  /// Pins the constants the objective chooses, then runs
  /// MemoryChooser::layOutConstantsAgain. Fails with a located error when
  /// objective=exact gives up.
  LogicalResult run();

private:
  /// The pin problem of the open constants `open` into `destinations`.
  ::helia::planner::PinProblem
  getProblem(ArrayRef<unsigned> open, ArrayRef<StringRef> destinations) const;
  void remark(const ::helia::planner::PinProblem &problem,
              ArrayRef<unsigned> open, ArrayRef<StringRef> destinations,
              const std::vector<int> &choice) const;

  BindingPlan &plan;
  const BindingOptions &options;
  const llvm::StringMap<::helia::planner::AccessCost> &costs;
};

/// Packs sets of buffers of a plan with the packing library.
class ArenaPacker {
public:
  ArenaPacker(const BindingPlan &plan, const BindingOptions &options)
      : plan(plan), options(options) {}

  /// The packing problem of `members` (buffer indices), on their stream
  /// windows when `stream` is set, else on their lifetimes.
  ::helia::planner::Problem getProblem(ArrayRef<unsigned> members,
                                       bool stream) const;
  ::helia::planner::Options
  getOptions(::helia::planner::Algorithm algorithm) const;
  /// Packs `members`; one offset per member, in order. A failure of the
  /// library is a located error at the plan's location.
  FailureOr<::helia::planner::Solution>
  pack(ArrayRef<unsigned> members, bool stream,
       ::helia::planner::Algorithm algorithm) const;

private:
  const BindingPlan &plan;
  const BindingOptions &options;
};

/// Schedules the streamed constants into the stream pool.
class StreamScheduler {
public:
  StreamScheduler(BindingPlan &plan, const BindingOptions &options)
      : plan(plan), options(options), packer(plan, options) {}

  /// Admits streamed constants, earliest reader first, while the pool's
  /// live bytes stay within its budget, packs the pool, and lets the latest
  /// fall back until the packing fits; the others are read in place. Fails
  /// on a pool memory that cannot hold a pool.
  LogicalResult run();

private:
  /// The pool's memory, checked to be readable and writable.
  FailureOr<std::string> getPoolMemory() const;
  /// The streamed constants admitted by live bytes within the budget.
  SmallVector<unsigned> admit(ArrayRef<unsigned> streamed);
  /// Buffer `i` is read in place: the pool would need `need` bytes with it.
  void fallBack(unsigned i, int64_t need);

  BindingPlan &plan;
  const BindingOptions &options;
  ArenaPacker packer;
  /// The pool's memory and byte budget, once run() has chosen them.
  std::string poolMemory;
  int64_t budget = 0;
};

/// One preferred memory's share of the scratch walk: which open buffers it
/// keeps beside the buffers a rule put there, and which spill to the next
/// preferred memory.
class SpillLevel {
public:
  /// `here`: the buffers a rule fixed in `memory`; `open`: the buffers left
  /// to place; `next`: those fixed in the next preferred memory; `budget`:
  /// the memory's free bytes. The lists are the caller's and must outlive
  /// the level.
  SpillLevel(const BindingPlan &plan, const BindingOptions &options,
             StringRef memory, ArrayRef<unsigned> here,
             ArrayRef<unsigned> open, ArrayRef<unsigned> next,
             int64_t budget);

  /// Decides the spills. Returns the packing of getMembers() that fits the
  /// budget, or std::nullopt if none was found (the caller reports the
  /// memory over capacity).
  FailureOr<std::optional<::helia::planner::Solution>> run();

  /// The buffers the memory keeps (`here` first) and those that spill.
  ArrayRef<unsigned> getMembers() const { return members; }
  ArrayRef<unsigned> getSpilled() const { return spilled; }

  /// Which open buffers spill for a budget of `target` bytes (the planner's
  /// chooseSpills, by live bytes), and the live bytes at the peak of what
  /// the memory keeps and of the next memory.
  struct Selection {
    SmallVector<unsigned> spilled;
    int64_t keptPeak = 0;
    int64_t slowPeak = 0;
  };
  Selection selectSpills(int64_t target) const;

private:
  using Solution = ::helia::planner::Solution;
  using Algorithm = ::helia::planner::Algorithm;

  /// Spills by live bytes and packs the rest with `algorithm`, shrinking the
  /// budget of the choice until a packing fits (or giving up).
  FailureOr<Solution> chooseByLiveBytes(Algorithm algorithm);
  /// Spills `spills` and keeps the other open buffers.
  void keep(SmallVector<unsigned> spills);
  /// Spills the open buffers at the highest addresses of `solution` until
  /// the packing fits; std::nullopt when it cannot.
  FailureOr<std::optional<Solution>> spillByAddress(Algorithm algorithm,
                                                    Solution solution);

  const BindingPlan &plan;
  const BindingOptions &options;
  ArenaPacker packer;
  StringRef memory;
  ArrayRef<unsigned> here, open, next;
  int64_t budget;
  SmallVector<unsigned> members, spilled;
};

/// Places every scratch buffer: in its rule's memory, else walking the
/// preferred memories with SpillLevel; then packs each scratch arena.
class ScratchPacker {
public:
  ScratchPacker(BindingPlan &plan, const BindingOptions &options)
      : plan(plan), options(options), packer(plan, options) {}

  LogicalResult run();

private:
  /// Sorts the scratch buffers into those a rule fixed (by memory) and the
  /// open ones.
  SmallVector<unsigned> partition();
  /// Walks the preferred memories with `open`; returns the buffers that no
  /// preferred memory kept.
  FailureOr<SmallVector<unsigned>> walkPreferred(ArrayRef<unsigned> open);
  /// The error for buffers that no preferred memory could keep.
  LogicalResult reportUnplaced(ArrayRef<unsigned> pending);
  /// Packs every scratch arena and records its offsets and size.
  LogicalResult packArenas();
  void remarkSpills(StringRef memory, ArrayRef<unsigned> spilled) const;

  /// The members live at the step where their live bytes peak, largest
  /// first.
  SmallVector<unsigned> liveAtPeak(ArrayRef<unsigned> members) const;
  InFlightDiagnostic emitOverCapacity(StringRef memory, int64_t need,
                                      ArrayRef<unsigned> live) const;

  BindingPlan &plan;
  const BindingOptions &options;
  ArenaPacker packer;
  /// The scratch buffers of each memory, rules' memories first.
  llvm::MapVector<StringRef, SmallVector<unsigned>> assigned;
  /// Packings with the chosen algorithm that fit, by preferred memory.
  llvm::StringMap<::helia::planner::Solution> packed;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLANNER_H
