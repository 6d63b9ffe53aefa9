//===- BufferStorage.cpp - the buffers each tensor is stored in -----------===//

#include "BufferStorage.h"

#include "helia/Dialect/Helia/Analysis/Bufferization.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::helia;
using bufferization::AnalysisState;

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

  /// Sets `storage` (the tensor's own index) to the sorted roots of the
  /// buffers `tensor`, a scratch result of the body, is stored in, when
  /// they are planned; leaves it for a root or storage an op without
  /// bufferization decides. Fails, with an error emitted, for storage
  /// created inside a region.
  LogicalResult resolveTensor(OpResult tensor,
                              SmallVector<unsigned, 2> &storage);

  /// The values whose buffers `result` is stored in when bufferized in
  /// place, or nothing when `result` is the root of a buffer of its own.
  SmallVector<Value> getStorageSources(OpResult result);

  /// Collects the buffers (root tensor indices) that `value` may be stored
  /// in. `value` is a tensor of the body's top level analysed before, or a
  /// value nested in a region of `user`, a top-level op.
  Storage resolve(Value value, Operation *user,
                  llvm::SetVector<unsigned> &roots);

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

/// Emits the error for storage created at `op`, nested in `top`, an op of
/// `func`'s body.
static void emitNestedStorageError(FunctionOpInterface func, Operation *op,
                                   Operation *top) {
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
      emitNestedStorageError(func, op, user);
      return Storage::Unplannable;
    }
    llvm::append_range(worklist, sources);
  }
  return Storage::Planned;
}

LogicalResult mlir::helia::checkNestedAllocations(
    FunctionOpInterface func,
    const bufferization::BufferizationOptions &options) {
  bool ok = true;
  for (Block &block : func.getFunctionBody())
    for (Operation &top : block)
      top.walk([&](Operation *op) {
        if (op == &top)
          return WalkResult::advance();
        auto bufferizable = options.dynCastBufferizableOp(op);
        if (!bufferizable)
          return WalkResult::advance();
        for (OpResult result : op->getResults())
          if (isa<TensorType>(result.getType()) &&
              bufferizable.bufferizesToAllocation(result)) {
            emitNestedStorageError(func, op, &top);
            ok = false;
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
  return success(ok);
}

LogicalResult
StorageResolver::resolveTensor(OpResult tensor,
                               SmallVector<unsigned, 2> &storage) {
  SmallVector<Value> sources = getStorageSources(tensor);
  if (sources.empty())
    return success();
  llvm::SetVector<unsigned> roots;
  Storage found = Storage::Planned;
  for (Value source : sources) {
    found = resolve(source, tensor.getOwner(), roots);
    if (found != Storage::Planned)
      break;
  }
  if (found == Storage::Unplannable)
    return failure();
  if (found == Storage::Unknown || roots.empty())
    return success();
  storage.assign(roots.begin(), roots.end());
  llvm::sort(storage);
  return success();
}

FailureOr<SmallVector<SmallVector<unsigned, 2>>>
mlir::helia::resolveTensorStorage(FunctionOpInterface func,
                                  ArrayRef<TensorInfo> tensors,
                                  const DenseMap<Value, unsigned> &tensorIndex) {
  // In program order: the values a tensor is stored in come before it.
  SmallVector<SmallVector<unsigned, 2>> storage(tensors.size());
  StorageResolver resolver(func, tensorIndex, storage);
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    storage[i] = {static_cast<unsigned>(i)};
    auto opResult = dyn_cast<OpResult>(tensor.value);
    // Constants and persistent tensors keep their own buffer: a copy into
    // them is the lowering's, not bufferization's.
    if (!opResult || tensor.kind != TensorKind::Scratch)
      continue;
    if (failed(resolver.resolveTensor(opResult, storage[i])))
      return failure();
  }
  return storage;
}
