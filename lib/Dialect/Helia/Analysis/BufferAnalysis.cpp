//===- BufferAnalysis.cpp - buffers, aliasing and lifetimes ---------------===//

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::helia;
using bufferization::AnalysisState;
using bufferization::BufferizableOpInterface;

namespace {

/// Where a value is stored, as far as the planner is concerned.
enum class Storage {
  /// In the buffers collected (tensors of the function body's top level).
  Planned,
  /// Unknown: an op without bufferization decides. The tensor that reaches
  /// it owns a buffer of its own, as every result of such an op does.
  Unknown,
  /// In storage created inside a region, which the plan cannot hold; an
  /// error was emitted.
  Unplannable,
};

/// Finds storage through BufferizableOpInterface, with the analysis state
/// of helia's bufferization options (every op in place).
class StorageResolver {
public:
  StorageResolver(FunctionOpInterface func,
                  const DenseMap<Value, unsigned> &tensorIndex,
                  ArrayRef<SmallVector<unsigned, 2>> storageOfTensor)
      : func(func), options(getBufferizationOptions()), state(options),
        tensorIndex(tensorIndex), storageOfTensor(storageOfTensor) {}

  /// The values whose buffers `result` is stored in when bufferized in
  /// place, or nothing when `result` is the root of a buffer of its own.
  SmallVector<Value> getStorageSources(OpResult result);

  /// Collects the buffers (root tensor indices) that `value` may be stored
  /// in. `value` is a tensor of the body's top level analysed before, or a
  /// value nested in a region of `user`, a top-level op.
  Storage resolve(Value value, Operation *user,
                  llvm::SetVector<unsigned> &roots);

  /// Emits the error for storage created at `op`, nested in `top`.
  void emitNestedStorageError(Operation *op, Operation *top);

  const bufferization::BufferizationOptions &getOptions() const {
    return options;
  }

private:
  FunctionOpInterface func;
  bufferization::OneShotBufferizationOptions options;
  AnalysisState state;
  const DenseMap<Value, unsigned> &tensorIndex;
  ArrayRef<SmallVector<unsigned, 2>> storageOfTensor;
};

} // namespace

SmallVector<Value> StorageResolver::getStorageSources(OpResult result) {
  Operation *op = result.getOwner();
  // A call's results are the callee's buffers; helia's calling convention
  // copies them into the caller's own (helia-lower-to-memref).
  if (isa<CallOpInterface>(op))
    return {};
  auto bufferizable = options.dynCastBufferizableOp(op);
  // An op without bufferization marked by helia-elementwise-in-place writes
  // its result over one operand's buffer.
  if (!bufferizable)
    if (auto inPlace = op->getAttrOfType<IntegerAttr>(
            HeliaDialect::InPlaceAttrHelper::getNameStr());
        inPlace && inPlace.getValue().ult(op->getNumOperands()))
      return {op->getOperand(inPlace.getInt())};
  if (!bufferizable || bufferizable.bufferizesToAllocation(result))
    return {};
  SmallVector<Value> sources;
  for (const bufferization::AliasingOpOperand &alias :
       state.getAliasingOpOperands(result))
    sources.push_back(alias.opOperand->get());
  // A loop result is also what the loop yields: bufferization keeps both in
  // the init's buffer, and the yielded value must be stored there.
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    if (std::optional<MutableArrayRef<OpOperand>> yielded =
            loop.getYieldedValuesMutable();
        yielded && loop.getTiedLoopInit(result))
      sources.push_back((*yielded)[result.getResultNumber()].get());
  return sources;
}

void StorageResolver::emitNestedStorageError(Operation *op, Operation *top) {
  InFlightDiagnostic diag = op->emitError();
  auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
  if (isa<CallOpInterface>(op))
    diag << "the results of this call inside '" << top->getName()
         << "' are the callee's buffers, which the caller cannot keep";
  else if (alloc && alloc.getCopy())
    diag << "bufferization copies a tensor here, inside '" << top->getName()
         << "' (an op writes into a value that is read-only or read "
            "afterwards), and the copy needs a buffer of its own";
  else
    diag << "'" << op->getName() << "' inside '" << top->getName()
         << "' creates a tensor that needs a buffer of its own";
  diag << "; helia plans the buffers of the tensors at the top level of a "
          "function body, so ";
  if (isa<LoopLikeOpInterface>(top))
    diag << "a loop may carry a tensor only in place: compute each yielded "
            "value into its iter_arg (e.g. outs(%iter_arg)) and create "
            "temporary tensors before the loop";
  else if (isa<CallOpInterface>(op))
    diag << "call it before the '" << top->getName()
         << "' (or inline the callee)";
  else if (alloc && alloc.getCopy())
    diag << "copy the value before the '" << top->getName()
         << "' (e.g. linalg.copy into a tensor.empty there) and write into "
            "the copy";
  else
    diag << "create the tensor before the '" << top->getName()
         << "' (e.g. a tensor.empty there, used as the destination)";
  diag.attachNote(top->getLoc()) << "in this op of '" << func.getName()
                                 << "'";
}

