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

/// The op in `block` that contains `op` (or `op` itself).
static Operation *getAncestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
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

/// The loop whose body `yield` ends (an `scf.for`, or the after region of an
/// `scf.while`), or null.
static Operation *getLoopOfYield(scf::YieldOp yield) {
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
        Operation *top = getAncestorIn(body, user);
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

/// True when `value`, a value of `body`, is stored in the buffer of
/// `iterArg` (or of another value of `body`): it is `iterArg`, or the result
/// of destination-style ops (and loops) of `body` whose destinations (inits)
/// lead back to it.
static bool isWrittenInto(Value value, Value iterArg, Block *body) {
  while (value != iterArg) {
    auto result = dyn_cast<OpResult>(value);
    if (!result || result.getOwner()->getBlock() != body)
      return false;
    Operation *op = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      value = dps.getTiedOpOperand(result)->get();
      continue;
    }
    auto loop = dyn_cast<LoopLikeOpInterface>(op);
    OpOperand *init = loop ? loop.getTiedLoopInit(result) : nullptr;
    if (!init)
      return false;
    value = init->get();
  }
  return true;
}

/// The first op of `body` (or the op of `body` around it) that writes into
/// the buffer of `iterArg`: a destination-style op or a loop that takes it
/// as its destination (init). Null when the body never writes into it.
static Operation *getFirstWrite(BlockArgument iterArg, Block *body) {
  Operation *first = nullptr;
  for (OpOperand &use : iterArg.getUses()) {
    Operation *user = use.getOwner();
    auto dps = dyn_cast<DestinationStyleOpInterface>(user);
    auto loop = dyn_cast<LoopLikeOpInterface>(user);
    if (!(dps && dps.isDpsInit(&use)) &&
        !(loop && loop.getTiedLoopRegionIterArg(&use)))
      continue;
    Operation *top = getAncestorIn(body, user);
    if (top && (!first || top->isBeforeInBlock(first)))
      first = top;
  }
  return first;
}

/// True when every use of `value`, a value of `body`, reads it in an op of
/// `body` before `before` without keeping it (an input of a
/// destination-style op, an extract, or a view whose uses do the same).
static bool isOnlyReadBefore(Value value, Operation *before, Block *body) {
  return llvm::all_of(value.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    Operation *top = getAncestorIn(body, user);
    if (!top || top == before || !top->isBeforeInBlock(before))
      return false;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
            tensor::ExtractSliceOp, tensor::CastOp>(user))
      return isOnlyReadBefore(user->getResult(0), before, body);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
      return !dps.isDpsInit(&use);
    return isa<tensor::ExtractOp>(user);
  });
}

void mlir::helia::copyCarriedIntoOtherIterArgs(FunctionOpInterface func) {
  struct Shift {
    Operation *loop;
    OpOperand *yielded;
    BlockArgument from, into;
    unsigned fromIndex;
    Operation *before;
  };
  SmallVector<Shift> shifts;
  func.walk([&](scf::YieldOp yield) {
    Operation *loop = getLoopOfYield(yield);
    if (!loop)
      return;
    Block *body = yield->getBlock();
    for (OpOperand &operand : yield->getOpOperands()) {
      BlockArgument into = getCarriedIterArg(loop, operand.getOperandNumber());
      auto from = dyn_cast<BlockArgument>(operand.get());
      if (!into || !from || from == into || from.getOwner() != body ||
          !isa<RankedTensorType>(into.getType()) ||
          from.getType() != into.getType())
        continue;
      std::optional<unsigned> fromIndex;
      for (unsigned i = 0, e = yield->getNumOperands(); i < e; ++i)
        if (getCarriedIterArg(loop, i) == from)
          fromIndex = i;
      if (!fromIndex)
        continue;
      // The old value of `from` goes to `into`'s buffer before anything
      // writes into `from`'s, and after the last read of `into`'s old value.
      Operation *before = getFirstWrite(from, body);
      if (!before)
        before = yield.getOperation();
      bool readBefore = isOnlyReadBefore(into, before, body);
      if (readBefore)
        shifts.push_back({loop, &operand, from, into, *fromIndex, before});
    }
  });
  for (const Shift &shift : shifts) {
    OpBuilder builder(shift.before);
    shift.yielded->set(linalg::CopyOp::create(builder, shift.loop->getLoc(),
                                              shift.from, shift.into)
                           .getResult(0));
    std::string from = std::to_string(shift.fromIndex);
    recordCarried(shift.loop, shift.yielded->getOperandNumber(),
                  "slot-and-copy",
                  "it carries the old value of iter_arg #" + from +
                      ", which is copied into its slot before the loop "
                      "writes the successor of iter_arg #" + from +
                      " over it");
  }
}

