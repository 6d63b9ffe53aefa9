//===- BindingPlan.h - where every buffer of a module lives -----*- C++ -*-===//
//
// The value types of the binding: the key of an arena, the decisions for
// one buffer, and the plan of a module (every buffer's decisions, the arena
// sizes in deterministic key order, the alignment and the capacities). The
// planners of BindingPlanner.h fill a BindingPlan on a ModuleSchedule;
// writeBindingPlan (Transforms/BindingPlanWriter.h) writes it into the
// module as `helia.arena` ops and `#helia.binding` attributes.
// helia-assign-bindings drives them.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLAN_H
#define HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLAN_H

#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/IR/ArenaClass.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Planner/Planner.h"
#include "helia/Planner/Traffic.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>

namespace mlir::helia {

/// Identifies an arena: (role, memory, source memory, stream pool). A key
/// with `sourceBlob` set is no arena: it stands for the bytes that the
/// staged constant arenas of its memory keep as their source blobs (images
/// copied out at init), which take room there all the same.
struct ArenaKey {
  ArenaRole role = ArenaRole::Scratch;
  std::string memory;
  std::string source;
  bool stream = false;
  bool sourceBlob = false;

  /// The scratch arena of `memory`, or its stream pool.
  static ArenaKey getScratch(StringRef memory, bool stream = false) {
    return {ArenaRole::Scratch, memory.str(), memory.str(), stream};
  }
  /// The source blobs kept in `memory` by constants staged out of it.
  static ArenaKey getSourceBlobs(StringRef memory) {
    return {ArenaRole::Constant, memory.str(), memory.str(), false, true};
  }

  ArenaClass getArenaClass() const { return {role, memory, source}; }
  /// True for an arena copied at init from another memory.
  bool isStaged() const { return getArenaClass().isStaged(); }

  bool operator<(const ArenaKey &other) const {
    return std::tie(role, memory, source, stream, sourceBlob) <
           std::tie(other.role, other.memory, other.source, other.stream,
                    other.sourceBlob);
  }
  /// The arena's symbol name before clashes are resolved, e.g.
  /// `scratch_dtcm`, `constant_dtcm_from_mram`, `stream_sram`.
  std::string getName() const;
};

/// The decisions for one buffer of one function.
struct BufferPlan {
  /// Index of the function in ModuleSchedule::getFunctions().
  unsigned func = 0;
  const BufferInfo *info = nullptr;
  /// The placement of the buffer's root tensor (may be null).
  PlacementAttr placement;
  /// Size rounded up to the platform alignment.
  int64_t alignedSize = 0;
  /// Lifetime on the module-wide timeline.
  int64_t first = 0, last = 0;
  ArenaKey arena;
  /// True when a rule fixed the memory.
  bool memoryFixed = false;
  int64_t offset = 0;
  /// Streamed constants: the slot's lifetime and offset in the pool.
  bool streamed = false;
  int64_t streamFirst = 0, streamLast = 0, streamOffset = 0;
  /// Predicted bytes read from and written to the buffer per inference
  /// (TrafficAnalysis); filled when the objective is not Default.
  uint64_t readBytes = 0, writeBytes = 0;
  /// Measured bytes read per inference while the buffer lived in a memory,
  /// by memory (traffic-profile=); the objective prices a home by it when
  /// the profile measured that memory, else by readBytes.
  llvm::StringMap<uint64_t> readBytesIn;
  /// True when the objective, not a rule, pinned the constant.
  bool pinnedByObjective = false;
};

/// The choices of helia-assign-bindings that are not the platform's.
struct BindingOptions {
  /// Packing algorithm of the final packings and the stream pool.
  ::helia::planner::Algorithm algorithm = ::helia::planner::Algorithm::Best;
  /// Search budget of Algorithm::Best.
  uint64_t effort = ::helia::planner::kDefaultEffort;
  /// Memory of the stream pool; empty: the first preferred memory.
  std::string streamPool;
  /// Byte budget of the stream pool; 0: only the memory's free bytes.
  uint64_t streamBudget = 0;
  /// Explain spills and stream fallbacks with remarks.
  bool remarks = false;
  /// What the choice of constants' homes and scratch spills optimises.
  ::helia::planner::Objective objective = ::helia::planner::Objective::Default;
  /// Inferences a pin's hydration is amortised over (objective=traffic).
  uint64_t amortize = 1000;
};

/// What the planners did, for the pass statistics.
struct BindingStatistics {
  /// Scratch buffers moved to a later preferred memory.
  unsigned spilled = 0;
  /// Streamed constants read in place instead.
  unsigned streamFallbacks = 0;
};

/// a + b for non-negative byte counts, saturating at INT64_MAX: a sum that
/// saturates is above every capacity (at most 2^62) and fails the capacity
/// checks instead of wrapping into a size that fits.
int64_t addBytes(int64_t a, int64_t b);

/// The binding of every buffer of a module. Refers to the ModuleSchedule it
/// was made for, which must outlive it.
class BindingPlan {
public:
  /// One BufferPlan per buffer of `schedule`, in function and buffer order,
  /// with its aligned size and lifetime; nothing placed yet. `capacities`
  /// gives the bytes of every memory of `platform`; `loc` locates the errors
  /// that concern no tensor.
  BindingPlan(const ModuleSchedule &schedule, PlatformAttr platform,
              llvm::StringMap<int64_t> capacities, Location loc);

