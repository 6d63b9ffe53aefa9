//===- PlanReplay.cpp - replay a bound module, byte range by byte range ---===//

#include "helia/Dialect/Helia/Analysis/PlanReplay.h"
#include "PlanReplayProgram.h"
#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"

#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::replay;

namespace {

/// Half-open byte ranges of one arena, each with its last writer.
using ArenaState = std::map<int64_t, std::pair<int64_t, OwnerId>>;

/// Runs a Program against the bytes of every writable arena.
class Replay {
public:
  Replay(ModuleOp module, const ModuleLiveness &liveness)
      : module(module), liveness(liveness) {}
  LogicalResult run();

private:
  void write(OwnerId owner, int64_t offset, int64_t size, unsigned arena);
  LogicalResult read(OwnerId owner, Operation *op);
  const SmallVector<std::tuple<unsigned, int64_t, int64_t>> &
  getFootprint(unsigned func);

  ModuleOp module;
  const ModuleLiveness &liveness;
  Program program;
  std::vector<ArenaState> state;
  std::vector<Owner> &owners = program.owners;
  std::vector<Function> &functions = program.functions;
  DenseMap<unsigned, SmallVector<std::tuple<unsigned, int64_t, int64_t>>>
      footprints;
};

} // namespace

void Replay::write(OwnerId owner, int64_t offset, int64_t size,
                   unsigned arena) {
  ArenaState &ranges = state[arena];
  int64_t end = offset + size;
  auto it = ranges.lower_bound(offset);
  if (it != ranges.begin()) {
    auto prev = std::prev(it);
    if (prev->second.first > offset) {
      // Split the range that starts before `offset`.
      auto [prevEnd, prevOwner] = prev->second;
      prev->second.first = offset;
      if (prevEnd > end)
        ranges[end] = {prevEnd, prevOwner};
    }
  }
  while (it != ranges.end() && it->first < end) {
    auto [itEnd, itOwner] = it->second;
    it = ranges.erase(it);
    if (itEnd > end) {
      ranges[end] = {itEnd, itOwner};
      break;
    }
  }
  ranges[offset] = {end, owner};
}

LogicalResult Replay::read(OwnerId id, Operation *op) {
  const Owner &owner = owners[id];
  ArenaState &ranges = state[owner.arena];
  int64_t end = owner.offset + owner.size;
  auto it = ranges.upper_bound(owner.offset);
  if (it != ranges.begin())
    --it;
  for (; it != ranges.end() && it->first < end; ++it) {
    auto [rangeEnd, writer] = it->second;
    if (rangeEnd <= owner.offset || writer == id || writer == kNoOwner)
      continue;
    int64_t from = std::max(owner.offset, it->first);
    int64_t to = std::min(end, rangeEnd);
    StringRef arena = program.arenaNames[owner.arena];
    InFlightDiagnostic diag = op->emitError("tensor '")
                              << owner.getName() << "' of @" << owner.function
                              << " is read here, but its bytes [" << from
                              << ", " << to << ") in arena @" << arena
                              << " were overwritten first by ";
    if (writer == kSummary) {
      diag << "a function called again while it is live";
    } else {
      const Owner &other = owners[writer];
      diag << "tensor '" << other.getName() << "' of @" << other.function;
      diag.attachNote(other.value.getLoc())
          << "'" << other.getName() << "' is defined here";
    }
    diag.attachNote(owner.value.getLoc())
        << "'" << owner.getName() << "' is defined here";
    return failure();
  }
  return success();
}

