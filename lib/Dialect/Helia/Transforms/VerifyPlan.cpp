//===- VerifyPlan.cpp - check a bound module independently ----------------===//
//
// Trusts nothing the planner decided: recomputes buffers and lifetimes from
// the IR and checks the bindings with the packing library's verifier.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/Analysis/PlanReplay.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/MemoryLimits.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Planner/Planner.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAVERIFYPLAN
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

namespace {

/// One tensor placed in one arena, as the verifier sees it.
struct Placed {
  const TensorInfo *tensor;
  int64_t offset, size, first, last;
  Value getValue() const { return tensor->value; }
  std::string getName() const { return tensor->getDisplayName(); }
};

struct HeliaVerifyPlan
    : WithBufferizationModels<mlir::helia::impl::HeliaVerifyPlanBase<
          HeliaVerifyPlan>> {
  using WithBufferizationModels::WithBufferizationModels;
  void runOnOperation() override;
};

} // namespace

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

/// Host code that runs a plan with staged constants before hydrating them
/// would compute with uninitialised weights: warn at the call.
static void warnMissingHydrate(ModuleOp module, StringRef prefixOption) {
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

void HeliaVerifyPlan::runOnOperation() {
  ModuleOp module = getOperation();
  if (replayOnly) {
    if (failed(replayPlan(module)))
      return signalPassFailure();
    return markAllAnalysesPreserved();
  }
  FailureOr<PlatformAttr> platformAttr = lookupPlatform(module, platform);
  if (failed(platformAttr))
    return signalPassFailure();

  llvm::StringMap<ArenaOp> arenas;
  for (ArenaOp arena : module.getOps<ArenaOp>())
    arenas[arena.getSymName()] = arena;
  // Placements per arena, in program order.
  std::map<StringRef, std::vector<Placed>> placed;

  // One timeline for all functions; constants and persistent tensors are
  // live for all of it.
  // Built by helia-assign-bindings when it ran before in the pipeline.
  FailureOr<const ModuleSchedule *> built =
      getAnalysis<ModuleScheduleAnalysis>().getSchedule();
  if (failed(built))
    return signalPassFailure();
  const ModuleSchedule *schedule = *built;
  int64_t total = schedule->getNumSteps();
  for (auto [f, function] : llvm::enumerate(schedule->getFunctions())) {
    const BufferAnalysis &analysis = function.analysis;
    for (const BufferInfo &buffer : analysis.getBuffers()) {
      BindingAttr shared;
      Value sharedValue;
      for (unsigned member : buffer.members) {
        const TensorInfo &tensor = analysis.getTensors()[member];
        auto name = [&]() { return tensor.getDisplayName(); };
        BindingAttr binding = getBinding(tensor.value);
        if (!binding) {
          emitError(tensor.value.getLoc())
              << "tensor '" << name() << "' of '"
              << analysis.getFunction().getName()
              << "' has no binding; run helia-assign-bindings";
          return signalPassFailure();
        }
        if (shared && (binding.getArena() != shared.getArena() ||
                       binding.getOffset() != shared.getOffset())) {
          emitError(tensor.value.getLoc())
              << "tensor '" << name() << "' shares storage with the value at "
              << sharedValue.getLoc() << " but is bound to "
              << binding.getArena() << "+" << binding.getOffset()
              << " instead of " << shared.getArena() << "+"
              << shared.getOffset();
          return signalPassFailure();
        }
        if (!shared) {
          shared = binding;
          sharedValue = tensor.value;
        }
        auto arena = arenas.lookup(binding.getArena().getValue());
        if (!arena) {
          emitError(tensor.value.getLoc())
              << "tensor '" << name() << "' is bound to " << binding.getArena()
              << ", which is not a helia.arena";
          return signalPassFailure();
        }
        if (!platformAttr->lookupMemory(arena.getMemory()) ||
            !platformAttr->lookupMemory(arena.getSourceMemoryOrMemory())) {
          arena.emitError("arena is in a memory that platform '")
              << platformAttr->getName() << "' does not have: "
              << platformAttr->getMemoryNamesForDiagnostic();
          return signalPassFailure();
        }
        if (member != buffer.members.front())
          continue;
        bool wholeProgram = arena.getRole() != ArenaRole::Scratch;
        int64_t size = static_cast<int64_t>(buffer.size);
        auto [first, last] = schedule->getLifetime(f, buffer);
        placed[binding.getArena().getValue()].push_back(
            {&tensor, static_cast<int64_t>(binding.getOffset()), size,
             wholeProgram ? 0 : first, wholeProgram ? total : last});
        if (FlatSymbolRefAttr pool = binding.getStreamArena()) {
          if (!arenas.lookup(pool.getValue())) {
            emitError(tensor.value.getLoc())
                << "tensor '" << name() << "' streams into " << pool
                << ", which is not a helia.arena";
            return signalPassFailure();
          }
          auto [streamFirst, streamLast] =
              schedule->getStreamWindow(f, buffer);
          placed[pool.getValue()].push_back(
              {&tensor, static_cast<int64_t>(*binding.getStreamOffset()), size,
               streamFirst, streamLast});
        }
      }
    }
  }

  // Each arena: no overlap in time and space, in bounds, aligned.
  for (auto &[name, members] : placed) {
    ArenaOp arena = arenas.lookup(name);
    planner::Problem problem;
    problem.capacity = arena.getSize();
    std::vector<int64_t> offsets;
    for (const Placed &p : members) {
      problem.buffers.push_back({static_cast<int64_t>(problem.buffers.size()),
                                 p.size,
                                 static_cast<int64_t>(arena.getAlignment()),
                                 p.first,
                                 p.last, {}});
      offsets.push_back(p.offset);
    }
    llvm::Error error = planner::verify(problem, offsets);
    if (!error)
      continue;
    std::string message;
    ArrayRef<size_t> culprits;
    std::vector<size_t> culpritsCopy;
    llvm::handleAllErrors(std::move(error), [&](const planner::PlanError &e) {
      message = e.getMessage().str();
      culpritsCopy.assign(e.getBuffers().begin(), e.getBuffers().end());
    });
    culprits = culpritsCopy;
    if (culprits.size() >= 2) {
      const Placed &a = members[culprits[0]], &b = members[culprits[1]];
      InFlightDiagnostic diag =
          emitError(b.getValue().getLoc())
          << "tensors '" << a.getName() << "' and '" << b.getName()
          << "' are live together but overlap in arena @" << name << ": bytes ["
          << a.offset << ", " << a.offset + a.size << ") and [" << b.offset
          << ", " << b.offset + b.size << ")";
      diag.attachNote(a.getValue().getLoc())
          << "'" << a.getName() << "' is here";
    } else if (culprits.size() == 1) {
      const Placed &a = members[culprits[0]];
      emitError(a.getValue().getLoc())
          << "tensor '" << a.getName() << "' at offset " << a.offset << " ("
          << a.size << " bytes) does not fit arena @" << name << " of "
          << arena.getSize() << " bytes with alignment " << arena.getAlignment()
          << ": " << message;
    } else {
      arena.emitError("invalid plan: ") << message;
    }
    return signalPassFailure();
  }

  // The replay analyzes the module anew, independently of the schedule:
  // drop the schedule first (peak memory on large modules). The passes
  // after this one build it again if they need it.
  placed.clear();
  getAnalysisManager().invalidate(mlir::detail::PreservedAnalyses());

  if (hydrate == HydrateMode::Explicit)
    warnMissingHydrate(module, prefix);

  // Across calls, independently of the timeline above: replay the module
  // and check that every read finds its tensor's bytes intact.
  if (failed(replayPlan(module)))
    return signalPassFailure();

  // Each memory: its arenas (and staged source blobs) fit.
  FailureOr<llvm::StringMap<int64_t>> limit =
      getMemoryCapacities(*platformAttr, memoryLimits, module.getLoc());
  if (failed(limit))
    return signalPassFailure();
  for (MemoryDescAttr memory : platformAttr->getMemoryList()) {
    int64_t used = getArenaBytesIn(module, memory.getName());
    int64_t cap = limit->lookup(memory.getName());
    if (used > cap) {
      // getArenaBytesIn saturates: INT64_MAX stands for "at least".
      bool saturated = used == std::numeric_limits<int64_t>::max();
      module.emitError("memory '")
          << memory.getName() << "' holds " << cap
          << " bytes but its arenas take " << (saturated ? "at least " : "")
          << used << ", " << (saturated ? "at least " : "") << used - cap
          << " bytes too many";
      return signalPassFailure();
    }
  }
  markAllAnalysesPreserved();
}
