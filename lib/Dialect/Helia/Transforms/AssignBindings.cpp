//===- AssignBindings.cpp - bind every tensor to an arena offset ----------===//
//
// From resolved placements to a TensorBinding for every tensor: memory
// choice, stream schedule, and offsets from the packing library.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Planner/Planner.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAASSIGNBINDINGS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

namespace {

/// Identifies an arena: (role, memory, source memory, stream pool).
struct ArenaKey {
  ArenaRole role;
  std::string memory;
  std::string source;
  bool stream = false;

  bool operator<(const ArenaKey &other) const {
    return std::tie(role, memory, source, stream) <
           std::tie(other.role, other.memory, other.source, other.stream);
  }
  std::string getName() const {
    if (stream)
      return "stream_" + memory;
    std::string name = stringifyArenaRole(role).str() + "_" + memory;
    if (source != memory)
      name += "_from_" + source;
    return name;
  }
};

/// The decisions for one buffer of one function.
struct BufferPlan {
  unsigned func;
  const BufferInfo *info;
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
};

struct HeliaAssignBindings
    : mlir::helia::impl::HeliaAssignBindingsBase<HeliaAssignBindings> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult parseLimits();
  LogicalResult collect(ModuleOp module);
  LogicalResult chooseConstantHomes();
  LogicalResult choosePersistentHomes();
  LogicalResult scheduleStreams();
  LogicalResult packScratch();
  LogicalResult checkCapacities(ModuleOp module);
  void writeIR(ModuleOp module);

  /// Packs `members` (indices into plans) and returns the offsets; uses the
  /// stream lifetimes when `stream` is set.
  FailureOr<planner::Solution> pack(ArrayRef<unsigned> members, bool stream,
                                    planner::Algorithm algo);
  /// Bytes of `memory` still free after the arenas decided so far.
  int64_t freeBytes(StringRef memory) const;
  void addArenaBytes(const ArenaKey &key, int64_t bytes);
  std::string describe(const BufferPlan &plan) const;
  Location locOf(const BufferPlan &plan) const;
  InFlightDiagnostic emitOverCapacity(StringRef memory, int64_t need,
                                      ArrayRef<unsigned> live);

  PlatformAttr platformAttr;
  int64_t alignment = 16;
  llvm::StringMap<int64_t> capacity;
  std::optional<ModuleSchedule> schedule;
  const BufferAnalysis &analysisOf(unsigned func) const {
    return schedule->getFunctions()[func].analysis;
  }
  SmallVector<BufferPlan> plans;
  /// Arena sizes decided so far, in deterministic key order.
  std::map<ArenaKey, int64_t> arenaSizes;
};

} // namespace

static int64_t alignTo(int64_t value, int64_t align) {
  return static_cast<int64_t>(llvm::alignTo(value, align));
}

LogicalResult HeliaAssignBindings::parseLimits() {
  capacity.clear();
  for (MemoryDescAttr memory : platformAttr.getMemoryList())
    capacity[memory.getName()] = static_cast<int64_t>(memory.getSize());
  for (const std::string &entry : memoryLimits) {
    auto [name, bytes] = StringRef(entry).split('=');
    uint64_t value;
    if (bytes.getAsInteger(0, value))
      return emitError(getOperation().getLoc())
             << "memory-limit '" << entry
             << "' is not name=bytes (e.g. dtcm=65536)";
    if (value > kMaxMemoryBytes)
      return emitError(getOperation().getLoc())
             << "memory-limit '" << entry
             << "' is larger than the 2^62 bytes helia supports";
    if (!platformAttr.lookupMemory(name))
      return emitError(getOperation().getLoc())
             << "memory-limit names unknown memory '" << name
             << "'; platform '" << platformAttr.getName()
             << "' has: " << platformAttr.getMemoryNamesForDiagnostic();
    capacity[name] = static_cast<int64_t>(value);
  }
  return success();
}

