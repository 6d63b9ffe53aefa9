//===- AttachSlotAliasScopes.cpp - slot alias scopes on LLVM accesses -----===//
//
// After the conversion to LLVM, the marks helia-mark-slot-alias-scopes left
// on the locations of memref accesses are on the llvm.load and llvm.store
// ops the conversion made of them: they become those ops' alias_scopes and
// noalias_scopes, and every location loses its marks.
//
//===----------------------------------------------------------------------===//

#include "SlotAliasScopes.h"

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAATTACHSLOTALIASSCOPES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaAttachSlotAliasScopes
    : mlir::helia::impl::HeliaAttachSlotAliasScopesBase<
          HeliaAttachSlotAliasScopes> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module.walk([&](Operation *op) {
      if (!isa<LLVM::LoadOp, LLVM::StoreOp>(op))
        return;
      auto fused = dyn_cast<FusedLoc>(op->getLoc());
      if (!fused)
        return;
      DictionaryAttr marks = getSlotAccessMarks(fused);
      if (!marks)
        return;
      auto access = cast<LLVM::AliasAnalysisOpInterface>(op);
      access.setAliasScopes(cast<ArrayAttr>(marks.get(kAliasScopesKey)));
      access.setNoAliasScopes(cast<ArrayAttr>(marks.get(kNoAliasScopesKey)));
    });
    // Every op the conversion made of a marked access carries the marks
    // (and folding may have fused them into other locations): restore the
    // locations as they were.
    AttrTypeReplacer replacer;
    replacer.addReplacement([](FusedLoc loc) -> std::optional<Location> {
      if (!getSlotAccessMarks(loc))
        return std::nullopt;
      ArrayRef<Location> locs = loc.getLocations();
      if (locs.size() == 1)
        return locs.front();
      return FusedLoc::get(loc.getContext(), locs);
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/false,
                                          /*replaceLocs=*/true,
                                          /*replaceTypes=*/false);
  }
};
} // namespace
