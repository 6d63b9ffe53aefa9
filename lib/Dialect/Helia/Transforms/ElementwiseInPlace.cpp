//===- ElementwiseInPlace.cpp - elementwise results over dying inputs -----===//
//
// An elementwise op reads each element of an input at the index it writes,
// before writing it. When that input is read by nothing later, the result
// may be written over it, and the planner counts one buffer where it
// counted two. On linalg the input becomes the op's destination, so that
// One-Shot Bufferize writes in place (and BufferAnalysis, which follows
// bufferization, groups them); on ops without bufferization (an imported
// `tfl.*` graph) a table of elementwise ops says which may, and the op gets
// a `helia.in_place` mark that BufferAnalysis follows.
//
//===----------------------------------------------------------------------===//

#include "InPlaceCandidates.h"
#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAELEMENTWISEINPLACE
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaElementwiseInPlace
    : WithBufferizationModels<mlir::helia::impl::HeliaElementwiseInPlaceBase<
          HeliaElementwiseInPlace>> {
  using WithBufferizationModels::WithBufferizationModels;

  void runOnOperation() override;
};

} // namespace

/// Makes `write.input` the destination of the linalg op, reversibly: a
/// linalg.generic reads it through the init's block argument instead (its
/// input operands of that value stay, unread, until finishLinalgWrite); a
/// named op keeps it as an input, which bufferization reads and writes at
/// the same index (elementwise access).
static void applyLinalgWrite(InPlaceWrite &write) {
  Value input = write.input->get();
  write.oldInit = write.init->get();
  write.init->set(input);
  auto generic = dyn_cast<linalg::GenericOp>(write.op);
  if (!generic)
    return;
  BlockArgument initArg = generic.getMatchingBlockArgument(write.init);
  for (OpOperand *operand : generic.getDpsInputOperands())
    if (operand->get() == input)
      generic.getMatchingBlockArgument(operand).replaceAllUsesWith(initArg);
}

/// Undoes applyLinalgWrite. The payload did not read the init before
/// (findLinalgWrites), so every use of its block argument was the input's.
static void revertLinalgWrite(const InPlaceWrite &write) {
  write.init->set(write.oldInit);
  auto generic = dyn_cast<linalg::GenericOp>(write.op);
  if (!generic)
    return;
  generic.getMatchingBlockArgument(write.init)
      .replaceAllUsesWith(generic.getMatchingBlockArgument(write.input));
}

/// Drops the inputs of a linalg.generic that the payload no longer reads
/// (the value now read through the init), with their block arguments and
/// maps.
static void finishLinalgWrite(const InPlaceWrite &write) {
  if (auto generic = dyn_cast<linalg::GenericOp>(write.op)) {
    Value input = write.init->get();
    Block &body = generic.getRegion().front();
    SmallVector<unsigned> dropped;
    for (OpOperand *operand : generic.getDpsInputOperands())
      if (operand->get() == input &&
          generic.getMatchingBlockArgument(operand).use_empty())
        dropped.push_back(operand->getOperandNumber());
    SmallVector<Attribute> maps(generic.getIndexingMaps().getValue());
    for (unsigned index : llvm::reverse(dropped)) {
      body.eraseArgument(index);
      generic.getInputsMutable().erase(index);
      maps.erase(maps.begin() + index);
    }
    generic.setIndexingMapsAttr(ArrayAttr::get(generic.getContext(), maps));
  }
}

/// The operands of ops in `funcs` that One-Shot Analysis, with the options
/// and read-only arguments of helia-insert-tensor-copies, does not
/// bufferize in place; failure when the analysis fails.
static FailureOr<DenseSet<OpOperand *>>
getOutOfPlaceOperands(ModuleOp module, ArrayRef<FunctionOpInterface> funcs) {
  StringRef writableName =
      bufferization::BufferizationDialect::kWritableAttrName;
  SmallVector<std::tuple<FunctionOpInterface, unsigned, Attribute>> saved;
  for (FunctionOpInterface func : funcs)
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      if (!isa<TensorType>(func.getArgument(i).getType()))
        continue;
      saved.push_back({func, i, func.getArgAttr(i, writableName)});
      func.setArgAttr(i, writableName,
                      BoolAttr::get(module.getContext(), false));
    }
  llvm::scope_exit restore([&] {
    for (auto &[func, i, value] : saved) {
      if (value)
        func.setArgAttr(i, writableName, value);
      else
        func.removeArgAttr(i, writableName);
    }
  });
  bufferization::OneShotBufferizationOptions options =
      getBufferizationOptions();
  bufferization::OneShotAnalysisState state(module, options);
  if (failed(bufferization::analyzeModuleOp(module, state)))
    return failure();
  DenseSet<OpOperand *> outOfPlace;
  for (FunctionOpInterface func : funcs)
    func.walk([&](Operation *op) {
      if (!options.dynCastBufferizableOp(op))
        return;
      for (OpOperand &operand : op->getOpOperands())
        if (isa<TensorType>(operand.get().getType()) &&
            !state.isInPlace(operand))
          outOfPlace.insert(&operand);
    });
  return outOfPlace;
}