std::string HeliaAssignBindings::describe(const BufferPlan &plan) const {
  const TensorInfo &root =
      analysisOf(plan.func).getTensors()[plan.info->members.front()];
  std::string name =
      root.name ? root.name.getValue().str() : "#" + std::to_string(root.id);
  if (schedule->getFunctions().size() > 1)
    name = analysisOf(plan.func).getFunction().getName().str() + ":" + name;
  return "'" + name + "'";
}

Location HeliaAssignBindings::locOf(const BufferPlan &plan) const {
  return analysisOf(plan.func)
      .getTensors()[plan.info->members.front()]
      .value.getLoc();
}

LogicalResult HeliaAssignBindings::collect(ModuleOp module) {
  plans.clear();
  FailureOr<ModuleSchedule> built = ModuleSchedule::build(module);
  if (failed(built))
    return failure();
  schedule = std::move(*built);
  for (auto [f, function] : llvm::enumerate(schedule->getFunctions())) {
    const BufferAnalysis &analysis = function.analysis;
    for (const BufferInfo &info : analysis.getBuffers()) {
      BufferPlan plan;
      plan.func = f;
      plan.info = &info;
      const TensorInfo &root = analysis.getTensors()[info.members.front()];
      if (auto arg = dyn_cast<BlockArgument>(root.value)) {
        plan.placement = analysis.getFunction().getArgAttrOfType<PlacementAttr>(
            arg.getArgNumber(), HeliaDialect::getPlacementAttrName());
      } else {
        auto result = cast<OpResult>(root.value);
        if (auto list = result.getOwner()->getAttrOfType<ArrayAttr>(
                HeliaDialect::getPlacementAttrName());
            list && result.getResultNumber() < list.size())
          plan.placement =
              dyn_cast<PlacementAttr>(list[result.getResultNumber()]);
      }
      plan.alignedSize = alignTo(static_cast<int64_t>(info.size), alignment);
      std::tie(plan.first, plan.last) = schedule->getLifetime(f, info);
      plans.push_back(plan);
    }
  }
  return success();
}

int64_t HeliaAssignBindings::freeBytes(StringRef memory) const {
  int64_t used = 0;
  for (const auto &[key, bytes] : arenaSizes)
    if (key.memory == memory)
      used += bytes;
  return capacity.lookup(memory) - used;
}

void HeliaAssignBindings::addArenaBytes(const ArenaKey &key, int64_t bytes) {
  arenaSizes[key] = bytes;
}

LogicalResult HeliaAssignBindings::chooseConstantHomes() {
  // Default source: the first memory that keeps initialised data across
  // power cycles (MRAM or flash); else the first that can hold any.
  StringRef defaultSource;
  for (MemoryDescAttr memory : platformAttr.getMemoryList())
    if (memory.getNonvolatile() && memory.getInit() && memory.getReadable()) {
      defaultSource = memory.getName();
      break;
    }
  if (defaultSource.empty())
    for (MemoryDescAttr memory : platformAttr.getMemoryList())
      if (memory.getInit() && memory.getName() != "psram") {
        defaultSource = memory.getName();
        break;
      }

  std::map<ArenaKey, int64_t> next;
  for (BufferPlan &plan : plans) {
    if (plan.info->kind != TensorKind::Constant)
      continue;
    StringAttr memory = plan.placement ? plan.placement.getMemory() : nullptr;
    StringRef source = memory ? memory.getValue() : defaultSource;
    if (source.empty())
      return emitError(locOf(plan))
             << "platform '" << platformAttr.getName()
             << "' has no memory that holds initialised data for constant "
             << describe(plan) << "; declare one with init = true";
    std::optional<Residency> residency =
        plan.placement ? plan.placement.getResidency() : std::nullopt;
    StringRef home = source;
    if (residency == Residency::Pin)
      home = plan.placement.getConstantDestinationMemory().getValue();
    plan.arena = {ArenaRole::Constant, home.str(), source.str()};
    plan.streamed = residency == Residency::Stream &&
                    !plan.info->readSteps.empty();
    int64_t &offset = next[plan.arena];
    plan.offset = offset;
    offset += plan.alignedSize;
  }
  // Every key has a binding pointing at it, so every key gets its arena,
  // even when its constants are all empty (tensor<0xf32>).
  for (const auto &[key, size] : next) {
    addArenaBytes(key, size);
    // A staged arena also keeps its source blob in the source memory.
    if (key.source != key.memory && size > 0)
      addArenaBytes({ArenaRole::Constant, key.source, key.source + "@blob",
                     false},
                    size);
  }
  return success();
}

