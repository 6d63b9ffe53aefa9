//===- PlanReplay.cpp - replay a bound module, byte range by byte range ---===//

#include "helia/Dialect/Helia/Analysis/PlanReplay.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>

using namespace mlir;
using namespace mlir::helia;

namespace {

/// Who wrote a byte range: a buffer of a planned function (or its stream
/// slot), or the internals of a function replayed in summary.
using OwnerId = int64_t;
constexpr OwnerId kNoOwner = -1;
constexpr OwnerId kSummary = -2;

/// Where a buffer (or a stream slot) lives, and what to name it by.
struct Owner {
  unsigned arena;
  int64_t offset, size;
  Value value;
  /// The tensor's name and id, spelled out only for an error.
  StringAttr tensorName;
  uint64_t tensorId;
  StringRef function;
  std::string getName() const {
    return getTensorDisplayName(tensorName ? tensorName.getValue() : StringRef(),
                                tensorId);
  }
};

struct Event {
  enum Kind : uint8_t { Write, Read, Call } kind;
  OwnerId owner = kNoOwner;
  /// The op that reads, writes or calls (for diagnostics).
  Operation *op = nullptr;
  /// Call: the callee, and its argument copies [first, first + count) in
  /// Function::copies as (caller operand, callee argument).
  unsigned callee = 0, first = 0, count = 0;
};

struct Function {
  FunctionOpInterface op;
  /// The function's storage groups, for a planned function.
  const FunctionLiveness *analysis = nullptr;
  SmallVector<Event> events;
  SmallVector<std::pair<OwnerId, OwnerId>> copies;
  /// Owners of the entry-block arguments and of the returned values.
  SmallVector<OwnerId> args, results;
  /// Every owner of the function.
  SmallVector<OwnerId> owned;
  /// Functions it calls.
  SmallVector<unsigned> callees;
};

/// Half-open byte ranges of one arena, each with its last writer.
using ArenaState = std::map<int64_t, std::pair<int64_t, OwnerId>>;

class Replay {
public:
  Replay(ModuleOp module, const ModuleLiveness &liveness)
      : module(module), liveness(liveness) {}
  LogicalResult run();

private:
  LogicalResult analyze();
  OwnerId ownerOf(Value value) const {
    auto it = valueOwner.find(value);
    return it == valueOwner.end() ? kNoOwner : it->second;
  }
  OwnerId addOwner(StringAttr arena, int64_t offset, int64_t size,
                   Value value, const TensorInfo &tensor, StringRef func);
  void flatten(Function &fn);
  void emitOp(Function &fn, Operation *op,
              const DenseMap<Operation *, SmallVector<OwnerId>> &streamsAt);
  void emitCall(Function &fn, CallOpInterface call);
  void emitRead(Function &fn, Value value, Operation *op);
  void emitWrite(Function &fn, Value value, Operation *op);

  void write(OwnerId owner, int64_t offset, int64_t size, unsigned arena);
  LogicalResult read(OwnerId owner, Operation *op);
  const SmallVector<std::tuple<unsigned, int64_t, int64_t>> &
  getFootprint(unsigned func);

  ModuleOp module;
  const ModuleLiveness &liveness;
  llvm::StringMap<unsigned> arenaIndex;
  std::vector<ArenaState> state;
  std::vector<Owner> owners;
  DenseMap<Value, OwnerId> valueOwner;
  std::vector<Function> functions;
  llvm::StringMap<unsigned> functionIndex;
  /// The staged constant arenas, by name.
  llvm::StringSet<> stagedArenas;
  /// Buffers of staged constants: hydrated before everything.
  SmallVector<OwnerId> hydrated;
  DenseMap<unsigned, SmallVector<std::tuple<unsigned, int64_t, int64_t>>>
      footprints;
};

} // namespace