/// The writes over dying inputs in `planned`, on one analysis of each
/// function; failure when an analysis fails.
///
/// Decisions on one analysis of each function stay valid together: a
/// result written over a dying buffer extends that buffer by the result's
/// lifetime, which starts at the step where the buffer died, so no
/// decision on a later op sees a different last reader.
static LogicalResult findWrites(ArrayRef<FunctionOpInterface> planned,
                                SmallVectorImpl<InPlaceWrite> &writes) {
  bool failedAny = false;
  for (FunctionOpInterface func : planned) {
    FailureOr<BufferAnalysis> analysis = BufferAnalysis::analyze(func);
    if (failed(analysis)) {
      failedAny = true;
      continue;
    }
    DenseSet<const BufferInfo *> taken;
    for (Operation &op : func.getFunctionBody().front()) {
      int64_t step = analysis->getStep(&op);
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
        findLinalgWrites(linalgOp, step, *analysis, taken, writes);
      else if (!op.isRegistered())
        findMarkedWrite(&op, step, *analysis, taken, writes);
    }
  }
  return failure(failedAny);
}

/// Applies the linalg writes and gives back those One-Shot Analysis would
/// copy; returns the writes kept.
///
/// New destinations must be ones bufferization writes in place, and must
/// not make it write any other operand out of place: One-Shot Analysis
/// before and after decides. A destination it would copy is given back
/// (with every other of its function when the copy is elsewhere), until
/// no new copy remains.
static SmallVector<InPlaceWrite *>
keepWritesInPlace(ModuleOp module, ArrayRef<FunctionOpInterface> planned,
                  ArrayRef<InPlaceWrite *> linalgWrites,
                  const DenseSet<OpOperand *> &before) {
  for (InPlaceWrite *write : linalgWrites)
    applyLinalgWrite(*write);
  SmallVector<InPlaceWrite *> kept(linalgWrites);
  while (!kept.empty()) {
    FailureOr<DenseSet<OpOperand *>> after =
        getOutOfPlaceOperands(module, planned);
    DenseSet<Operation *> conflicted;
    DenseSet<Operation *> conflictedFuncs;
    bool analysisFailed = failed(after);
    if (!analysisFailed)
      for (OpOperand *operand : *after)
        if (!before.contains(operand)) {
          conflicted.insert(operand->getOwner());
          conflictedFuncs.insert(
              operand->getOwner()->getParentOfType<FunctionOpInterface>());
        }
    if (!analysisFailed && conflictedFuncs.empty())
      break;
    // Give back the writes whose own op has a new copy; when none has, all
    // writes of the functions with one.
    bool ownConflict = llvm::any_of(kept, [&](InPlaceWrite *write) {
      return conflicted.contains(write->op);
    });
    SmallVector<InPlaceWrite *> next;
    for (InPlaceWrite *write : kept) {
      bool giveBack =
          analysisFailed ||
          (ownConflict ? conflicted.contains(write->op)
                       : conflictedFuncs.contains(
                             write->op->getParentOfType<FunctionOpInterface>()));
      if (giveBack) {
        revertLinalgWrite(*write);
        write->init = nullptr;
      } else {
        next.push_back(write);
      }
    }
    kept = std::move(next);
  }
  return kept;
}

void HeliaElementwiseInPlace::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<FunctionOpInterface> planned;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isPlannedFunction(func))
      planned.push_back(func);
  SmallVector<InPlaceWrite> writes;
  if (failed(findWrites(planned, writes)))
    return signalPassFailure();

  // Marks on ops without bufferization concern the planner alone.
  SmallVector<InPlaceWrite *> linalgWrites;
  for (InPlaceWrite &write : writes) {
    if (write.init) {
      linalgWrites.push_back(&write);
      continue;
    }
    write.op->setAttr(HeliaDialect::InPlaceAttrHelper::getNameStr(),
                      Builder(write.op->getContext())
                          .getI64IntegerAttr(write.input->getOperandNumber()));
  }
  if (linalgWrites.empty())
    return;

  FailureOr<DenseSet<OpOperand *>> before =
      getOutOfPlaceOperands(module, planned);
  // Without an analysis to check against, no destination changes; the
  // lowering reports what bufferization cannot do.
  if (failed(before))
    return;
  SmallVector<InPlaceWrite *> kept =
      keepWritesInPlace(module, planned, linalgWrites, *before);
  // The undefined tensors that were the inits go once nothing uses them (one
  // may have been the init of several ops).
  llvm::SetVector<Operation *> oldInits;
  for (InPlaceWrite *write : kept) {
    finishLinalgWrite(*write);
    if (Operation *def = write->oldInit.getDefiningOp())
      oldInits.insert(def);
  }
  for (Operation *def : oldInits)
    if (def->use_empty())
      def->erase();
}
