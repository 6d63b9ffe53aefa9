//===- ArenaCallingConvention.cpp - arenas as trailing arguments ----------===//
//
// Records the module's API in `helia.firmware` (the helper prefix and the
// planned functions) and, in arena-mode=alloc|arg, makes the writable arenas
// trailing arguments: of every planned function and of
// `<prefix>_hydrate_constants`. A planned caller forwards its own; any other
// caller (an outermost one, checked by helia-verify-lowerable) allocates
// them on entry, with `<prefix>_alloc_arenas` in alloc mode or `memref.alloc`
// in arg mode, and frees them before each return.
//
//===----------------------------------------------------------------------===//

#include "ArenaTable.h"
#include "LoweringEntries.h"

#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "helia/Dialect/Helia/Transforms/Passes.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAARENACALLINGCONVENTION
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

/// Records the prefix and the planned functions in the module's
/// `#helia.firmware`: the later lowering passes read them there,
/// helia-assign-sections names the arena globals after the prefix, and its
/// C header declares the functions. For the model API it also records the
/// slot of every bound argument and the arenas the caller supplies (in the
/// order of the trailing arguments).
static void recordFirmwareEntries(ModuleOp module,
                                  const LoweringEntries &entries,
                                  const ArenaTable &arenas, ArenaMode mode) {
  MLIRContext *ctx = module.getContext();
  SmallVector<FlatSymbolRefAttr> names;
  SmallVector<FirmwareSlotAttr> slots;
  for (func::FuncOp func : entries.planned) {
    auto name = FlatSymbolRefAttr::get(func.getSymNameAttr());
    names.push_back(name);
    for (BlockArgument arg : func.getArguments())
      if (BindingAttr binding = getBinding(arg))
        slots.push_back(FirmwareSlotAttr::get(ctx, name, arg.getArgNumber(),
                                              binding.getArena(),
                                              binding.getOffset()));
  }
  SmallVector<FirmwareArenaAttr> callerArenas;
  if (mode != ArenaMode::Global) {
    SmallVector<const Arena *> byArg;
    for (auto &[name, arena] : arenas)
      if (arena.argIndex >= 0)
        byArg.push_back(&arena);
    llvm::sort(byArg, [](const Arena *a, const Arena *b) {
      return a->argIndex < b->argIndex;
    });
    for (const Arena *arena : byArg)
      callerArenas.push_back(FirmwareArenaAttr::get(
          ctx, FlatSymbolRefAttr::get(arena->name), arena->memory,
          arena->size, arena->alignment));
  }
  module->setAttr(HeliaDialect::FirmwareAttrHelper::getNameStr(),
                  FirmwareAttr::get(ctx, StringAttr::get(ctx, entries.prefix),
                                    names, slots, callerArenas,
                                    /*platform=*/Attribute(), {}, {}, {}));
}

/// Applies the convention to one module.
class CallingConvention {
public:
  CallingConvention(ModuleOp module, const LoweringEntries &entries,
                    ArenaMode mode)
      : module(module), entries(entries), mode(mode), arenas(module, mode),
        builder(module.getContext()) {}

  LogicalResult run();

private:
  LogicalResult createHelpers();
  void supplyArenas(ArrayRef<func::FuncOp> owners);

  ModuleOp module;
  const LoweringEntries &entries;
  ArenaMode mode;
  ArenaTable arenas;
  OpBuilder builder;
};

} // namespace

