//===- MemoryPlan.cpp - the memory plan of a bound module -----------------===//

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/ConstantOnly.h"
#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/Analysis/Traffic.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Planner/Intervals.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::helia;

/// The arenas of `module`, in module order, and their indices by name.
static void collectArenas(ModuleOp module, MemoryPlan &plan,
                          llvm::StringMap<unsigned> &arenaIndex) {
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    arenaIndex[arena.getSymName()] = plan.arenas.size();
    plan.arenas.push_back({arena.getSymName().str(), arena.getRole(),
                           arena.getMemory().str(),
                           arena.getSourceMemoryOrMemory().str(),
                           static_cast<int64_t>(arena.getSize()),
                           static_cast<int64_t>(arena.getAlignment()),
                           arena.isStaged(), arena.getStream()});
  }
}

/// The memories of `platform` with the capacities the plan was made for
/// and their access costs.
static void collectMemories(ModuleOp module, PlatformAttr platform,
                            MemoryPlan &plan) {
  auto limits = module->getAttrOfType<DictionaryAttr>(
      HeliaDialect::MemoryLimitsAttrHelper::getNameStr());
  for (MemoryDescAttr memory : platform.getMemoryList()) {
    auto physical = static_cast<int64_t>(memory.getUsableSize());
    int64_t capacity = physical;
    if (limits)
      if (auto limit = limits.getAs<IntegerAttr>(memory.getName()))
        capacity = limit.getInt();
    plan.memories.push_back({memory.getName().str(),
                             capacity,
                             physical,
                             getArenaBytesIn(module, memory.getName()),
                             {}});
  }
  llvm::StringMap<::helia::planner::AccessCost> costs =
      getMemoryCosts(module, platform);
  for (PlanMemory &memory : plan.memories)
    memory.cost = costs.lookup(memory.name);
}

namespace {
/// What the tensors of one buffer share in the plan.
struct BufferContext {
  FunctionOpInterface func;
  const BufferInfo &buffer;
  unsigned bufferId;
  bool constantOnly;
  const BufferTraffic &traffic;
  /// The member that defines the storage.
  const TensorInfo &primary;
};
} // namespace

/// The plan's record of `info`, a member of `ctx.buffer`, from its binding.
static FailureOr<PlanTensor>
describeTensor(const MemoryPlan &plan, const TensorInfo &info,
               const BufferContext &ctx,
               const llvm::StringMap<unsigned> &arenaIndex) {
  const BufferInfo &buffer = ctx.buffer;
  FunctionOpInterface func = ctx.func;
  BindingAttr binding = getBinding(info.value);
  if (!binding)
    return emitError(info.value.getLoc())
           << "tensor #" << info.id << " of '" << func.getName()
           << "' has no binding; run helia-assign-bindings first";
  auto it = arenaIndex.find(binding.getArena().getValue());
  if (it == arenaIndex.end())
    return emitError(info.value.getLoc())
           << "binding names arena " << binding.getArena()
           << " which the module does not declare";
  PlanTensor tensor;
  tensor.function = func.getName().str();
  tensor.tensorId = info.id;
  tensor.buffer = ctx.bufferId;
  tensor.primary = &info == &ctx.primary;
  tensor.name = info.name ? info.name.getValue().str() : "";
  tensor.kind = info.kind;
  tensor.size = static_cast<int64_t>(*getTensorByteSize(info.value.getType()));
  tensor.firstStep = buffer.firstStep;
  tensor.lastStep = buffer.lastStep;
  tensor.readers = static_cast<int64_t>(buffer.readSteps.size());
  if (tensor.primary) {
    tensor.readBytes = ctx.traffic.readBytes;
    tensor.writeBytes = ctx.traffic.writeBytes;
  }
  tensor.arena = it->second;
  const PlanArena &arena = plan.arenas[it->second];
  tensor.role = arena.role;
  tensor.memory = arena.memory;
  tensor.sourceMemory = arena.sourceMemory;
  tensor.offset = static_cast<int64_t>(binding.getOffset());
  tensor.constantOnly = ctx.constantOnly;
  if (info.kind == TensorKind::Constant)
    tensor.residency = arena.staged               ? Residency::Pin
                       : binding.getStreamArena() ? Residency::Stream
                                                  : Residency::Direct;
  if (PlacementAttr placement = getPlacement(info.value))
    tensor.streamFallback = placement.getResidency() == Residency::Stream &&
                            !binding.getStreamArena() &&
                            !buffer.readSteps.empty();
  if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
    auto poolIt = arenaIndex.find(pool.getValue());
    if (poolIt == arenaIndex.end())
      return emitError(info.value.getLoc())
             << "binding names stream arena " << pool
             << " which the module does not declare";
    tensor.streamArena = poolIt->second;
    tensor.streamOffset = static_cast<int64_t>(*binding.getStreamOffset());
    tensor.streamStep = buffer.readSteps.front();
    tensor.streamLastStep = buffer.readSteps.back();
  }
  return tensor;
}