LogicalResult HeliaAssignBindings::choosePersistentHomes() {
  std::map<ArenaKey, int64_t> next;
  for (BufferPlan &plan : plans) {
    if (plan.info->kind != TensorKind::Persistent)
      continue;
    StringAttr memory = plan.placement ? plan.placement.getMemory() : nullptr;
    std::string home;
    if (memory) {
      home = memory.getValue().str();
    } else {
      // The first preferred memory with room left.
      for (StringAttr pref : platformAttr.getPreferredList()) {
        ArenaKey key{ArenaRole::Persistent, pref.getValue().str(),
                     pref.getValue().str()};
        int64_t used = next.count(key) ? next[key] : 0;
        if (freeBytes(pref.getValue()) - used >= plan.alignedSize) {
          home = pref.getValue().str();
          break;
        }
      }
      if (home.empty()) {
        return emitError(locOf(plan))
               << "no preferred memory of platform '" << platformAttr.getName()
               << "' has room for persistent tensor " << describe(plan)
               << " (" << plan.alignedSize
               << " bytes); place it with a rule (e.g. memory = \"psram\")";
      }
    }
    plan.arena = {ArenaRole::Persistent, home, home};
    int64_t &offset = next[plan.arena];
    plan.offset = offset;
    offset += plan.alignedSize;
  }
  for (const auto &[key, size] : next)
    addArenaBytes(key, size);
  return success();
}

FailureOr<planner::Solution>
HeliaAssignBindings::pack(ArrayRef<unsigned> members, bool stream,
                          planner::Algorithm algo) {
  planner::Problem problem;
  for (unsigned i : members) {
    const BufferPlan &plan = plans[i];
    planner::Buffer buffer;
    buffer.id = i;
    buffer.size = plan.alignedSize;
    buffer.alignment = alignment;
    buffer.firstStep = stream ? plan.streamFirst : plan.first;
    buffer.lastStep = stream ? plan.streamLast : plan.last;
    problem.buffers.push_back(buffer);
  }
  planner::Options options;
  options.algorithm = algo;
  options.effort = effort;
  llvm::Expected<planner::Solution> solution = planner::plan(problem, options);
  if (!solution) {
    std::string message = llvm::toString(solution.takeError());
    emitError(getOperation().getLoc()) << "packing failed: " << message;
    return failure();
  }
  return std::move(*solution);
}

