//===- AssignSections.cpp - arena globals in their memories' sections -----===//
//
// The plan's placement made real in the object: after the conversion to the
// LLVM dialect, every arena global gets its memory's section, a public
// prefixed name and its alignment; constant arenas become externally
// initialised so that the optimizer keeps their bytes and the copies that
// read them. The pass also adds the arena table, the weak hooks, the model
// API (ModelApi.cpp), and writes the linker-script fragment and the C
// header (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#include "ModelApi.h"
#include "OutputFile.h"

#include "helia/Dialect/Helia/Export/FirmwareLayout.h"
#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAASSIGNSECTIONS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaAssignSections
    : mlir::helia::impl::HeliaAssignSectionsBase<HeliaAssignSections> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult readRecord(ModuleOp module);
  LogicalResult placeArenas(ModuleOp module);
  LogicalResult createArenaTable(ModuleOp module);
  LogicalResult createCopyHook(ModuleOp module);
  LogicalResult write(StringRef path,
                      function_ref<LogicalResult(raw_ostream &)> writer);

  LogicalResult readEntries(ModuleOp module);

  LogicalResult createHydrate(ModuleOp module);
  LogicalResult weakenHostCode(ModuleOp module);

  FirmwareLayout layout;
  FirmwareAttr record;
  /// The arena globals, in the order of layout.arenas.
  SmallVector<LLVM::GlobalOp> arenaGlobals;
};

} // namespace

LogicalResult HeliaAssignSections::readRecord(ModuleOp module) {
  record = FirmwareAttr::lookup(module);
  if (!record)
    return module.emitError("module has no '")
           << HeliaDialect::FirmwareAttrHelper::getNameStr()
           << "' record of its arenas; lower the plan with "
              "helia-lower-to-memref and helia-lower-copies "
              "(erase-memory-spaces=true) before the conversion to LLVM";
  if (!record.getPrefix() || !record.getPlatform())
    return module.emitError("'")
           << HeliaDialect::FirmwareAttrHelper::getNameStr()
           << "' needs a prefix and a platform; lower the plan "
              "with helia-lower-to-memref and helia-lower-copies "
              "(erase-memory-spaces=true)";
  layout.prefix = record.getPrefix().str();
  if (platform.empty()) {
    layout.platform = record.getPlatformAttr();
    return success();
  }
  layout.platform = getPlatformPreset(module.getContext(), platform);
  if (!layout.platform) {
    std::string names;
    llvm::raw_string_ostream os(names);
    llvm::interleaveComma(getPlatformPresetNames(), os);
    return module.emitError("unknown platform preset '")
           << platform << "'; known presets: " << names;
  }
  return success();
}

LogicalResult HeliaAssignSections::placeArenas(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  PlatformAttr platform = layout.platform;
  SymbolTable symbols(module);
  for (FirmwareGlobalAttr global : record.getGlobals()) {
    StringAttr globalName = global.getGlobal().getAttr();
    StringAttr memoryName = global.getMemory();
    auto op = symbols.lookup<LLVM::GlobalOp>(globalName);
    // An arena global that a cleanup after the lowering removed (nothing
    // read it) takes no memory and needs no section.
    if (!op)
      continue;
    MemoryDescAttr memory = platform.lookupMemory(memoryName);
    if (!memory)
      return op.emitError("arena global @")
             << globalName.getValue() << " lives in memory '"
             << memoryName.getValue() << "', which platform '"
             << platform.getName() << "' does not have (it has: "
             << platform.getMemoryNamesForDiagnostic()
             << "); plan and place with the same platform";
    auto array = dyn_cast<LLVM::LLVMArrayType>(op.getGlobalType());
    if (!array || !array.getElementType().isInteger(8))
      return op.emitError("arena global @")
             << globalName.getValue() << " has type " << op.getGlobalType()
             << "; expected an array of i8 as helia-lower-to-memref "
                "creates it";
    FirmwareArena arena;
    arena.arena = globalName.str();
    arena.memory = memoryName.str();
    arena.symbol = layout.prefix + "_arena_" + arena.memory + "_" + arena.arena;
    arena.constant = op.getConstant();
    arena.size = array.getNumElements();
    arena.alignment = std::max<uint64_t>(op.getAlignment().value_or(1),
                                         platform.getAlignment());
    arena.section =
        FirmwareLayout::getSectionName(memory, arena.arena, arena.constant);
    if (symbols.lookup(arena.symbol))
      return op.emitError("cannot rename arena global @")
             << globalName.getValue() << " to @" << arena.symbol
             << ": the module already has that symbol; choose another "
                "prefix=";
    layout.arenas.push_back(std::move(arena));
    arenaGlobals.push_back(op);
  }
  for (auto [arena, op] : llvm::zip_equal(layout.arenas, arenaGlobals)) {
    StringAttr newName = StringAttr::get(ctx, arena.symbol);
    if (failed(symbols.replaceAllSymbolUses(op, newName, module)))
      return op.emitError("cannot rename the uses of @") << arena.arena;
    symbols.setSymbolName(op, newName);
    op.setLinkage(LLVM::Linkage::External);
    op.setVisibility(SymbolTable::Visibility::Public);
    op.setSection(arena.section);
    op.setAlignment(arena.alignment);
    if (arena.constant)
      op.setExternallyInitialized(true);
    ++numArenas;
  }
  return success();
}

