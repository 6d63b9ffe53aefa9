//===- PlanLiveness.cpp - storage and lifetimes of a bound function -------===//

#include "helia/Dialect/Helia/Analysis/PlanLiveness.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

/// Follows values back to the tensors of the body they are stored in.
class StorageWalk {
public:
  StorageWalk(const DenseMap<Value, unsigned> &tensorIndex,
              ArrayRef<unsigned> groupOf,
              const DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases)
      : options(getBufferizationOptions()), state(options),
        tensorIndex(tensorIndex), groupOf(groupOf), aliases(aliases) {}

  /// The values `result` is stored in, or none when it is stored in a
  /// buffer of its own.
  SmallVector<Value> getSources(OpResult result);

  /// Adds to `found` the groups `value` may be stored in; false when the IR
  /// does not say (an op without bufferization decides).
  bool collectGroups(Value value, llvm::SetVector<unsigned> &found);

private:
  bufferization::OneShotBufferizationOptions options;
  bufferization::AnalysisState state;
  const DenseMap<Value, unsigned> &tensorIndex;
  ArrayRef<unsigned> groupOf;
  const DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases;
};

} // namespace

SmallVector<Value> StorageWalk::getSources(OpResult result) {
  Operation *op = result.getOwner();
  // A call's results are copied into the caller's own buffers.
  if (isa<CallOpInterface>(op))
    return {};
  auto bufferizable = options.dynCastBufferizableOp(op);
  if (!bufferizable) {
    // helia-elementwise-in-place: written over the operand it names.
    auto mark = op->getAttrOfType<IntegerAttr>(
        HeliaDialect::InPlaceAttrHelper::getNameStr());
    if (mark && mark.getValue().ult(op->getNumOperands()))
      return {op->getOperand(mark.getInt())};
    return {};
  }
  if (bufferizable.bufferizesToAllocation(result))
    return {};
  SmallVector<Value> sources;
  for (const bufferization::AliasingOpOperand &alias :
       state.getAliasingOpOperands(result))
    sources.push_back(alias.opOperand->get());
  // A loop keeps its result, its init and what it yields in one buffer.
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    if (std::optional<MutableArrayRef<OpOperand>> yielded =
            loop.getYieldedValuesMutable();
        yielded && loop.getTiedLoopInit(result))
      sources.push_back((*yielded)[result.getResultNumber()].get());
  return sources;
}

bool StorageWalk::collectGroups(Value start, llvm::SetVector<unsigned> &found) {
  SmallVector<Value> worklist{start};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    if (auto it = tensorIndex.find(value); it != tensorIndex.end()) {
      if (groupOf[it->second] != ~0u)
        found.insert(groupOf[it->second]);
      else if (auto alias = aliases.find(it->second); alias != aliases.end())
        found.insert(alias->second.begin(), alias->second.end());
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop =
          dyn_cast_or_null<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return false;
      worklist.push_back(init->get());
      continue;
    }
    SmallVector<Value> sources = getSources(cast<OpResult>(value));
    if (sources.empty())
      return false;
    llvm::append_range(worklist, sources);
  }
  return true;
}

const StorageGroup *FunctionLiveness::lookup(Value value) const {
  auto it = tensorIndex.find(value);
  if (it == tensorIndex.end() || groupOf[it->second] == ~0u)
    return nullptr;
  return &groups[groupOf[it->second]];
}

int64_t FunctionLiveness::getStep(Operation *op) const {
  Block &body = FunctionOpInterface(func).getFunctionBody().front();
  Operation *top = body.findAncestorOpInBlock(*op);
  return top ? stepOf.lookup(top) : 0;
}

// What a tensor is stored in comes before it.
void FunctionLiveness::formGroups(
    DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases) {
  groupOf.assign(tensors.size(), ~0u);
  StorageWalk walk(tensorIndex, groupOf, aliases);
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    llvm::SetVector<unsigned> found;
    bool known = false;
    // Constants and persistent tensors keep their own buffer.
    if (auto opResult = dyn_cast<OpResult>(tensor.value);
        opResult && tensor.kind == TensorKind::Scratch) {
      SmallVector<Value> sources = walk.getSources(opResult);
      known = !sources.empty();
      for (Value source : sources)
        known = known && walk.collectGroups(source, found);
    }
    if (known && found.size() > 1) {
      aliases[i].assign(found.begin(), found.end());
      continue;
    }
    int64_t size =
        static_cast<int64_t>(*getTensorByteSize(tensor.value.getType()));
    if (known && found.size() == 1) {
      unsigned group = found.front();
      groupOf[i] = group;
      groups[group].members.push_back(i);
      groups[group].size = std::max(groups[group].size, size);
      shared.push_back({static_cast<unsigned>(i), group});
      continue;
    }
    groupOf[i] = groups.size();
    StorageGroup group;
    group.members.push_back(i);
    group.size = size;
    group.first = std::numeric_limits<int64_t>::max();
    groups.push_back(std::move(group));
  }
}

