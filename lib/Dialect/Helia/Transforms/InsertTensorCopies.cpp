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
#include "RegionCopies.h"
#include "helia/Dialect/Helia/Analysis/BufferOwners.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/ScopeExit.h"

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

/// The `bufferization.writable` attribute of one argument before the pass.
struct SavedWritable {
  FunctionOpInterface func;
  unsigned arg;
  Attribute value;
};

} // namespace

/// True when `op`, nested in `top` (an op of a function body), sits in
/// control flow only (branches and loop bodies that see the values defined
/// before `top`).
static bool isInControlFlow(Operation *op, Operation *top) {
  for (Operation *parent = op->getParentOp(); parent != top->getParentOp();
       parent = parent->getParentOp())
    if (!isa<RegionBranchOpInterface>(parent) ||
        parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return false;
  return true;
}

/// A call's results are the callee's buffers (a planned callee's slots live
/// only during its call); at the top level of a body, helia-lower-to-memref
/// copies them into the caller's slots. Inside a branch or a loop body the
/// copy is made here, into a new tensor that bufferization analyses like any
/// other destination (and that moves to the top level: hoistNestedStorage).
static void copyNestedCallResults(FunctionOpInterface func) {
  Block &body = func.getFunctionBody().front();
  for (Operation &top : body) {
    SmallVector<CallOpInterface> calls;
    top.walk([&](CallOpInterface call) {
      if (call.getOperation() != &top && isInControlFlow(call, &top))
        calls.push_back(call);
    });
    for (CallOpInterface call : calls) {
      OpBuilder builder(call);
      builder.setInsertionPointAfter(call);
      for (OpResult result : call->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !type.hasStaticShape() || result.use_empty())
          continue;
        Value init = tensor::EmptyOp::create(builder, call.getLoc(),
                                             type.getShape(),
                                             type.getElementType(),
                                             type.getEncoding());
        auto copy = linalg::CopyOp::create(builder, call.getLoc(), result,
                                           init);
        result.replaceAllUsesExcept(copy.getResult(0), copy);
      }
    }
  }
}

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

/// Rewrites `op`, a `tensor.pad` or `tensor.concat` nested in a region, in
/// destination-passing style: a `tensor.empty` and the writes into it
/// (upstream's own rewrites, as the lowering uses at the top level).
static LogicalResult rewriteNestedInDestinationStyle(IRRewriter &rewriter,
                                                     Operation *op) {
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return linalg::rewriteInDestinationPassingStyle(rewriter, pad);
  auto concat = cast<tensor::ConcatOp>(op);
  FailureOr<SmallVector<Value>> values = concat.decomposeOperation(rewriter);
  if (failed(values))
    return failure();
  rewriter.replaceOp(op, *values);
  return success();
}

/// True for an op of a function body whose regions are control flow
/// (`scf.if`, `scf.for`, ...) that sees the values defined before it: a
/// tensor.pad or a linalg op has a region of its own, which holds no
/// storage.
static bool isControlFlow(Operation &top) {
  return isa<RegionBranchOpInterface, LoopLikeOpInterface>(top) &&
         !top.hasTrait<OpTrait::IsIsolatedFromAbove>();
}

/// Ops nested in control flow that bufferize to an allocation (a
/// `tensor.pad`, a `tensor.concat`) are rewritten in destination-passing
/// style, into a `tensor.empty` and writes into it, which the hoisting
/// below gives a top-level buffer. (At the top level, the lowering does
/// the same into the op's slot.)
static LogicalResult rewriteNestedAllocations(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return success();
  IRRewriter rewriter(func.getContext());
  for (Operation &top : func.getFunctionBody().front()) {
    if (!isControlFlow(top))
      continue;
    SmallVector<Operation *> allocating;
    top.walk([&](Operation *op) {
      if (op != &top && isa<tensor::PadOp, tensor::ConcatOp>(op))
        allocating.push_back(op);
    });
    for (Operation *op : allocating) {
      rewriter.setInsertionPoint(op);
      if (failed(rewriteNestedInDestinationStyle(rewriter, op)))
        return op->emitError("cannot rewrite this '")
               << op->getName()
               << "' in destination-passing style; move it before the '"
               << top.getName() << "'";
    }
  }
  return success();
}

