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
  for (bufferization::AllocTensorOp copy : conditionCopies) {
    copy.replaceAllUsesWith(copy.getCopy());
    copy.erase();
  }
  // The copies back run in order before each yield: one that reads a
  // carried value (a loop yielding its old value for another iter_arg, as
  // a shift register does) goes before the copy that overwrites it.
  llvm::DenseSet<std::pair<Operation *, Value>> targets;
  for (auto [alloc, use, iterArg] : yields)
    targets.insert({use->getOwner(), iterArg});
  llvm::SmallPtrSet<Operation *, 4> readers;
  for (auto [alloc, use, iterArg] : yields) {
    Value source = alloc.getCopy() && use->get() == alloc.getResult()
                       ? alloc.getCopy()
                       : use->get();
    if (targets.contains({use->getOwner(), source}))
      readers.insert(alloc);
  }
  std::stable_partition(yields.begin(), yields.end(), [&](auto &entry) {
    return readers.contains(std::get<0>(entry).getOperation());
  });
  for (auto [alloc, use, iterArg] : yields) {
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
      // the call is the copy's only user.
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
/// every branch of an `scf.if` or `scf.index_switch`. The roots are block
/// arguments and the results of other ops.
static void collectStorageRoots(Value value,
                                llvm::SmallSetVector<Value, 4> &roots) {
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

void mlir::helia::copyOuterValuesYieldedBesideCarried(
    FunctionOpInterface func) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  SmallVector<OpOperand *> outer;
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
      SmallVector<OpOperand *> outerHere;
      for (Operation *yield : yields) {
        llvm::SmallSetVector<Value, 4> roots;
        collectStorageRoots(yield->getOperand(index), roots);
        if (llvm::any_of(roots, [](Value root) {
              BlockArgument arg = getLoopCarriedArg(root);
              return arg && isWrittenInLoop(arg);
            }))
          carried = true;
        else if (llvm::any_of(roots, [&](Value root) {
                   return isDefinedOutside(root, loop);
                 }))
          outerHere.push_back(&yield->getOpOperand(index));
      }
      if (carried)
        llvm::append_range(outer, outerHere);
    }
  });
  for (OpOperand *operand : outer) {
    OpBuilder builder(operand->getOwner());
    operand->set(bufferization::AllocTensorOp::create(
        builder, operand->getOwner()->getParentOp()->getLoc(),
        cast<RankedTensorType>(operand->get().getType()), ValueRange(),
        operand->get()));
  }
}
