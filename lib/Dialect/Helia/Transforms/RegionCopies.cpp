//===- RegionCopies.cpp - copies bufferization makes inside regions -------===//

#include "RegionCopies.h"
#include "LoopStorage.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

bool mlir::helia::isOnlyInBranches(Operation *op, Operation *top) {
  for (Operation *parent = op->getParentOp(); parent != top->getParentOp();
       parent = parent->getParentOp())
    if (!isa<RegionBranchOpInterface>(parent) ||
        isa<LoopLikeOpInterface>(parent) ||
        parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return false;
  return true;
}

/// An `alloc_tensor` inside `loop` whose buffer `value` may be stored in
/// (following the ops that store their result in an operand's buffer, and
/// every branch of an `scf.if`), if any: a buffer created in each iteration.
static bufferization::AllocTensorOp
getAllocationInLoop(Value value, Operation *loop,
                    const bufferization::AnalysisState &state) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    auto result = dyn_cast<OpResult>(worklist.pop_back_val());
    if (!result || !visited.insert(result).second)
      continue;
    Operation *op = result.getOwner();
    if (!loop->isProperAncestor(op))
      continue;
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
      return alloc;
    if (isa<CallOpInterface>(op) ||
        !state.getOptions().dynCastBufferizableOp(op))
      continue;
    bufferization::AliasingOpOperandList aliases =
        state.getAliasingOpOperands(result);
    // One operand's buffer, or one of the values a branch yields.
    if (aliases.getNumAliases() != 1 && !isa<scf::IfOp>(op))
      continue;
    for (const bufferization::AliasingOpOperand &alias : aliases)
      worklist.push_back(alias.opOperand->get());
  }
  return nullptr;
}

/// The after-region argument of `loop` that its condition passes a copy
/// of before-region argument `index` to (the copy One-Shot makes when the
/// body yields a value not stored in the carried buffer), with that copy.
static std::pair<BlockArgument, bufferization::AllocTensorOp>
getCarriedThroughConditionCopy(scf::WhileOp loop, unsigned index) {
  BlockArgument before = loop.getBeforeArguments()[index];
  for (auto [operand, after] : llvm::zip(loop.getConditionOp().getArgs(),
                                         loop.getAfterArguments())) {
    auto alloc = operand.getDefiningOp<bufferization::AllocTensorOp>();
    if (alloc && alloc.getCopy() == before && alloc->hasOneUse() &&
        after.getType() == before.getType())
      return {after, alloc};
  }
  return {};
}

static void collectStorageRoots(Value value,
                                llvm::SmallSetVector<Value, 4> &roots,
                                bool throughLoops);

