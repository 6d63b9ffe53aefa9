//===- AssignBindings.cpp - bind every tensor to an arena offset ----------===//
//
// From resolved placements to a TensorBinding for every tensor: memory
// choice, stream schedule, and offsets from the packing library.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/ConstantOnly.h"
#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Planner/Intervals.h"
#include "helia/Planner/Planner.h"
#include "helia/Planner/Spill.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "helia-assign-bindings"

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
  ArenaRole role = ArenaRole::Scratch;
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

/// Which open buffers spill from a memory, and the live bytes at the peak
/// of what it keeps and of the next memory.
struct SpillSelection {
  SmallVector<unsigned> spilled;
  int64_t keptPeak = 0;
  int64_t slowPeak = 0;
};

struct HeliaAssignBindings
    : mlir::helia::impl::HeliaAssignBindingsBase<HeliaAssignBindings> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // BufferAnalysis asks bufferization which values share a buffer.
    registerBufferizationModels(registry);
  }
  void runOnOperation() override;

private:
  LogicalResult parseLimits();
  LogicalResult collect(ModuleOp module);
  LogicalResult chooseConstantHomes();
  LogicalResult choosePersistentHomes();
  LogicalResult scheduleStreams();
  LogicalResult packScratch();
  /// The buffers of `open` that spill from a memory holding `here` within
  /// `budget` bytes to the next one, which holds `next` (the planner's
  /// chooseSpills, by live bytes).
  SpillSelection selectSpills(ArrayRef<unsigned> here,
                              ArrayRef<unsigned> open,
                              ArrayRef<unsigned> next, int64_t budget);
  LogicalResult checkCapacities(ModuleOp module);
  void writeIR(ModuleOp module);

  /// Packs `members` (indices into plans) and returns the offsets; uses the
  /// stream lifetimes when `stream` is set.
  FailureOr<planner::Solution> pack(ArrayRef<unsigned> members, bool stream,
                                    planner::Algorithm algo);
  planner::Problem problemOf(ArrayRef<unsigned> members, bool stream) const;
  planner::Options optionsFor(planner::Algorithm algo) const;
  /// Bytes of `memory` still free after the arenas decided so far.
  int64_t freeBytes(StringRef memory) const;
  void addArenaBytes(const ArenaKey &key, int64_t bytes);
  std::string describe(const BufferPlan &plan) const;
  void remarkConstantOnly();
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

/// a + b for non-negative byte counts, saturating at INT64_MAX: a sum that
/// saturates is above every capacity (at most 2^62) and fails the capacity
/// checks instead of wrapping into a size that fits.
static int64_t addBytes(int64_t a, int64_t b) {
  return static_cast<int64_t>(std::min<uint64_t>(
      llvm::SaturatingAdd(static_cast<uint64_t>(a), static_cast<uint64_t>(b)),
      std::numeric_limits<int64_t>::max()));
}

LogicalResult HeliaAssignBindings::parseLimits() {
  FailureOr<llvm::StringMap<int64_t>> capacities = getMemoryCapacities(
      platformAttr, memoryLimits, getOperation().getLoc());
  if (failed(capacities))
    return failure();
  capacity = std::move(*capacities);
  // The plan records the capacities it was made for, so that its report and
  // JSON show them; a limit above the memory's size only measures packing.
  ModuleOp module = getOperation();
  SmallVector<NamedAttribute> limits;
  for (MemoryDescAttr memory : platformAttr.getMemoryList()) {
    int64_t planned = capacity.lookup(memory.getName());
    int64_t physical = static_cast<int64_t>(memory.getUsableSize());
    if (planned == physical)
      continue;
    limits.push_back(NamedAttribute(
        memory.getName(),
        IntegerAttr::get(IntegerType::get(&getContext(), 64), planned)));
    if (planned > physical)
      emitWarning(module.getLoc())
          << "memory-limit gives '" << memory.getName() << "' " << planned
          << " bytes, more than the " << physical << " it has on platform '"
          << platformAttr.getName()
          << "'; the plan may not fit the device (use such a limit only to "
             "measure packing)";
  }
  if (limits.empty())
    module->removeAttr(HeliaDialect::getMemoryLimitsAttrName());
  else
    module->setAttr(HeliaDialect::getMemoryLimitsAttrName(),
                    DictionaryAttr::get(&getContext(), limits));
  return success();
}

