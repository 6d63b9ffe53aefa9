//===- HydrateOnFirstCall.cpp - a model that hydrates its own constants ---===//
//
// A plan with staged constants is only correct once
// `<prefix>_hydrate_constants` has copied them into their runtime arenas. A
// harness that forgets the call computes with uninitialised weights. This
// pass makes the lowered model run the call by itself, at the first point
// where it can know the arenas are fresh.
//
//===----------------------------------------------------------------------===//

#include "LoweringEntries.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAHYDRATEONFIRSTCALL
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaHydrateOnFirstCall
    : mlir::helia::impl::HeliaHydrateOnFirstCallBase<HeliaHydrateOnFirstCall> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult guardEntries(ModuleOp module, func::FuncOp hydrate,
                             const llvm::StringSet<> &entries,
                             SymbolUserMap &users, StringRef prefix);
  LogicalResult hydrateAfterAlloc(func::FuncOp alloc, func::FuncOp hydrate);
  void hydrateOwnedArenas(ModuleOp module, func::FuncOp hydrate,
                          const llvm::StringSet<> &entries);
};
} // namespace

/// Global arenas: every entry point that code outside the plan may call
/// begins with `if (!<prefix>_hydrated) { hydrate(); <prefix>_hydrated =
/// true; }`.
LogicalResult HeliaHydrateOnFirstCall::guardEntries(
    ModuleOp module, func::FuncOp hydrate, const llvm::StringSet<> &entries,
    SymbolUserMap &users, StringRef prefix) {
  SmallVector<func::FuncOp> guarded;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !entries.contains(func.getName()))
      continue;
    // A private entry called only by other entries runs after them.
    bool calledFromOutside =
        func.isPublic() || users.getUsers(func).empty() ||
        llvm::any_of(users.getUsers(func), [&](Operation *user) {
          auto caller = user->getParentOfType<func::FuncOp>();
          return !caller || !entries.contains(caller.getName());
        });
    if (calledFromOutside)
      guarded.push_back(func);
  }
  if (guarded.empty())
    return success();

  MLIRContext *ctx = &getContext();
  std::string flagName = (prefix + "_hydrated").str();
  if (Operation *taken = module.lookupSymbol(flagName))
    return taken->emitError("symbol @")
           << flagName << " is taken; helia-hydrate-on-first-call keeps its "
           << "flag in a global of that name (choose another prefix=)";
  auto flagType = MemRefType::get({}, IntegerType::get(ctx, 1));
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  builder.setInsertionPoint(hydrate);
  memref::GlobalOp::create(
      builder, hydrate.getLoc(), flagName, builder.getStringAttr("private"),
      flagType,
      DenseElementsAttr::get(RankedTensorType::get({}, builder.getI1Type()),
                             false),
      /*constant=*/false, /*alignment=*/IntegerAttr());

  for (func::FuncOp func : guarded) {
    Location loc = func.getLoc();
    builder.setInsertionPointToStart(&func.getBody().front());
    Value flag =
        memref::GetGlobalOp::create(builder, loc, flagType, flagName);
    Value done = memref::LoadOp::create(builder, loc, flag, ValueRange());
    Value yes = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
    Value notDone = arith::XOrIOp::create(builder, loc, done, yes);
    auto ifOp = scf::IfOp::create(builder, loc, notDone, /*withElse=*/false);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    func::CallOp::create(builder, loc, hydrate, ValueRange());
    memref::StoreOp::create(builder, loc, yes, flag, ValueRange());
  }
  return success();
}

