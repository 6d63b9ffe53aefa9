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

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAELEMENTWISEINPLACE
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaElementwiseInPlace
    : mlir::helia::impl::HeliaElementwiseInPlaceBase<HeliaElementwiseInPlace> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBufferizationModels(registry);
  }

  void runOnOperation() override;
};

/// One rewrite decided on the analysis of a function: the result of `op`
/// for init `init` (linalg) or its one result (a marked op) is written over
/// the buffer of `input`.
struct InPlaceWrite {
  Operation *op;
  /// The init operand of a linalg op; null for an op without bufferization.
  OpOperand *init;
  /// The input operand whose buffer the result takes.
  OpOperand *input;
  /// The init before applyLinalgWrite.
  Value oldInit = {};
};

} // namespace

/// The ops without bufferization (TensorFlow Lite, imported as unregistered
/// `tfl.*` ops) whose kernels read each element of every input whose shape
/// is the output's at the index they write, before writing it: unary
/// activations and math, binary arithmetic (whose other input may
/// broadcast), and conversions. docs/Design.md lists them as the kernels
/// that must tolerate an output that aliases an input.
static bool isElementwiseTflOp(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"tfl.add", "tfl.sub", "tfl.mul", "tfl.div",
              "tfl.squared_difference", "tfl.maximum", "tfl.minimum"},
             true)
      .Cases({"tfl.logistic", "tfl.tanh", "tfl.relu", "tfl.relu6",
              "tfl.relu_n1_to_1", "tfl.relu_0_to_1", "tfl.leaky_relu",
              "tfl.hard_swish", "tfl.elu"},
             true)
      .Cases({"tfl.exp", "tfl.log", "tfl.sqrt", "tfl.rsqrt", "tfl.abs",
              "tfl.neg", "tfl.square", "tfl.floor", "tfl.ceil", "tfl.round",
              "tfl.sin", "tfl.cos", "tfl.logical_not"},
             true)
      .Cases({"tfl.quantize", "tfl.dequantize", "tfl.cast"}, true)
      .Default(false);
}

/// The buffer of `value` if the op at `step` may write a result of `type`
/// over it: a scratch buffer computed in the function (not an argument,
/// which is the caller's, nor a constant or persistent tensor) that nothing
/// reads after `step` (no later reader of any tensor stored in it), and of
/// the result's size: a larger buffer (`value` a view into it) would live on
/// with the result and cost more than the result's own.
static const BufferInfo *getDyingBuffer(const BufferAnalysis &analysis,
                                        Value value, Type type,
                                        int64_t step) {
  const BufferInfo *buffer = analysis.lookup(value);
  if (!buffer || buffer->kind != TensorKind::Scratch ||
      buffer->lastStep != step || buffer->size != getTensorByteSize(type))
    return nullptr;
  Value root = analysis.getTensors()[buffer->members.front()].value;
  if (isa<BlockArgument>(root))
    return nullptr;
  return buffer;
}

/// True if a value other than `input` that `op` reads (an operand, or a
/// value its regions use from above) may be stored in `buffer`: the op
/// would read that value at other indices than it writes.
static bool readsBufferOtherwise(Operation *op, Value input,
                                 const BufferInfo *buffer,
                                 const BufferAnalysis &analysis) {
  auto inBuffer = [&](Value value) {
    return value != input &&
           llvm::is_contained(analysis.getAliasedBuffers(value), buffer);
  };
  if (llvm::any_of(op->getOperands(), inBuffer))
    return true;
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  // `input` itself read inside a region (e.g. tensor.extract at any index)
  // is read at other indices too.
  return llvm::any_of(above, [&](Value value) {
    return value == input || inBuffer(value);
  });
}

