//===- SlotAliasScopes.h - the slot alias marks on locations ----*- C++ -*-===//
//
// helia-mark-slot-alias-scopes puts an access's alias scopes on its
// location, which the conversion to LLVM carries to the llvm.load or
// llvm.store it creates; helia-attach-slot-alias-scopes reads them there.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_SLOTALIASSCOPES_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_SLOTALIASSCOPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

namespace mlir::helia {

inline constexpr llvm::StringLiteral kAliasScopesKey = "helia.alias_scopes";
inline constexpr llvm::StringLiteral kNoAliasScopesKey =
    "helia.noalias_scopes";

/// `loc` fused with the marks: the access's scopes and those it does not
/// alias.
inline Location markSlotAccess(Location loc, ArrayAttr scopes,
                               ArrayAttr noalias) {
  MLIRContext *ctx = loc->getContext();
  NamedAttribute entries[] = {
      NamedAttribute(StringAttr::get(ctx, kAliasScopesKey), scopes),
      NamedAttribute(StringAttr::get(ctx, kNoAliasScopesKey), noalias)};
  return FusedLoc::get(ctx, {loc}, DictionaryAttr::get(ctx, entries));
}

/// The marks of a location made by markSlotAccess, or null.
inline DictionaryAttr getSlotAccessMarks(FusedLoc loc) {
  auto marks = dyn_cast_or_null<DictionaryAttr>(loc.getMetadata());
  if (!marks || !marks.get(kAliasScopesKey) || !marks.get(kNoAliasScopesKey))
    return nullptr;
  return marks;
}

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_SLOTALIASSCOPES_H
