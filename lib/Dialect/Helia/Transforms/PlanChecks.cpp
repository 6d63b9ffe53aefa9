//===- PlanChecks.cpp - the checks of helia-verify-plan -------------------===//

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Transforms/PlanChecks.h"

#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Planner/Planner.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

LogicalResult mlir::helia::checkBindings(const FunctionLiveness &function,
                                         const SymbolTable &symbols,
                                         PlatformAttr platform) {
  // An arena's memories are checked once, when its first tensor names it.
  llvm::SmallPtrSet<Operation *, 8> checkedArenas;
  for (const StorageGroup &group : function.getGroups()) {
    for (unsigned member : group.members) {
      const TensorInfo &tensor = function.getTensors()[member];
      Location loc = tensor.value.getLoc();
      BindingAttr binding = getBinding(tensor.value);
      if (!binding)
        return emitError(loc) << "tensor '" << tensor.getDisplayName()
                              << "' of '" << function.getFunction().getName()
                              << "' has no binding; run helia-assign-bindings";
      auto arena = symbols.lookup<ArenaOp>(binding.getArena().getAttr());
      if (!arena)
        return emitError(loc)
               << "tensor '" << tensor.getDisplayName() << "' is bound to "
               << binding.getArena() << ", which is not a helia.arena";
      if (checkedArenas.insert(arena).second &&
          (!platform.lookupMemory(arena.getMemory()) ||
           !platform.lookupMemory(arena.getSourceMemoryOrMemory())))
        return arena.emitError("arena is in a memory that platform '")
               << platform.getName() << "' does not have: "
               << platform.getMemoryNamesForDiagnostic();
      if (FlatSymbolRefAttr pool = binding.getStreamArena();
          pool && !symbols.lookup<ArenaOp>(pool.getAttr()))
        return emitError(loc)
               << "tensor '" << tensor.getDisplayName() << "' streams into "
               << pool << ", which is not a helia.arena";
    }
  }
  return success();
}

LogicalResult
mlir::helia::checkSharedBindings(const FunctionLiveness &function) {
  for (const SharedStorage &shared : function.getSharedStorage()) {
    const TensorInfo &tensor = function.getTensors()[shared.tensor];
    const TensorInfo &root =
        function.getTensors()[function.getGroups()[shared.group].members[0]];
    BindingAttr binding = getBinding(tensor.value);
    BindingAttr rootBinding = getBinding(root.value);
    if (!binding || !rootBinding ||
        (binding.getArena() == rootBinding.getArena() &&
         binding.getOffset() == rootBinding.getOffset()))
      continue;
    return emitError(tensor.value.getLoc())
           << "tensor '" << tensor.getDisplayName()
           << "' shares storage with the value at " << root.value.getLoc()
           << " but is bound to " << binding.getArena() << "+"
           << binding.getOffset() << " instead of " << rootBinding.getArena()
           << "+" << rootBinding.getOffset();
  }
  return success();
}

ArenaSlots mlir::helia::collectArenaSlots(const ModuleLiveness &liveness,
                                          const SymbolTable &symbols) {
  int64_t total = liveness.numSteps;
  ArenaSlots slots;
  for (auto [f, function] : llvm::enumerate(liveness.functions)) {
    for (const StorageGroup &group : function.getGroups()) {
      const TensorInfo &root = function.getTensors()[group.members[0]];
      BindingAttr binding = getBinding(root.value);
      auto arena = symbols.lookup<ArenaOp>(binding.getArena().getAttr());
      bool wholeProgram = arena.getRole() != ArenaRole::Scratch;
      auto [first, last] = liveness.getLifetime(f, group);
      slots[binding.getArena().getValue()].push_back(
          {&root, static_cast<int64_t>(binding.getOffset()), group.size,
           wholeProgram ? 0 : first, wholeProgram ? total : last});
      if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
        auto [streamFirst, streamLast] = liveness.getStreamWindow(f, group);
        slots[pool.getValue()].push_back(
            {&root,
             static_cast<int64_t>(binding.getStreamOffset().value_or(0)),
             group.size, streamFirst, streamLast});
      }
    }
  }
  return slots;
}