bool mlir::helia::copyYieldsIntoIterArgs(
    FunctionOpInterface func, const bufferization::AnalysisState &state) {
  SmallVector<std::tuple<bufferization::AllocTensorOp, OpOperand *,
                         BlockArgument>>
      yields;
  // Condition copies that the copy back into the carried buffer makes
  // unnecessary (the analysis that follows decides again).
  SmallVector<bufferization::AllocTensorOp> conditionCopies;
  func.walk([&](scf::YieldOp yield) {
    Operation *loop = yield->getParentOp();
    auto whileOp = dyn_cast<scf::WhileOp>(loop);
    if (!isa<scf::ForOp>(loop) &&
        !(whileOp && yield->getParentRegion() == &whileOp.getAfter()))
      return;
    for (OpOperand &operand : yield->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        continue;
      BlockArgument iterArg =
          getCarriedIterArg(loop, operand.getOperandNumber());
      bufferization::AllocTensorOp conditionCopy;
      if (!iterArg && whileOp)
        std::tie(iterArg, conditionCopy) = getCarriedThroughConditionCopy(
            whileOp, operand.getOperandNumber());
      if (!iterArg || iterArg.getType() != operand.get().getType())
        continue;
      if (bufferization::AllocTensorOp alloc =
              getAllocationInLoop(operand.get(), loop, state)) {
        yields.push_back({alloc, &operand, iterArg});
        if (conditionCopy)
          conditionCopies.push_back(conditionCopy);
      }
    }
  });
  // An scf.while around a loop that now copies back yields that loop's
  // result, stored in its carried buffer from here on: the copies its
  // condition got because that result was another buffer go too (the
  // analysis that follows decides again).
  for (auto &entry : yields) {
    Operation *loop = std::get<1>(entry)->getOwner()->getParentOp();
    for (auto whileOp = loop->getParentOfType<scf::WhileOp>(); whileOp;
         whileOp = whileOp->getParentOfType<scf::WhileOp>())
      for (auto [index, operand] :
           llvm::enumerate(whileOp.getConditionOp().getArgs())) {
        auto alloc = operand.getDefiningOp<bufferization::AllocTensorOp>();
        if (alloc && alloc.getCopy() == whileOp.getBeforeArguments()[index] &&
            alloc->hasOneUse() && !llvm::is_contained(conditionCopies, alloc))
          conditionCopies.push_back(alloc);
      }
  }
  for (bufferization::AllocTensorOp copy : conditionCopies) {
    copy.replaceAllUsesWith(copy.getCopy());
    copy.erase();
  }
  // The copies back run in order before each yield: one whose value may be
  // stored in another's carried buffer (a loop yielding the old value of
  // an iter_arg for another one, as a shift register does, or a branch's
  // result that may be one) goes before the copy that overwrites it. Where
  // the copies read each other's buffers in a cycle (a swap), the value of
  // one is first copied into a buffer of its own, a top-level slot live at
  // the loop's step, and copied back from there last.
  using Entry =
      std::tuple<bufferization::AllocTensorOp, OpOperand *, BlockArgument>;
  auto getSource = [](const Entry &entry) {
    auto [alloc, use, iterArg] = entry;
    return alloc.getCopy() && use->get() == alloc.getResult() ? alloc.getCopy()
                                                              : use->get();
  };
  SmallVector<Entry> ordered;
  DenseMap<Operation *, Value> saved;
  {
    SmallVector<Entry> pending(yields.begin(), yields.end());
    SmallVector<llvm::SmallSetVector<Value, 4>> roots(pending.size());
    for (auto [entry, entryRoots] : llvm::zip(pending, roots))
      collectStorageRoots(getSource(entry), entryRoots,
                          /*throughLoops=*/true);
    // What One-Shot Analysis may see in each carried buffer: the buffer
    // and, where a copy back's value may be stored in it, every buffer that
    // value may be stored in (a branch yielding it beside another value
    // joins them in one alias set).
    SmallVector<llvm::SmallSetVector<Value, 4>> targets(pending.size());
    for (auto [j, entry] : llvm::enumerate(pending)) {
      targets[j].insert(std::get<2>(entry));
      for (auto [k, other] : llvm::enumerate(pending))
        if (std::get<1>(other)->getOwner() == std::get<1>(entry)->getOwner() &&
            roots[k].contains(std::get<2>(entry)))
          targets[j].insert(roots[k].begin(), roots[k].end());
    }
    SmallVector<bool> done(pending.size(), false), isSaved(pending.size(),
                                                           false);
    // True when pending copy `i` reads the buffer that copy `j` writes.
    auto reads = [&](unsigned i, unsigned j) {
      return i != j && !done[i] && !isSaved[i] &&
             std::get<1>(pending[i])->getOwner() ==
                 std::get<1>(pending[j])->getOwner() &&
             llvm::any_of(roots[i], [&](Value root) {
               return targets[j].contains(root);
             });
    };
    for (unsigned left = pending.size(); left > 0;) {
      std::optional<unsigned> next;
      for (unsigned j = 0, e = pending.size(); j < e && !next; ++j)
        if (!done[j] && llvm::none_of(llvm::seq(e), [&](unsigned i) {
              return reads(i, j);
            }))
          next = j;
      if (!next) {
        // A cycle: the first copy left keeps its value in a slot of its own.
        unsigned k = *llvm::find_if(llvm::seq<unsigned>(0, pending.size()),
                                    [&](unsigned i) { return !done[i]; });
        auto [alloc, use, iterArg] = pending[k];
        Operation *yield = use->getOwner();
        Operation *top = yield->getParentOfType<FunctionOpInterface>()
                             .getFunctionBody()
                             .front()
                             .findAncestorOpInBlock(*yield);
        OpBuilder builder(yield);
        saved[alloc] = copyIntoTopLevelTensor(builder, alloc.getLoc(), top,
                                              getSource(pending[k]));
        isSaved[k] = true;
        continue;
      }
      done[*next] = true;
      --left;
      ordered.push_back(pending[*next]);
    }
  }
  for (auto [alloc, use, iterArg] : ordered) {
    Operation *yield = use->getOwner();
    Operation *loop = yield->getParentOp();
    OpBuilder builder(yield);
    unsigned index = use->getOperandNumber();
    // The reason writeYieldsIntoIterArgs found, or the analysis' own.
    auto recorded = loop->getAttrOfType<ArrayAttr>(kCarriedAttrName);
    bool known = recorded && llvm::any_of(recorded, [&](Attribute entry) {
      auto dict = cast<DictionaryAttr>(entry);
      return dict.getAs<IntegerAttr>("iter_arg").getInt() == index &&
             dict.getAs<StringAttr>("choice").getValue() == "slot-and-copy";
    });
    if (!known)
      recordCarried(loop, index, "slot-and-copy",
                    "bufferization must write its successor out of place "
                    "(the successor is not computed into the carried "
                    "buffer)");
    if (Value value = saved.lookup(alloc)) {
      use->set(linalg::CopyOp::create(builder, alloc.getLoc(), value, iterArg)
                   .getResult(0));
      if (alloc->use_empty())
        alloc.erase();
      continue;
    }
    // A copy made only for the yield: the copied value goes straight into
    // the carried buffer, without the copy. Otherwise the value computed in
    // the iteration's own buffer (which hoisting makes a top-level slot) is
    // copied back into the carried one.
    if (alloc.getCopy() && alloc->hasOneUse() &&
        use->get() == alloc.getResult()) {
      use->set(linalg::CopyOp::create(builder, alloc.getLoc(), alloc.getCopy(),
                                      iterArg)
                   .getResult(0));
      alloc.erase();
      continue;
    }
    use->set(linalg::CopyOp::create(builder, alloc.getLoc(), use->get(),
                                    iterArg)
                 .getResult(0));
  }
  return !yields.empty();
}

