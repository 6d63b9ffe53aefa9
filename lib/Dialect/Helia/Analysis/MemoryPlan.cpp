//===- MemoryPlan.cpp - the memory plan of a bound module -----------------===//

#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "llvm/ADT/DenseSet.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// The top-level value whose buffer `value` is: through the inits of the
/// loops whose iter_arg it is, and the inits of the destination-style ops
/// that wrote it.
static Value getTopLevelStorage(Value value, Block *body) {
  while (value.getParentBlock() != body) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return {};
      value = init->get();
      continue;
    }
    auto dps = value.getDefiningOp<DestinationStyleOpInterface>();
    if (!dps)
      return {};
    value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
  }
  return value;
}

/// The recorded choice and reason for iter_arg `index` of `loop`.
static std::pair<StringRef, StringRef> getRecordedCarried(Operation *loop,
                                                          unsigned index) {
  if (auto entries = loop->getAttrOfType<ArrayAttr>(kCarriedAttrName))
    for (Attribute entry : entries) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto at = dict ? dict.getAs<IntegerAttr>("iter_arg") : IntegerAttr();
      auto choice = dict ? dict.getAs<StringAttr>("choice") : StringAttr();
      auto reason = dict ? dict.getAs<StringAttr>("reason") : StringAttr();
      if (at && choice && reason && at.getInt() == index)
        return {choice.getValue(), reason.getValue()};
    }
  return {};
}

BlockArgument mlir::helia::getCarriedIterArg(Operation *loop,
                                             unsigned index) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return forOp.getRegionIterArgs()[index];
  auto whileOp = dyn_cast<scf::WhileOp>(loop);
  if (!whileOp)
    return nullptr;
  BlockArgument before = whileOp.getBeforeArguments()[index];
  for (auto [operand, after] : llvm::zip(whileOp.getConditionOp().getArgs(),
                                         whileOp.getAfterArguments()))
    if (operand == before && after.getType() == before.getType())
      return after;
  return nullptr;
}