OwnerId Replay::addOwner(StringAttr arena, int64_t offset, int64_t size,
                         Value value, const TensorInfo &tensor,
                         StringRef func) {
  auto it = arenaIndex.find(arena.getValue());
  if (it == arenaIndex.end())
    return kNoOwner;
  owners.push_back(
      {it->second, offset, size, value, tensor.name, tensor.id, func});
  return owners.size() - 1;
}

LogicalResult Replay::analyze() {
  // Writable arenas only: cold constants are never written.
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    if (arena.isCold())
      continue;
    if (arena.isStaged())
      stagedArenas.insert(arena.getSymName());
    arenaIndex[arena.getSymName()] = state.size();
    state.emplace_back();
  }
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    functionIndex[func.getName()] = functions.size();
    Function fn;
    fn.op = func;
    functions.push_back(std::move(fn));
  }
  DenseMap<Operation *, const FunctionLiveness *> analyses;
  for (const FunctionLiveness &function : liveness.functions)
    analyses[function.getFunction()] = &function;
  for (Function &fn : functions) {
    fn.analysis = analyses.lookup(fn.op);
    if (!fn.analysis)
      continue;
    for (const StorageGroup &buffer : fn.analysis->getGroups()) {
      const TensorInfo &root = fn.analysis->getTensors()[buffer.members[0]];
      BindingAttr binding = getBinding(root.value);
      if (!binding)
        continue;
      OwnerId owner =
          addOwner(binding.getArena().getAttr(), binding.getOffset(),
                   buffer.size, root.value, root, fn.op.getName());
      OwnerId stream = kNoOwner;
      if (FlatSymbolRefAttr pool = binding.getStreamArena())
        stream = addOwner(pool.getAttr(), *binding.getStreamOffset(),
                          buffer.size, root.value, root, fn.op.getName());
      for (OwnerId id : {owner, stream})
        if (id != kNoOwner)
          fn.owned.push_back(id);
      if (owner != kNoOwner && stream == kNoOwner &&
          stagedArenas.contains(binding.getArena().getValue()))
        hydrated.push_back(owner);
      // Readers of a streamed constant read its slot.
      OwnerId read = stream != kNoOwner ? stream : owner;
      for (unsigned member : buffer.members)
        valueOwner[fn.analysis->getTensors()[member].value] = read;
    }
  }
  return success();
}

void Replay::emitRead(Function &fn, Value value, Operation *op) {
  OwnerId owner = ownerOf(value);
  if (owner != kNoOwner)
    fn.events.push_back({Event::Read, owner, op});
}

void Replay::emitWrite(Function &fn, Value value, Operation *op) {
  OwnerId owner = ownerOf(value);
  if (owner == kNoOwner || getTensorKind(value) == TensorKind::Constant)
    return;
  fn.events.push_back({Event::Write, owner, op});
}

void Replay::emitCall(Function &fn, CallOpInterface call) {
  StringRef callee = getCalleeName(call);
  auto it = callee.empty() ? functionIndex.end() : functionIndex.find(callee);
  if (it == functionIndex.end()) {
    // An external function: it reads its operands.
    for (Value operand : call.getArgOperands())
      emitRead(fn, operand, call);
    for (Value result : call->getResults())
      emitWrite(fn, result, call);
    return;
  }
  Function &target = functions[it->second];
  Event event{Event::Call, kNoOwner, call, it->second,
              static_cast<unsigned>(fn.copies.size()), 0};
  Block &entry = target.op.getFunctionBody().front();
  for (auto [operand, arg] :
       llvm::zip(call.getArgOperands(), entry.getArguments())) {
    fn.copies.push_back({ownerOf(operand), ownerOf(arg)});
    ++event.count;
  }
  fn.events.push_back(event);
  fn.callees.push_back(it->second);
  // The results are copied out of the callee's returned slots, in order.
  Operation *ret = entry.getParent()->back().getTerminator();
  for (auto [result, returned] :
       llvm::zip(call->getResults(), ret->getOperands())) {
    emitRead(fn, returned, call);
    emitWrite(fn, result, call);
  }
}

