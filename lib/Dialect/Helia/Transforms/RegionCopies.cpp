//===- RegionCopies.cpp - copies of values branches in loop bodies yield --===//

#include "RegionCopies.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
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

void mlir::helia::collectStorageRoots(Value value,
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