/// True when the buffer of `value`, created inside `top` (an op of a
/// function body), may hold a value beyond one run of the regions around
/// it: a loop between `value` and the body yields it (or a value stored in
/// it) to its next iteration. Follows the values each use stores its
/// operand in (`state`), through branches' yields and the loops that
/// receive it as an init.
static bool isCarriedAcrossIterations(Value value, Operation *top,
                                      const bufferization::AnalysisState &state) {
  Operation *def = value.getDefiningOp();
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!visited.insert(next).second)
      continue;
    for (OpOperand &use : next.getUses()) {
      Operation *user = use.getOwner();
      // An scf.while's condition passes the value to the after region (in
      // the same iteration) and, when the loop ends, to the loop's result.
      if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        if (use.getOperandNumber() == 0)
          continue;
        auto loop = cast<scf::WhileOp>(condition->getParentOp());
        unsigned index = use.getOperandNumber() - 1;
        worklist.push_back(loop.getAfterArguments()[index]);
        worklist.push_back(loop->getResult(index));
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        Operation *parent = user->getParentOp();
        if (parent == top->getParentOp())
          return true;
        if (isa<LoopLikeOpInterface>(parent) && parent->isProperAncestor(def))
          return true;
        // A branch's yield, or the yield of a loop inside the region that
        // received the value as an init: the parent's result.
        if (isa<RegionBranchOpInterface>(parent) &&
            parent->getNumResults() == user->getNumOperands())
          worklist.push_back(parent->getResult(use.getOperandNumber()));
        else
          return true;
        continue;
      }
      // A call's results are copied by its caller (helia's convention).
      if (isa<CallOpInterface>(user))
        continue;
      if (auto loop = dyn_cast<LoopLikeOpInterface>(user))
        if (BlockArgument iterArg = loop.getTiedLoopRegionIterArg(&use))
          worklist.push_back(iterArg);
      if (!state.getOptions().dynCastBufferizableOp(user)) {
        if (user->getNumResults() != 0)
          return true;
        continue;
      }
      for (const bufferization::AliasingValue &alias :
           state.getAliasingValues(use))
        worklist.push_back(alias.value);
    }
  }
  return false;
}

/// False when `call` calls a planned function, whose arguments are
/// read-only (helia-insert-tensor-copies gives every write into one an
/// explicit copy in the callee).
static bool mayWriteIntoArguments(CallOpInterface call) {
  auto callee =
      dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  return !callee || !isPlannedFunction(callee);
}

