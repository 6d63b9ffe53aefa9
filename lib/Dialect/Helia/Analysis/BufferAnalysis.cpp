//===- BufferAnalysis.cpp - buffers, aliasing and lifetimes ---------------===//

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::helia;

/// Returns the value whose storage `result` reuses, or null when `result`
/// owns its storage.
static Value getAliasedSource(OpResult result) {
  Operation *op = result.getOwner();
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    if (isa<TensorType>(view.getViewSource().getType()))
      return view.getViewSource();
  // TOSA's reshape becomes a tensor reshape (a view) when lowered; it is
  // matched by name so that the analysis does not depend on TOSA.
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp>(
          op) ||
      op->getName().getStringRef() == "tosa.reshape")
    return op->getOperand(0);
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
    if (!dps.hasPureTensorSemantics())
      return {};
    OpOperand *init = dps.getTiedOpOperand(result);
    // Writing in place into the init is only sound when nothing else reads
    // the init's old value; otherwise bufferization copies and the result
    // gets storage of its own.
    if (init && init->get().hasOneUse())
      return init->get();
  }
  return {};
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
  for (auto [i, tensor] : llvm::enumerate(result.tensors))
    result.tensorIndex[tensor.value] = i;

  // Steps: arguments at 0, the i-th op of the body at i + 1.
  int64_t step = 0;
  for (Block &block : func.getFunctionBody())
    for (Operation &op : block)
      result.stepOf[&op] = ++step;
  result.lastStep = step;

  // Alias groups. A member joins its source's group only when the source is
  // a planned tensor that is neither a constant nor an argument: constants
  // are read-only and arguments belong to the caller.
  llvm::EquivalenceClasses<unsigned> classes;
  for (unsigned i = 0, e = result.tensors.size(); i < e; ++i)
    classes.insert(i);
  for (auto [i, tensor] : llvm::enumerate(result.tensors)) {
    auto opResult = dyn_cast<OpResult>(tensor.value);
    if (!opResult)
      continue;
    Value source = getAliasedSource(opResult);
    if (!source)
      continue;
    auto it = result.tensorIndex.find(source);
    if (it == result.tensorIndex.end())
      continue;
    unsigned leader = classes.getLeaderValue(it->second);
    const TensorInfo &root = result.tensors[leader];
    if (root.kind != TensorKind::Scratch || isa<BlockArgument>(root.value))
      continue;
    if (tensor.kind != TensorKind::Scratch)
      continue;
    classes.unionSets(it->second, i);
  }

  // One buffer per class, numbered by its first member in program order.
  result.bufferOfTensor.assign(result.tensors.size(), ~0u);
  for (unsigned i = 0, e = result.tensors.size(); i < e; ++i) {
    unsigned leader = classes.getLeaderValue(i);
    unsigned buffer = result.bufferOfTensor[leader];
    if (buffer == ~0u) {
      buffer = result.buffers.size();
      result.bufferOfTensor[leader] = buffer;
      BufferInfo info;
      info.index = buffer;
      info.kind = result.tensors[i].kind;
      info.firstStep = std::numeric_limits<int64_t>::max();
      info.lastStep = 0;
      result.buffers.push_back(info);
    }
    result.bufferOfTensor[i] = buffer;
    BufferInfo &info = result.buffers[buffer];
    info.members.push_back(i);
    info.size = std::max<uint64_t>(
        info.size, *getTensorByteSize(result.tensors[i].value.getType()));
  }

  // Lifetimes: from the first definition to the last use of any member.
  for (auto [i, tensor] : llvm::enumerate(result.tensors)) {
    BufferInfo &info = result.buffers[result.bufferOfTensor[i]];
    int64_t def = isa<BlockArgument>(tensor.value)
                      ? 0
                      : result.getStep(tensor.value.getDefiningOp());
    info.firstStep = std::min(info.firstStep, def);
    info.lastStep = std::max(info.lastStep, def);
    for (OpOperand &use : tensor.value.getUses()) {
      Operation *user = use.getOwner();
      int64_t useStep = result.getStep(user);
      if (user->hasTrait<OpTrait::ReturnLike>() &&
          user->getParentOp() == func.getOperation())
        useStep = result.lastStep;
      info.lastStep = std::max(info.lastStep, useStep);
      info.readSteps.push_back(useStep);
    }
  }
  for (BufferInfo &info : result.buffers) {
    llvm::sort(info.readSteps);
    info.readSteps.erase(llvm::unique(info.readSteps), info.readSteps.end());
  }
  return result;
}

const BufferInfo *BufferAnalysis::lookup(Value value) const {
  int index = getTensorIndex(value);
  return index < 0 ? nullptr : &buffers[bufferOfTensor[index]];
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
