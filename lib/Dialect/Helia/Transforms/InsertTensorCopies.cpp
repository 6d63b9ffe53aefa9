//===- InsertTensorCopies.cpp - explicit copies before planning -----------===//
//
// The planner counts the buffers One-Shot Bufferize will create. Every copy
// bufferization would make (an out-of-place write) becomes an explicit
// `bufferization.alloc_tensor` here, with upstream tensor copy insertion and
// the lowering's own options; the planner then counts it like any other
// buffer, and the lowering places it in its slot.
//
//===----------------------------------------------------------------------===//

#include "LayoutCopies.h"
#include "LoopStorage.h"
#include "NestedStorage.h"
#include "RegionCopies.h"
#include "helia/Dialect/Helia/Analysis/BufferOwners.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAINSERTTENSORCOPIES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaInsertTensorCopies
    : WithBufferizationModels<mlir::helia::impl::HeliaInsertTensorCopiesBase<
          HeliaInsertTensorCopies>> {
  using WithBufferizationModels::WithBufferizationModels;

  void runOnOperation() override;
};

} // namespace

/// A value that may be stored in several buffers (mayBeSeveralBuffers: an
/// `scf.if` whose branches yield different buffers) owns no storage of its
/// own (BufferAnalysis): an op that writes into it writes into a copy, a
/// buffer the planner counts, rather than into whichever buffer it is at run
/// time. (One-Shot Analysis would decide that write itself; a decision made
/// can only be explicit beforehand.) Asked twice: before the analysis, and
/// once the copies of the analysis have their top-level storage.
static LogicalResult
copyWritesIntoSeveralBuffers(FunctionOpInterface func,
                             const bufferization::AnalysisState &state) {
  // Every question to the analysis is asked before the IR changes: its
  // answers (and caches) are about the IR it saw.
  SmallVector<std::pair<OpOperand *, bool>> writes;
  func.walk([&](Operation *op) {
    // Calls are left to the module analysis (what a callee writes is only
    // known there).
    auto bufferizable = state.getOptions().dynCastBufferizableOp(op);
    if (!bufferizable || isa<CallOpInterface>(op))
      return;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()) &&
          state.bufferizesToMemoryWrite(operand) &&
          !bufferizable.mustBufferizeInPlace(operand, state) &&
          mayBeSeveralBuffers(operand.get(), state))
        writes.push_back({&operand, state.bufferizesToMemoryRead(operand)});
  });
  bufferization::BufferizationState bufferizationState;
  for (auto [operand, read] : writes) {
    OpBuilder builder(operand->getOwner());
    FailureOr<Value> copy = bufferization::allocateTensorForShapedValue(
        builder, operand->getOwner()->getLoc(), operand->get(),
        state.getOptions(), bufferizationState, /*copy=*/read);
    if (failed(copy))
      return failure();
    operand->set(*copy);
  }
  return success();
}

/// One-Shot Analysis of `module`, then upstream copy insertion in every
/// planned function: each out-of-place write gets its explicit copy.
static LogicalResult
analyzeAndInsertCopies(ModuleOp module, ArrayRef<FunctionOpInterface> planned,
                       const bufferization::OneShotBufferizationOptions &options) {
  // If the only bufferizable ops are functions, returns, constants and empty
  // tensors, no op writes a tensor: no conflict, no copy. Skip the analysis.
  if (!module.walk([&](Operation *op) {
        bool writesNothing =
            !options.dynCastBufferizableOp(op) ||
            isa<FunctionOpInterface, tensor::EmptyOp>(op) ||
            (op->hasTrait<OpTrait::ConstantLike>() && !op->getNumOperands()) ||
            (op->hasTrait<OpTrait::ReturnLike>() &&
             isa<FunctionOpInterface>(op->getParentOp()));
        return writesNothing ? WalkResult::advance() : WalkResult::interrupt();
      }).wasInterrupted())
    return success();
  bufferization::OneShotAnalysisState state(module, options);
  if (failed(bufferization::analyzeModuleOp(module, state)))
    return failure();
  // Copy insertion replaces an init that bufferization would not write in
  // place; the undefined tensor it replaced is left without uses, and would
  // be a buffer that nothing writes.
  SmallVector<Operation *> undefined;
  for (FunctionOpInterface func : planned)
    func.walk([&](Operation *op) {
      if (isa<tensor::EmptyOp, bufferization::AllocTensorOp>(op) &&
          !op->use_empty())
        undefined.push_back(op);
    });
  bufferization::BufferizationState bufferizationState;
  for (FunctionOpInterface func : planned)
    if (failed(bufferization::insertTensorCopies(func, state,
                                                 bufferizationState)))
      return failure();
  for (Operation *op : undefined)
    if (op->use_empty())
      op->erase();
  return success();
}

/// Storage of regions made plannable before the analysis: call results,
/// allocating ops and temporaries inside branches and loop bodies get
/// top-level tensors, and the loops' carried values their rewrites
/// (LoopStorage.h, RegionCopies.h).
static LogicalResult prepareRegions(FunctionOpInterface func,
                                    bool carryInPlace) {
  if (failed(rewriteNestedAllocations(func)))
    return failure();
  writeYieldsIntoIterArgs(func, carryInPlace);
  copyCarriedIntoOtherIterArgs(func);
  copyCarriedCycles(func);
  copyWhileYieldsIntoCarriedArgs(func);
  copyValuesYieldedTwice(func);
  copyOuterValuesYieldedBesideCarried(func);
  splitNestedEmptyTensors(func);
  allocateFreshValuesYieldedBesideCarried(func);
  hoistNestedStorage(func);
  carryReadStorageThroughLoops(func);
  return success();
}