/// The tensors of `func`, buffer by buffer, and its carried tensors.
static LogicalResult addFunction(MemoryPlan &plan, FunctionOpInterface func,
                                 const BufferAnalysis &analysis,
                                 const llvm::StringMap<unsigned> &arenaIndex,
                                 unsigned &numBuffers) {
  llvm::BitVector constantOnlyBuffers = findConstantOnlyBuffers(func, analysis);
  TrafficAnalysis traffic(analysis);
  plan.functions.push_back(func.getName().str());
  for (const BufferInfo &buffer : analysis.getBuffers()) {
    BufferContext ctx{func,
                      buffer,
                      numBuffers++,
                      constantOnlyBuffers.test(buffer.index),
                      traffic.getBuffers()[buffer.index],
                      analysis.getTensors()[buffer.members.front()]};
    for (unsigned member : buffer.members) {
      FailureOr<PlanTensor> tensor =
          describeTensor(plan, analysis.getTensors()[member], ctx, arenaIndex);
      if (failed(tensor))
        return failure();
      plan.tensors.push_back(std::move(*tensor));
    }
  }
  collectCarriedTensors(func, analysis, plan.carried);
  return success();
}

FailureOr<MemoryPlan> MemoryPlan::build(ModuleOp module,
                                        StringRef platformOverride,
                                        const ModuleSchedule *schedule) {
  FailureOr<PlatformAttr> platform = lookupPlatform(module, platformOverride);
  if (failed(platform))
    return failure();
  MemoryPlan plan;
  plan.platform = platform->getName().str();
  if (!platform->getPreferred().empty())
    plan.fastMemory = (*platform->getPreferredList().begin()).getValue().str();
  llvm::StringMap<unsigned> arenaIndex;
  collectArenas(module, plan, arenaIndex);
  collectMemories(module, *platform, plan);

  unsigned numBuffers = 0;
  unsigned funcIndex = 0;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (!isPlannedFunction(func))
      continue;
    // The schedule holds the analysis of every planned function, in module
    // order; without one, analyze the function here.
    std::optional<BufferAnalysis> own;
    const BufferAnalysis *analysis;
    if (schedule) {
      analysis = &schedule->getFunctions()[funcIndex++].analysis;
    } else {
      FailureOr<BufferAnalysis> built = BufferAnalysis::analyze(func);
      if (failed(built))
        return failure();
      analysis = &own.emplace(std::move(*built));
    }
    if (failed(addFunction(plan, func, *analysis, arenaIndex, numBuffers)))
      return failure();
  }
  return plan;
}

std::optional<PlanPeak> MemoryPlan::findPeak(
    llvm::function_ref<int64_t(const PlanTensor &, unsigned)> bytesIn) const {
  // The counted ranges of each function, functions in name order (the tie
  // order); the peak of each is a LiveProfile's (Planner/Intervals.h).
  std::map<StringRef, std::vector<::helia::planner::LiveRange>> ranges;
  for (const PlanTensor &t : tensors) {
    if (!t.primary)
      continue;
    auto add = [&](int64_t first, int64_t last, int64_t bytes) {
      if (bytes)
        ranges[t.function].push_back({first, last, bytes});
    };
    add(t.firstStep, t.lastStep, bytesIn(t, t.arena));
    if (t.streamArena)
      add(t.streamStep, t.streamLastStep, bytesIn(t, *t.streamArena));
  }
  std::optional<PlanPeak> peak;
  for (const auto &[function, functionRanges] : ranges) {
    ::helia::planner::LiveProfile::Peak functionPeak =
        ::helia::planner::findPeak(functionRanges);
    if (functionPeak.bytes > 0 && (!peak || functionPeak.bytes > peak->bytes))
      peak = PlanPeak{function.str(), functionPeak.step, functionPeak.bytes};
  }
  return peak;
}

