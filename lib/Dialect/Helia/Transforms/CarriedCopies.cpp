//===- CarriedCopies.cpp - copies between the buffers a loop carries ------===//

#include "CarriedCopies.h"
#include "CopyBackOrder.h"
#include "LoopStorage.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

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
    Operation *top = body->findAncestorOpInBlock(*user);
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
    Operation *top = body->findAncestorOpInBlock(*user);
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

/// For each operand of `yield`, the operand whose iter_arg's old value it
/// passes on, when that is another tensor iter_arg of `loop` (`yield b, a`
/// for `(a, b)`), yielded once.
static SmallVector<std::optional<unsigned>> getPassedOn(Operation *loop,
                                                        scf::YieldOp yield) {
  Block *body = yield->getBlock();
  unsigned numOperands = yield->getNumOperands();
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
  return from;
}

/// True when the body that `yield` ends only reads iter_arg `index` of
/// `loop` (besides passing it on): an input of a destination-style op, an
/// extract, or a view whose uses do the same.
static bool isOnlyRead(Operation *loop, scf::YieldOp yield, unsigned index) {
  Block *body = yield->getBlock();
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
}

/// The cycles of `from` (getPassedOn): each lists operands `c0, c1, ...`
/// where `c0` passes on the old value of `c1`'s iter_arg, and the last
/// member that of `c0`'s.
static SmallVector<SmallVector<unsigned>>
getCycles(ArrayRef<std::optional<unsigned>> from) {
  SmallVector<SmallVector<unsigned>> cycles;
  SmallVector<bool> done(from.size(), false);
  for (unsigned start = 0, e = from.size(); start < e; ++start) {
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
    if (at == start && cycle.size() >= 2)
      cycles.push_back(std::move(cycle));
  }
  return cycles;
}

/// Copies the old values of `cycle` (getCycles) into the buffers they are
/// yielded for, right before `yield` (orderCopyBacks breaks the cycle).
static void copyCycle(Operation *loop, scf::YieldOp yield,
                      ArrayRef<unsigned> cycle,
                      ArrayRef<std::optional<unsigned>> from) {
  // The copy into the last member first: the first member's old value, its
  // source, is the one the ordering saves, and the others follow in order.
  SmallVector<unsigned> members{cycle.back()};
  llvm::append_range(members, cycle.drop_back());
  SmallVector<CopyBack> copies;
  for (unsigned index : members) {
    BlockArgument source = getCarriedIterArg(loop, *from[index]);
    BlockArgument target = getCarriedIterArg(loop, index);
    copies.push_back({&yield->getOpOperand(index), source, target,
                      loop->getLoc(), {source}, {target}});
  }
  OpBuilder builder(yield);
  for (unsigned i : orderCopyBacks(copies))
    makeCopyBack(builder, copies[i], copies[i].source);
  for (unsigned index : cycle) {
    std::string other = std::to_string(*from[index]);
    recordCarried(loop, index, "slot-and-copy",
                  "it carries the old value of iter_arg #" + other +
                      " in a cycle of " + std::to_string(cycle.size()) +
                      " iter_args, each copied into the next one's "
                      "slot, the first through a slot of its own");
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
    if (!funcBody->findAncestorOpInBlock(*loop))
      continue;
    SmallVector<std::optional<unsigned>> from = getPassedOn(loop, yield);
    for (ArrayRef<unsigned> cycle : getCycles(from))
      if (llvm::all_of(cycle, [&](unsigned index) {
            return isOnlyRead(loop, yield, index);
          }))
        copyCycle(loop, yield, cycle, from);
  }
}

namespace {
/// The copies a loop body gets, before the analysis, into the buffers its
/// loop carries: each yield operand with its iter_arg.
struct YieldCopies {
  scf::YieldOp yield;
  SmallVector<std::pair<OpOperand *, BlockArgument>> copies;
  /// An scf.for gets only the copies where a value is defined; the
  /// copies at its yield come after the analysis (copyYieldsIntoIterArgs).
  bool isFor;
};
} // namespace

/// The copies of each loop of `func` whose body yields values not stored
/// in the buffers the loop carries for them.
static SmallVector<YieldCopies> collectYieldCopies(FunctionOpInterface func) {
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
  return loops;
}

/// A value of the body that an op of the body overwrites afterwards (an
/// after-region argument that is then updated in place for the next
/// iteration, as a shift register does) is copied where it is defined:
/// straight into its carried buffer when nothing in the body uses that
/// buffer (the copy leaves `entry`), else into a buffer of its own.
static void copyWhereDefined(YieldCopies &entry) {
  Location loc = entry.yield.getLoc();
  Block *body = entry.yield->getBlock();
  for (auto &[operand, iterArg] : entry.copies) {
    Value source = operand->get();
    if (source.getParentBlock() != body ||
        llvm::none_of(body->getOperations(), [&](Operation &op) {
          return llvm::any_of(op.getResults(), [&](Value result) {
            return result != source && isWrittenInto(result, source, body);
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
    Value copy = linalg::CopyOp::create(atDef, loc, source, init).getResult(0);
    operand->set(copy);
    // Copied into its carried buffer already: nothing left at the yield.
    if (init == iterArg)
      operand = nullptr;
  }
  llvm::erase_if(entry.copies,
                 [](auto &copy) { return copy.first == nullptr; });
}

/// The copies of `entry` at its yield, each reading the carried buffers its
/// value is stored in (a value of the body written into another iter_arg,
/// as when two carried values trade places).
static SmallVector<CopyBack> getCopyBacks(const YieldCopies &entry) {
  Block *body = entry.yield->getBlock();
  SmallVector<CopyBack> copies;
  for (auto [operand, iterArg] : entry.copies) {
    CopyBack copy{operand, operand->get(), iterArg, entry.yield->getLoc(),
                  {}, {iterArg}};
    for (auto [other, otherArg] : entry.copies)
      if (otherArg != iterArg && isWrittenInto(copy.source, otherArg, body))
        copy.reads.push_back(otherArg);
    copies.push_back(std::move(copy));
  }
  return copies;
}

void mlir::helia::copyWhileYieldsIntoCarriedArgs(FunctionOpInterface func) {
  for (YieldCopies &entry : collectYieldCopies(func)) {
    copyWhereDefined(entry);
    SmallVector<CopyBack> copies = getCopyBacks(entry);
    // An scf.for whose carried values trade places (a swap) gets its
    // copies here too: after the analysis they would form a cycle.
    if (entry.isFor && llvm::all_of(copies, [](const CopyBack &copy) {
          return copy.reads.empty();
        }))
      continue;
    // The copies run in the order orderCopyBacks gives: a value stored in
    // a carried buffer that another copy overwrites is copied before it,
    // or, where the copies read each other's (two carried values swapped),
    // through a top-level slot live for the loop's step.
    OpBuilder builder(entry.yield);
    for (unsigned i : orderCopyBacks(copies))
      makeCopyBack(builder, copies[i], copies[i].source);
  }
}