/// Finds an input of the linalg op `op` (at `step`) that a result may be
/// written over: the op is elementwise (parallel loops only); the init is a
/// tensor with undefined contents (`tensor.empty`, `alloc_tensor` without
/// copy) of a scratch result, and the payload does not read it; the input
/// has the result's type, the init's indexing map, which is a permutation
/// (each element read at the index written, and read by no other
/// iteration), and a dying buffer that the op reads through no other
/// operand. One result per op (the first init that finds one).
static void findLinalgWrites(linalg::LinalgOp op, int64_t step,
                             const BufferAnalysis &analysis,
                             DenseSet<const BufferInfo *> &taken,
                             SmallVectorImpl<InPlaceWrite> &writes) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Operation *def = init.get().getDefiningOp();
    auto alloc = dyn_cast_or_null<bufferization::AllocTensorOp>(def);
    if (!isa_and_nonnull<tensor::EmptyOp>(def) &&
        !(alloc && !alloc.getCopy()))
      continue;
    if (op.payloadUsesValueFromOperand(&init))
      continue;
    AffineMap initMap = op.getMatchingIndexingMap(&init);
    if (!initMap.isPermutation())
      continue;
    // A constant or persistent result keeps a buffer of its own.
    Value result = op.getTiedOpResult(&init);
    if (getTensorKind(result) != TensorKind::Scratch)
      continue;
    Type resultType = result.getType();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (value.getType() != resultType ||
          op.getMatchingIndexingMap(input) != initMap)
        continue;
      const BufferInfo *buffer =
          getDyingBuffer(analysis, value, resultType, step);
      if (!buffer || taken.contains(buffer))
        continue;
      // Every read of the input through this op must be at the index
      // written: another operand with the same value and another map reads
      // elsewhere.
      if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *other) {
            return other->get() == value &&
                   op.getMatchingIndexingMap(other) != initMap;
          }))
        continue;
      if (readsBufferOtherwise(op, value, buffer, analysis))
        continue;
      taken.insert(buffer);
      writes.push_back({op, &init, input});
      return;
    }
  }
}

/// Finds an operand of the table's op `op` (at `step`) that its one result
/// may be written over: same shape and byte size, a dying buffer, and no
/// other operand stored in it.
static void findMarkedWrite(Operation *op, int64_t step,
                            const BufferAnalysis &analysis,
                            DenseSet<const BufferInfo *> &taken,
                            SmallVectorImpl<InPlaceWrite> &writes) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      op->hasAttr(HeliaDialect::InPlaceAttrHelper::getNameStr()) ||
      !isElementwiseTflOp(op->getName().getStringRef()))
    return;
  Value result = op->getResult(0);
  if (!isTensorValue(result) || getTensorKind(result) != TensorKind::Scratch ||
      !analysis.lookup(result))
    return;
  auto resultType = cast<ShapedType>(result.getType());
  for (OpOperand &input : op->getOpOperands()) {
    Value value = input.get();
    auto type = dyn_cast<ShapedType>(value.getType());
    if (!type || !isTensorValue(value) ||
        type.getShape() != resultType.getShape() ||
        getTensorByteSize(type) != getTensorByteSize(resultType))
      continue;
    const BufferInfo *buffer =
        getDyingBuffer(analysis, value, resultType, step);
    if (!buffer || taken.contains(buffer) ||
        readsBufferOtherwise(op, value, buffer, analysis))
      continue;
    taken.insert(buffer);
    writes.push_back({op, nullptr, &input});
    return;
  }
}

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

void HeliaElementwiseInPlace::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<FunctionOpInterface> planned;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isPlannedFunction(func))
      planned.push_back(func);

  // Decisions on one analysis of each function stay valid together: a
  // result written over a dying buffer extends that buffer by the result's
  // lifetime, which starts at the step where the buffer died, so no
  // decision on a later op sees a different last reader.
  SmallVector<InPlaceWrite> writes;
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
  if (failedAny)
    return signalPassFailure();

  // Marks on ops without bufferization concern the planner alone.
  SmallVector<InPlaceWrite *> linalgWrites;
  for (InPlaceWrite &write : writes) {
    if (write.init) {
      linalgWrites.push_back(&write);
      continue;
    }
    write.op->setAttr(
        HeliaDialect::InPlaceAttrHelper::getNameStr(),
        Builder(write.op->getContext())
            .getI64IntegerAttr(write.input->getOperandNumber()));
  }
  if (linalgWrites.empty())
    return;

  // New destinations must be ones bufferization writes in place, and must
  // not make it write any other operand out of place: One-Shot Analysis
  // before and after decides. A destination it would copy is given back
  // (with every other of its function when the copy is elsewhere), until
  // no new copy remains.
  FailureOr<DenseSet<OpOperand *>> before =
      getOutOfPlaceOperands(module, planned);
  // Without an analysis to check against, no destination changes; the
  // lowering reports what bufferization cannot do.
  if (failed(before))
    return;
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
        if (!before->contains(operand)) {
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