LogicalResult HeliaAssignBindings::scheduleStreams() {
  SmallVector<unsigned> streamed;
  for (auto [i, plan] : llvm::enumerate(plans)) {
    if (!plan.streamed)
      continue;
    const BufferInfo &info = *plan.info;
    if (schedule->getFunctions()[plan.func].wholeProgram) {
      plan.streamFirst = 0;
      plan.streamLast = schedule->getNumSteps() - 1;
    } else {
      plan.streamFirst = schedule->toGlobal(plan.func, info.readSteps.front());
      plan.streamLast = schedule->toGlobal(plan.func, info.readSteps.back());
    }
    streamed.push_back(i);
  }
  if (streamed.empty())
    return success();
  std::string poolMemory = streamPool;
  if (poolMemory.empty()) {
    if (platformAttr.getPreferred().empty())
      return emitError(getOperation().getLoc())
             << "platform '" << platformAttr.getName()
             << "' has no preferred memory for the stream pool; set "
                "stream-pool";
    poolMemory = (*platformAttr.getPreferredList().begin()).getValue().str();
  }
  MemoryDescAttr pool = platformAttr.lookupMemory(poolMemory);
  if (!pool || !pool.getWritable())
    return emitError(getOperation().getLoc())
           << "stream-pool '" << poolMemory
           << "' must name a writable memory of platform '"
           << platformAttr.getName()
           << "': " << platformAttr.getMemoryNamesForDiagnostic();

  // Earliest reader first; a constant the budget cannot hold is read in
  // place instead.
  llvm::stable_sort(streamed, [&](unsigned a, unsigned b) {
    return plans[a].streamFirst < plans[b].streamFirst;
  });
  int64_t budget = freeBytes(poolMemory);
  if (streamBudget > 0)
    budget = std::min<int64_t>(budget, static_cast<int64_t>(streamBudget));
  SmallVector<unsigned> kept;
  for (unsigned i : streamed) {
    kept.push_back(i);
    FailureOr<planner::Solution> trial =
        pack(kept, /*stream=*/true, planner::Algorithm::Heuristic);
    if (failed(trial))
      return failure();
    if (trial->peak <= budget)
      continue;
    kept.pop_back();
    plans[i].streamed = false;
    if (remarks)
      emitRemark(locOf(plans[i]))
          << "streamed constant " << describe(plans[i]) << " ("
          << plans[i].alignedSize << " bytes) falls back to direct: the "
          << "stream pool in '" << poolMemory << "' has " << budget
          << " bytes and needs " << trial->peak << " with it";
  }
  if (kept.empty())
    return success();
  FailureOr<planner::Solution> solution =
      pack(kept, /*stream=*/true, algorithm);
  if (failed(solution))
    return failure();
  for (auto [k, i] : llvm::enumerate(kept))
    plans[i].streamOffset = solution->offsets[k];
  addArenaBytes({ArenaRole::Scratch, poolMemory, poolMemory, true},
                alignTo(solution->peak, alignment));
  return success();
}

InFlightDiagnostic
HeliaAssignBindings::emitOverCapacity(StringRef memory, int64_t need,
                                      ArrayRef<unsigned> live) {
  int64_t cap = capacity.lookup(memory);
  int64_t other = cap - freeBytes(memory);
  InFlightDiagnostic diag = emitError(
      live.empty() ? getOperation().getLoc() : locOf(plans[live.front()]));
  diag << "memory '" << memory << "' over capacity: it holds " << cap
       << " bytes";
  if (other > 0)
    diag << " (" << other << " already taken by other arenas)";
  diag << " but needs " << need + other << ", short by "
       << need + other - cap << " bytes";
  if (!live.empty()) {
    diag << "; live at the peak step:";
    for (unsigned i : live)
      diag << " " << describe(plans[i]) << " (" << plans[i].alignedSize
           << " bytes)";
  }
  return diag;
}

