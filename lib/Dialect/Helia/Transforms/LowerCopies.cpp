//===- LowerCopies.cpp - hydrate and stream copies to memref --------------===//
//
// The last helia step before the upstream conversions to LLVM: the plan's
// copies become `memref.copy` or DMA start/wait pairs, and the helia memory
// spaces become the default memory space. A microcontroller's memories share
// one flat address space; which memory an arena lives in is carried by its
// global (name, section at link time), not by an LLVM address space.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIALOWERCOPIES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {

struct HeliaLowerCopies
    : mlir::helia::impl::HeliaLowerCopiesBase<HeliaLowerCopies> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult lowerCopy(Operation *op, FlatSymbolRefAttr tag);
};

} // namespace

/// The module-level completion tag that every DMA pair waits on.
static FlatSymbolRefAttr createDmaTag(ModuleOp module) {
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto type = MemRefType::get({1}, builder.getI32Type());
  auto tag = memref::GlobalOp::create(
      builder, module.getLoc(), builder.getStringAttr("helia_dma_tag"),
      builder.getStringAttr("private"), TypeAttr::get(type),
      builder.getUnitAttr(), UnitAttr(), IntegerAttr());
  return FlatSymbolRefAttr::get(SymbolTable(module).insert(tag));
}

LogicalResult HeliaLowerCopies::lowerCopy(Operation *op,
                                          FlatSymbolRefAttr tag) {
  Value source = op->getOperand(0);
  Value target = op->getOperand(1);
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  if (sourceType.getShape() != targetType.getShape() ||
      sourceType.getElementType() != targetType.getElementType())
    return op->emitError("cannot lower a copy from ")
           << sourceType << " to " << targetType
           << "; give source and target the same shape and element type";
  OpBuilder builder(op);
  Location loc = op->getLoc();
  if (mode == CopyMode::Copy) {
    // The name survives the conversion to LLVM: helia-assign-sections turns
    // these copies (and only these) into calls of the weak copy hook.
    memref::CopyOp::create(builder, NameLoc::get(builder.getStringAttr(
                                                     kPlanCopyLocName),
                                                 loc),
                           source, target);
  } else {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value count = arith::ConstantIndexOp::create(builder, loc,
                                                 sourceType.getNumElements());
    Value tagMemref = memref::GetGlobalOp::create(
        builder, loc, MemRefType::get({1}, builder.getI32Type()), tag);
    SmallVector<Value> sourceIndices(sourceType.getRank(), zero);
    SmallVector<Value> targetIndices(targetType.getRank(), zero);
    memref::DmaStartOp::create(builder, loc, source, sourceIndices, target,
                               targetIndices, count, tagMemref, zero);
    memref::DmaWaitOp::create(builder, loc, tagMemref, zero, count);
  }
  op->erase();
  ++numCopies;
  return success();
}

/// Rewrites `#helia.memory` memory spaces to the default one and drops the
/// helia attributes, so that upstream tools without the helia dialect (e.g.
/// mlir-runner) read the module.
static void eraseHeliaMemorySpaces(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<MemorySpaceAttr>(type.getMemorySpace()))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  });
  replacer.addReplacement([](UnrankedMemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<MemorySpaceAttr>(type.getMemorySpace()))
      return std::nullopt;
    return UnrankedMemRefType::get(type.getElementType(), Attribute());
  });
  auto isHelia = [](NamedAttribute attr) {
    return attr.getName().getValue().starts_with("helia.");
  };
  auto dropHelia = [&](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (isHelia(attr))
        names.push_back(attr.getName());
    for (StringAttr name : names)
      op->removeDiscardableAttr(name);
  };
  module.walk([&](Operation *op) {
    dropHelia(op);
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        for (NamedAttribute attr : func.getArgAttrs(i))
          if (isHelia(attr))
            func.removeArgAttr(i, attr.getName());
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        for (NamedAttribute attr : func.getResultAttrs(i))
          if (isHelia(attr))
            func.removeResultAttr(i, attr.getName());
    }
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  // The casts out of the helia memory spaces at call boundaries are now
  // casts from the default memory space to itself.
  module.walk([](memref::MemorySpaceCastOp cast) {
    if (cast.getSource().getType() != cast.getType())
      return;
    cast.replaceAllUsesWith(cast.getSource());
    cast.erase();
  });
}

