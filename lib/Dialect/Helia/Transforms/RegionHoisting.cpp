//===- RegionHoisting.cpp - storage of regions moved to the top level -----===//

#include "RegionHoisting.h"
#include "LoopStorage.h"
#include "RegionCopies.h"
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

/// A copy in `top`'s branches that a call and other ops use (copy insertion
/// copied the result of a view that must not alias its source, and every
/// use reads the copy). A planned callee never writes into its arguments
/// (they are read-only for its analysis): the copy is hoisted like any
/// other, and the callee reads it. A callee that may write into its
/// argument gets a copy of its own, made at the same point from the same
/// source, which that call alone uses and is handed over writable.
static void copyForWritingCalls(Operation &top) {
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
}

void mlir::helia::hoistRegionStorage(FunctionOpInterface func,
                                     const bufferization::AnalysisState &state) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  for (Operation &top : func.getFunctionBody().front()) {
    copyForWritingCalls(top);
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