std::string HeliaAssignBindings::describe(const BufferPlan &plan) const {
  const TensorInfo &root =
      analysisOf(plan.func).getTensors()[plan.info->members.front()];
  std::string name = root.getDisplayName();
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
  size_t numBuffers = 0;
  for (const ModuleSchedule::Function &function : schedule->getFunctions())
    numBuffers += function.analysis.getBuffers().size();
  plans.reserve(numBuffers);
  for (auto [f, function] : llvm::enumerate(schedule->getFunctions())) {
    const BufferAnalysis &analysis = function.analysis;
    for (const BufferInfo &info : analysis.getBuffers()) {
      BufferPlan plan;
      plan.func = f;
      plan.info = &info;
      plan.placement =
          getPlacement(analysis.getTensors()[info.members.front()].value);
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
      used = addBytes(used, bytes);
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
    offset = addBytes(offset, plan.alignedSize);
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
    offset = addBytes(offset, plan.alignedSize);
  }
  for (const auto &[key, size] : next)
    addArenaBytes(key, size);
  return success();
}

planner::Problem HeliaAssignBindings::problemOf(ArrayRef<unsigned> members,
                                                bool stream) const {
  planner::Problem problem;
  problem.buffers.reserve(members.size());
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
  return problem;
}

planner::Options
HeliaAssignBindings::optionsFor(planner::Algorithm algo) const {
  planner::Options options;
  options.algorithm = algo;
  options.effort = effort;
  return options;
}

FailureOr<planner::Solution>
HeliaAssignBindings::pack(ArrayRef<unsigned> members, bool stream,
                          planner::Algorithm algo) {
  planner::Problem problem = problemOf(members, stream);
  llvm::Expected<planner::Solution> solution =
      planner::plan(problem, optionsFor(algo));
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
    std::tie(plan.streamFirst, plan.streamLast) =
        schedule->getStreamWindow(plan.func, *plan.info);
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
  if (!pool || !pool.getWritable() || !pool.getReadable()) {
    // List only the memories that can hold the pool.
    SmallVector<StringRef> choices;
    for (MemoryDescAttr memory : platformAttr.getMemoryList())
      if (memory.getWritable() && memory.getReadable())
        choices.push_back(memory.getName());
    InFlightDiagnostic diag = emitError(getOperation().getLoc())
                              << "stream-pool '" << poolMemory << "' ";
    if (!pool)
      diag << "is not a memory of platform '" << platformAttr.getName() << "'";
    else
      diag << "is " << (pool.getWritable() ? "not readable" : "read-only")
           << " on platform '" << platformAttr.getName() << "'";
    diag << "; the pool must be a readable, writable memory: ";
    llvm::interleaveComma(choices, diag);
    return diag;
  }

  // Earliest reader first; a constant the budget cannot hold is read in
  // place instead.
  llvm::stable_sort(streamed, [&](unsigned a, unsigned b) {
    return plans[a].streamFirst < plans[b].streamFirst;
  });
  int64_t budget = freeBytes(poolMemory);
  if (streamBudget > 0)
    budget = std::min<int64_t>(budget, static_cast<int64_t>(streamBudget));
  auto fallBack = [&](unsigned i, int64_t need) {
    plans[i].streamed = false;
    ++numStreamFallbacks;
    LDBG() << "stream fallback: " << describe(plans[i]) << " needs " << need
           << " of the pool's " << budget << " bytes";
    if (remarks)
      emitRemark(locOf(plans[i]))
          << "streamed constant " << describe(plans[i]) << " ("
          << plans[i].alignedSize << " bytes) falls back to direct: the "
          << "stream pool in '" << poolMemory << "' has " << budget
          << " bytes and needs " << need << " with it";
  };
  // Admission by live bytes (a packing needs at least that many), kept up to
  // date in O(log steps) per constant rather than by re-packing the pool
  // for every one, which was quadratic.
  planner::LiveProfile load(std::max<int64_t>(schedule->getNumSteps(), 1));
  SmallVector<unsigned> kept;
  for (unsigned i : streamed) {
    const BufferPlan &plan = plans[i];
    int64_t need = std::max(load.getPeak().bytes,
                            load.getMax(plan.streamFirst, plan.streamLast) +
                                plan.alignedSize);
    if (need > budget) {
      fallBack(i, need);
      continue;
    }
    load.add(plan.streamFirst, plan.streamLast, plan.alignedSize);
    kept.push_back(i);
  }
  if (kept.empty())
    return success();
  FailureOr<planner::Solution> solution =
      pack(kept, /*stream=*/true, algorithm);
  if (failed(solution))
    return failure();
  // The rare packing above its lower bound: the latest constants fall back
  // until the pool fits.
  while (solution->peak > budget) {
    fallBack(kept.back(), solution->peak);
    kept.pop_back();
    if (kept.empty())
      return success();
    solution = pack(kept, /*stream=*/true, algorithm);
    if (failed(solution))
      return failure();
  }
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

SpillSelection
HeliaAssignBindings::selectSpills(ArrayRef<unsigned> here,
                                  ArrayRef<unsigned> open,
                                  ArrayRef<unsigned> next, int64_t budget) {
  std::vector<planner::SpillItem> items;
  auto add = [&](ArrayRef<unsigned> buffers, planner::SpillPlace place) {
    for (unsigned i : buffers) {
      const BufferPlan &plan = plans[i];
      planner::SpillItem item;
      item.size = plan.alignedSize;
      item.firstStep = plan.first;
      item.lastStep = plan.last;
      // Accessed bytes: what the fast memory's speed multiplies.
      item.weight = static_cast<int64_t>(std::min<uint64_t>(
          llvm::SaturatingMultiply<uint64_t>(plan.info->size,
                                             plan.info->readSteps.size()),
          std::numeric_limits<int64_t>::max()));
      item.place = place;
      items.push_back(item);
    }
  };
  add(here, planner::SpillPlace::Fast);
  add(open, planner::SpillPlace::Open);
  add(next, planner::SpillPlace::Slow);
  planner::SpillOptions options;
  options.capacity = budget;
  planner::SpillChoice choice = planner::chooseSpills(items, options);
  SmallVector<unsigned> spilled;
  for (auto [k, i] : llvm::enumerate(open))
    if (!choice.fast[here.size() + k])
      spilled.push_back(i);
  return {std::move(spilled), choice.fastPeak, choice.slowPeak};
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
  // Packings with the chosen algorithm that fit, by preferred memory.
  llvm::StringMap<planner::Solution> packed;
  for (auto &[memory, members] : fixed)
    assigned[memory] = members;
  SmallVector<unsigned> pending = open;
  SmallVector<StringRef> preferred;
  for (StringAttr pref : platformAttr.getPreferredList())
    preferred.push_back(pref.getValue());
  for (auto [level, memory] : llvm::enumerate(preferred)) {
    if (pending.empty())
      break;
    SmallVector<unsigned> here = assigned.lookup(memory);
    SmallVector<unsigned> next;
    if (level + 1 < preferred.size())
      next = assigned.lookup(preferred[level + 1]);
    int64_t budget = freeBytes(memory);
    SmallVector<unsigned> members, spilled;
    // Chooses by live bytes which open buffers spill (selectSpills: the
    // lowest peak in the next memory, then the most accessed bytes kept
    // here) and packs the others with `algo`. A packing needs at least the
    // live bytes and nearly always reaches them. When it does not fit, the
    // choice is made again for a smaller budget: first below the kept live
    // bytes by the excess (so that the choice changes), then bisecting
    // between the largest budget that packed and the smallest that did not,
    // a few times; the packing that fits with the lowest peak in the next
    // memory wins (ties: the largest budget). Leaves `members` and `spilled`
    // at the returned packing.
    auto choose = [&](planner::Algorithm algo) -> FailureOr<planner::Solution> {
      constexpr unsigned kMaxAttempts = 5;
      std::optional<std::tuple<planner::Solution, SmallVector<unsigned>,
                               SmallVector<unsigned>, int64_t>>
          fitting;
      std::optional<planner::Solution> last;
      int64_t target = budget, fits = -1, fails = budget + 1;
      for (unsigned attempt = 0; attempt < kMaxAttempts; ++attempt) {
        SpillSelection selection = selectSpills(here, pending, next, target);
        spilled = std::move(selection.spilled);
        llvm::DenseSet<unsigned> gone(spilled.begin(), spilled.end());
        members = here;
        for (unsigned i : pending)
          if (!gone.contains(i))
            members.push_back(i);
        FailureOr<planner::Solution> solution =
            pack(members, /*stream=*/false, algo);
        if (failed(solution))
          return failure();
        LDBG() << "spill choice " << attempt << " in '" << memory
               << "': budget " << target << ", " << spilled.size()
               << " spilled, kept peak " << selection.keptPeak
               << ", slow peak " << selection.slowPeak << ", packed "
               << solution->peak << " of " << budget;
        if (solution->peak <= budget) {
          fits = target;
          // Bisection only tries larger budgets after a fit: on a tie the
          // later choice keeps more.
          if (!fitting || selection.slowPeak <= std::get<3>(*fitting))
            fitting = {std::move(*solution), members, spilled,
                       selection.slowPeak};
        } else {
          fails = std::min(target, selection.keptPeak);
          last = std::move(*solution);
          if (fits < 0 && spilled.size() == pending.size())
            break; // Nothing left to spill by live bytes.
        }
        if (attempt == 0 && fits >= 0)
          break; // The first choice packs: no budget can do better.
        target = fits < 0 ? fails - alignTo(last->peak - budget, alignment)
                          : alignTo((fits + fails) / 2, alignment);
        if (target < 0 || target <= fits || target >= fails)
          break;
      }
      if (!fitting)
        return std::move(*last);
      auto &[solution, fitMembers, fitSpilled, slowPeak] = *fitting;
      members = std::move(fitMembers);
      spilled = std::move(fitSpilled);
      return std::move(solution);
    };
    // Then the packing decides: the open buffers reaching the highest
    // addresses of `solution` spill, one, then up to two, four, ..., so that
    // a memory far too small is settled in O(log n) packings. Returns the
    // packing of `members` with `algo` that fits, if any.
    auto spillByAddress = [&](planner::Algorithm algo,
                              planner::Solution solution)
        -> FailureOr<std::optional<planner::Solution>> {
      llvm::SmallDenseSet<unsigned> candidates(members.begin() + here.size(),
                                               members.end());
      planner::LiveProfile load(std::max<int64_t>(schedule->getNumSteps(), 1));
      for (unsigned i : members)
        if (plans[i].alignedSize != 0)
          load.add(plans[i].first, plans[i].last, plans[i].alignedSize);
      // The fixed buffers alone exceed the budget: no packing fits.
      if (load.getPeak().bytes > budget)
        return std::optional<planner::Solution>();
      size_t batch = 1;
      while (solution.peak > budget) {
        // (top address, position in members), highest first, ties in member
        // order.
        SmallVector<std::pair<int64_t, size_t>> tops;
        for (auto [k, i] : llvm::enumerate(members))
          if (candidates.contains(i))
            tops.push_back({solution.offsets[k] + plans[i].alignedSize, k});
        if (tops.empty())
          return std::optional<planner::Solution>(); // Checked below.
        llvm::sort(tops, [](const auto &a, const auto &b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        size_t above = llvm::count_if(
            tops, [&](const auto &top) { return top.first > budget; });
        llvm::DenseSet<unsigned> gone;
        for (auto [top, k] : ArrayRef(tops).take_front(
                 std::max<size_t>(1, std::min(batch, above)))) {
          candidates.erase(members[k]);
          spilled.push_back(members[k]);
          gone.insert(members[k]);
        }
        llvm::erase_if(members, [&](unsigned i) { return gone.contains(i); });
        batch *= 2;
        FailureOr<planner::Solution> repacked =
            pack(members, /*stream=*/false, algo);
        if (failed(repacked))
          return failure();
        solution = std::move(*repacked);
      }
      return std::optional<planner::Solution>(std::move(solution));
    };
    // The fast heuristic settles most spills; the final packing with the
    // chosen algorithm must fit too, or a memory would fail where a smaller
    // one (that spilled more) succeeds: it goes on spilling until it does.
    // `best` never packs worse than `heuristic`, so it only packs once more,
    // and not at all when its search would not run (it would give the same).
    FailureOr<std::optional<planner::Solution>> fit = failure();
    if (FailureOr<planner::Solution> solution =
            choose(planner::Algorithm::Heuristic);
        succeeded(solution))
      fit = spillByAddress(planner::Algorithm::Heuristic, std::move(*solution));
    if (succeeded(fit) && *fit && algorithm != planner::Algorithm::Heuristic &&
        !planner::isHeuristicFinal(problemOf(members, /*stream=*/false),
                                   optionsFor(algorithm), **fit)) {
      FailureOr<planner::Solution> solution =
          pack(members, /*stream=*/false, algorithm);
      if (succeeded(solution) && solution->peak > budget)
        solution = choose(algorithm);
      if (failed(solution))
        return failure();
      fit = spillByAddress(algorithm, std::move(*solution));
    }
    if (failed(fit))
      return failure();
    if (*fit)
      packed.insert({memory, std::move(**fit)});
    numSpilled += spilled.size();
    LDBG() << spilled.size() << " scratch buffers spill from '" << memory
           << "', " << members.size() << " stay";
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

  // Final packing of each memory with the chosen algorithm (the preferred
  // ones were packed so while spilling).
  for (auto &[memory, members] : assigned) {
    if (members.empty())
      continue;
    FailureOr<planner::Solution> solution = failure();
    if (auto it = packed.find(memory); it != packed.end())
      solution = std::move(it->second);
    else
      solution = pack(members, /*stream=*/false, algorithm);
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
    // The constants and persistent tensors that take bytes of this memory
    // (scratch and the stream pool report their own shortfalls), largest
    // first: the error points at the largest and names them.
    enum class Use { Pinned, Source, Cold, Persistent };
    SmallVector<std::pair<unsigned, Use>> users;
    for (auto [i, plan] : llvm::enumerate(plans)) {
      const ArenaKey &key = plan.arena;
      if (plan.alignedSize == 0 || key.role == ArenaRole::Scratch)
        continue;
      bool staged = key.source != key.memory;
      if (key.memory == memory.getName())
        users.push_back({i, key.role == ArenaRole::Persistent ? Use::Persistent
                            : staged                          ? Use::Pinned
                                                              : Use::Cold});
      else if (staged && key.source == memory.getName())
        users.push_back({i, Use::Source});
    }
    llvm::stable_sort(users, [&](const auto &a, const auto &b) {
      return plans[a.first].alignedSize > plans[b.first].alignedSize;
    });
    InFlightDiagnostic diag =
        emitError(users.empty() ? module.getLoc()
                                : locOf(plans[users.front().first]))
        << "memory '" << memory.getName() << "' over capacity: it holds "
        << capacity.lookup(memory.getName()) << " bytes but its arenas need "
        << capacity.lookup(memory.getName()) - free << ", short by " << -free
        << " bytes:";
    for (const auto &[key, bytes] : arenaSizes)
      if (key.memory == memory.getName())
        diag << " "
             << (StringRef(key.source).ends_with("@blob")
                     ? "source blobs of staged constants"
                     : key.getName())
             << " (" << bytes << " bytes)";
    if (users.empty())
      return failure();
    constexpr size_t kMaxNamed = 8;
    diag << "; the tensors there, largest first:";
    bool uses[4] = {false, false, false, false};
    for (auto [n, user] : llvm::enumerate(users)) {
      uses[static_cast<unsigned>(user.second)] = true;
      if (n == kMaxNamed) {
        diag << " and " << users.size() - kMaxNamed << " more";
        continue;
      }
      if (n > kMaxNamed)
        continue;
      const BufferPlan &plan = plans[user.first];
      diag << " " << describe(plan) << " (" << plan.alignedSize << " bytes, ";
      switch (user.second) {
      case Use::Pinned:
        diag << "pinned from '" << plan.arena.source << "'";
        break;
      case Use::Source:
        diag << "source of a constant pinned to '" << plan.arena.memory
             << "'";
        break;
      case Use::Cold:
        diag << "constant read in place";
        break;
      case Use::Persistent:
        diag << "persistent";
        break;
      }
      diag << ")";
    }
    Diagnostic &note = diag.attachNote();
    note << "free " << -free << " bytes of '" << memory.getName() << "'";
    if (uses[static_cast<unsigned>(Use::Pinned)])
      note << "; pin fewer constants there (drop constant_destination_memory "
              "from their rule, or stream them with residency = stream)";
    if (uses[static_cast<unsigned>(Use::Source)] ||
        uses[static_cast<unsigned>(Use::Cold)])
      note << "; keep some constants' bytes in another memory that holds "
              "initialised data (a rule's memory = ...)";
    if (uses[static_cast<unsigned>(Use::Persistent)])
      note << "; place persistent tensors in another memory with a rule "
              "(e.g. memory = \"psram\")";
    note << "; or raise its memory-limit";
    return failure();
  }
  return success();
}

void HeliaAssignBindings::writeIR(ModuleOp module) {
  MLIRContext *ctx = &getContext();
  for (auto arena : llvm::make_early_inc_range(module.getOps<ArenaOp>()))
    arena.erase();
  // Names derive from memory names, so two keys may want the same one (a
  // memory named "dtcm_from_mram" and dtcm staged from mram), as may any
  // other symbol of the module: the symbol table renames a clash with a
  // suffix, in the deterministic order of the keys.
  SymbolTable symbols(module);
  // Each arena's attributes, interned once for all its tensors.
  struct ArenaAttrs {
    FlatSymbolRefAttr name;
    StringAttr memory, source;
  };
  std::map<ArenaKey, ArenaAttrs> arenaNames;
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
    arenaNames[key] = {FlatSymbolRefAttr::get(symbols.insert(arena)),
                       builder.getStringAttr(key.memory),
                       builder.getStringAttr(key.source)};
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
      for (const auto &[k, attrs] : arenaNames)
        if (k.stream)
          streamArena = attrs.name;
      streamOffset = plan.streamOffset;
    }
    const ArenaAttrs &arena = arenaNames.at(key);
    auto binding =
        BindingAttr::get(ctx, arena.name, key.role, arena.memory, arena.source,
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
  // The pass outlives its run (it stays in the pipeline): free the analysis
  // and the plans for the passes after it.
  llvm::scope_exit release([&] {
    plans = {};
    schedule.reset();
  });
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
  if (remarks)
    remarkConstantOnly();
}

/// Scratch computed from constants alone costs RAM that folding at compile
/// time would move to flash: say so at each such buffer.
void HeliaAssignBindings::remarkConstantOnly() {
  for (const ModuleSchedule::Function &function : schedule->getFunctions()) {
    const BufferAnalysis &analysis = function.analysis;
    llvm::BitVector constantOnly =
        findConstantOnlyBuffers(analysis.getFunction(), analysis);
    for (unsigned index : constantOnly.set_bits()) {
      const BufferInfo &buffer = analysis.getBuffers()[index];
      // Named by the value computed into it, not by its empty tensor.
      const TensorInfo *named = &analysis.getTensors()[buffer.members.front()];
      for (unsigned member : buffer.members)
        if (!analysis.getTensors()[member]
                 .value.getDefiningOp<tensor::EmptyOp>()) {
          named = &analysis.getTensors()[member];
          break;
        }
      emitRemark(named->value.getLoc())
          << "scratch tensor '" << named->getDisplayName()
          << "' is computed from constants alone and costs " << buffer.size
          << " bytes of RAM; fold-constants=true moves it to flash when its "
             "ops only move elements (helia-fold-constant-subgraphs)";
    }
  }
}