/// arena-mode=alloc: the arenas are fresh when `<prefix>_alloc_arenas`
/// returns them, so it hydrates them before returning.
LogicalResult HeliaHydrateOnFirstCall::hydrateAfterAlloc(func::FuncOp alloc,
                                                        func::FuncOp hydrate) {
  if (alloc.getResultTypes() != hydrate.getArgumentTypes())
    return alloc.emitError("@")
           << alloc.getName() << " returns " << alloc.getResultTypes()
           << " but @" << hydrate.getName() << " takes "
           << hydrate.getArgumentTypes()
           << "; run helia-hydrate-on-first-call right after "
              "helia-lower-to-memref";
  alloc.walk([&](func::ReturnOp ret) {
    OpBuilder builder(ret);
    func::CallOp::create(builder, ret.getLoc(), hydrate, ret.getOperands());
  });
  return success();
}

/// arena-mode=arg: a function that allocates the arenas itself and passes
/// them to the model hydrates them right after the last allocation. One that
/// got them from its own caller cannot tell whether they are fresh.
void HeliaHydrateOnFirstCall::hydrateOwnedArenas(
    ModuleOp module, func::FuncOp hydrate, const llvm::StringSet<> &entries) {
  unsigned numArenas = hydrate.getNumArguments();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || entries.contains(func.getName()) ||
        func == hydrate)
      continue;
    // The arena tuples this function already hydrates.
    llvm::DenseSet<Value> hydrated;
    func.walk([&](func::CallOp call) {
      if (call.getCallee() == hydrate.getName() &&
          call.getNumOperands() == numArenas && numArenas > 0)
        hydrated.insert(call.getOperand(0));
    });
    func.walk([&](func::CallOp call) {
      if (!entries.contains(call.getCallee()) ||
          call.getNumOperands() < numArenas || numArenas == 0)
        return WalkResult::advance();
      ValueRange arenas = call.getOperands().take_back(numArenas);
      if (hydrated.contains(arenas.front()))
        return WalkResult::advance();
      Operation *last = nullptr;
      for (Value arena : arenas) {
        auto alloc = arena.getDefiningOp<memref::AllocOp>();
        if (!alloc || alloc->getParentOp() != func) {
          call.emitWarning("@")
              << func.getName() << " passes @" << call.getCallee()
              << " arenas it did not allocate itself, so "
                 "helia-hydrate-on-first-call cannot tell when they are "
                 "fresh and leaves them unhydrated; call @"
              << hydrate.getName()
              << " on them once after allocating them (or lower with "
                 "arena-mode=global or arena-mode=alloc)";
          return WalkResult::advance();
        }
        if (!last || last->isBeforeInBlock(alloc))
          last = alloc;
      }
      OpBuilder builder(func.getContext());
      builder.setInsertionPointAfter(last);
      func::CallOp::create(builder, call.getLoc(), hydrate, arenas);
      hydrated.insert(arenas.front());
      return WalkResult::advance();
    });
  }
}

void HeliaHydrateOnFirstCall::runOnOperation() {
  ModuleOp module = getOperation();
  LoweringEntries lowered = LoweringEntries::fromFirmware(module);
  if (lowered.prefix.empty()) {
    module.emitError("module has no '")
        << HeliaDialect::FirmwareAttrHelper::getNameStr()
        << "' record of its prefix and entry points; run "
           "helia-lower-to-memref first";
    return signalPassFailure();
  }
  auto hydrate =
      module.lookupSymbol<func::FuncOp>(lowered.getHydrateName());
  // No staged constants: nothing to hydrate.
  if (!hydrate || hydrate.isExternal())
    return markAllAnalysesPreserved();

  llvm::StringSet<> entries;
  for (func::FuncOp func : lowered.planned)
    entries.insert(func.getName());

  if (hydrate.getNumArguments() == 0) {
    SymbolTableCollection symbolTables;
    SymbolUserMap users(symbolTables, module);
    if (failed(guardEntries(module, hydrate, entries, users, lowered.prefix)))
      return signalPassFailure();
    return;
  }
  if (auto alloc = module.lookupSymbol<func::FuncOp>(lowered.getAllocName())) {
    if (failed(hydrateAfterAlloc(alloc, hydrate)))
      return signalPassFailure();
    return;
  }
  hydrateOwnedArenas(module, hydrate, entries);
}