  const ModuleSchedule &getSchedule() const { return *schedule; }
  PlatformAttr getPlatform() const { return platform; }
  int64_t getAlignment() const { return alignment; }
  /// `value` rounded up to the platform alignment.
  int64_t alignUp(int64_t value) const;
  Location getLoc() const { return loc; }

  MutableArrayRef<BufferPlan> getBuffers() { return buffers; }
  ArrayRef<BufferPlan> getBuffers() const { return buffers; }
  BufferPlan &getBuffer(unsigned i) { return buffers[i]; }
  const BufferPlan &getBuffer(unsigned i) const { return buffers[i]; }

  /// Arena sizes decided so far, in deterministic key order.
  const std::map<ArenaKey, int64_t> &getArenaSizes() const {
    return arenaSizes;
  }
  void setArenaBytes(const ArenaKey &key, int64_t bytes) {
    arenaSizes[key] = bytes;
  }
  /// Adds `bytes` to the size of `key` (saturating, see addBytes).
  /// Forgets the sizes of the arenas of `role` (and, for constants, of the
  /// source blobs), before their homes are chosen again.
  void clearArenaBytes(ArenaRole role) {
    for (auto it = arenaSizes.begin(); it != arenaSizes.end();)
      it = it->first.role == role ? arenaSizes.erase(it) : std::next(it);
  }
  void addArenaBytes(const ArenaKey &key, int64_t bytes) {
    int64_t &size = arenaSizes[key];
    size = addBytes(size, bytes);
  }
  /// The bytes of `memory` a plan may use (its size or memory-limit).
  int64_t getCapacity(StringRef memory) const {
    return capacities.lookup(memory);
  }
  /// Bytes of `memory` still free after the arenas decided so far
  /// (negative when they exceed its capacity).
  int64_t getFreeBytes(StringRef memory) const;
  /// For a diagnostic's fix: the readable and writable memory other than
  /// `except` with the most free bytes, when it has at least `bytes` free.
  std::optional<StringRef> findMemoryWithRoom(StringRef except,
                                              int64_t bytes) const;
  /// The fix for `what` (e.g. "persistent tensors") that needs `bytes` and
  /// does not fit `except`: `place <what> with a rule in a memory with room
  /// (e.g. memory = "<m>", <n> bytes free)` for findMemoryWithRoom, or
  /// `no other writable memory of platform '<p>' has <bytes> bytes free for
  /// <what>`.
  std::string suggestMemory(StringRef what, StringRef except,
                            int64_t bytes) const;

  /// The analysis of the function that `buffer` belongs to.
  const BufferAnalysis &getAnalysis(const BufferPlan &buffer) const {
    return schedule->getFunctions()[buffer.func].analysis;
  }
  /// The buffer's root tensor, quoted for diagnostics, with its function's
  /// name when the module plans several.
  std::string describe(const BufferPlan &buffer) const;
  /// The location of the buffer's root tensor.
  Location getLoc(const BufferPlan &buffer) const;

  BindingStatistics &getStatistics() { return statistics; }
  const BindingStatistics &getStatistics() const { return statistics; }

private:
  const ModuleSchedule *schedule;
  PlatformAttr platform;
  int64_t alignment;
  llvm::StringMap<int64_t> capacities;
  Location loc;
  SmallVector<BufferPlan> buffers;
  std::map<ArenaKey, int64_t> arenaSizes;
  BindingStatistics statistics;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_BINDINGPLAN_H