void mlir::helia::hoistRegionStorage(FunctionOpInterface func,
                                     const bufferization::AnalysisState &state) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  for (Operation &top : func.getFunctionBody().front()) {
    // A copy that a call and other ops use (copy insertion copied the
    // result of a view that must not alias its source, and every use reads
    // the copy). A planned callee never writes into its arguments (they are
    // read-only for its analysis): the copy is hoisted like any other, and
    // the callee reads it. A callee that may write into its argument gets a
    // copy of its own, made at the same point from the same source, which
    // that call alone uses and is handed over writable.
    SmallVector<OpOperand *> writingCallUses;
    top.walk([&](bufferization::AllocTensorOp alloc) {
      if (!alloc.getCopy() || alloc->hasOneUse() ||
          !isOnlyInBranches(alloc, &top))
        return;
      for (OpOperand &use : alloc->getUses())
        if (isa<CallOpInterface>(use.getOwner()) &&
            mayWriteIntoArguments(cast<CallOpInterface>(use.getOwner())))
          writingCallUses.push_back(&use);
    });
    for (OpOperand *use : writingCallUses) {
      auto alloc = cast<bufferization::AllocTensorOp>(use->get().getDefiningOp());
      if (alloc->hasOneUse())
        continue;
      OpBuilder builder(alloc);
      use->set(builder.clone(*alloc)->getResult(0));
    }
    SmallVector<Operation *> undefined;
    SmallVector<bufferization::AllocTensorOp> copies, callCopies;
    top.walk([&](Operation *op) {
      if (op == &top || op->getNumResults() != 1)
        return;
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!type || !type.hasStaticShape())
        return;
      auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
      if (!isa<tensor::EmptyOp>(op) &&
          (!alloc || alloc.getSizeHint() || alloc.getMemorySpace()))
        return;
      bool isCopy = alloc && alloc.getCopy();
      if (!isOnlyInBranches(op, &top) &&
          isCarriedAcrossIterations(op->getResult(0), &top, state))
        return;
      // A copy made for a call (the callee writes into its argument) is
      // handed to the callee writable: it becomes a copy into a top-level
      // `alloc_tensor()`, whose slot the lowering hands over writable when
      // the call is the copy's only user. A copy that other ops use too
      // (a loop's init beside the call) moves like any other copy: its
      // top-level slot holds what the copy's buffer held, in every
      // iteration.
      if (isCopy && alloc->hasOneUse() &&
          isa<CallOpInterface>(*alloc->getUsers().begin()))
        callCopies.push_back(alloc);
      else if (isCopy && llvm::any_of(alloc->getUsers(), [](Operation *user) {
                 auto call = dyn_cast<CallOpInterface>(user);
                 return call && mayWriteIntoArguments(call);
               }))
        return;
      else if (isCopy)
        copies.push_back(alloc);
      else
        undefined.push_back(op);
    });
    for (Operation *op : undefined)
      op->moveBefore(&top);
    for (bufferization::AllocTensorOp alloc : copies) {
      OpBuilder builder(alloc);
      alloc.replaceAllUsesWith(copyIntoTopLevelTensor(
          builder, alloc.getLoc(), &top, alloc.getCopy()));
      alloc.erase();
    }
    for (bufferization::AllocTensorOp alloc : callCopies) {
      OpBuilder atTop(&top);
      Value slot = bufferization::AllocTensorOp::create(
          atTop, alloc.getLoc(), alloc.getType(), ValueRange());
      OpBuilder builder(alloc);
      alloc.replaceAllUsesWith(
          linalg::CopyOp::create(builder, alloc.getLoc(), alloc.getCopy(), slot)
              .getResult(0));
      alloc.erase();
    }
  }
}

void mlir::helia::sinkHoistedStorage(FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block &body = func.getFunctionBody().front();
  SmallVector<std::pair<Operation *, Operation *>> moves;
  for (Operation &op : body) {
    if (!isa<tensor::EmptyOp>(op) || op.getNumOperands() != 0 ||
        op.use_empty())
      continue;
    Operation *top = nullptr;
    bool nested = llvm::all_of(op.getUsers(), [&](Operation *user) {
      Operation *ancestor = body.findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == user || (top && ancestor != top))
        return false;
      top = ancestor;
      return true;
    });
    if (nested && top->getPrevNode() != &op)
      moves.push_back({&op, top});
  }
  for (auto [op, top] : moves)
    op->moveBefore(top);
}