/// The tensors the loops of `func` carry, with how each is stored: read
/// from the IR (a `linalg.copy` into the iter_arg that the loop yields is
/// the copy back of a successor in its own slot) and the reasons
/// helia-insert-tensor-copies recorded.
static void collectCarried(FunctionOpInterface func,
                           const BufferAnalysis &analysis,
                           std::vector<PlanCarried> &carried) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block *body = &func.getFunctionBody().front();
  DenseMap<Value, const TensorInfo *> tensors;
  for (const TensorInfo &info : analysis.getTensors())
    tensors[info.value] = &info;
  auto lookup = [&](Value value) -> const TensorInfo * {
    Value storage = value ? getTopLevelStorage(value, body) : Value();
    return storage ? tensors.lookup(storage) : nullptr;
  };
  func.walk([&](LoopLikeOpInterface loop) {
    auto yielded = loop.getYieldedValues();
    for (auto [index, iterArg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!isa<RankedTensorType>(iterArg.getType()) ||
          index >= yielded.size())
        continue;
      PlanCarried entry;
      entry.function = func.getName().str();
      llvm::raw_string_ostream os(entry.loop);
      loop->getLoc().print(os);
      entry.iterArg = index;
      if (const TensorInfo *info = lookup(iterArg)) {
        entry.tensorId = info->id;
        entry.size = static_cast<int64_t>(*getTensorByteSize(info->value.getType()));
      }
      auto [choice, reason] = getRecordedCarried(loop, index);
      BlockArgument into = getCarriedIterArg(loop, index);
      auto copy = yielded[index].getDefiningOp<DestinationStyleOpInterface>();
      bool copiedBack = into && copy &&
                        copy->getName().getStringRef() == "linalg.copy" &&
                        copy.getNumDpsInputs() == 1 &&
                        copy.getDpsInits()[0] == into;
      // The copy of another iter_arg's old value (a loop carrying a value
      // and its predecessor): no slot beside the carried one.
      std::optional<unsigned> copiedFrom;
      for (unsigned other = 0, e = yielded.size(); copiedBack && other < e;
           ++other)
        if (other != index && copy.getDpsInputOperand(0)->get() ==
                                  getCarriedIterArg(loop, other))
          copiedFrom = other;
      if (copiedFrom) {
        entry.choice = "copy-from-iter-arg";
        entry.copiedFrom = copiedFrom;
        entry.reason = choice == "slot-and-copy"
                           ? reason.str()
                           : "it carries the old value of iter_arg #" +
                                 std::to_string(*copiedFrom);
      } else if (copiedBack) {
        entry.choice = "slot-and-copy";
        entry.reason = choice == "slot-and-copy"
                           ? reason.str()
                           : "the successor is copied back into the carried "
                             "buffer";
        if (const TensorInfo *info =
                lookup(copy.getDpsInputOperand(0)->get())) {
          entry.successorId = info->id;
          entry.successorSize =
              static_cast<int64_t>(*getTensorByteSize(info->value.getType()));
        }
      } else {
        entry.choice = "in-place";
        entry.reason = choice == "in-place"
                           ? reason.str()
                           : "the body writes its successor into the "
                             "carried buffer";
      }
      carried.push_back(std::move(entry));
    }
  });
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
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    arenaIndex[arena.getSymName()] = plan.arenas.size();
    plan.arenas.push_back({arena.getSymName().str(), arena.getRole(),
                           arena.getMemory().str(),
                           arena.getSourceMemoryOrMemory().str(),
                           static_cast<int64_t>(arena.getSize()),
                           static_cast<int64_t>(arena.getAlignment()),
                           arena.isStaged(), arena.getStream()});
  }
  auto limits = module->getAttrOfType<DictionaryAttr>(
      HeliaDialect::MemoryLimitsAttrHelper::getNameStr());
  for (MemoryDescAttr memory : platform->getMemoryList()) {
    auto physical = static_cast<int64_t>(memory.getUsableSize());
    int64_t capacity = physical;
    if (limits)
      if (auto limit = limits.getAs<IntegerAttr>(memory.getName()))
        capacity = limit.getInt();
    plan.memories.push_back({memory.getName().str(), capacity, physical,
                             getArenaBytesIn(module, memory.getName()), {}});
  }
  llvm::StringMap<::helia::planner::AccessCost> costs =
      getMemoryCosts(module, *platform);
  for (PlanMemory &memory : plan.memories)
    memory.cost = costs.lookup(memory.name);

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
    llvm::BitVector constantOnlyBuffers =
        findConstantOnlyBuffers(func, *analysis);
    TrafficAnalysis traffic(*analysis);
    plan.functions.push_back(func.getName().str());
    for (const BufferInfo &buffer : analysis->getBuffers()) {
      unsigned bufferId = numBuffers++;
      bool constantOnly = constantOnlyBuffers.test(buffer.index);
      for (unsigned member : buffer.members) {
        const TensorInfo &info = analysis->getTensors()[member];
        BindingAttr binding = getBinding(info.value);
        if (!binding)
          return emitError(info.value.getLoc())
                     << "tensor #" << info.id << " of '" << func.getName()
                     << "' has no binding; run helia-assign-bindings first",
                 failure();
        auto it = arenaIndex.find(binding.getArena().getValue());
        if (it == arenaIndex.end())
          return emitError(info.value.getLoc())
                     << "binding names arena " << binding.getArena()
                     << " which the module does not declare",
                 failure();
        PlanTensor tensor;
        tensor.function = func.getName().str();
        tensor.tensorId = info.id;
        tensor.buffer = bufferId;
        tensor.primary = member == buffer.members.front();
        tensor.name = info.name ? info.name.getValue().str() : "";
        tensor.kind = info.kind;
        tensor.size = static_cast<int64_t>(
            *getTensorByteSize(info.value.getType()));
        tensor.firstStep = buffer.firstStep;
        tensor.lastStep = buffer.lastStep;
        tensor.readers = static_cast<int64_t>(buffer.readSteps.size());
        if (tensor.primary) {
          tensor.readBytes = traffic.getBuffers()[buffer.index].readBytes;
          tensor.writeBytes = traffic.getBuffers()[buffer.index].writeBytes;
        }
        tensor.arena = it->second;
        const PlanArena &arena = plan.arenas[it->second];
        tensor.role = arena.role;
        tensor.memory = arena.memory;
        tensor.sourceMemory = arena.sourceMemory;
        tensor.offset = static_cast<int64_t>(binding.getOffset());
        tensor.constantOnly = constantOnly;
        if (info.kind == TensorKind::Constant)
          tensor.residency = arena.staged ? Residency::Pin
                             : binding.getStreamArena() ? Residency::Stream
                                                        : Residency::Direct;
        if (PlacementAttr placement = getPlacement(info.value))
          tensor.streamFallback =
              placement.getResidency() == Residency::Stream &&
              !binding.getStreamArena() && !buffer.readSteps.empty();
        if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
          auto poolIt = arenaIndex.find(pool.getValue());
          if (poolIt == arenaIndex.end())
            return emitError(info.value.getLoc())
                       << "binding names stream arena " << pool
                       << " which the module does not declare",
                   failure();
          tensor.streamArena = poolIt->second;
          tensor.streamOffset = static_cast<int64_t>(*binding.getStreamOffset());
          tensor.streamStep = buffer.readSteps.front();
          tensor.streamLastStep = buffer.readSteps.back();
        }
        plan.tensors.push_back(std::move(tensor));
      }
    }
    collectCarried(func, *analysis, plan.carried);
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
    return static_cast<int64_t>(std::min<uint64_t>(
        value, std::numeric_limits<int64_t>::max()));
  };
  for (const PlanTensor &t : tensors) {
    if (!t.primary || t.kind != TensorKind::Scratch)
      continue;
    int64_t accessed = saturate(llvm::SaturatingMultiply(
        static_cast<uint64_t>(t.size), static_cast<uint64_t>(t.readers)));
    result.accessedBytes = saturate(llvm::SaturatingAdd(
        static_cast<uint64_t>(result.accessedBytes),
        static_cast<uint64_t>(accessed)));
    if (t.memory == fastMemory)
      result.fastAccessedBytes = saturate(llvm::SaturatingAdd(
          static_cast<uint64_t>(result.fastAccessedBytes),
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