namespace {
/// The arguments of planned functions are the caller's data: for the
/// analysis they are read-only, so that an op writing into one writes into
/// an explicit copy. The attribute is only the analysis' input: each
/// argument's own `bufferization.writable` comes back on destruction.
class ReadOnlyArguments {
public:
  ReadOnlyArguments(ArrayRef<FunctionOpInterface> planned);
  ~ReadOnlyArguments();

private:
  /// The `bufferization.writable` attribute of one argument before the pass.
  struct SavedWritable {
    FunctionOpInterface func;
    unsigned arg;
    Attribute value;
  };
  SmallVector<SavedWritable> saved;
};
} // namespace

static StringRef getWritableName() {
  return bufferization::BufferizationDialect::kWritableAttrName;
}

ReadOnlyArguments::ReadOnlyArguments(ArrayRef<FunctionOpInterface> planned) {
  for (FunctionOpInterface func : planned)
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      if (!isa<TensorType>(func.getArgument(i).getType()))
        continue;
      saved.push_back({func, i, func.getArgAttr(i, getWritableName())});
      func.setArgAttr(i, getWritableName(),
                      BoolAttr::get(func.getContext(), false));
    }
}

ReadOnlyArguments::~ReadOnlyArguments() {
  for (SavedWritable &entry : saved) {
    if (entry.value)
      entry.func.setArgAttr(entry.arg, getWritableName(), entry.value);
    else
      entry.func.removeArgAttr(entry.arg, getWritableName());
  }
}

/// The explicit copies of bufferization: writes into values that may be
/// several buffers, then One-Shot Analysis and upstream copy insertion, and
/// the copies back into the iter_args of loops that yield a copy.
static LogicalResult
insertCopies(ModuleOp module, ArrayRef<FunctionOpInterface> planned,
             const bufferization::OneShotBufferizationOptions &options) {
  {
    // A One-Shot state (not yet analysed): the ops' interfaces reach func.call,
    // whose model reads the module's function analysis from it.
    bufferization::OneShotAnalysisState inPlace(module, options);
    for (FunctionOpInterface func : planned)
      if (failed(copyWritesIntoSeveralBuffers(func, inPlace)))
        return failure();
  }
  if (failed(analyzeAndInsertCopies(module, planned, options)))
    return failure();
  // A loop that yields a copy (of a value in a buffer it does not carry)
  // writes it back into its iter_arg instead; the loop now writes there, so
  // the module is analysed again, for the copies that write needs.
  bool yieldsCopied = false;
  {
    bufferization::OneShotAnalysisState aliases(module, options);
    for (FunctionOpInterface func : planned)
      yieldsCopied |= copyYieldsIntoIterArgs(func, aliases);
  }
  if (!yieldsCopied)
    return success();
  // The copies back write into carried values that the loops did not write
  // before: a branch yielding one beside an outer value now needs its copy.
  for (FunctionOpInterface func : planned)
    copyOuterValuesYieldedBesideCarried(func);
  return analyzeAndInsertCopies(module, planned, options);
}

/// The copies of the analysis made inside regions get their top-level
/// storage (RegionCopies.h), and so do the copies that storage calls for:
/// writes into values that became several buffers, and the sources of
/// collapses that are not contiguous.
static LogicalResult
placeRegionCopies(ModuleOp module, ArrayRef<FunctionOpInterface> planned,
                  const bufferization::OneShotBufferizationOptions &options) {
  // A state for the interfaces' answers only (which values a use stores
  // its operand in); the copies of collapses may be made inside regions too.
  bufferization::OneShotAnalysisState aliases(module, options);
  for (FunctionOpInterface func : planned)
    hoistRegionStorage(func, aliases);
  // The copies made since (of loop inits in branches, hoisted into top-level
  // tensors of their own) may have made a value several buffers that was one
  // when first asked: a write into it gets its copy now.
  {
    bufferization::OneShotAnalysisState stored(module, options);
    for (FunctionOpInterface func : planned)
      if (failed(copyWritesIntoSeveralBuffers(func, stored)))
        return failure();
  }
  for (FunctionOpInterface func : planned)
    copyUncollapsibleSources(func, options);
  for (FunctionOpInterface func : planned)
    hoistRegionStorage(func, aliases);
  for (FunctionOpInterface func : planned)
    sinkHoistedStorage(func);
  return success();
}

void HeliaInsertTensorCopies::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<FunctionOpInterface> planned;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isPlannedFunction(func))
      planned.push_back(func);
  if (planned.empty())
    return;
  for (FunctionOpInterface func : planned)
    if (func.getFunctionBody().hasOneBlock())
      copyNestedCallResults(func);
  for (FunctionOpInterface func : planned)
    if (failed(prepareRegions(func, carryInPlace)))
      return signalPassFailure();
  for (FunctionOpInterface func : planned)
    copyStridedAtBoundaries(func);

  ReadOnlyArguments readOnly(planned);
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  if (failed(insertCopies(module, planned, options)) ||
      failed(placeRegionCopies(module, planned, options)))
    return signalPassFailure();
}
