//===- StreamScheduler.cpp - slots of streamed constants in the pool ------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Planner/Intervals.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "helia-assign-bindings"

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

FailureOr<std::string> StreamScheduler::getPoolMemory() const {
  PlatformAttr platform = plan.getPlatform();
  std::string name = options.streamPool;
  if (name.empty()) {
    if (platform.getPreferred().empty())
      return emitError(plan.getLoc())
             << "platform '" << platform.getName()
             << "' has no preferred memory for the stream pool; set "
                "stream-pool";
    name = (*platform.getPreferredList().begin()).getValue().str();
  }
  MemoryDescAttr pool = platform.lookupMemory(name);
  if (pool && pool.getWritable() && pool.getReadable())
    return name;
  // List only the memories that can hold the pool.
  SmallVector<StringRef> choices;
  for (MemoryDescAttr memory : platform.getMemoryList())
    if (memory.getWritable() && memory.getReadable())
      choices.push_back(memory.getName());
  InFlightDiagnostic diag = emitError(plan.getLoc())
                            << "stream-pool '" << name << "' ";
  if (!pool)
    diag << "is not a memory of platform '" << platform.getName() << "'";
  else
    diag << "is " << (pool.getWritable() ? "not readable" : "read-only")
         << " on platform '" << platform.getName() << "'";
  diag << "; the pool must be a readable, writable memory: ";
  llvm::interleaveComma(choices, diag);
  return diag;
}

void StreamScheduler::fallBack(unsigned i, int64_t need) {
  BufferPlan &buffer = plan.getBuffer(i);
  buffer.streamed = false;
  ++plan.getStatistics().streamFallbacks;
  LDBG() << "stream fallback: " << plan.describe(buffer) << " needs " << need
         << " of the pool's " << budget << " bytes";
  if (options.remarks)
    emitRemark(plan.getLoc(buffer))
        << "streamed constant " << plan.describe(buffer) << " ("
        << buffer.alignedSize << " bytes) falls back to direct: the "
        << "stream pool in '" << poolMemory << "' has " << budget
        << " bytes and needs " << need << " with it";
}

SmallVector<unsigned> StreamScheduler::admit(ArrayRef<unsigned> streamed) {
  // Admission by live bytes (a packing needs at least that many), kept up to
  // date in O(log steps) per constant rather than by re-packing the pool
  // for every one, which was quadratic.
  planner::LiveProfile load(
      std::max<int64_t>(plan.getSchedule().getNumSteps(), 1));
  SmallVector<unsigned> kept;
  for (unsigned i : streamed) {
    const BufferPlan &buffer = plan.getBuffer(i);
    int64_t need = std::max(load.getPeak().bytes,
                            load.getMax(buffer.streamFirst, buffer.streamLast) +
                                buffer.alignedSize);
    if (need > budget) {
      fallBack(i, need);
      continue;
    }
    load.add(buffer.streamFirst, buffer.streamLast, buffer.alignedSize);
    kept.push_back(i);
  }
  return kept;
}

LogicalResult StreamScheduler::run() {
  SmallVector<unsigned> streamed;
  for (auto [i, buffer] : llvm::enumerate(plan.getBuffers())) {
    if (!buffer.streamed)
      continue;
    std::tie(buffer.streamFirst, buffer.streamLast) =
        plan.getSchedule().getStreamWindow(buffer.func, *buffer.info);
    streamed.push_back(i);
  }
  if (streamed.empty())
    return success();
  FailureOr<std::string> pool = getPoolMemory();
  if (failed(pool))
    return failure();
  poolMemory = std::move(*pool);

  // Earliest reader first; a constant the budget cannot hold is read in
  // place instead.
  llvm::stable_sort(streamed, [&](unsigned a, unsigned b) {
    return plan.getBuffer(a).streamFirst < plan.getBuffer(b).streamFirst;
  });
  budget = plan.getFreeBytes(poolMemory);
  if (options.streamBudget > 0)
    budget = std::min<int64_t>(budget,
                               static_cast<int64_t>(options.streamBudget));
  SmallVector<unsigned> kept = admit(streamed);
  if (kept.empty())
    return success();
  FailureOr<planner::Solution> solution =
      packer.pack(kept, /*stream=*/true, options.algorithm);
  if (failed(solution))
    return failure();
  // The rare packing above its lower bound: the latest constants fall back
  // until the pool fits.
  while (solution->peak > budget) {
    fallBack(kept.back(), solution->peak);
    kept.pop_back();
    if (kept.empty())
      return success();
    solution = packer.pack(kept, /*stream=*/true, options.algorithm);
    if (failed(solution))
      return failure();
  }
  for (auto [k, i] : llvm::enumerate(kept))
    plan.getBuffer(i).streamOffset = solution->offsets[k];
  plan.setArenaBytes(ArenaKey::getScratch(poolMemory, /*stream=*/true),
                     plan.alignUp(solution->peak));
  return success();
}
