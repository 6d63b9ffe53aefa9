//===- CopyLowering.h - helia.hydrate and helia.stream to memref -*- C++
//-*-===//
//
// The first step of helia-lower-copies as patterns, callable and testable
// without the pass: every `helia.hydrate` and `helia.stream` becomes a
// `memref.copy` named `helia.copy` (CopyMode::Copy) or a
// `memref.dma_start`/`memref.dma_wait` pair on a completion tag
// (CopyMode::Dma).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_COPYLOWERING_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_COPYLOWERING_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::helia {

/// Adds the patterns that lower `helia.hydrate` and `helia.stream` in
/// `mode`. With CopyMode::Dma, `tag` names the module's `memref.global`
/// completion tag (memref<1xi32>). A copy whose source and target differ in
/// shape or element type is left in place (the caller reports it);
/// `numLowered`, when given, counts the copies lowered.
void populateLowerCopiesPatterns(RewritePatternSet &patterns, CopyMode mode,
                                 FlatSymbolRefAttr tag,
                                 unsigned *numLowered = nullptr);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_COPYLOWERING_H
