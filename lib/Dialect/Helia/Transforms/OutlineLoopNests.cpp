//===- OutlineLoopNests.cpp - one function per top-level loop nest -------===//
//
// A network lowered to loops is one function; its register allocation, and
// so its stack traffic, depends on every op at once. Each top-level loop
// nest becomes a private noinline function (the way a kernel library runs
// one call per op), with the memory-effect-free values it uses from outside
// cloned in, so that its accesses still trace to their arena.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAOUTLINELOOPNESTS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaOutlineLoopNests
    : mlir::helia::impl::HeliaOutlineLoopNestsBase<HeliaOutlineLoopNests> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// True for an op that can be cloned into the outlined function instead of
/// passing its result: no regions, no memory effects (memref.get_global,
/// views, casts, constants, index arithmetic).
static bool isSinkable(Operation *op) {
  return op && op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Clones into `region`'s entry block every op defined above it that
/// isSinkable, transitively, and uses the clones inside the region. The
/// clones keep the order of their originals, so that each follows the
/// clones of its operands.
static void sinkDefinitions(Region &region) {
  // The sinkable ops the region depends on, transitively.
  SetVector<Operation *> sunk;
  SmallVector<Value> worklist;
  {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(region, captured);
    worklist.append(captured.begin(), captured.end());
  }
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!isSinkable(def) || !sunk.insert(def))
      continue;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  // Every sunk op lies in the block that holds the region's op (the
  // function's body): clone them in that block's order.
  SmallVector<Operation *> ordered = sunk.takeVector();
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  Block &entry = region.front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  IRMapping mapping;
  for (Operation *def : ordered)
    builder.clone(*def, mapping);
  for (Operation *def : ordered)
    for (Value result : def->getResults())
      replaceAllUsesInRegionWith(result, mapping.lookup(result), region);
}

static bool forwardsInit(scf::ForOp loop, unsigned index);

/// True if `value` is `target`, or the result of loops that each yield
/// the value they were given, given `target`.
static bool isSameValue(Value value, Value target) {
  while (value != target) {
    auto result = dyn_cast<OpResult>(value);
    auto loop = result ? dyn_cast<scf::ForOp>(result.getOwner()) : nullptr;
    if (!loop || !forwardsInit(loop, result.getResultNumber()))
      return false;
    value = loop.getInitArgs()[result.getResultNumber()];
  }
  return true;
}

/// True if result `index` of `loop` is its init value: the loop yields
/// its iteration argument (through inner loops that do the same). A loop
/// nest bufferized in place carries its output buffer so, and yields it.
static bool forwardsInit(scf::ForOp loop, unsigned index) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  return isSameValue(yield.getOperand(index), loop.getRegionIterArg(index));
}

/// The top-level loop nests of `block` that can be outlined: scf.for and
/// scf.parallel without results, and scf.for whose every result is its
/// init value, whose uses then take the init value instead.
static SmallVector<Operation *> getLoopNests(Block &block) {
  SmallVector<Operation *> nests;
  for (Operation &op : block) {
    if (!isa<scf::ForOp, scf::ParallelOp>(op))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      bool forwards = true;
      for (unsigned i = 0, e = loop.getNumResults(); forwards && i < e; ++i)
        forwards = forwardsInit(loop, i);
      if (!forwards)
        continue;
      for (auto [result, init] :
           llvm::zip(loop.getResults(), loop.getInitArgs()))
        result.replaceAllUsesWith(init);
    } else if (op.getNumResults() != 0) {
      continue;
    }
    nests.push_back(&op);
  }
  return nests;
}

void HeliaOutlineLoopNests::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  SymbolTable symbols(module);
  IRRewriter rewriter(ctx);
  auto noinline = ArrayAttr::get(ctx, {StringAttr::get(ctx, "noinline")});
  auto internal = LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal);
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || !func.getBody().hasOneBlock())
      continue;
    SmallVector<Operation *> nests = getLoopNests(func.getBody().front());
    unsigned index = 0;
    for (Operation *nest : nests) {
      // The nest alone in a region of its own, which upstream outlines.
      Location loc = nest->getLoc();
      rewriter.setInsertionPoint(nest);
      auto wrapper = scf::ExecuteRegionOp::create(rewriter, loc, TypeRange());
      Block *body = rewriter.createBlock(&wrapper.getRegion());
      rewriter.setInsertionPointToStart(body);
      auto yield = scf::YieldOp::create(rewriter, loc);
      rewriter.moveOpBefore(nest, yield);
      sinkDefinitions(wrapper.getRegion());

      std::string name;
      do {
        name = (func.getName() + "_op" + Twine(index++)).str();
      } while (symbols.lookup(name));
      func::CallOp call;
      FailureOr<func::FuncOp> outlined = outlineSingleBlockRegion(
          rewriter, loc, wrapper.getRegion(), name, &call);
      if (failed(outlined)) {
        wrapper.emitError() << "cannot outline this loop nest into a "
                            << "function of its own; lower with "
                            << "outline-ops=false";
        return signalPassFailure();
      }
      func::FuncOp callee = *outlined;
      callee.setPrivate();
      // Internal linkage: LLVM sees every call; noinline: the nest keeps
      // its own function, whatever the inliner's cost model says.
      callee->setAttr("llvm.linkage", internal);
      callee->setAttr("passthrough", noinline);
      symbols.insert(callee);
      // The call in the wrapper's place.
      rewriter.moveOpBefore(call, wrapper);
      rewriter.eraseOp(wrapper);
    }
  }
}
