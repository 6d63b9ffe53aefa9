//===- LoopStorage.cpp - storage of loop bodies the planner can count -----===//

#include "LoopStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

/// Gives every use of `op`'s single result but the first a clone of `op`,
/// inserted right before it.
static void cloneForEachUse(Operation *op) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getUses())
    uses.push_back(&use);
  for (OpOperand *use : llvm::drop_begin(uses)) {
    OpBuilder builder(op);
    use->set(builder.clone(*op)->getResult(0));
  }
}

void mlir::helia::splitNestedEmptyTensors(FunctionOpInterface func) {
  auto isShared = [&](Operation *op) {
    return op->getParentOp() != func.getOperation() &&
           op->getNumResults() == 1 && !op->hasOneUse() && !op->use_empty();
  };
  // A fill of an empty tensor that several ops accumulate into: each gets a
  // fill of its own (into an empty of its own, split below).
  SmallVector<Operation *> shared;
  func.walk([&](linalg::FillOp fill) {
    if (isShared(fill) && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      shared.push_back(fill);
  });
  for (Operation *op : shared)
    cloneForEachUse(op);
  shared.clear();
  func.walk([&](tensor::EmptyOp empty) {
    if (isShared(empty))
      shared.push_back(empty);
  });
  for (Operation *op : shared)
    cloneForEachUse(op);
}

/// True if `use` is an input that `op` reads at the very element it writes,
/// before writing it: a parallel linalg op whose maps for that input and its
/// single output are the same permutation.
static bool isElementwiseRead(Operation *op, OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.isDpsInit(&use) || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  AffineMap output = linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  return output.isPermutation() &&
         linalgOp.getMatchingIndexingMap(&use) == output &&
         use.get().getType() == linalgOp->getResult(0).getType();
}

/// The op that writes the fresh destination `value` is computed into, if
/// the value's storage is fresh: the destination-style op that defines it,
/// through a `linalg.fill` of its init, down to a `tensor.empty`. Returns
/// the operand to rewire (the empty's use) and the first op that writes.
static std::optional<std::pair<OpOperand *, Operation *>>
getFreshDestination(Value value) {
  auto dps = value.getDefiningOp<DestinationStyleOpInterface>();
  if (!dps || dps->getNumResults() != 1)
    return std::nullopt;
  OpOperand *init = dps.getTiedOpOperand(cast<OpResult>(value));
  if (!init)
    return std::nullopt;
  // The op must not read what its destination held before.
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(dps.getOperation());
      linalgOp && !isa<linalg::FillOp>(dps.getOperation()) &&
      linalgOp.payloadUsesValueFromOperand(init)) {
    // Accumulation into a filled destination: the fill writes first.
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill->hasOneUse() ||
        !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      return std::nullopt;
    return std::make_pair(&fill.getOutputsMutable()[0], fill.getOperation());
  }
  if (!isa<linalg::LinalgOp>(dps.getOperation()) ||
      !init->get().getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  return std::make_pair(init, dps.getOperation());
}

void mlir::helia::recordCarried(Operation *loop, unsigned index,
                                StringRef choice, StringRef reason) {
  MLIRContext *context = loop->getContext();
  Builder builder(context);
  SmallVector<Attribute> entries;
  if (auto existing = loop->getAttrOfType<ArrayAttr>(kCarriedAttrName))
    for (Attribute entry : existing) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto at = dict ? dict.getAs<IntegerAttr>("iter_arg") : IntegerAttr();
      if (!at || at.getInt() != index)
        entries.push_back(entry);
    }
  entries.push_back(builder.getDictionaryAttr(
      {builder.getNamedAttr("choice", builder.getStringAttr(choice)),
       builder.getNamedAttr("iter_arg", builder.getI64IntegerAttr(index)),
       builder.getNamedAttr("reason", builder.getStringAttr(reason))}));
  llvm::sort(entries, [](Attribute a, Attribute b) {
    return cast<DictionaryAttr>(a).getAs<IntegerAttr>("iter_arg").getInt() <
           cast<DictionaryAttr>(b).getAs<IntegerAttr>("iter_arg").getInt();
  });
  loop->setAttr(kCarriedAttrName, builder.getArrayAttr(entries));
}

/// "'linalg.generic' at loc(...)": an op as a reason names it.
static std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' at ";
  op->getLoc().print(os);
  return text;
}

Operation *mlir::helia::getLoopOfYield(scf::YieldOp yield) {
  Operation *loop = yield->getParentOp();
  if (isa<scf::ForOp>(loop))
    return loop;
  auto whileOp = dyn_cast<scf::WhileOp>(loop);
  if (whileOp && yield->getParentRegion() == &whileOp.getAfter())
    return loop;
  return nullptr;
}