/// The helpers: `<prefix>_hydrate_constants` (a stub that takes the arenas;
/// helia-materialize-slots writes its body), and in alloc mode
/// `<prefix>_alloc_arenas` and `<prefix>_free_arenas`.
LogicalResult CallingConvention::createHelpers() {
  MLIRContext *ctx = module.getContext();
  SmallVector<Type> types = arenas.getArgTypes();
  std::string hydrate = entries.getHydrateName();
  if (arenas.anyStaged() || module.lookupSymbol(hydrate)) {
    FailureOr<func::FuncOp> func =
        getOrCreateHelper(module, hydrate, FunctionType::get(ctx, types, {}),
                          /*acceptNoArguments=*/true);
    if (failed(func))
      return failure();
    builder.setInsertionPointToEnd(&func->getBody().front());
    func::ReturnOp::create(builder, module.getLoc());
  }
  if (mode != ArenaMode::Alloc)
    return success();
  FailureOr<func::FuncOp> alloc = getOrCreateHelper(
      module, entries.getAllocName(), FunctionType::get(ctx, {}, types));
  if (failed(alloc))
    return failure();
  builder.setInsertionPointToEnd(&alloc->getBody().front());
  SmallVector<Value> buffers;
  for (auto &[name, arena] : arenas)
    if (arena.argIndex >= 0)
      buffers.push_back(memref::AllocOp::create(
          builder, NameLoc::get(name, arena.loc), arena.getRuntimeType(),
          builder.getI64IntegerAttr(arena.alignment)));
  func::ReturnOp::create(builder, module.getLoc(), buffers);

  FailureOr<func::FuncOp> release = getOrCreateHelper(
      module, entries.getFreeName(), FunctionType::get(ctx, types, {}));
  if (failed(release))
    return failure();
  builder.setInsertionPointToEnd(&release->getBody().front());
  for (BlockArgument arg : release->getArguments())
    memref::DeallocOp::create(builder, module.getLoc(), arg);
  func::ReturnOp::create(builder, module.getLoc());
  return success();
}

/// Every call to a function that takes the arenas gets them.
void CallingConvention::supplyArenas(ArrayRef<func::FuncOp> owners) {
  SmallVector<Type> types = arenas.getArgTypes();
  MLIRContext *ctx = module.getContext();
  DenseMap<Operation *, SmallVector<Value>> owned;
  for (func::FuncOp owner : owners) {
    Location loc = owner.getLoc();
    builder.setInsertionPointToStart(&owner.getBody().front());
    SmallVector<Value> &values = owned[owner];
    if (mode == ArenaMode::Alloc) {
      auto call = func::CallOp::create(
          builder, loc, FlatSymbolRefAttr::get(ctx, entries.getAllocName()),
          types, ValueRange());
      llvm::append_range(values, call.getResults());
    } else {
      for (auto &[name, arena] : arenas)
        if (arena.argIndex >= 0)
          values.push_back(memref::AllocOp::create(
              builder, NameLoc::get(name, loc), arena.getRuntimeType(),
              builder.getI64IntegerAttr(arena.alignment)));
    }
    owner.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      if (mode == ArenaMode::Alloc) {
        func::CallOp::create(builder, loc,
                             FlatSymbolRefAttr::get(ctx, entries.getFreeName()),
                             TypeRange(), values);
        return;
      }
      for (Value value : values)
        memref::DeallocOp::create(builder, loc, value);
    });
  }
  module.walk([&](func::CallOp call) {
    if (!takesArenas(entries, call.getCalleeAttr().getAttr()))
      return;
    auto caller = call->getParentOfType<func::FuncOp>();
    if (takesArenas(entries, caller.getNameAttr())) {
      call.getArgOperandsMutable().append(
          caller.getArguments().take_back(types.size()));
      return;
    }
    call.getArgOperandsMutable().append(owned.lookup(caller));
  });
}

LogicalResult CallingConvention::run() {
  recordFirmwareEntries(module, entries, arenas, mode);
  if (failed(createHelpers()))
    return failure();
  if (mode == ArenaMode::Global || arenas.getNumArgs() == 0)
    return success();
  FailureOr<SmallVector<func::FuncOp>> owners =
      collectArenaOwners(module, entries, mode);
  if (failed(owners))
    return failure();
  for (func::FuncOp func : entries.planned)
    for (auto &[name, arena] : arenas)
      if (arena.argIndex >= 0)
        (void)func.insertArgument(func.getNumArguments(),
                                  arena.getRuntimeType(), DictionaryAttr(),
                                  NameLoc::get(name, arena.loc));
  supplyArenas(*owners);
  return success();
}

namespace {
struct HeliaArenaCallingConvention
    : mlir::helia::impl::HeliaArenaCallingConventionBase<
          HeliaArenaCallingConvention> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LoweringEntries entries = LoweringEntries::compute(module, prefix);
    if (failed(CallingConvention(module, entries, arenaMode).run()))
      return signalPassFailure();
  }
};
} // namespace
