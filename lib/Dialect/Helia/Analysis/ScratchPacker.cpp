//===- ScratchPacker.cpp - scratch arenas, spilling across memories -------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "helia-assign-bindings"

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

LogicalResult ScratchPacker::run() {
  assigned.clear();
  packed.clear();
  SmallVector<unsigned> open = partition();
  FailureOr<SmallVector<unsigned>> pending = walkPreferred(open);
  if (failed(pending))
    return failure();
  if (!pending->empty())
    return reportUnplaced(*pending);
  return packArenas();
}

SmallVector<unsigned> ScratchPacker::partition() {
  SmallVector<unsigned> open;
  for (auto [i, buffer] : llvm::enumerate(plan.getBuffers())) {
    if (buffer.info->kind != TensorKind::Scratch)
      continue;
    StringAttr memory =
        buffer.placement ? buffer.placement.getMemory() : nullptr;
    if (memory) {
      buffer.memoryFixed = true;
      assigned[memory.getValue()].push_back(i);
    } else {
      open.push_back(i);
    }
  }
  return open;
}

// Each preferred memory takes the open buffers it can hold and spills the
// rest to the next one.
FailureOr<SmallVector<unsigned>>
ScratchPacker::walkPreferred(ArrayRef<unsigned> open) {
  SmallVector<unsigned> pending(open);
  SmallVector<StringRef> preferred;
  for (StringAttr pref : plan.getPlatform().getPreferredList())
    preferred.push_back(pref.getValue());
  for (auto [level, memory] : llvm::enumerate(preferred)) {
    if (pending.empty())
      break;
    SmallVector<unsigned> here = assigned.lookup(memory);
    SmallVector<unsigned> next;
    if (level + 1 < preferred.size())
      next = assigned.lookup(preferred[level + 1]);
    SpillLevel spill(plan, options, memory, here, pending, next,
                     plan.getFreeBytes(memory));
    FailureOr<std::optional<planner::Solution>> fit = spill.run();
    if (failed(fit))
      return failure();
    if (*fit)
      packed.insert({memory, std::move(**fit)});
    SmallVector<unsigned> spilled(spill.getSpilled());
    plan.getStatistics().spilled += spilled.size();
    LDBG() << spilled.size() << " scratch buffers spill from '" << memory
           << "', " << spill.getMembers().size() << " stay";
    if (options.remarks)
      remarkSpills(memory, spilled);
    assigned[memory] = SmallVector<unsigned>(spill.getMembers());
    llvm::sort(spilled);
    pending = std::move(spilled);
  }
  return pending;
}

void ScratchPacker::remarkSpills(StringRef memory,
                                 ArrayRef<unsigned> spilled) const {
  for (unsigned i : spilled) {
    const BufferPlan &buffer = plan.getBuffer(i);
    emitRemark(plan.getLoc(buffer))
        << "tensor " << plan.describe(buffer) << " (" << buffer.alignedSize
        << " bytes) spills from '" << memory << "': its "
        << plan.getFreeBytes(memory) << " free bytes cannot hold it beside "
        << "the tensors live with it";
  }
}

LogicalResult ScratchPacker::reportUnplaced(ArrayRef<unsigned> pending) {
  PlatformAttr platform = plan.getPlatform();
  StringRef last =
      platform.getPreferred().empty()
          ? StringRef()
          : (*std::prev(platform.getPreferredList().end())).getValue();
  if (last.empty())
    return emitError(plan.getLoc(plan.getBuffer(pending.front())))
           << "platform '" << platform.getName()
           << "' has no preferred memory for scratch tensor "
           << plan.describe(plan.getBuffer(pending.front()))
           << "; give it a memory with a rule";
  SmallVector<unsigned> all = assigned.lookup(last);
  all.append(pending.begin(), pending.end());
  FailureOr<planner::Solution> solution =
      packer.pack(all, /*stream=*/false, planner::Algorithm::Heuristic);
  if (failed(solution))
    return failure();
  int64_t shortBy = solution->peak - plan.getCapacity(last);
  emitOverCapacity(last, solution->peak, liveAtPeak(all)).attachNote()
      << "no preferred memory has room; "
      << plan.suggestMemory("tensors", last, shortBy)
      << "; or raise its memory-limit";
  return failure();
}

// The preferred memories were packed with the chosen algorithm while
// spilling; the memories of rules are packed here.
LogicalResult ScratchPacker::packArenas() {
  for (auto &[memory, members] : assigned) {
    if (members.empty())
      continue;
    FailureOr<planner::Solution> solution = failure();
    if (auto it = packed.find(memory); it != packed.end())
      solution = std::move(it->second);
    else
      solution = packer.pack(members, /*stream=*/false, options.algorithm);
    if (failed(solution))
      return failure();
    if (solution->peak > plan.getFreeBytes(memory)) {
      emitOverCapacity(memory, solution->peak, liveAtPeak(members));
      return failure();
    }
    ArenaKey key = ArenaKey::getScratch(memory);
    for (auto [k, i] : llvm::enumerate(members)) {
      plan.getBuffer(i).arena = key;
      plan.getBuffer(i).offset = solution->offsets[k];
    }
    plan.setArenaBytes(key, plan.alignUp(solution->peak));
  }
  return success();
}

SmallVector<unsigned>
ScratchPacker::liveAtPeak(ArrayRef<unsigned> members) const {
  std::vector<planner::Buffer> buffers;
  for (unsigned i : members) {
    const BufferPlan &buffer = plan.getBuffer(i);
    buffers.push_back({static_cast<int64_t>(i), buffer.alignedSize,
                       plan.getAlignment(), buffer.first, buffer.last, {}});
  }
  int64_t step = 0;
  planner::lowerBound(buffers, &step);
  SmallVector<unsigned> live;
  for (size_t k : planner::buffersLiveAt(buffers, step))
    live.push_back(members[k]);
  llvm::stable_sort(live, [&](unsigned a, unsigned b) {
    return plan.getBuffer(a).alignedSize > plan.getBuffer(b).alignedSize;
  });
  return live;
}

InFlightDiagnostic
ScratchPacker::emitOverCapacity(StringRef memory, int64_t need,
                                ArrayRef<unsigned> live) const {
  int64_t capacity = plan.getCapacity(memory);
  int64_t other = capacity - plan.getFreeBytes(memory);
  InFlightDiagnostic diag =
      emitError(live.empty() ? plan.getLoc()
                             : plan.getLoc(plan.getBuffer(live.front())));
  diag << "memory '" << memory << "' over capacity: it holds " << capacity
       << " bytes";
  if (other > 0)
    diag << " (" << other << " already taken by other arenas)";
  diag << " but needs " << need + other << ", short by "
       << need + other - capacity << " bytes";
  if (!live.empty()) {
    diag << "; live at the peak step:";
    for (unsigned i : live)
      diag << " " << plan.describe(plan.getBuffer(i)) << " ("
           << plan.getBuffer(i).alignedSize << " bytes)";
  }
  return diag;
}