// Definitions and uses of the members, and of the tensors that may be
// stored in the group.
void FunctionLiveness::computeLifetimes(
    Block &body, const DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases) {
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    SmallVector<unsigned, 2> targets;
    if (groupOf[i] != ~0u)
      targets.push_back(groupOf[i]);
    else
      targets = aliases.lookup(i);
    int64_t def = isa<BlockArgument>(tensor.value)
                      ? 0
                      : stepOf.lookup(tensor.value.getDefiningOp());
    for (unsigned g : targets) {
      StorageGroup &group = groups[g];
      group.first = std::min(group.first, def);
      group.last = std::max(group.last, def);
    }
    for (Operation *user : tensor.value.getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      int64_t use = top == body.getTerminator() ? lastStep : stepOf.lookup(top);
      for (unsigned g : targets) {
        StorageGroup &group = groups[g];
        group.last = std::max(group.last, use);
        group.readSteps.push_back(use);
      }
    }
  }
  for (StorageGroup &group : groups) {
    llvm::sort(group.readSteps);
    group.readSteps.erase(llvm::unique(group.readSteps), group.readSteps.end());
  }
}

FailureOr<FunctionLiveness>
FunctionLiveness::analyze(FunctionOpInterface func) {
  FunctionLiveness result;
  result.func = func;
  FailureOr<SmallVector<TensorInfo>> tensors = collectTensors(func);
  if (failed(tensors))
    return failure();
  result.tensors = std::move(*tensors);
  if (func.isExternal())
    return result;
  Block &body = func.getFunctionBody().front();
  for (Operation &op : body)
    result.stepOf[&op] = ++result.lastStep;
  result.tensorIndex.reserve(result.tensors.size());
  for (auto [i, tensor] : llvm::enumerate(result.tensors))
    result.tensorIndex[tensor.value] = i;
  DenseMap<unsigned, SmallVector<unsigned, 2>> aliases;
  result.formGroups(aliases);
  result.computeLifetimes(body, aliases);
  return result;
}

namespace {
/// A call of a planned function: the caller's step that makes it.
struct Call {
  int64_t step;
  unsigned callee;
};
} // namespace

/// The planned functions each planned function calls, in step order; a call
/// of an unplanned function with a body stands for the planned functions it
/// reaches.
static std::vector<SmallVector<Call, 2>>
collectCalls(ArrayRef<FunctionLiveness> functions, ModuleOp module) {
  llvm::StringMap<Operation *> byName;
  for (auto func : module.getOps<FunctionOpInterface>())
    byName[func.getName()] = func;
  DenseMap<Operation *, unsigned> planned;
  for (auto [f, function] : llvm::enumerate(functions))
    planned[function.getFunction()] = f;
  std::vector<SmallVector<Call, 2>> calls(functions.size());
  for (auto [f, function] : llvm::enumerate(functions)) {
    Block &body =
        FunctionOpInterface(function.getFunction()).getFunctionBody().front();
    for (Operation &top : body) {
      int64_t step = function.getStep(&top);
      SmallVector<Operation *> worklist{&top};
      DenseSet<Operation *> seen;
      while (!worklist.empty()) {
        worklist.pop_back_val()->walk([&](CallOpInterface call) {
          StringRef name = getCalleeName(call);
          Operation *target = name.empty() ? nullptr : byName.lookup(name);
          if (!target)
            return;
          if (auto it = planned.find(target); it != planned.end()) {
            calls[f].push_back({step, it->second});
            return;
          }
          if (!cast<FunctionOpInterface>(target).isExternal() &&
              seen.insert(target).second)
            worklist.push_back(target);
        });
      }
    }
  }
  return calls;
}

