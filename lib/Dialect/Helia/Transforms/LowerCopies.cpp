//===- LowerCopies.cpp - hydrate and stream copies to memref --------------===//
//
// The last helia step before the upstream conversions to LLVM: the plan's
// copies become `memref.copy` or DMA start/wait pairs, and the helia memory
// spaces become the default memory space. A microcontroller's memories share
// one flat address space; which memory an arena lives in is carried by its
// global (name, section at link time), not by an LLVM address space.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
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

/// The memory of every global that has one, in module order: what
/// helia-assign-sections needs once the memory spaces are gone.
static SmallVector<FirmwareGlobalAttr> recordGlobalMemories(ModuleOp module) {
  SmallVector<FirmwareGlobalAttr> globals;
  for (auto global : module.getOps<memref::GlobalOp>())
    if (auto memory = dyn_cast_or_null<MemorySpaceAttr>(
            global.getType().getMemorySpace()))
      globals.push_back(FirmwareGlobalAttr::get(
          module.getContext(), FlatSymbolRefAttr::get(global.getSymNameAttr()),
          memory.getName()));
  return globals;
}

/// The planned functions of `record` (from helia-arena-calling-convention)
/// with the types the conversion to LLVM sees, marked for their C interface
/// (`_mlir_ciface_<name>`), which helia-assign-sections' header declares.
static SmallVector<FirmwareInterfaceAttr>
recordInterfaces(ModuleOp module, FirmwareAttr record) {
  MLIRContext *ctx = module.getContext();
  SmallVector<StringAttr> candidates;
  for (FlatSymbolRefAttr entry : record.getEntries())
    candidates.push_back(entry.getAttr());
  // With arena arguments the hydrate function takes the writable arenas:
  // C calls it through its C interface too.
  if (StringAttr prefix = record.getPrefix())
    if (auto hydrate = module.lookupSymbol<func::FuncOp>(
            getHydrateFunctionName(prefix.getValue())))
      if (hydrate.getNumArguments() > 0)
        candidates.push_back(hydrate.getSymNameAttr());
  SmallVector<FirmwareInterfaceAttr> interfaces;
  for (StringAttr name : candidates) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      continue;
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
    interfaces.push_back(FirmwareInterfaceAttr::get(
        ctx, FlatSymbolRefAttr::get(name), func.getFunctionType()));
  }
  return interfaces;
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
  // The platform resolve-residency made the module's, read before the
  // erase drops helia.platform; the memories of the globals too.
  FailureOr<PlatformAttr> platformAttr = lookupPlatform(module, platform);
  if (failed(platformAttr))
    return signalPassFailure();
  MLIRContext *ctx = module.getContext();
  Attribute recordedPlatform = *platformAttr;
  if (getPlatformPreset(ctx, platformAttr->getName()) == *platformAttr)
    recordedPlatform = StringAttr::get(ctx, platformAttr->getName());
  SmallVector<FirmwareGlobalAttr> globals = recordGlobalMemories(module);
  // The interface types are read after the erase (default memory space),
  // the unplanned functions before it (the erase drops helia.unplanned).
  SmallVector<FlatSymbolRefAttr> unplanned;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() &&
        func->hasAttr(HeliaDialect::UnplannedAttrHelper::getNameStr()))
      unplanned.push_back(FlatSymbolRefAttr::get(func.getSymNameAttr()));
  // A module lowered without helia-arena-calling-convention has no API
  // (and no prefix, which helia-assign-sections asks for).
  FirmwareAttr record = FirmwareAttr::lookup(module);
  if (!record)
    record = FirmwareAttr::get(ctx, StringAttr(), {}, {}, {}, Attribute(), {},
                               {}, {});
  // The erase drops every helia attribute, the record too.
  eraseHeliaMemorySpaces(module);
  // In its builtin form: the module is for tools without the helia dialect
  // now.
  record = FirmwareAttr::get(ctx, record.getPrefix(), record.getEntries(),
                             record.getSlots(), record.getCallerArenas(),
                             recordedPlatform, globals,
                             recordInterfaces(module, record), unplanned);
  module->setAttr(HeliaDialect::FirmwareAttrHelper::getNameStr(),
                  record.toBuiltin());
}