Storage StorageResolver::resolve(Value start, Operation *user,
                                 llvm::SetVector<unsigned> &roots) {
  SmallVector<Value> worklist{start};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    if (auto it = tensorIndex.find(value); it != tensorIndex.end()) {
      roots.insert(storageOfTensor[it->second].begin(),
                   storageOfTensor[it->second].end());
      continue;
    }
    // A value nested in a region of `user`.
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast_or_null<LoopLikeOpInterface>(
          arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return Storage::Unknown;
      worklist.push_back(init->get());
      continue;
    }
    auto result = cast<OpResult>(value);
    Operation *op = result.getOwner();
    if (!isa<CallOpInterface>(op) && !options.dynCastBufferizableOp(op))
      return Storage::Unknown;
    SmallVector<Value> sources = getStorageSources(result);
    if (sources.empty()) {
      emitNestedStorageError(op, user);
      return Storage::Unplannable;
    }
    llvm::append_range(worklist, sources);
  }
  return Storage::Planned;
}

/// Reports storage that bufferization would allocate inside a region of a
/// top-level op, which no buffer of the plan holds.
static LogicalResult checkNestedAllocations(FunctionOpInterface func,
                                            StorageResolver &resolver) {
  bool ok = true;
  for (Block &block : func.getFunctionBody())
    for (Operation &top : block)
      top.walk([&](Operation *op) {
        if (op == &top)
          return WalkResult::advance();
        auto bufferizable = resolver.getOptions().dynCastBufferizableOp(op);
        if (!bufferizable)
          return WalkResult::advance();
        for (OpResult result : op->getResults())
          if (isa<TensorType>(result.getType()) &&
              bufferizable.bufferizesToAllocation(result)) {
            resolver.emitNestedStorageError(op, &top);
            ok = false;
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
  return success(ok);
}

/// Checks a `helia.in_place` mark (helia-elementwise-in-place) before the
/// buffers are grouped: on an op without bufferization, whose one result is
/// a scratch tensor of the same shape and element width as the operand it
/// names, a scratch tensor of the body that is not an argument.
static LogicalResult
checkInPlaceMark(Operation *op, const bufferization::BufferizationOptions &options,
                 const DenseMap<Value, unsigned> &tensorIndex,
                 ArrayRef<TensorInfo> tensors) {
  auto mark = op->getAttrOfType<IntegerAttr>(HeliaDialect::InPlaceAttrHelper::getNameStr());
  if (!mark)
    return success();
  auto fail = [&]() {
    InFlightDiagnostic diag = op->emitError();
    diag << "'" << HeliaDialect::InPlaceAttrHelper::getNameStr() << "' ";
    return diag;
  };
  if (options.dynCastBufferizableOp(op))
    return fail() << "is for ops without bufferization, but '"
                  << op->getName()
                  << "' has one (bufferization decides where its result is "
                     "stored); drop the attribute and make the operand the "
                     "op's destination instead (helia-elementwise-in-place "
                     "does)";
  // The dialect verifier checked that the mark names an operand of an op
  // with one result.
  Value source = op->getOperand(mark.getInt());
  Value result = op->getResult(0);
  auto sourceIt = tensorIndex.find(source);
  auto resultIt = tensorIndex.find(result);
  if (sourceIt == tensorIndex.end() || resultIt == tensorIndex.end() ||
      isa<BlockArgument>(source) ||
      tensors[sourceIt->second].kind != TensorKind::Scratch ||
      tensors[resultIt->second].kind != TensorKind::Scratch)
    return fail() << "names operand #" << mark.getInt()
                  << ", but only a scratch tensor computed in the function "
                     "(not an argument, constant or persistent tensor) may "
                     "be written over by a scratch result; drop the "
                     "attribute";
  auto sourceType = cast<ShapedType>(source.getType());
  auto resultType = cast<ShapedType>(result.getType());
  if (sourceType.getShape() != resultType.getShape() ||
      getTensorByteSize(sourceType) != getTensorByteSize(resultType))
    return fail() << "names operand #" << mark.getInt() << " of type "
                  << sourceType << ", but the result has type " << resultType
                  << "; a result is written over an operand only with the "
                     "same shape and element width; drop the attribute";
  return success();
}

FailureOr<BufferAnalysis> BufferAnalysis::analyze(FunctionOpInterface func) {
  BufferAnalysis result;
  result.func = func;
  FailureOr<SmallVector<TensorInfo>> tensors = collectTensors(func);
  if (failed(tensors))
    return failure();
  result.tensors = std::move(*tensors);
  if (func.isExternal())
    return result;
  result.tensorIndex.reserve(result.tensors.size());
  for (auto [i, tensor] : llvm::enumerate(result.tensors))
    result.tensorIndex[tensor.value] = i;

  // Steps: arguments at 0, the i-th op of the body at i + 1.
  int64_t step = 0;
  for (Block &block : func.getFunctionBody())
    for (Operation &op : block)
      result.stepOf[&op] = ++step;
  result.lastStep = step;

  // Storage of each tensor, in program order (the values a tensor is stored
  // in come before it): the root tensors of the buffers it may be stored in.
  unsigned numTensors = result.tensors.size();
  SmallVector<SmallVector<unsigned, 2>> storage(numTensors);
  StorageResolver resolver(func, result.tensorIndex, storage);
  if (failed(checkNestedAllocations(func, resolver)))
    return failure();
  SmallVector<Operation *> inPlaceOps;
  for (Block &block : func.getFunctionBody())
    for (Operation &op : block)
      if (op.hasAttr(HeliaDialect::InPlaceAttrHelper::getNameStr())) {
        if (failed(checkInPlaceMark(&op, resolver.getOptions(),
                                    result.tensorIndex, result.tensors)))
          return failure();
        inPlaceOps.push_back(&op);
      }
  for (auto [i, tensor] : llvm::enumerate(result.tensors)) {
    storage[i] = {static_cast<unsigned>(i)};
    auto opResult = dyn_cast<OpResult>(tensor.value);
    // Constants and persistent tensors keep their own buffer: a copy into
    // them is the lowering's, not bufferization's.
    if (!opResult || tensor.kind != TensorKind::Scratch)
      continue;
    SmallVector<Value> sources = resolver.getStorageSources(opResult);
    if (sources.empty())
      continue;
    llvm::SetVector<unsigned> roots;
    Storage found = Storage::Planned;
    for (Value source : sources) {
      found = resolver.resolve(source, opResult.getOwner(), roots);
      if (found != Storage::Planned)
        break;
    }
    if (found == Storage::Unplannable)
      return failure();
    if (found == Storage::Unknown || roots.empty())
      continue;
    storage[i].assign(roots.begin(), roots.end());
    llvm::sort(storage[i]);
  }

  // One buffer per root, numbered by the root's position in program order.
  result.bufferOfTensor.assign(numTensors, ~0u);
  result.buffers.reserve(llvm::count_if(llvm::seq(numTensors), [&](unsigned i) {
    return storage[i].size() == 1 && storage[i][0] == i;
  }));
  for (unsigned i = 0; i < numTensors; ++i) {
    if (storage[i].size() != 1)
      continue;
    unsigned root = storage[i].front();
    if (root == i) {
      BufferInfo info;
      info.index = result.buffers.size();
      info.kind = result.tensors[i].kind;
      info.firstStep = std::numeric_limits<int64_t>::max();
      info.lastStep = 0;
      result.buffers.push_back(info);
    }
    unsigned buffer = result.bufferOfTensor[root];
    if (root == i)
      buffer = result.bufferOfTensor[i] = result.buffers.size() - 1;
    result.bufferOfTensor[i] = buffer;
    BufferInfo &info = result.buffers[buffer];
    info.members.push_back(i);
    info.size = std::max<uint64_t>(
        info.size, *getTensorByteSize(result.tensors[i].value.getType()));
  }
  for (unsigned i = 0; i < numTensors; ++i) {
    if (storage[i].size() < 2)
      continue;
    SmallVector<unsigned, 2> &buffers = result.aliasedBuffers[i];
    for (unsigned root : storage[i])
      buffers.push_back(result.bufferOfTensor[root]);
  }

  // Lifetimes: from the first definition to the last use of any tensor that
  // may be stored in the buffer.
  for (auto [i, tensor] : llvm::enumerate(result.tensors)) {
    SmallVector<unsigned, 2> buffers;
    if (result.bufferOfTensor[i] != ~0u)
      buffers.push_back(result.bufferOfTensor[i]);
    else
      buffers = result.aliasedBuffers.lookup(i);
    int64_t def = isa<BlockArgument>(tensor.value)
                      ? 0
                      : result.getStep(tensor.value.getDefiningOp());
    SmallVector<int64_t> useSteps;
    for (OpOperand &use : tensor.value.getUses()) {
      Operation *user = use.getOwner();
      int64_t useStep = result.getStep(user);
      if (user->hasTrait<OpTrait::ReturnLike>() &&
          user->getParentOp() == func.getOperation())
        useStep = result.lastStep;
      useSteps.push_back(useStep);
    }
    for (unsigned buffer : buffers) {
      BufferInfo &info = result.buffers[buffer];
      info.firstStep = std::min(info.firstStep, def);
      info.lastStep = std::max(info.lastStep, def);
      for (int64_t useStep : useSteps) {
        info.lastStep = std::max(info.lastStep, useStep);
        info.readSteps.push_back(useStep);
      }
    }
  }
  for (BufferInfo &info : result.buffers) {
    llvm::sort(info.readSteps);
    info.readSteps.erase(llvm::unique(info.readSteps), info.readSteps.end());
  }

  // A result written over an operand's buffer needs every tensor stored
  // there before it (the operand, and what it was written over in turn)
  // read for the last time at that op.
  for (Operation *op : inPlaceOps) {
    int64_t step = result.getStep(op);
    const BufferInfo *info = result.lookup(op->getResult(0));
    if (!info)
      continue;
    for (unsigned member : info->members) {
      Value value = result.tensors[member].value;
      if (value == op->getResult(0) ||
          (value.getDefiningOp() && result.getStep(value.getDefiningOp()) >= step))
        continue;
      for (Operation *user : value.getUsers()) {
        int64_t useStep = result.getStep(user);
        if (user->hasTrait<OpTrait::ReturnLike>() &&
            user->getParentOp() == func.getOperation())
          useStep = result.lastStep;
        if (useStep <= step)
          continue;
        InFlightDiagnostic diag = op->emitError()
            << "'" << HeliaDialect::InPlaceAttrHelper::getNameStr()
            << "' writes the result over operand #"
            << op->getAttrOfType<IntegerAttr>(
                     HeliaDialect::InPlaceAttrHelper::getNameStr()).getInt()
            << ", but its buffer is read later; drop the attribute (rerun "
               "helia-elementwise-in-place after changing the program)";
        diag.attachNote(user->getLoc()) << "read here";
        return failure();
      }
    }
  }
  return result;
}

const BufferInfo *BufferAnalysis::lookup(Value value) const {
  int index = getTensorIndex(value);
  if (index < 0 || bufferOfTensor[index] == ~0u)
    return nullptr;
  return &buffers[bufferOfTensor[index]];
}

SmallVector<const BufferInfo *, 2>
BufferAnalysis::getAliasedBuffers(Value value) const {
  SmallVector<const BufferInfo *, 2> result;
  int index = getTensorIndex(value);
  if (index < 0)
    return result;
  if (bufferOfTensor[index] != ~0u) {
    result.push_back(&buffers[bufferOfTensor[index]]);
    return result;
  }
  for (unsigned buffer : aliasedBuffers.lookup(index))
    result.push_back(&buffers[buffer]);
  return result;
}

int BufferAnalysis::getTensorIndex(Value value) const {
  auto it = tensorIndex.find(value);
  return it == tensorIndex.end() ? -1 : static_cast<int>(it->second);
}

int64_t BufferAnalysis::getStep(Operation *op) const {
  // An op nested in a region runs at its top-level ancestor's step.
  Operation *bodyOp = op;
  Operation *funcOp = func;
  while (bodyOp && bodyOp->getParentOp() != funcOp)
    bodyOp = bodyOp->getParentOp();
  auto it = stepOf.find(bodyOp);
  return it == stepOf.end() ? 0 : it->second;
}