std::optional<PlanPeak> MemoryPlan::findPeak(unsigned arena) const {
  return findPeak([&](const PlanTensor &t, unsigned in) -> int64_t {
    return in == arena ? t.size : 0;
  });
}

PlanFastShare MemoryPlan::getFastShare() const {
  PlanFastShare result;
  result.memory = fastMemory;
  // Saturating: a hand-written plan may hold tensors of 2^40 bytes read by
  // millions of ops.
  auto saturate = [](uint64_t value) {
    return static_cast<int64_t>(
        std::min<uint64_t>(value, std::numeric_limits<int64_t>::max()));
  };
  for (const PlanTensor &t : tensors) {
    if (!t.primary || t.kind != TensorKind::Scratch)
      continue;
    int64_t accessed = saturate(llvm::SaturatingMultiply(
        static_cast<uint64_t>(t.size), static_cast<uint64_t>(t.readers)));
    result.accessedBytes = saturate(
        llvm::SaturatingAdd(static_cast<uint64_t>(result.accessedBytes),
                            static_cast<uint64_t>(accessed)));
    if (t.memory == fastMemory)
      result.fastAccessedBytes = saturate(
          llvm::SaturatingAdd(static_cast<uint64_t>(result.fastAccessedBytes),
                              static_cast<uint64_t>(accessed)));
  }
  if (result.accessedBytes > 0)
    result.share = static_cast<double>(result.fastAccessedBytes) /
                   static_cast<double>(result.accessedBytes);
  return result;
}

PlanTraffic MemoryPlan::getTraffic() const {
  PlanTraffic result;
  llvm::StringMap<unsigned> memoryIndex;
  for (const PlanMemory &m : memories) {
    memoryIndex[m.name] = result.memories.size();
    result.memories.push_back({m.name, m.name});
  }
  for (const PlanArena &a : arenas)
    result.arenas.push_back({a.name, a.memory});
  auto costOf = [&](StringRef memory) {
    auto it = memoryIndex.find(memory);
    return it == memoryIndex.end() ? ::helia::planner::AccessCost()
                                   : memories[it->second].cost;
  };
  // Accesses are whole accesses per tensor: a 3-byte tensor takes one.
  auto count = [&](unsigned arena, uint64_t readBytes, uint64_t writeBytes) {
    PlanTrafficEntry &entry = result.arenas[arena];
    ::helia::planner::AccessCost cost = costOf(entry.memory);
    uint64_t reads = llvm::divideCeil(readBytes, cost.accessBytes);
    uint64_t writes = llvm::divideCeil(writeBytes, cost.accessBytes);
    double cycles = static_cast<double>(reads) * cost.readCycles +
                    static_cast<double>(writes) * cost.writeCycles;
    for (PlanTrafficEntry *e :
         {&entry, &result.memories[memoryIndex.lookup(entry.memory)]}) {
      e->readBytes = llvm::SaturatingAdd(e->readBytes, readBytes);
      e->writeBytes = llvm::SaturatingAdd(e->writeBytes, writeBytes);
      e->reads = llvm::SaturatingAdd(e->reads, reads);
      e->writes = llvm::SaturatingAdd(e->writes, writes);
      e->cycles += cycles;
    }
  };
  for (const PlanTensor &t : tensors) {
    if (!t.primary)
      continue;
    auto size = static_cast<uint64_t>(t.size);
    if (t.streamArena) {
      count(*t.streamArena, t.readBytes, t.writeBytes);
      count(t.arena, size, 0);
      count(*t.streamArena, 0, size);
    } else {
      count(t.arena, t.readBytes, t.writeBytes);
    }
    if (t.role == ArenaRole::Constant && t.memory != t.sourceMemory) {
      ::helia::planner::AccessCost source = costOf(t.sourceMemory);
      ::helia::planner::AccessCost destination = costOf(t.memory);
      result.hydrateBytes = llvm::SaturatingAdd(result.hydrateBytes, size);
      result.hydrateCycles += source.read(static_cast<double>(size)) +
                              destination.write(static_cast<double>(size));
    }
  }
  for (const PlanTrafficEntry &m : result.memories)
    result.cycles += m.cycles;
  return result;
}
