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
#include "helia/Dialect/Helia/Transforms/CopyLowering.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

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
};

/// A `helia.hydrate` or `helia.stream` (source, then target) becomes a
/// `memref.copy` or a DMA start/wait pair.
template <typename CopyOp> struct LowerCopy : OpRewritePattern<CopyOp> {
  LowerCopy(MLIRContext *ctx, CopyMode mode, FlatSymbolRefAttr tag,
            unsigned *numLowered)
      : OpRewritePattern<CopyOp>(ctx), mode(mode), tag(tag),
        numLowered(numLowered) {}

  LogicalResult matchAndRewrite(CopyOp op,
                                PatternRewriter &rewriter) const override {
    Value source = op->getOperand(0);
    Value target = op->getOperand(1);
    auto sourceType = cast<MemRefType>(source.getType());
    auto targetType = cast<MemRefType>(target.getType());
    if (sourceType.getShape() != targetType.getShape() ||
        sourceType.getElementType() != targetType.getElementType())
      return rewriter.notifyMatchFailure(op, "shape or element type differ");
    Location loc = op->getLoc();
    if (mode == CopyMode::Copy) {
      // The name survives the conversion to LLVM: helia-assign-sections
      // turns these copies (and only these) into calls of the weak copy
      // hook.
      memref::CopyOp::create(
          rewriter, NameLoc::get(rewriter.getStringAttr(kPlanCopyLocName), loc),
          source, target);
    } else {
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value count = arith::ConstantIndexOp::create(rewriter, loc,
                                                   sourceType.getNumElements());
      Value tagMemref = memref::GetGlobalOp::create(
          rewriter, loc, MemRefType::get({1}, rewriter.getI32Type()), tag);
      SmallVector<Value> sourceIndices(sourceType.getRank(), zero);
      SmallVector<Value> targetIndices(targetType.getRank(), zero);
      memref::DmaStartOp::create(rewriter, loc, source, sourceIndices, target,
                                 targetIndices, count, tagMemref, zero);
      memref::DmaWaitOp::create(rewriter, loc, tagMemref, zero, count);
    }
    rewriter.eraseOp(op);
    if (numLowered)
      ++*numLowered;
    return success();
  }

  CopyMode mode;
  FlatSymbolRefAttr tag;
  unsigned *numLowered;
};

} // namespace

void mlir::helia::populateLowerCopiesPatterns(RewritePatternSet &patterns,
                                              CopyMode mode,
                                              FlatSymbolRefAttr tag,
                                              unsigned *numLowered) {
  patterns.add<LowerCopy<HydrateOp>, LowerCopy<StreamOp>>(
      patterns.getContext(), mode, tag, numLowered);
}

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

/// Step 1: the copies, by the patterns of populateLowerCopiesPatterns; a
/// copy they leave is reported at the first one.
static LogicalResult lowerCopies(ModuleOp module, CopyMode mode,
                                 unsigned &numLowered) {
  bool anyCopy = false;
  module.walk([&](Operation *op) {
    if (isa<HydrateOp, StreamOp>(op))
      anyCopy = true;
    return anyCopy ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!anyCopy)
    return success();
  FlatSymbolRefAttr tag;
  if (mode == CopyMode::Dma)
    tag = createDmaTag(module);
  RewritePatternSet patterns(module.getContext());
  populateLowerCopiesPatterns(patterns, mode, tag, &numLowered);
  walkAndApplyPatterns(module, std::move(patterns));
  Operation *left = nullptr;
  module.walk([&](Operation *op) {
    if (!isa<HydrateOp, StreamOp>(op))
      return WalkResult::advance();
    left = op;
    return WalkResult::interrupt();
  });
  if (!left)
    return success();
  auto sourceType = cast<MemRefType>(left->getOperand(0).getType());
  auto targetType = cast<MemRefType>(left->getOperand(1).getType());
  if (sourceType.getShape() == targetType.getShape() &&
      sourceType.getElementType() == targetType.getElementType())
    return left->emitError("cannot lower a copy in an unreachable block "
                           "(the pattern walk skips them); remove the block");
  return left->emitError("cannot lower a copy from ")
         << left->getOperand(0).getType() << " to "
         << left->getOperand(1).getType()
         << "; give source and target the same shape and element type";
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
  unsigned numLowered = 0;
  LogicalResult lowered = lowerCopies(module, mode, numLowered);
  numCopies += numLowered;
  if (failed(lowered))
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