void mlir::helia::copyValuesYieldedTwice(FunctionOpInterface func) {
  SmallVector<std::pair<OpOperand *, Operation *>> twice;
  func.walk([&](scf::YieldOp yield) {
    Operation *parent = yield->getParentOp();
    // At the top level, the copies that the joined set makes One-Shot
    // insert are planned like any other; in a loop body they are carried.
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(parent) ||
        !parent->getParentOfType<LoopLikeOpInterface>())
      return;
    for (OpOperand &operand : yield->getOpOperands()) {
      unsigned index = operand.getOperandNumber();
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      auto first = llvm::find(yield->getOperands(), operand.get());
      unsigned firstIndex = std::distance(yield->operand_begin(), first);
      if (firstIndex == index)
        continue;
      // Another branch yields two different values: the results are two
      // buffers there.
      bool differ = llvm::any_of(parent->getRegions(), [&](Region &region) {
        if (region.empty())
          return false;
        Operation *other = region.front().getTerminator();
        return other != yield.getOperation() &&
               other->getNumOperands() == yield->getNumOperands() &&
               other->getOperand(firstIndex) != other->getOperand(index);
      });
      if (differ)
        twice.push_back({&operand, parent});
    }
  });
  // The copy is a buffer of the branch for the analysis (a top-level
  // destination would be a value from outside the loop in the iter_arg's
  // alias set, and the loop would copy what it yields); hoistRegionStorage
  // gives it its top-level slot afterwards.
  for (auto [operand, parent] : twice) {
    OpBuilder builder(operand->getOwner());
    operand->set(bufferization::AllocTensorOp::create(
        builder, parent->getLoc(),
        cast<RankedTensorType>(operand->get().getType()), ValueRange(),
        operand->get()));
  }
}

/// The values whose buffers `value` may be stored in, as far as the ops of a
/// loop body show: through views, the inits of destination-style ops, and
/// every branch of an `scf.if` or `scf.index_switch`, and with
/// `throughLoops` from a nested loop's result to its init. The roots are
/// block arguments and the results of other ops.
static void collectStorageRoots(Value value,
                                llvm::SmallSetVector<Value, 4> &roots,
                                bool throughLoops) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!visited.insert(next).second)
      continue;
    auto result = dyn_cast<OpResult>(next);
    if (!result) {
      roots.insert(next);
      continue;
    }
    Operation *op = result.getOwner();
    if (isa<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::CastOp>(op)) {
      worklist.push_back(op->getOperand(0));
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      worklist.push_back(dps.getTiedOpOperand(result)->get());
      continue;
    }
    // A nested loop's result is stored in its init's buffer (an scf.while
    // that passes on what it carries).
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && throughLoops) {
      worklist.push_back(loop.getTiedLoopInit(result)->get());
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op);
        loop && throughLoops &&
        loop.getInits().size() == loop->getNumResults() &&
        loop.getInits()[result.getResultNumber()].getType() ==
            result.getType()) {
      worklist.push_back(loop.getInits()[result.getResultNumber()]);
      continue;
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      for (Region &region : op->getRegions())
        if (!region.empty())
          worklist.push_back(region.front().getTerminator()->getOperand(
              result.getResultNumber()));
      continue;
    }
    roots.insert(next);
  }
}

/// True when `value` (a root of collectStorageRoots) is storage defined
/// outside `loop`: an argument of the function (helia's analysis marks them
/// read-only), a constant, a value of the body around the loop, an iter_arg
/// of a loop around it, or storage hoisted out of the loop's regions (one
/// buffer for every iteration).
static bool isDefinedOutside(Value value, Operation *loop) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return !loop->isAncestor(arg.getOwner()->getParentOp());
  return !loop->isProperAncestor(value.getDefiningOp());
}

/// The iter_arg (an `scf.for` region argument or an argument of either
/// region of an `scf.while`) that `value` is, or null.
static BlockArgument getLoopCarriedArg(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !isa<RankedTensorType>(arg.getType()))
    return nullptr;
  Operation *parent = arg.getOwner()->getParentOp();
  if (isa<scf::WhileOp>(parent))
    return arg;
  if (auto loop = dyn_cast<LoopLikeOpInterface>(parent))
    if (loop.getTiedLoopInit(arg))
      return arg;
  return nullptr;
}