LogicalResult HeliaAssignBindings::packScratch() {
  llvm::MapVector<StringRef, SmallVector<unsigned>> fixed;
  SmallVector<unsigned> open;
  for (auto [i, plan] : llvm::enumerate(plans)) {
    if (plan.info->kind != TensorKind::Scratch)
      continue;
    StringAttr memory = plan.placement ? plan.placement.getMemory() : nullptr;
    if (memory) {
      plan.memoryFixed = true;
      fixed[memory.getValue()].push_back(i);
    } else {
      open.push_back(i);
    }
  }

  // Live buffers at the step where the members' live bytes peak, largest
  // first.
  auto liveAtPeak = [&](ArrayRef<unsigned> members) {
    std::vector<planner::Buffer> buffers;
    for (unsigned i : members)
      buffers.push_back({static_cast<int64_t>(i), plans[i].alignedSize,
                         alignment, plans[i].first, plans[i].last, {}});
    int64_t step = 0;
    planner::lowerBound(buffers, &step);
    SmallVector<unsigned> live;
    for (size_t k : planner::buffersLiveAt(buffers, step))
      live.push_back(members[k]);
    llvm::stable_sort(live, [&](unsigned a, unsigned b) {
      return plans[a].alignedSize > plans[b].alignedSize;
    });
    return live;
  };

  // Walk the preferred memories; each takes the open buffers it can hold and
  // spills the rest to the next one.
  llvm::MapVector<StringRef, SmallVector<unsigned>> assigned;
  for (auto &[memory, members] : fixed)
    assigned[memory] = members;
  SmallVector<unsigned> pending = open;
  for (StringAttr pref : platformAttr.getPreferredList()) {
    if (pending.empty())
      break;
    StringRef memory = pref.getValue();
    SmallVector<unsigned> members = assigned.lookup(memory);
    llvm::SmallDenseSet<unsigned> candidates(pending.begin(), pending.end());
    members.append(pending.begin(), pending.end());
    SmallVector<unsigned> spilled;
    int64_t budget = freeBytes(memory);
    while (true) {
      FailureOr<planner::Solution> solution =
          pack(members, /*stream=*/false, planner::Algorithm::Heuristic);
      if (failed(solution))
        return failure();
      if (solution->peak <= budget)
        break;
      // Spill an open buffer that makes the peak: one live at the step of
      // the most live bytes when that alone is too much, else the buffer
      // that reaches the highest address.
      std::optional<unsigned> victim;
      if (solution->lowerBound > budget) {
        for (unsigned i : liveAtPeak(members))
          if (candidates.contains(i)) {
            victim = i;
            break;
          }
      } else {
        int64_t top = -1;
        for (auto [k, i] : llvm::enumerate(members))
          if (candidates.contains(i) &&
              solution->offsets[k] + plans[i].alignedSize > top) {
            top = solution->offsets[k] + plans[i].alignedSize;
            victim = i;
          }
      }
      if (!victim)
        break; // Only fixed buffers left: checked below.
      candidates.erase(*victim);
      spilled.push_back(*victim);
      llvm::erase(members, *victim);
    }
    if (remarks)
      for (unsigned i : spilled)
        emitRemark(locOf(plans[i]))
            << "tensor " << describe(plans[i]) << " (" << plans[i].alignedSize
            << " bytes) spills from '" << memory << "': its "
            << freeBytes(memory) << " free bytes cannot hold it beside the "
            << "tensors live with it";
    assigned[memory] = members;
    llvm::sort(spilled);
    pending = spilled;
  }
  if (!pending.empty()) {
    StringRef last = platformAttr.getPreferred().empty()
                         ? StringRef()
                         : (*std::prev(platformAttr.getPreferredList().end()))
                               .getValue();
    if (last.empty())
      return emitError(locOf(plans[pending.front()]))
             << "platform '" << platformAttr.getName()
             << "' has no preferred memory for scratch tensor "
             << describe(plans[pending.front()])
             << "; give it a memory with a rule";
    SmallVector<unsigned> all = assigned.lookup(last);
    all.append(pending.begin(), pending.end());
    FailureOr<planner::Solution> solution =
        pack(all, /*stream=*/false, planner::Algorithm::Heuristic);
    if (failed(solution))
      return failure();
    emitOverCapacity(last, solution->peak, liveAtPeak(all)).attachNote()
        << "no preferred memory has room; place tensors in another memory "
           "with a rule (e.g. memory = \"psram\") or raise its memory-limit";
    return failure();
  }

  // Final packing of each memory with the chosen algorithm.
  for (auto &[memory, members] : assigned) {
    if (members.empty())
      continue;
    FailureOr<planner::Solution> solution =
        pack(members, /*stream=*/false, algorithm);
    if (failed(solution))
      return failure();
    if (solution->peak > freeBytes(memory)) {
      emitOverCapacity(memory, solution->peak, liveAtPeak(members));
      return failure();
    }
    ArenaKey key{ArenaRole::Scratch, memory.str(), memory.str()};
    for (auto [k, i] : llvm::enumerate(members)) {
      plans[i].arena = key;
      plans[i].offset = solution->offsets[k];
    }
    addArenaBytes(key, alignTo(solution->peak, alignment));
  }
  return success();
}