void mlir::helia::copyCarriedCycles(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block *funcBody = &func.getFunctionBody().front();
  SmallVector<scf::YieldOp> yields;
  func.walk([&](scf::YieldOp yield) {
    if (getLoopOfYield(yield))
      yields.push_back(yield);
  });
  for (scf::YieldOp yield : yields) {
    Operation *loop = getLoopOfYield(yield);
    Block *body = yield->getBlock();
    Operation *top = funcBody->findAncestorOpInBlock(*loop);
    if (!top)
      continue;
    unsigned numOperands = yield->getNumOperands();
    // from[i]: the iter_arg whose old value operand i passes on, when it is
    // another tensor iter_arg of the loop, yielded once and only read.
    SmallVector<std::optional<unsigned>> from(numOperands);
    for (unsigned i = 0; i < numOperands; ++i) {
      BlockArgument into = getCarriedIterArg(loop, i);
      auto arg = dyn_cast<BlockArgument>(yield->getOperand(i));
      if (!into || !arg || arg == into || arg.getOwner() != body ||
          !isa<RankedTensorType>(into.getType()) ||
          arg.getType() != into.getType() ||
          llvm::count(yield->getOperands(), Value(arg)) != 1)
        continue;
      for (unsigned j = 0; j < numOperands; ++j)
        if (j != i && getCarriedIterArg(loop, j) == arg)
          from[i] = j;
    }
    auto isOnlyRead = [&](unsigned index) {
      BlockArgument arg = getCarriedIterArg(loop, index);
      return llvm::all_of(arg.getUses(), [&](OpOperand &use) {
        if (use.getOwner() == yield.getOperation())
          return true;
        Operation *user = use.getOwner();
        if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
                tensor::ExtractSliceOp, tensor::CastOp>(user))
          return isOnlyReadBefore(user->getResult(0), yield, body);
        if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
          return !dps.isDpsInit(&use);
        return isa<tensor::ExtractOp>(user);
      });
    };
    SmallVector<bool> done(numOperands, false);
    for (unsigned start = 0; start < numOperands; ++start) {
      if (done[start] || !from[start])
        continue;
      // Follow i <- from[i] until it returns to `start` (a cycle) or ends.
      SmallVector<unsigned> cycle;
      unsigned at = start;
      while (from[at] && !done[at] && !llvm::is_contained(cycle, at)) {
        cycle.push_back(at);
        at = *from[at];
      }
      for (unsigned index : cycle)
        done[index] = true;
      if (at != start || cycle.size() < 2 ||
          !llvm::all_of(cycle, isOnlyRead))
        continue;
      OpBuilder builder(yield);
      Location loc = loop->getLoc();
      Value saved = copyIntoTopLevelTensor(
          builder, loc, top, getCarriedIterArg(loop, cycle.front()));
      SmallVector<Value> results;
      for (auto [k, index] : llvm::enumerate(cycle)) {
        Value source = k + 1 < cycle.size()
                           ? Value(getCarriedIterArg(loop, *from[index]))
                           : saved;
        results.push_back(linalg::CopyOp::create(builder, loc, source,
                                                 getCarriedIterArg(loop, index))
                              .getResult(0));
      }
      for (auto [index, result] : llvm::zip(cycle, results)) {
        yield->setOperand(index, result);
        std::string other = std::to_string(*from[index]);
        recordCarried(loop, index, "slot-and-copy",
                      "it carries the old value of iter_arg #" + other +
                          " in a cycle of " + std::to_string(cycle.size()) +
                          " iter_args, each copied into the next one's "
                          "slot, the first through a slot of its own");
      }
    }
  }
}