void mlir::helia::writeYieldsIntoIterArgs(FunctionOpInterface func,
                                          bool inPlace) {
  func.walk([&](scf::YieldOp yield) {
    Operation *loop = getLoopOfYield(yield);
    if (!loop)
      return;
    Block *body = yield->getBlock();
    for (auto [index, yielded] : llvm::enumerate(yield.getOperands())) {
      BlockArgument iterArg = getCarriedIterArg(loop, index);
      if (!iterArg || !isa<RankedTensorType>(iterArg.getType()))
        continue;
      // Yielded for one iter_arg only.
      if (llvm::count(yield.getOperands(), yielded) != 1)
        continue;
      std::optional<std::pair<OpOperand *, Operation *>> destination =
          getFreshDestination(yielded);
      if (!destination || destination->second->getBlock() != body ||
          destination->first->get().getType() != iterArg.getType())
        continue;
      Operation *firstWrite = destination->second;
      if (!inPlace) {
        recordCarried(loop, index, "slot-and-copy",
                      "carry-in-place=false");
        continue;
      }
      // The previous value is read only before the first write, and only by
      // ops that do not alias it (a view or a destination would keep it).
      Operation *lateReader = nullptr;
      bool readBefore = llvm::all_of(iterArg.getUses(), [&](OpOperand &use) {
        lateReader = use.getOwner();
        Operation *user = use.getOwner();
        if (user == yield.getOperation())
          return false;
        // The writing op itself may read the old value element for element
        // (an elementwise update, as c = f * c + i * g).
        if (user == firstWrite)
          return isElementwiseRead(user, use);
        Operation *top = body->findAncestorOpInBlock(*user);
        if (!top || !top->isBeforeInBlock(firstWrite))
          return false;
        if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
          return !dps.isDpsInit(&use);
        return isa<tensor::ExtractOp>(user);
      });
      if (!readBefore) {
        recordCarried(loop, index, "slot-and-copy",
                      "its old value is read by " + describe(lateReader) +
                          " after its successor is first written by " +
                          describe(firstWrite));
        continue;
      }
      recordCarried(loop, index, "in-place",
                    "its old value is last read before its successor is "
                    "first written by " +
                        describe(firstWrite));
      destination->first->set(iterArg);
    }
  });
}

Value mlir::helia::copyIntoTopLevelTensor(OpBuilder &builder, Location loc,
                                          Operation *top, Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  OpBuilder atTop(top);
  Value init = tensor::EmptyOp::create(atTop, loc, type.getShape(),
                                       type.getElementType(),
                                       type.getEncoding());
  return linalg::CopyOp::create(builder, loc, source, init).getResult(0);
}

/// True when `use` is the destination of a destination-style op that reads
/// what the destination held (a partial `tensor.insert_slice`, a linalg op
/// whose payload reads its init).
static bool readsDestination(OpOperand &use) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
  if (!dps || !dps.isDpsInit(&use))
    return false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner()))
    return linalgOp.payloadUsesValueFromOperand(&use);
  return true;
}

/// Makes the loops around `use` (a read of `root`, a tensor of the body's
/// top level, as a destination) carry `root`: each loop from the innermost
/// out gets an iter_arg with `root` (or the enclosing loop's new iter_arg)
/// as init, `use` reads the innermost one, and each loop yields the last
/// write of the destination chain that starts at `use`. Returns false, and
/// does nothing, unless every op between `use` and the body is an
/// `scf.for` and the chain ends in a value the loop does not yield already.
static bool carryThroughLoops(IRRewriter &rewriter, Value root,
                              OpOperand &use) {
  Operation *owner = use.getOwner();
  SmallVector<scf::ForOp> loops;
  for (Operation *parent = owner->getParentOp();
       parent != root.getParentBlock()->getParentOp();
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop)
      return false;
    loops.push_back(loop);
  }
  if (loops.empty())
    return false;
  auto dps = cast<DestinationStyleOpInterface>(owner);
  Value last = dps.getTiedOpResult(&use);
  while (last.hasOneUse()) {
    OpOperand &next = *last.use_begin();
    auto nextDps = dyn_cast<DestinationStyleOpInterface>(next.getOwner());
    if (!nextDps || !nextDps.isDpsInit(&next) ||
        next.getOwner()->getBlock() != owner->getBlock())
      break;
    last = nextDps.getTiedOpResult(&next);
  }
  if (llvm::any_of(last.getUsers(), [&](Operation *user) {
        return user == loops.front().getBody()->getTerminator();
      }))
    return false;
  Value yielded = last;
  scf::ForOp inner;
  for (scf::ForOp loop : loops) {
    rewriter.setInsertionPoint(loop);
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, ValueRange{root},
                /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>{yielded};
                });
    if (failed(replaced))
      return false;
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    BlockArgument iterArg = newLoop.getRegionIterArgs().back();
    if (inner)
      inner.getInitArgsMutable()[inner.getInitArgs().size() - 1].set(iterArg);
    else
      use.set(iterArg);
    inner = newLoop;
    yielded = newLoop->getResults().back();
  }
  return true;
}

void mlir::helia::carryReadStorageThroughLoops(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block &body = func.getFunctionBody().front();
  SmallVector<std::pair<Value, OpOperand *>> reads;
  for (Operation &op : body) {
    auto empty = dyn_cast<tensor::EmptyOp>(op);
    if (!empty)
      continue;
    for (OpOperand &use : empty->getUses())
      if (use.getOwner()->getBlock() != &body && readsDestination(use))
        reads.push_back({empty.getResult(), &use});
  }
  IRRewriter rewriter(func.getContext());
  for (auto [root, use] : reads) {
    Operation *user = use->getOwner();
    if (!user->getParentOfType<LoopLikeOpInterface>() ||
        carryThroughLoops(rewriter, root, *use))
      continue;
    // Not carried (a branch lies between the loop and the read): the read
    // goes to a fill of the buffer made where it is, which writes every
    // byte without reading any, so no iteration reads what another wrote.
    rewriter.setInsertionPoint(user);
    auto type = cast<RankedTensorType>(root.getType());
    Value zero = arith::ConstantOp::create(
        rewriter, user->getLoc(), rewriter.getZeroAttr(type.getElementType()));
    use->set(linalg::FillOp::create(rewriter, user->getLoc(), zero, root)
                 .getResult(0));
  }
}