LogicalResult HeliaAssignBindings::checkCapacities(ModuleOp module) {
  for (MemoryDescAttr memory : platformAttr.getMemoryList()) {
    int64_t free = freeBytes(memory.getName());
    if (free >= 0)
      continue;
    InFlightDiagnostic diag = emitError(module.getLoc())
                              << "memory '" << memory.getName()
                              << "' over capacity: it holds "
                              << capacity.lookup(memory.getName())
                              << " bytes but its arenas need "
                              << capacity.lookup(memory.getName()) - free
                              << ", short by " << -free << " bytes:";
    for (const auto &[key, bytes] : arenaSizes)
      if (key.memory == memory.getName())
        diag << " "
             << (StringRef(key.source).ends_with("@blob")
                     ? "source blobs of staged constants"
                     : key.getName())
             << " (" << bytes << " bytes)";
    return failure();
  }
  return success();
}

void HeliaAssignBindings::writeIR(ModuleOp module) {
  MLIRContext *ctx = &getContext();
  for (auto arena : llvm::make_early_inc_range(module.getOps<ArenaOp>()))
    arena.erase();
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  for (const auto &[key, bytes] : arenaSizes) {
    if (StringRef(key.source).ends_with("@blob"))
      continue;
    auto arena = ArenaOp::create(
        builder, module.getLoc(), builder.getStringAttr(key.getName()),
        ArenaRoleAttr::get(ctx, key.role), builder.getStringAttr(key.memory),
        key.source != key.memory ? builder.getStringAttr(key.source)
                                 : StringAttr(),
        builder.getI64IntegerAttr(std::max<int64_t>(bytes, alignment)),
        builder.getI64IntegerAttr(alignment),
        key.stream ? builder.getUnitAttr() : UnitAttr());
    (void)arena;
  }

  StringAttr bindingName =
      StringAttr::get(ctx, HeliaDialect::getBindingAttrName());
  DenseMap<Operation *, SmallVector<Attribute>> opBindings;
  std::string poolMemory;
  for (const BufferPlan &plan : plans) {
    const ArenaKey &key = plan.arena;
    FlatSymbolRefAttr streamArena;
    std::optional<uint64_t> streamOffset;
    if (plan.streamed) {
      for (const auto &[k, bytes] : arenaSizes)
        if (k.stream)
          streamArena = FlatSymbolRefAttr::get(ctx, k.getName());
      streamOffset = plan.streamOffset;
    }
    auto binding = BindingAttr::get(
        ctx, FlatSymbolRefAttr::get(ctx, key.getName()), key.role,
        StringAttr::get(ctx, key.memory), StringAttr::get(ctx, key.source),
        plan.offset, streamArena, streamOffset);
    const BufferAnalysis &analysis = analysisOf(plan.func);
    for (unsigned member : plan.info->members) {
      Value value = analysis.getTensors()[member].value;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        analysis.getFunction().setArgAttr(arg.getArgNumber(), bindingName,
                                          binding);
        continue;
      }
      auto result = cast<OpResult>(value);
      SmallVector<Attribute> &list = opBindings[result.getOwner()];
      if (list.empty())
        list.assign(result.getOwner()->getNumResults(), UnitAttr::get(ctx));
      list[result.getResultNumber()] = binding;
    }
  }
  for (auto &[op, list] : opBindings)
    op->setAttr(bindingName, ArrayAttr::get(ctx, list));
}

void HeliaAssignBindings::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<PlatformAttr> platformOr = lookupPlatform(module, platform);
  if (failed(platformOr))
    return signalPassFailure();
  platformAttr = *platformOr;
  alignment = static_cast<int64_t>(platformAttr.getAlignment());
  arenaSizes.clear();
  if (failed(parseLimits()) || failed(collect(module)) ||
      failed(chooseConstantHomes()) || failed(choosePersistentHomes()) ||
      failed(checkCapacities(module)) || failed(scheduleStreams()) ||
      failed(packScratch()) || failed(checkCapacities(module)))
    return signalPassFailure();
  writeIR(module);
}