/// Storage that ops nested in regions would create, made plannable before
/// the analysis: a tensor constant moves before its top-level op (it is
/// read-only data, the same on every run of the region), and so does a
/// `tensor.empty` of static shape, where the planner counts one buffer for
/// it, reused on every run of the region.
static void hoistNestedStorage(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block &body = func.getFunctionBody().front();
  for (Operation &top : body) {
    if (!isControlFlow(top))
      continue;
    SmallVector<Operation *> hoisted;
    top.walk([&](Operation *op) {
      if (op == &top)
        return;
      bool isolated = false;
      for (Operation *parent = op->getParentOp(); parent != &top;
           parent = parent->getParentOp())
        isolated |= parent->hasTrait<OpTrait::IsIsolatedFromAbove>();
      if (isolated || op->getNumResults() != 1)
        return;
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!type || !type.hasStaticShape())
        return;
      if ((op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0) ||
          (isa<tensor::EmptyOp>(op) && op->getNumOperands() == 0))
        hoisted.push_back(op);
    });
    // An empty tensor that nothing uses any more (writeYieldsIntoIterArgs
    // gave its op the iter_arg) would be a buffer nothing writes.
    for (Operation *op : hoisted)
      if (op->use_empty())
        op->erase();
      else
        op->moveBefore(&top);
  }
}

/// One-Shot Analysis of `module`, then upstream copy insertion in every
/// planned function: each out-of-place write gets its explicit copy.
static LogicalResult
analyzeAndInsertCopies(ModuleOp module, ArrayRef<FunctionOpInterface> planned,
                       const bufferization::OneShotBufferizationOptions &options) {
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
  for (FunctionOpInterface func : planned) {
    if (failed(rewriteNestedAllocations(func)))
      return signalPassFailure();
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
  }
  for (FunctionOpInterface func : planned)
    copyStridedAtBoundaries(func);

  // The arguments of planned functions are the caller's data: for the
  // analysis they are read-only, so that an op writing into one writes into
  // an explicit copy. The attribute is only the analysis' input.
  StringRef writableName =
      bufferization::BufferizationDialect::kWritableAttrName;
  SmallVector<SavedWritable> saved;
  for (FunctionOpInterface func : planned)
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      if (!isa<TensorType>(func.getArgument(i).getType()))
        continue;
      saved.push_back({func, i, func.getArgAttr(i, writableName)});
      func.setArgAttr(i, writableName, BoolAttr::get(&getContext(), false));
    }
  llvm::scope_exit restore([&] {
    for (SavedWritable &entry : saved) {
      if (entry.value)
        entry.func.setArgAttr(entry.arg, writableName, entry.value);
      else
        entry.func.removeArgAttr(entry.arg, writableName);
    }
  });

  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  {
    // A One-Shot state (not yet analysed): the ops' interfaces reach func.call,
    // whose model reads the module's function analysis from it.
    bufferization::OneShotAnalysisState inPlace(module, options);
    for (FunctionOpInterface func : planned)
      if (failed(copyWritesIntoSeveralBuffers(func, inPlace)))
        return signalPassFailure();
  }
  if (failed(analyzeAndInsertCopies(module, planned, options)))
    return signalPassFailure();
  // A loop that yields a copy (of a value in a buffer it does not carry)
  // writes it back into its iter_arg instead; the loop now writes there, so
  // the module is analysed again, for the copies that write needs.
  bool yieldsCopied = false;
  {
    bufferization::OneShotAnalysisState aliases(module, options);
    for (FunctionOpInterface func : planned)
      yieldsCopied |= copyYieldsIntoIterArgs(func, aliases);
  }
  // The copies back write into carried values that the loops did not write
  // before: a branch yielding one beside an outer value now needs its copy.
  if (yieldsCopied)
    for (FunctionOpInterface func : planned)
      copyOuterValuesYieldedBesideCarried(func);
  if (yieldsCopied && failed(analyzeAndInsertCopies(module, planned, options)))
    return signalPassFailure();
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
        return signalPassFailure();
  }
  for (FunctionOpInterface func : planned)
    copyUncollapsibleSources(func, options);
  for (FunctionOpInterface func : planned)
    hoistRegionStorage(func, aliases);
  for (FunctionOpInterface func : planned)
    sinkHoistedStorage(func);
}
