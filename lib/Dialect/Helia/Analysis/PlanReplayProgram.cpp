//===- PlanReplayProgram.cpp - the events helia-verify-plan replays -------===//

#include "PlanReplayProgram.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::replay;

namespace {

/// Builds a Program: the owners of every storage group first (analyze),
/// then each function's events (flatten).
class ProgramBuilder {
public:
  ProgramBuilder(ModuleOp module, const ModuleLiveness &liveness)
      : module(module), liveness(liveness) {}
  Program build() {
    (void)analyze();
    for (Function &fn : program.functions)
      flatten(fn);
    return std::move(program);
  }

private:
  LogicalResult analyze();
  OwnerId ownerOf(Value value) const {
    auto it = valueOwner.find(value);
    return it == valueOwner.end() ? kNoOwner : it->second;
  }
  OwnerId addOwner(StringAttr arena, int64_t offset, int64_t size, Value value,
                   const TensorInfo &tensor, StringRef func);
  void flatten(Function &fn);
  void emitOp(Function &fn, Operation *op,
              const DenseMap<Operation *, SmallVector<OwnerId>> &streamsAt);
  void emitCall(Function &fn, CallOpInterface call);
  void emitRead(Function &fn, Value value, Operation *op);
  void emitWrite(Function &fn, Value value, Operation *op);

  ModuleOp module;
  const ModuleLiveness &liveness;
  Program program;
  llvm::StringMap<unsigned> arenaIndex;
  DenseMap<Value, OwnerId> valueOwner;
  llvm::StringMap<unsigned> functionIndex;
  /// The staged constant arenas, by name.
  llvm::StringSet<> stagedArenas;
};

} // namespace

OwnerId ProgramBuilder::addOwner(StringAttr arena, int64_t offset, int64_t size,
                                 Value value, const TensorInfo &tensor,
                                 StringRef func) {
  auto it = arenaIndex.find(arena.getValue());
  if (it == arenaIndex.end())
    return kNoOwner;
  program.owners.push_back(
      {it->second, offset, size, value, tensor.name, tensor.id, func});
  return program.owners.size() - 1;
}

LogicalResult ProgramBuilder::analyze() {
  // Writable arenas only: cold constants are never written.
  for (ArenaOp arena : module.getOps<ArenaOp>()) {
    if (arena.isCold())
      continue;
    if (arena.isStaged())
      stagedArenas.insert(arena.getSymName());
    arenaIndex[arena.getSymName()] = program.arenaNames.size();
    program.arenaNames.push_back(arena.getSymName());
  }
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    functionIndex[func.getName()] = program.functions.size();
    Function fn;
    fn.op = func;
    program.functions.push_back(std::move(fn));
  }
  DenseMap<Operation *, const FunctionLiveness *> analyses;
  for (const FunctionLiveness &function : liveness.functions)
    analyses[function.getFunction()] = &function;
  for (Function &fn : program.functions) {
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
        program.hydrated.push_back(owner);
      // Readers of a streamed constant read its slot.
      OwnerId read = stream != kNoOwner ? stream : owner;
      for (unsigned member : buffer.members)
        valueOwner[fn.analysis->getTensors()[member].value] = read;
    }
  }
  return success();
}

void ProgramBuilder::emitRead(Function &fn, Value value, Operation *op) {
  OwnerId owner = ownerOf(value);
  if (owner != kNoOwner)
    fn.events.push_back({Event::Read, owner, op});
}

void ProgramBuilder::emitWrite(Function &fn, Value value, Operation *op) {
  OwnerId owner = ownerOf(value);
  if (owner == kNoOwner || getTensorKind(value) == TensorKind::Constant)
    return;
  fn.events.push_back({Event::Write, owner, op});
}

void ProgramBuilder::emitCall(Function &fn, CallOpInterface call) {
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
  Function &target = program.functions[it->second];
  Event event{Event::Call,
              kNoOwner,
              call,
              it->second,
              static_cast<unsigned>(fn.copies.size()),
              0};
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

void ProgramBuilder::emitOp(
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
    if (llvm::any_of(op->getResults(),
                     [&](Value result) { return ownerOf(result) == owner; }))
      continue;
    emitRead(fn, value, op);
  }
}

void ProgramBuilder::flatten(Function &fn) {
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

Program mlir::helia::replay::buildProgram(ModuleOp module,
                                          const ModuleLiveness &liveness) {
  return ProgramBuilder(module, liveness).build();
}
