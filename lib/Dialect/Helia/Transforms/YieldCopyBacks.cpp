//===- YieldCopyBacks.cpp - copies back into the buffers loops carry ------===//

#include "YieldCopyBacks.h"
#include "CopyBackOrder.h"
#include "LoopStorage.h"
#include "RegionCopies.h"
#include "helia/Dialect/Helia/Analysis/BufferOwners.h"

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

namespace {
/// A yield operand stored in a buffer of the iteration (`alloc`, made by
/// copy insertion), and the iter_arg whose buffer it goes back into.
struct YieldedCopy {
  bufferization::AllocTensorOp alloc;
  OpOperand *use;
  BlockArgument iterArg;
};
} // namespace

/// Collects the yielded copies of the loops of `func`, grouped by yield,
/// and the condition copies of an `scf.while` that passes the carried value
/// to its after region through a copy (the copy back makes it unnecessary).
static void collectYieldedCopies(FunctionOpInterface func,
                                 const bufferization::AnalysisState &state,
                                 SmallVectorImpl<YieldedCopy> &yields,
                                 SmallVectorImpl<bufferization::AllocTensorOp>
                                     &conditionCopies) {
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
}

/// Drops `conditionCopies`, and the condition copies of every `scf.while`
/// around a loop of `yields`: that loop's result, stored in its carried
/// buffer from here on, is no other buffer any more (the analysis that
/// follows decides again).
static void
dropConditionCopies(ArrayRef<YieldedCopy> yields,
                    SmallVector<bufferization::AllocTensorOp> conditionCopies) {
  for (const YieldedCopy &entry : yields) {
    Operation *loop = entry.use->getOwner()->getParentOp();
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
}

/// The value a copy back reads: the copied value of a copy made for the
/// yield, else the yielded value.
static Value getSource(const YieldedCopy &entry) {
  bufferization::AllocTensorOp alloc = entry.alloc;
  return alloc.getCopy() && entry.use->get() == alloc.getResult()
             ? alloc.getCopy()
             : entry.use->get();
}

/// The copies back of one yield's `entries`, with the buffers each reads
/// (collectBufferOwners: One-Shot's aliasing, through views, destinations,
/// branches and nested loops to their inits) and writes. What One-Shot Analysis may see in each carried buffer: the
/// buffer and, where a copy back's value may be stored in it, every buffer
/// that value may be stored in (a branch yielding it beside another value
/// joins them in one alias set).
static SmallVector<CopyBack>
getCopyBacks(ArrayRef<YieldedCopy> entries,
             const bufferization::AnalysisState &state) {
  SmallVector<CopyBack> copies;
  for (const YieldedCopy &entry : entries) {
    llvm::SetVector<Value> owners;
    collectBufferOwners(getSource(entry), state, owners);
    copies.push_back({entry.use, getSource(entry), entry.iterArg,
                      entry.alloc->getLoc(),
                      SmallVector<Value>(owners.getArrayRef()),
                      {entry.iterArg}});
  }
  for (CopyBack &copy : copies)
    for (const CopyBack &other : copies)
      if (llvm::is_contained(other.reads, copy.target))
        for (Value root : other.reads)
          if (!llvm::is_contained(copy.writes, root))
            copy.writes.push_back(root);
  return copies;
}

/// Records the slot-and-copy choice of `entry`'s iter_arg, unless
/// writeYieldsIntoIterArgs recorded it already (with its own reason).
static void recordCopyBack(const YieldedCopy &entry) {
  Operation *loop = entry.use->getOwner()->getParentOp();
  unsigned index = entry.use->getOperandNumber();
  auto recorded = loop->getAttrOfType<ArrayAttr>(kCarriedAttrName);
  bool known = recorded && llvm::any_of(recorded, [&](Attribute attr) {
    auto dict = cast<DictionaryAttr>(attr);
    return dict.getAs<IntegerAttr>("iter_arg").getInt() == index &&
           dict.getAs<StringAttr>("choice").getValue() == "slot-and-copy";
  });
  if (!known)
    recordCarried(loop, index, "slot-and-copy",
                  "bufferization must write its successor out of place "
                  "(the successor is not computed into the carried "
                  "buffer)");
}

/// Makes the copies back of one yield's `entries`, in the order
/// orderCopyBacks gives them.
static void copyBack(ArrayRef<YieldedCopy> entries,
                     const bufferization::AnalysisState &state) {
  SmallVector<CopyBack> copies = getCopyBacks(entries, state);
  OpBuilder builder(entries.front().use->getOwner());
  for (unsigned i : orderCopyBacks(copies)) {
    const YieldedCopy &entry = entries[i];
    bufferization::AllocTensorOp alloc = entry.alloc;
    recordCopyBack(entry);
    // A copy made only for the yield: the copied value goes straight into
    // the carried buffer, without the copy. Otherwise the value computed in
    // the iteration's own buffer (which hoisting makes a top-level slot) is
    // copied back into the carried one.
    bool onlyForYield = alloc.getCopy() && alloc->hasOneUse() &&
                        entry.use->get() == alloc.getResult();
    Value source = onlyForYield ? alloc.getCopy() : entry.use->get();
    makeCopyBack(builder, copies[i], source);
    if ((onlyForYield || copies[i].slot) && alloc->use_empty())
      alloc.erase();
  }
}

bool mlir::helia::copyYieldsIntoIterArgs(
    FunctionOpInterface func, const bufferization::AnalysisState &state) {
  SmallVector<YieldedCopy> yields;
  SmallVector<bufferization::AllocTensorOp> conditionCopies;
  collectYieldedCopies(func, state, yields, conditionCopies);
  dropConditionCopies(yields, std::move(conditionCopies));
  // The copies back run in order before each yield (orderCopyBacks): one
  // whose value may be stored in another's carried buffer (a loop yielding
  // the old value of an iter_arg for another one, as a shift register
  // does, or a branch's result that may be one) goes before the copy that
  // overwrites it; where they read each other's buffers in a cycle (a
  // swap), one goes through a top-level slot live at the loop's step.
  for (ArrayRef<YieldedCopy> rest = yields; !rest.empty();) {
    Operation *yield = rest.front().use->getOwner();
    size_t size = llvm::find_if(rest, [&](const YieldedCopy &entry) {
                    return entry.use->getOwner() != yield;
                  }) - rest.begin();
    copyBack(rest.take_front(size), state);
    rest = rest.drop_front(size);
  }
  return !yields.empty();
}