/// `<prefix>_arena_buffers`: {address, size} of every arena by region id.
LogicalResult HeliaAssignSections::createArenaTable(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  std::string name = layout.prefix + "_arena_buffers";
  if (module.lookupSymbol(name))
    return module.emitError("the module already has a symbol @")
           << name << "; choose another prefix=";
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto entryType = LLVM::LLVMStructType::getLiteral(ctx, {ptrType, i32});
  auto tableType =
      LLVM::LLVMArrayType::get(entryType, layout.arenas.size());
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto table = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::External,
      name, Attribute(), /*alignment=*/4);
  Block *body = builder.createBlock(&table.getInitializerRegion());
  builder.setInsertionPointToStart(body);
  Value value = LLVM::UndefOp::create(builder, loc, tableType);
  for (auto [index, arena] : llvm::enumerate(layout.arenas)) {
    Value address = LLVM::AddressOfOp::create(builder, loc, ptrType,
                                              arena.symbol);
    Value size = LLVM::ConstantOp::create(
        builder, loc, i32, builder.getI32IntegerAttr(arena.size));
    int64_t i = static_cast<int64_t>(index);
    value = LLVM::InsertValueOp::create(builder, loc, value, address,
                                        ArrayRef<int64_t>{i, 0});
    value = LLVM::InsertValueOp::create(builder, loc, value, size,
                                        ArrayRef<int64_t>{i, 1});
  }
  LLVM::ReturnOp::create(builder, loc, value);
  return success();
}

/// True when `loc` (or a location it wraps) is helia-lower-copies' name for
/// a hydrate or stream copy.
static bool isPlanCopyLoc(Location loc) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      if (name.getName() == kPlanCopyLocName)
        found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// `<prefix>_hydrate_constants()` exists whatever the plan (with global
/// arenas): weak, empty when nothing is staged.
LogicalResult HeliaAssignSections::createHydrate(ModuleOp module) {
  std::string name = getHydrateFunctionName(layout.prefix);
  if (auto hydrate = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) {
    if (!hydrate.isExternal())
      hydrate.setLinkage(LLVM::Linkage::Weak);
    // With arena arguments C calls it through its C interface (an entry).
    layout.hasHydrate = hydrate.getNumArguments() == 0;
    layout.hydratesItself =
        module.lookupSymbol(layout.prefix + "_hydrated") != nullptr;
    return success();
  }
  if (!record.getCallerArenas().empty())
    return success();
  if (Operation *taken = module.lookupSymbol(name))
    return taken->emitError("the module already has a symbol @")
           << name << " that is not a function; choose another prefix=";
  MLIRContext *ctx = module.getContext();
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto hydrate = LLVM::LLVMFuncOp::create(
      builder, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Weak);
  builder.setInsertionPointToStart(hydrate.addEntryBlock(builder));
  LLVM::ReturnOp::create(builder, module.getLoc(), ValueRange());
  layout.hasHydrate = true;
  return success();
}

/// Host code compiled into the module (`helia.unplanned` functions, e.g. a
/// test harness `main`) becomes weak: a firmware's own C `main` replaces it
/// at link time, and without one the harness runs.
LogicalResult HeliaAssignSections::weakenHostCode(ModuleOp module) {
  for (FlatSymbolRefAttr name : record.getUnplanned())
    if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name.getAttr()))
      if (!func.isExternal() && func.getLinkage() == LLVM::Linkage::External)
        func.setLinkage(LLVM::Linkage::Weak);
  return success();
}

