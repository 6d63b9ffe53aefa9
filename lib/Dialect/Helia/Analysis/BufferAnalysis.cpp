//===- BufferAnalysis.cpp - buffers, aliasing and lifetimes ---------------===//

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"

#include "BufferStorage.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::helia;

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

/// The step of a use by `user`: its op's, or the last step for the
/// function's return.
static int64_t getUseStep(const BufferAnalysis &analysis, Operation *user) {
  if (user->hasTrait<OpTrait::ReturnLike>() &&
      user->getParentOp() == analysis.getFunction().getOperation())
    return analysis.getLastStep();
  return analysis.getStep(user);
}

void BufferAnalysis::numberSteps() {
  // Arguments at 0, the i-th op of the body at i + 1.
  int64_t step = 0;
  for (Block &block : func.getFunctionBody())
    for (Operation &op : block)
      stepOf[&op] = ++step;
  lastStep = step;
}

LogicalResult BufferAnalysis::checkInPlaceMarks(
    const bufferization::BufferizationOptions &options,
    SmallVectorImpl<Operation *> &inPlaceOps) {
  for (Block &block : func.getFunctionBody())
    for (Operation &op : block)
      if (op.hasAttr(HeliaDialect::InPlaceAttrHelper::getNameStr())) {
        if (failed(checkInPlaceMark(&op, options, tensorIndex, tensors)))
          return failure();
        inPlaceOps.push_back(&op);
      }
  return success();
}

void BufferAnalysis::groupBuffers(
    ArrayRef<SmallVector<unsigned, 2>> storage) {
  // One buffer per root, numbered by the root's position in program order.
  unsigned numTensors = tensors.size();
  bufferOfTensor.assign(numTensors, ~0u);
  buffers.reserve(llvm::count_if(llvm::seq(numTensors), [&](unsigned i) {
    return storage[i].size() == 1 && storage[i][0] == i;
  }));
  for (unsigned i = 0; i < numTensors; ++i) {
    if (storage[i].size() != 1)
      continue;
    unsigned root = storage[i].front();
    if (root == i) {
      BufferInfo info;
      info.index = buffers.size();
      info.kind = tensors[i].kind;
      info.firstStep = std::numeric_limits<int64_t>::max();
      info.lastStep = 0;
      buffers.push_back(info);
    }
    unsigned buffer = bufferOfTensor[root];
    if (root == i)
      buffer = bufferOfTensor[i] = buffers.size() - 1;
    bufferOfTensor[i] = buffer;
    BufferInfo &info = buffers[buffer];
    info.members.push_back(i);
    info.size = std::max<uint64_t>(
        info.size, *getTensorByteSize(tensors[i].value.getType()));
  }
  for (unsigned i = 0; i < numTensors; ++i) {
    if (storage[i].size() < 2)
      continue;
    SmallVector<unsigned, 2> &aliased = aliasedBuffers[i];
    for (unsigned root : storage[i])
      aliased.push_back(bufferOfTensor[root]);
  }
}

void BufferAnalysis::computeLifetimes() {
  // From the first definition to the last use of any tensor that may be
  // stored in the buffer.
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    SmallVector<unsigned, 2> stored;
    if (bufferOfTensor[i] != ~0u)
      stored.push_back(bufferOfTensor[i]);
    else
      stored = aliasedBuffers.lookup(i);
    int64_t def = isa<BlockArgument>(tensor.value)
                      ? 0
                      : getStep(tensor.value.getDefiningOp());
    SmallVector<int64_t> useSteps;
    for (OpOperand &use : tensor.value.getUses())
      useSteps.push_back(getUseStep(*this, use.getOwner()));
    for (unsigned buffer : stored) {
      BufferInfo &info = buffers[buffer];
      info.firstStep = std::min(info.firstStep, def);
      info.lastStep = std::max(info.lastStep, def);
      for (int64_t useStep : useSteps) {
        info.lastStep = std::max(info.lastStep, useStep);
        info.readSteps.push_back(useStep);
      }
    }
  }
  for (BufferInfo &info : buffers) {
    llvm::sort(info.readSteps);
    info.readSteps.erase(llvm::unique(info.readSteps), info.readSteps.end());
  }
}

LogicalResult
BufferAnalysis::checkInPlaceReads(ArrayRef<Operation *> inPlaceOps) const {
  // A result written over an operand's buffer needs every tensor stored
  // there before it (the operand, and what it was written over in turn)
  // read for the last time at that op.
  for (Operation *op : inPlaceOps) {
    int64_t step = getStep(op);
    const BufferInfo *info = lookup(op->getResult(0));
    if (!info)
      continue;
    for (unsigned member : info->members) {
      Value value = tensors[member].value;
      if (value == op->getResult(0) ||
          (value.getDefiningOp() && getStep(value.getDefiningOp()) >= step))
        continue;
      for (Operation *user : value.getUsers()) {
        if (getUseStep(*this, user) <= step)
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
  result.numberSteps();

  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  SmallVector<Operation *> inPlaceOps;
  if (failed(checkNestedAllocations(func, options)) ||
      failed(result.checkInPlaceMarks(options, inPlaceOps)))
    return failure();
  FailureOr<SmallVector<SmallVector<unsigned, 2>>> storage =
      resolveTensorStorage(func, result.tensors, result.tensorIndex);
  if (failed(storage))
    return failure();
  result.groupBuffers(*storage);
  result.computeLifetimes();
  if (failed(result.checkInPlaceReads(inPlaceOps)))
    return failure();
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
