//===- RegionCopies.cpp - copies bufferization makes inside regions -------===//

#include "RegionCopies.h"
#include "LoopStorage.h"

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

/// The `alloc_tensor` inside `loop` whose buffer `value` is stored in
/// (following the ops that store their result in one operand's buffer), if
/// any: a buffer created in each iteration.
static bufferization::AllocTensorOp
getAllocationInLoop(Value value, Operation *loop,
                    const bufferization::AnalysisState &state) {
  // A branch's result is stored in the buffer of whichever value the taken
  // branch yields: any of them may be the iteration's allocation.
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
    for (const bufferization::AliasingOpOperand &alias :
         state.getAliasingOpOperands(result))
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

void mlir::helia::hoistRegionStorage(FunctionOpInterface func,
                                     const bufferization::AnalysisState &state) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  for (Operation &top : func.getFunctionBody().front()) {
    SmallVector<Operation *> undefined;
    SmallVector<bufferization::AllocTensorOp> copies;
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
      // A copy made for a call stays one: the lowering hands it to the
      // callee writable.
      bool isCopy = alloc && alloc.getCopy();
      if (isCopy &&
          llvm::any_of(alloc->getUsers(), llvm::IsaPred<CallOpInterface>))
        return;
      if (!isOnlyInBranches(op, &top) &&
          isCarriedAcrossIterations(op->getResult(0), &top, state))
        return;
      if (isCopy)
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

/// The values whose buffers `value` may be stored in, followed through the
/// ops that store a result in an operand's buffer (views, destinations,
/// branch results): block arguments, the results of ops that create a
/// buffer (or of calls, whose aliasing the module analysis decides).
static SmallVector<Value> getStorageRoots(Value value,
                                          const bufferization::AnalysisState &state) {
  SmallVector<Value> roots, worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!visited.insert(next).second)
      continue;
    Operation *op = next.getDefiningOp();
    if (!op || isa<CallOpInterface>(op) ||
        !state.getOptions().dynCastBufferizableOp(op)) {
      roots.push_back(next);
      continue;
    }
    bufferization::AliasingOpOperandList aliases =
        state.getAliasingOpOperands(next);
    if (aliases.getNumAliases() == 0)
      roots.push_back(next);
    for (const bufferization::AliasingOpOperand &alias : aliases)
      worklist.push_back(alias.opOperand->get());
  }
  return roots;
}

/// True when `value` may be stored in the buffer of `source`: `source` is
/// among the values followed back from `value` through the ops that store
/// a result in an operand's buffer.
static bool isStoredIn(Value value, Value source,
                       const bufferization::AnalysisState &state) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (next == source)
      return true;
    if (!visited.insert(next).second)
      continue;
    Operation *op = next.getDefiningOp();
    if (!op || isa<CallOpInterface>(op) ||
        !state.getOptions().dynCastBufferizableOp(op))
      continue;
    for (const bufferization::AliasingOpOperand &alias :
         state.getAliasingOpOperands(next))
      worklist.push_back(alias.opOperand->get());
  }
  return false;
}

/// True when `value` is a value `loop` carries from one iteration to the
/// next: an iter_arg of an `scf.for`, an argument of either region of an
/// `scf.while`.
static bool isCarriedBy(Value value, Operation *loop) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner()->getParentOp() != loop)
    return false;
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return arg != forOp.getInductionVar();
  return isa<scf::WhileOp>(loop);
}

/// Calls `fn` with each operand of a branch's yield (`scf.if`,
/// `scf.index_switch`) in a loop body, the innermost loop around the
/// branch, and the operand's storage roots, where another branch yields a
/// value stored in a buffer that a loop around the branch carries (an
/// iter_arg, or a view of one) for the same result.
static void forEachYieldedBesideCarried(
    FunctionOpInterface func, const bufferization::AnalysisState &state,
    function_ref<void(OpOperand &, Operation *, ArrayRef<Value>)> fn) {
  func.walk([&](scf::YieldOp yield) {
    Operation *branch = yield->getParentOp();
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(branch))
      return;
    auto loop = branch->getParentOfType<LoopLikeOpInterface>();
    if (!loop || !func->isProperAncestor(loop))
      return;
    for (OpOperand &operand : yield->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      unsigned index = operand.getOperandNumber();
      bool besideCarried =
          llvm::any_of(branch->getRegions(), [&](Region &region) {
            if (region.empty())
              return false;
            Operation *other = region.front().getTerminator();
            if (other == yield.getOperation() ||
                other->getNumOperands() != yield->getNumOperands())
              return false;
            return llvm::any_of(
                getStorageRoots(other->getOperand(index), state),
                [&](Value root) {
                  for (Operation *parent = branch->getParentOp();
                       parent != func.getOperation();
                       parent = parent->getParentOp())
                    if (isa<LoopLikeOpInterface>(parent) &&
                        isCarriedBy(root, parent))
                      return true;
                  return false;
                });
          });
      if (besideCarried)
        fn(operand, loop, getStorageRoots(operand.get(), state));
    }
  });
}

void mlir::helia::copyOuterValuesYieldedBesideCarried(
    FunctionOpInterface func, const bufferization::AnalysisState &state) {
  SmallVector<OpOperand *> outer;
  forEachYieldedBesideCarried(
      func, state, [&](OpOperand &operand, Operation *loop,
                       ArrayRef<Value> roots) {
        // A value stored outside the loop: defined before it (or a view of
        // such a value).
        if (llvm::any_of(roots, [&](Value root) {
              return !loop->isAncestor(root.getParentRegion()->getParentOp());
            }))
          outer.push_back(&operand);
      });
  // As in copyValuesYieldedTwice, the copy is a buffer of the branch for
  // the analysis; hoistRegionStorage gives it its top-level slot.
  for (OpOperand *operand : outer) {
    OpBuilder builder(operand->getOwner());
    operand->set(bufferization::AllocTensorOp::create(
        builder, operand->getOwner()->getParentOp()->getLoc(),
        cast<RankedTensorType>(operand->get().getType()), ValueRange(),
        operand->get()));
  }
}

void mlir::helia::allocateEmptyTensorsYieldedBesideCarried(
    FunctionOpInterface func, const bufferization::AnalysisState &state) {
  llvm::SetVector<Operation *> empties;
  forEachYieldedBesideCarried(
      func, state,
      [&](OpOperand &operand, Operation *loop, ArrayRef<Value> roots) {
        // Only a value the loop yields to its next iteration is checked
        // against the buffers outside it (a value only read in the
        // iteration is not).
        Value result = operand.getOwner()->getParentOp()->getResult(
            operand.getOperandNumber());
        bool yielded = false;
        for (Region &region : loop->getRegions())
          for (Block &block : region)
            if (block.mightHaveTerminator())
              for (Value value : block.getTerminator()->getOperands())
                yielded |= isa<TensorType>(value.getType()) &&
                           isStoredIn(value, result, state);
        if (!yielded)
          return;
        for (Value root : roots)
          if (auto empty = root.getDefiningOp<tensor::EmptyOp>())
            if (loop->isProperAncestor(empty) && empty->getNumOperands() == 0)
              empties.insert(empty);
      });
  for (Operation *empty : empties) {
    OpBuilder builder(empty);
    Value alloc = bufferization::AllocTensorOp::create(
        builder, empty->getLoc(),
        cast<RankedTensorType>(empty->getResult(0).getType()), ValueRange());
    empty->getResult(0).replaceAllUsesWith(alloc);
    empty->erase();
  }
}