void Replay::emitOp(
    Function &fn, Operation *op,
    const DenseMap<Operation *, SmallVector<OwnerId>> &streamsAt) {
  auto streams = streamsAt.find(op);
  if (streams != streamsAt.end())
    for (OwnerId owner : streams->second)
      fn.events.push_back({Event::Write, owner, op});
  // What the op (and its regions) reads from outside.
  SmallVector<Value> reads;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!op->isProperAncestor(operand.getParentBlock()->getParentOp()) &&
          operand.getParentBlock()->getParentOp() != op)
        reads.push_back(operand);
  });
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    emitCall(fn, call);
    return;
  }
  for (Value value : reads)
    emitRead(fn, value, op);
  if (op->getNumRegions() != 0) {
    // Everything defined inside is written during the step; calls inside
    // run their callees there.
    SmallVector<Value> inner;
    op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (nested == op)
        return;
      if (auto call = dyn_cast<CallOpInterface>(nested)) {
        for (Value operand : call.getArgOperands())
          emitRead(fn, operand, nested);
        emitCall(fn, call);
      } else {
        for (Value result : nested->getResults())
          emitWrite(fn, result, nested);
      }
      for (Value result : nested->getResults())
        if (ownerOf(result) != kNoOwner && !result.use_empty())
          inner.push_back(result);
    });
    for (Value value : inner)
      emitRead(fn, value, op);
  }
  for (Value result : op->getResults())
    emitWrite(fn, result, op);
  // Operands are read while the results are written: they must still be
  // intact, unless they share the result's buffer.
  for (Value value : reads) {
    OwnerId owner = ownerOf(value);
    if (llvm::any_of(op->getResults(), [&](Value result) {
          return ownerOf(result) == owner;
        }))
      continue;
    emitRead(fn, value, op);
  }
}

void Replay::flatten(Function &fn) {
  Block &entry = fn.op.getFunctionBody().front();
  for (BlockArgument arg : entry.getArguments())
    fn.args.push_back(ownerOf(arg));
  // A streamed constant is copied into its slot before its first reader.
  DenseMap<Operation *, SmallVector<OwnerId>> streamsAt;
  if (fn.analysis) {
    for (const StorageGroup &buffer : fn.analysis->getGroups()) {
      Value root = fn.analysis->getTensors()[buffer.members[0]].value;
      BindingAttr binding = getBinding(root);
      if (!binding || !binding.getStreamArena() || buffer.readSteps.empty())
        continue;
      int64_t first = buffer.readSteps.front();
      for (Operation &op : entry)
        if (fn.analysis->getStep(&op) == first) {
          streamsAt[&op].push_back(ownerOf(root));
          break;
        }
    }
  }
  if (!fn.analysis) {
    // Host code: only its calls matter.
    fn.op->walk([&](CallOpInterface call) { emitCall(fn, call); });
    return;
  }
  for (Operation &op : entry.without_terminator())
    emitOp(fn, &op, streamsAt);
  Operation *ret = entry.getTerminator();
  // A streamed constant first read by the return is copied right before it.
  if (auto streams = streamsAt.find(ret); streams != streamsAt.end())
    for (OwnerId owner : streams->second)
      fn.events.push_back({Event::Write, owner, ret});
  for (Value value : ret->getOperands()) {
    emitRead(fn, value, ret);
    fn.results.push_back(ownerOf(value));
  }
}

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
    StringRef arena;
    for (auto &entry : arenaIndex)
      if (entry.second == owner.arena)
        arena = entry.first();
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
  if (failed(analyze()))
    return failure();
  for (Function &fn : functions)
    flatten(fn);

  // Planned functions that no planned function reaches run from the host,
  // one invocation after another, in module order.
  std::vector<bool> reached = findCalled(functions);
  for (OwnerId id : hydrated)
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