/// Every hydrate and stream copy becomes a call of the weak
/// `<prefix>_copy(dst, src, bytes)`, whose default body is a memcpy: the
/// optimizer cannot inline or delete a call of a replaceable function, and
/// a firmware may replace it (e.g. with a DMA transfer).
LogicalResult HeliaAssignSections::createCopyHook(ModuleOp module) {
  SmallVector<LLVM::MemcpyOp> copies;
  module.walk([&](LLVM::MemcpyOp copy) {
    if (isPlanCopyLoc(copy.getLoc()))
      copies.push_back(copy);
  });
  // The hook exists whatever the plan, so that a firmware's DMA version of
  // it links against every plan.
  MLIRContext *ctx = module.getContext();
  std::string name = layout.prefix + "_copy";
  Type lengthType = copies.empty() ? IntegerType::get(ctx, 64)
                                   : copies.front().getLen().getType();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto hookType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {ptrType, ptrType, lengthType});
  if (module.lookupSymbol(name))
    return module.emitError("the module already has a symbol @")
           << name << "; choose another prefix=";
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto hook = LLVM::LLVMFuncOp::create(builder, loc, name, hookType,
                                       LLVM::Linkage::Weak);
  Block *entry = hook.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  LLVM::MemcpyOp::create(builder, loc, entry->getArgument(0),
                         entry->getArgument(1), entry->getArgument(2),
                         /*isVolatile=*/false);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  for (LLVM::MemcpyOp copy : copies) {
    if (copy.getLen().getType() != lengthType)
      return copy.emitError("plan copies of different length types; lower "
                            "the module with one index bitwidth");
    builder.setInsertionPoint(copy);
    LLVM::CallOp::create(builder, copy.getLoc(), hook,
                         ValueRange{copy.getDst(), copy.getSrc(),
                                    copy.getLen()});
    copy.erase();
    ++numPlanCopies;
  }
  layout.copyLengthBits = cast<IntegerType>(lengthType).getWidth();
  return success();
}

LogicalResult HeliaAssignSections::write(
    StringRef path, function_ref<LogicalResult(raw_ostream &)> writer) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputCreatingParents(path, &message);
  if (!file)
    return getOperation().emitError("cannot write '")
           << path << "': " << message;
  if (failed(writer(file->os())))
    return failure();
  file->keep();
  return success();
}

LogicalResult HeliaAssignSections::readEntries(ModuleOp module) {
  for (FirmwareInterfaceAttr interface : record.getInterfaces())
    layout.entries.push_back(
        {interface.getName().getValue().str(), interface.getType()});
  return success();
}

void HeliaAssignSections::runOnOperation() {
  ModuleOp module = getOperation();
  layout = FirmwareLayout();
  // The width the conversion gave `index` (the module's dlti.dl_spec): the
  // descriptors of the C interface hold it.
  layout.indexBits = DataLayout(module).getTypeSizeInBits(
      IndexType::get(module.getContext()));
  arenaGlobals.clear();
  if (failed(readRecord(module)) || failed(readEntries(module)) ||
      failed(placeArenas(module)) || failed(createArenaTable(module)) ||
      failed(createCopyHook(module)) || failed(createHydrate(module)) ||
      failed(weakenHostCode(module)) ||
      (modelApi && failed(layout.describeModel(module, record))))
    return signalPassFailure();
  if (modelApi) {
    FailureOr<uint32_t> hash = layout.computePlanHash(module.getLoc());
    if (failed(hash))
      return signalPassFailure();
    layout.planHash = *hash;
    if (failed(emitModelApi(module, layout)))
      return signalPassFailure();
  }
  // Nothing helia generates throws: without nounwind, an ARM object
  // references the unwinder's personality routines.
  module.walk([](LLVM::LLVMFuncOp func) { func.setNoUnwind(true); });
  MLIRContext *ctx = module.getContext();
  if (!triple.empty())
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, triple));
  if (!dataLayout.empty())
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(ctx, dataLayout));
  if (!ld.empty() && failed(write(ld, [&](raw_ostream &os) {
        layout.writeLinkerFragment(os, ldMemory);
        return success();
      })))
    return signalPassFailure();
  if (!header.empty() && failed(write(header, [&](raw_ostream &os) {
        return layout.writeHeader(os, module.getLoc());
      })))
    return signalPassFailure();
  // Consumed: LLVM translation has no use for it.
  module->removeAttr(HeliaDialect::FirmwareAttrHelper::getNameStr());
}