void mlir::helia::copyWhileYieldsIntoCarriedArgs(FunctionOpInterface func) {
  struct YieldCopies {
    scf::YieldOp yield;
    SmallVector<std::pair<OpOperand *, BlockArgument>> copies;
    /// An scf.for gets only the copies where a value is defined; the
    /// copies at its yield come after the analysis (copyYieldsIntoIterArgs).
    bool isFor;
  };
  SmallVector<YieldCopies> loops;
  func.walk([&](Operation *loop) {
    auto forOp = dyn_cast<scf::ForOp>(loop);
    auto whileOp = dyn_cast<scf::WhileOp>(loop);
    if (!forOp && !whileOp)
      return;
    Block *body = forOp ? forOp.getBody() : whileOp.getAfterBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    YieldCopies entry{yield, {}, static_cast<bool>(forOp)};
    for (OpOperand &operand : yield->getOpOperands()) {
      BlockArgument iterArg =
          getCarriedIterArg(loop, operand.getOperandNumber());
      if (!iterArg || !isa<RankedTensorType>(iterArg.getType()) ||
          isWrittenInto(operand.get(), iterArg, body))
        continue;
      // Another operand that stays in that buffer (it is, or is written
      // into, its own carried buffer too) needs its old value at the yield.
      if (llvm::any_of(yield->getOpOperands(), [&](OpOperand &other) {
            if (&other == &operand ||
                !isWrittenInto(other.get(), iterArg, body))
              return false;
            BlockArgument own =
                getCarriedIterArg(loop, other.getOperandNumber());
            return own && isWrittenInto(other.get(), own, body);
          }))
        continue;
      entry.copies.push_back({&operand, iterArg});
    }
    if (!entry.copies.empty())
      loops.push_back(std::move(entry));
  });
  for (YieldCopies &entry : loops) {
    OpBuilder builder(entry.yield);
    Location loc = entry.yield.getLoc();
    Block *body = entry.yield->getBlock();
    // A value of the body that an op of the body overwrites afterwards (an
    // after-region argument that is then updated in place for the next
    // iteration, as a shift register does) is copied where it is defined:
    // straight into its carried buffer when nothing in the body uses that
    // buffer, else into a buffer of its own.
    for (auto &[operand, iterArg] : entry.copies) {
      Value source = operand->get();
      if (source.getParentBlock() != body ||
          llvm::none_of(body->getOperations(), [&](Operation &op) {
            return llvm::any_of(op.getResults(), [&](Value result) {
              return result != source &&
                     isWrittenInto(result, source, body);
            });
          }))
        continue;
      if (entry.isFor && !iterArg.use_empty())
        continue;
      OpBuilder atDef(body, body->begin());
      if (Operation *def = source.getDefiningOp())
        atDef.setInsertionPointAfter(def);
      auto type = cast<RankedTensorType>(source.getType());
      Value init = iterArg;
      if (!iterArg.use_empty())
        init = tensor::EmptyOp::create(atDef, loc, type.getShape(),
                                       type.getElementType(),
                                       type.getEncoding());
      Value copy =
          linalg::CopyOp::create(atDef, loc, source, init).getResult(0);
      operand->set(copy);
      // Copied into its carried buffer already: nothing left at the yield.
      if (init == iterArg)
        operand = nullptr;
    }
    llvm::erase_if(entry.copies,
                   [](auto &copy) { return copy.first == nullptr; });
    // An scf.for whose carried values trade places (a swap) gets its
    // copies here too: after the analysis they would form a cycle.
    if (entry.isFor &&
        llvm::none_of(entry.copies, [&](auto &copy) {
          return llvm::any_of(entry.copies, [&](auto &other) {
            return &other != &copy &&
                   isWrittenInto(copy.first->get(), other.second, body);
          });
        }))
      continue;
    // The copies run in order; a value stored in a carried buffer that an
    // earlier copy overwrites (two carried values swapped) is copied first
    // into a buffer of its own, which the hoisting makes a top-level slot
    // live for the loop's step.
    SmallVector<Value> sources;
    for (auto [i, copy] : llvm::enumerate(entry.copies)) {
      Value source = copy.first->get();
      bool overwritten = llvm::any_of(
          ArrayRef(entry.copies).take_front(i), [&](auto &earlier) {
            return isWrittenInto(source, earlier.second, body);
          });
      if (overwritten) {
        auto type = cast<RankedTensorType>(source.getType());
        Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                             type.getElementType(),
                                             type.getEncoding());
        source = linalg::CopyOp::create(builder, loc, source, init)
                     .getResult(0);
      }
      sources.push_back(source);
    }
    for (auto [copy, source] : llvm::zip(entry.copies, sources))
      copy.first->set(
          linalg::CopyOp::create(builder, loc, source, copy.second)
              .getResult(0));
  }
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