LogicalResult mlir::helia::checkArenaSlots(ArenaOp arena,
                                           ArrayRef<ArenaSlot> slots) {
  planner::Problem problem;
  problem.capacity = arena.getSize();
  std::vector<int64_t> offsets;
  problem.buffers.reserve(slots.size());
  offsets.reserve(slots.size());
  for (const ArenaSlot &slot : slots) {
    problem.buffers.push_back({static_cast<int64_t>(problem.buffers.size()),
                               slot.size,
                               static_cast<int64_t>(arena.getAlignment()),
                               slot.first, slot.last, {}});
    offsets.push_back(slot.offset);
  }
  llvm::Error error = planner::verify(problem, offsets);
  if (!error)
    return success();
  std::string message;
  std::vector<size_t> culprits;
  llvm::handleAllErrors(std::move(error), [&](const planner::PlanError &e) {
    message = e.getMessage().str();
    culprits.assign(e.getBuffers().begin(), e.getBuffers().end());
  });
  StringRef name = arena.getSymName();
  if (culprits.size() >= 2) {
    const ArenaSlot &a = slots[culprits[0]], &b = slots[culprits[1]];
    InFlightDiagnostic diag =
        emitError(b.tensor->value.getLoc())
        << "tensors '" << a.tensor->getDisplayName() << "' and '"
        << b.tensor->getDisplayName()
        << "' are live together but overlap in arena @" << name << ": bytes ["
        << a.offset << ", " << a.offset + a.size << ") and [" << b.offset
        << ", " << b.offset + b.size << ")";
    diag.attachNote(a.tensor->value.getLoc())
        << "'" << a.tensor->getDisplayName() << "' is here";
    return diag;
  }
  if (culprits.size() == 1) {
    const ArenaSlot &a = slots[culprits[0]];
    return emitError(a.tensor->value.getLoc())
           << "tensor '" << a.tensor->getDisplayName() << "' at offset "
           << a.offset << " (" << a.size << " bytes) does not fit arena @"
           << name << " of " << arena.getSize() << " bytes with alignment "
           << arena.getAlignment() << ": " << message;
  }
  return arena.emitError("invalid plan: ") << message;
}

LogicalResult
mlir::helia::checkMemoryCapacities(ModuleOp module, PlatformAttr platform,
                                   ArrayRef<std::string> memoryLimits) {
  FailureOr<llvm::StringMap<int64_t>> limit =
      getMemoryCapacities(platform, memoryLimits, module.getLoc());
  if (failed(limit))
    return failure();
  for (MemoryDescAttr memory : platform.getMemoryList()) {
    int64_t used = getArenaBytesIn(module, memory.getName());
    int64_t cap = limit->lookup(memory.getName());
    if (used <= cap)
      continue;
    // getArenaBytesIn saturates: INT64_MAX stands for "at least".
    bool saturated = used == std::numeric_limits<int64_t>::max();
    return module.emitError("memory '")
           << memory.getName() << "' holds " << cap
           << " bytes but its arenas take " << (saturated ? "at least " : "")
           << used << ", " << (saturated ? "at least " : "") << used - cap
           << " bytes too many";
  }
  return success();
}

/// True if a call of `hydrate` runs before `op` in its function: in an op
/// before it in its block, or before one of its ancestors in theirs.
static bool isHydratedBefore(Operation *op, StringRef hydrate) {
  auto callsHydrate = [&](Operation *candidate) {
    return candidate
        ->walk([&](CallOpInterface call) {
          return getCalleeName(call) == hydrate ? WalkResult::interrupt()
                                                : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (Operation *at = op; at && !isa<FunctionOpInterface>(at);
       at = at->getParentOp())
    for (Operation *before = at->getPrevNode(); before;
         before = before->getPrevNode())
      if (callsHydrate(before))
        return true;
  return false;
}

void mlir::helia::warnMissingHydrate(ModuleOp module,
                                     StringRef prefixOption) {
  if (llvm::none_of(module.getOps<ArenaOp>(),
                    [](ArenaOp arena) { return arena.isStaged(); }))
    return;
  llvm::StringSet<> planned;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isPlannedFunction(func))
      planned.insert(func.getName());
  std::string hydrate =
      getHydrateFunctionName(getFirmwarePrefix(module, prefixOption));
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (isPlannedFunction(func) || func.getName() == hydrate)
      continue;
    func.walk([&](CallOpInterface call) {
      StringRef callee = getCalleeName(call);
      if (!planned.contains(callee) || isHydratedBefore(call, hydrate))
        return WalkResult::advance();
      call->emitWarning("@")
          << func.getName() << " runs @" << callee
          << ", whose plan has staged constants, without calling @" << hydrate
          << " first: the model would read uninitialised weights; call @"
          << hydrate << " once before the first run (declare it, or define "
          << "it as a stub that only returns; the lowering defines it), or "
          << "lower with hydrate=first-call";
      // One warning per host function is enough.
      return WalkResult::interrupt();
    });
  }
}
