//===- YieldCopyBacks.cpp - copies back into the buffers loops carry ------===//

#include "YieldCopyBacks.h"
#include "LoopStorage.h"
#include "RegionCopies.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::helia;

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