const SmallVector<std::tuple<unsigned, int64_t, int64_t>> &
Replay::getFootprint(unsigned func) {
  auto found = footprints.find(func);
  if (found != footprints.end())
    return found->second;
  // Post-order over the callees, without recursion.
  SmallVector<std::pair<unsigned, unsigned>> stack{{func, 0}};
  llvm::DenseSet<unsigned> onStack{func};
  while (!stack.empty()) {
    auto &[f, next] = stack.back();
    Function &fn = functions[f];
    if (next < fn.callees.size()) {
      unsigned g = fn.callees[next++];
      if (!footprints.contains(g) && onStack.insert(g).second)
        stack.push_back({g, 0});
      continue;
    }
    SmallVector<std::tuple<unsigned, int64_t, int64_t>> ranges;
    for (OwnerId id : fn.owned)
      ranges.push_back({owners[id].arena, owners[id].offset,
                        owners[id].offset + owners[id].size});
    for (unsigned g : fn.callees) {
      auto it = footprints.find(g);
      if (it != footprints.end())
        ranges.append(it->second.begin(), it->second.end());
    }
    llvm::sort(ranges);
    SmallVector<std::tuple<unsigned, int64_t, int64_t>> merged;
    for (auto [arena, from, to] : ranges) {
      if (!merged.empty() && std::get<0>(merged.back()) == arena &&
          std::get<2>(merged.back()) >= from) {
        std::get<2>(merged.back()) = std::max(std::get<2>(merged.back()), to);
        continue;
      }
      merged.push_back({arena, from, to});
    }
    footprints[f] = std::move(merged);
    onStack.erase(f);
    stack.pop_back();
  }
  return footprints[func];
}

/// Per function, whether a planned function calls it (directly or not).
static std::vector<bool> findCalled(ArrayRef<Function> functions) {
  std::vector<bool> reached(functions.size(), false);
  SmallVector<unsigned> worklist;
  for (auto [f, fn] : llvm::enumerate(functions))
    if (fn.analysis)
      worklist.push_back(f);
  while (!worklist.empty()) {
    unsigned f = worklist.pop_back_val();
    for (unsigned g : functions[f].callees)
      if (!reached[g]) {
        reached[g] = true;
        worklist.push_back(g);
      }
  }
  return reached;
}

LogicalResult Replay::run() {
  program = buildProgram(module, liveness);
  state.resize(program.arenaNames.size());

  // Planned functions that no planned function reaches run from the host,
  // one invocation after another, in module order.
  std::vector<bool> reached = findCalled(functions);
  for (OwnerId id : program.hydrated)
    write(id, owners[id].offset, owners[id].size, owners[id].arena);
  std::vector<bool> invoked(functions.size(), false), active(functions.size());
  struct Frame {
    unsigned func;
    unsigned pc = 0;
  };
  for (auto [root, rootFn] : llvm::enumerate(functions)) {
    if (!rootFn.analysis || reached[root])
      continue;
    for (OwnerId arg : rootFn.args)
      if (arg != kNoOwner)
        write(arg, owners[arg].offset, owners[arg].size, owners[arg].arena);
    SmallVector<Frame> stack{{static_cast<unsigned>(root)}};
    invoked[root] = active[root] = true;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      Function &fn = functions[frame.func];
      if (frame.pc == fn.events.size()) {
        active[frame.func] = false;
        stack.pop_back();
        continue;
      }
      const Event &event = fn.events[frame.pc++];
      if (event.kind == Event::Read) {
        if (failed(read(event.owner, event.op)))
          return failure();
        continue;
      }
      if (event.kind == Event::Write) {
        const Owner &owner = owners[event.owner];
        write(event.owner, owner.offset, owner.size, owner.arena);
        continue;
      }
      // A call: operands are copied into the argument slots in order.
      for (auto [operand, arg] :
           ArrayRef(fn.copies).slice(event.first, event.count)) {
        if (operand != kNoOwner && failed(read(operand, event.op)))
          return failure();
        if (arg != kNoOwner)
          write(arg, owners[arg].offset, owners[arg].size, owners[arg].arena);
      }
      unsigned callee = event.callee;
      if (active[callee])
        continue;
      if (invoked[callee]) {
        for (auto [arena, from, to] : getFootprint(callee))
          write(kSummary, from, to - from, arena);
        for (OwnerId result : functions[callee].results)
          if (result != kNoOwner)
            write(result, owners[result].offset, owners[result].size,
                  owners[result].arena);
        continue;
      }
      invoked[callee] = active[callee] = true;
      stack.push_back({callee});
    }
  }
  return success();
}

LogicalResult mlir::helia::replayPlan(ModuleOp module,
                                     const ModuleLiveness &liveness) {
  return Replay(module, liveness).run();
}

LogicalResult mlir::helia::replayPlan(ModuleOp module) {
  FailureOr<ModuleLiveness> liveness = ModuleLiveness::analyze(module);
  if (failed(liveness))
    return failure();
  return replayPlan(module, *liveness);
}