/// A function called from several sites, and everything it calls, is live
/// for the whole program. Returns the number of sites calling each.
static std::vector<unsigned>
markWholeProgram(ModuleLiveness &result, ArrayRef<SmallVector<Call, 2>> calls) {
  unsigned n = result.functions.size();
  std::vector<unsigned> sites(n, 0);
  for (const SmallVector<Call, 2> &list : calls)
    for (const Call &call : list)
      ++sites[call.callee];
  result.timelines.resize(n);
  SmallVector<unsigned> worklist;
  for (unsigned f = 0; f < n; ++f)
    if (sites[f] > 1) {
      result.timelines[f].wholeProgram = true;
      worklist.push_back(f);
    }
  while (!worklist.empty())
    for (const Call &call : calls[worklist.pop_back_val()])
      if (!result.timelines[call.callee].wholeProgram) {
        result.timelines[call.callee].wholeProgram = true;
        worklist.push_back(call.callee);
      }
  return sites;
}

/// Lays the functions out on one timeline from their calls: each function
/// called from one site inside that call's step, depth first with an
/// explicit stack (call chains may be deep).
static void layOut(ModuleLiveness &result,
                   ArrayRef<SmallVector<Call, 2>> calls) {
  unsigned n = result.functions.size();
  std::vector<unsigned> sites = markWholeProgram(result, calls);
  auto nested = [&](unsigned g) {
    return sites[g] == 1 && !result.timelines[g].wholeProgram;
  };

  // A frame is at `step` of its function, its calls up to `call` laid out.
  struct Frame {
    unsigned func;
    int64_t step = 0;
    /// The next call to look at, and the first call of the current step.
    unsigned call = 0, stepCalls = 0;
    bool started = false, hasCallees = false;
  };
  std::vector<bool> laidOut(n, false);
  int64_t next = 0;
  for (unsigned root = 0; root < n; ++root) {
    if (nested(root))
      continue;
    SmallVector<Frame> stack{{root}};
    while (!stack.empty()) {
      Frame &frame = stack.back();
      ModuleLiveness::Timeline &timeline = result.timelines[frame.func];
      int64_t last = result.functions[frame.func].getLastStep();
      if (!laidOut[frame.func]) {
        laidOut[frame.func] = true;
        timeline.start.assign(last + 1, 0);
        timeline.end.assign(last + 1, 0);
      }
      if (frame.step > last) {
        stack.pop_back();
        continue;
      }
      if (!frame.started) {
        timeline.start[frame.step] = next++;
        frame.started = true;
        frame.hasCallees = false;
        frame.stepCalls = frame.call;
      }
      ArrayRef<Call> list = calls[frame.func];
      std::optional<unsigned> callee;
      while (!callee && frame.call < list.size() &&
             list[frame.call].step == frame.step) {
        unsigned g = list[frame.call++].callee;
        // A cycle is the planner's error; each function is laid out once.
        if (nested(g) && !laidOut[g])
          callee = g;
      }
      if (callee) {
        frame.hasCallees = true;
        stack.push_back({*callee});
        continue;
      }
      timeline.end[frame.step] =
          frame.hasCallees ? next++ : timeline.start[frame.step];
      // The callees' returns end with the step: results are copied out then.
      for (const Call &call :
           list.slice(frame.stepCalls, frame.call - frame.stepCalls))
        if (nested(call.callee) && !result.timelines[call.callee].end.empty())
          result.timelines[call.callee].end.back() = timeline.end[frame.step];
      ++frame.step;
      frame.started = false;
    }
  }
  result.numSteps = next;
}

FailureOr<ModuleLiveness> ModuleLiveness::analyze(ModuleOp module) {
  ModuleLiveness result;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (!isPlannedFunction(func))
      continue;
    FailureOr<FunctionLiveness> function = FunctionLiveness::analyze(func);
    if (failed(function))
      return failure();
    result.functions.push_back(std::move(*function));
  }
  layOut(result, collectCalls(result.functions, module));
  return result;
}

std::pair<int64_t, int64_t>
ModuleLiveness::getLifetime(unsigned func, const StorageGroup &group) const {
  const Timeline &timeline = timelines[func];
  if (timeline.wholeProgram || timeline.start.empty())
    return {0, std::max<int64_t>(numSteps - 1, 0)};
  // A result of an op of the body is defined once the op's callees returned.
  Value root = functions[func].getTensors()[group.members.front()].value;
  int64_t first = isa<OpResult>(root) ? timeline.end[group.first]
                                      : timeline.start[group.first];
  return {first, timeline.end[group.last]};
}

std::pair<int64_t, int64_t>
ModuleLiveness::getStreamWindow(unsigned func,
                                const StorageGroup &group) const {
  const Timeline &timeline = timelines[func];
  if (timeline.wholeProgram || timeline.start.empty() ||
      group.readSteps.empty())
    return {0, std::max<int64_t>(numSteps - 1, 0)};
  return {timeline.start[group.readSteps.front()],
          timeline.end[group.readSteps.back()]};
}