/// True when an op of the loop around `iterArg` writes into its buffer: a
/// destination-style op takes it (or a view of it, or an op's result stored
/// in it) as an init, or a nested loop carries it.
static bool isWrittenInLoop(BlockArgument iterArg) {
  SmallVector<Value> worklist{iterArg};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!visited.insert(next).second)
      continue;
    for (OpOperand &use : next.getUses()) {
      Operation *user = use.getOwner();
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
        if (dps.isDpsInit(&use))
          return true;
      if (isa<tensor::InsertSliceOp, tensor::InsertOp>(user) &&
          use.getOperandNumber() == 1)
        return true;
      if (auto loop = dyn_cast<LoopLikeOpInterface>(user))
        if (loop.getTiedLoopRegionIterArg(&use))
          return true;
      if (isa<scf::WhileOp>(user))
        return true;
      if (isa<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp, tensor::CastOp>(user))
        worklist.push_back(user->getResult(0));
      // A value an scf.while's condition passes on is the after region's.
      if (auto condition = dyn_cast<scf::ConditionOp>(user))
        if (use.getOperandNumber() > 0)
          worklist.push_back(
              cast<scf::WhileOp>(condition->getParentOp())
                  .getAfterArguments()[use.getOperandNumber() - 1]);
    }
  }
  return false;
}

/// Calls `fn` with each yield operand of a branch (`scf.if`,
/// `scf.index_switch`) in a loop body whose result another region of the
/// branch yields a value for that is stored in a loop's carried buffer
/// (an iter_arg the loop writes into), with the loop and the operand's
/// storage roots (collectStorageRoots, `throughLoops`). Every call comes
/// after the walk.
static void forEachYieldedBesideCarried(
    FunctionOpInterface func, bool throughLoops,
    function_ref<void(Operation *, OpOperand &, ArrayRef<Value>)> fn) {
  SmallVector<std::tuple<Operation *, OpOperand *, SmallVector<Value>>> found;
  func.walk([&](Operation *branch) {
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(branch))
      return;
    Operation *loop = branch->getParentOfType<LoopLikeOpInterface>();
    if (!loop)
      return;
    SmallVector<Operation *> yields;
    for (Region &region : branch->getRegions())
      if (!region.empty())
        yields.push_back(region.front().getTerminator());
    for (OpResult result : branch->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !type.hasStaticShape())
        continue;
      unsigned index = result.getResultNumber();
      bool carried = false;
      SmallVector<std::pair<OpOperand *, SmallVector<Value>>> others;
      for (Operation *yield : yields) {
        llvm::SmallSetVector<Value, 4> roots;
        collectStorageRoots(yield->getOperand(index), roots, throughLoops);
        if (llvm::any_of(roots, [](Value root) {
              BlockArgument arg = getLoopCarriedArg(root);
              return arg && isWrittenInLoop(arg);
            }))
          carried = true;
        else
          others.push_back({&yield->getOpOperand(index),
                            SmallVector<Value>(roots.getArrayRef())});
      }
      if (carried)
        for (auto &[operand, roots] : others)
          found.push_back({loop, operand, std::move(roots)});
    }
  });
  for (auto &[loop, operand, roots] : found)
    fn(loop, *operand, roots);
}

void mlir::helia::copyOuterValuesYieldedBesideCarried(
    FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  SmallVector<OpOperand *> outer;
  // An inner loop's result whose init is an outer value gets its copy
  // from the analysis (of the init), not here.
  forEachYieldedBesideCarried(
      func, /*throughLoops=*/false,
      [&](Operation *loop, OpOperand &operand, ArrayRef<Value> roots) {
        if (llvm::any_of(roots, [&](Value root) {
              return isDefinedOutside(root, loop);
            }))
          outer.push_back(&operand);
      });
  for (OpOperand *operand : outer) {
    OpBuilder builder(operand->getOwner());
    operand->set(bufferization::AllocTensorOp::create(
        builder, operand->getOwner()->getParentOp()->getLoc(),
        cast<RankedTensorType>(operand->get().getType()), ValueRange(),
        operand->get()));
  }
}

void mlir::helia::allocateFreshValuesYieldedBesideCarried(
    FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  llvm::SetVector<Operation *> empties;
  // A branch yielding an inner loop's result yields the value that loop
  // carries: its init's buffer.
  forEachYieldedBesideCarried(
      func, /*throughLoops=*/true,
      [&](Operation *loop, OpOperand &, ArrayRef<Value> roots) {
        for (Value root : roots)
          if (auto empty = root.getDefiningOp<tensor::EmptyOp>();
              empty && empty->getNumOperands() == 0 &&
              empty.getType().hasStaticShape() && loop->isAncestor(empty))
            empties.insert(empty);
      });
  for (Operation *empty : empties) {
    OpBuilder builder(empty);
    Value alloc = bufferization::AllocTensorOp::create(
        builder, empty->getLoc(),
        cast<RankedTensorType>(empty->getResult(0).getType()), ValueRange());
    empty->replaceAllUsesWith(ValueRange{alloc});
    empty->erase();
  }
}