/// Records in the module's `helia.firmware` dictionary what
/// helia-assign-sections needs once the memory spaces are gone: the platform
/// (a preset's name, else the printed `#helia.platform`) and the memory of
/// every global that has one, in module order.
static FailureOr<DictionaryAttr>
recordArenaMemories(ModuleOp module, StringRef presetOverride) {
  MLIRContext *ctx = module.getContext();
  FailureOr<PlatformAttr> platform = lookupPlatform(module, presetOverride);
  if (failed(platform))
    return failure();
  std::string platformText;
  if (getPlatformPreset(ctx, platform->getName()) == *platform) {
    platformText = platform->getName().str();
  } else {
    llvm::raw_string_ostream os(platformText);
    Attribute(*platform).print(os);
  }
  SmallVector<Attribute> arenas;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    auto memory =
        dyn_cast_or_null<MemorySpaceAttr>(global.getType().getMemorySpace());
    if (!memory)
      continue;
    arenas.push_back(DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "global"),
                             global.getSymNameAttr()),
              NamedAttribute(StringAttr::get(ctx, "memory"),
                             memory.getName())}));
  }
  SmallVector<NamedAttribute> entries;
  if (auto previous = module->getAttrOfType<DictionaryAttr>(
          HeliaDialect::FirmwareAttrHelper::getNameStr()))
    llvm::append_range(entries, previous.getValue());
  llvm::erase_if(entries, [](NamedAttribute entry) {
    return entry.getName() == "platform" || entry.getName() == "arenas";
  });
  entries.emplace_back(StringAttr::get(ctx, "platform"),
                       StringAttr::get(ctx, platformText));
  entries.emplace_back(StringAttr::get(ctx, "arenas"),
                       ArrayAttr::get(ctx, arenas));
  return DictionaryAttr::get(ctx, entries);
}

/// Replaces the names of the planned functions in `record` (`entries`, from
/// helia-lower-to-memref) by {name, type} with the types the conversion to
/// LLVM sees, and asks that conversion for their C interface
/// (`_mlir_ciface_<name>`), which helia-assign-sections' header declares.
static DictionaryAttr recordEntryPoints(ModuleOp module,
                                        DictionaryAttr record) {
  MLIRContext *ctx = module.getContext();
  auto names = record.getAs<ArrayAttr>("entries");
  if (!names)
    return record;
  SmallVector<Attribute> candidates(names.getValue());
  // With arena arguments the hydrate function takes the writable arenas:
  // C calls it through its C interface too.
  if (auto prefix = record.getAs<StringAttr>("prefix"))
    if (auto hydrate = module.lookupSymbol<func::FuncOp>(
            getHydrateFunctionName(prefix.getValue())))
      if (hydrate.getNumArguments() > 0)
        candidates.push_back(hydrate.getSymNameAttr());
  SmallVector<Attribute> entries;
  for (auto name : ArrayRef(candidates)) {
    auto func = module.lookupSymbol<func::FuncOp>(cast<StringAttr>(name));
    if (!func || func.isExternal())
      continue;
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
    entries.push_back(DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "name"), name),
              NamedAttribute(StringAttr::get(ctx, "type"),
                             TypeAttr::get(func.getFunctionType()))}));
  }
  NamedAttrList entriesList(record);
  entriesList.set("entries", ArrayAttr::get(ctx, entries));

  return entriesList.getDictionary(ctx);
}

void HeliaLowerCopies::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Operation *> copies;
  module.walk([&](Operation *op) {
    if (isa<HydrateOp, StreamOp>(op))
      copies.push_back(op);
  });
  FlatSymbolRefAttr tag;
  if (mode == CopyMode::Dma && !copies.empty())
    tag = createDmaTag(module);
  for (Operation *op : copies)
    if (failed(lowerCopy(op, tag)))
      return signalPassFailure();
  if (!eraseMemorySpaces)
    return;
  // Read before the erase drops helia.platform and the memory spaces.
  FailureOr<DictionaryAttr> record = recordArenaMemories(module, platform);
  if (failed(record))
    return signalPassFailure();
  // The entry types are read after the erase (default memory space), the
  // unplanned functions before it (the erase drops helia.unplanned).
  SmallVector<Attribute> unplanned;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() &&
        func->hasAttr(HeliaDialect::UnplannedAttrHelper::getNameStr()))
      unplanned.push_back(func.getSymNameAttr());
  eraseHeliaMemorySpaces(module);
  NamedAttrList withUnplanned(recordEntryPoints(module, *record));
  withUnplanned.set("unplanned", ArrayAttr::get(module.getContext(), unplanned));
  module->setAttr(HeliaDialect::FirmwareAttrHelper::getNameStr(),
                  withUnplanned.getDictionary(module.getContext()));
}
