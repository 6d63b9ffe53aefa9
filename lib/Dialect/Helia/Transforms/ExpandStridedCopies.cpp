//===- ExpandStridedCopies.cpp - non-contiguous memref.copy to linalg -----===//
//
// A firmware image has memcpy and memset but not the `memrefCopy` runtime
// function that `--finalize-memref-to-llvm` calls for a copy between
// non-contiguous memrefs. Such copies become `linalg.copy`, which
// `--convert-linalg-to-loops` lowers to plain loads and stores.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAEXPANDSTRIDEDCOPIES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaExpandStridedCopies
    : mlir::helia::impl::HeliaExpandStridedCopiesBase<
          HeliaExpandStridedCopies> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// True when finalize-memref-to-llvm lowers a copy of `type` to memcpy:
/// identity layout, or a static shape that is contiguous in row-major order.
static bool isMemcpyable(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  return memref.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(memref);
}

void HeliaExpandStridedCopies::runOnOperation() {
  SmallVector<memref::CopyOp> copies;
  getOperation().walk([&](memref::CopyOp copy) {
    if (!isMemcpyable(copy.getSource().getType()) ||
        !isMemcpyable(copy.getTarget().getType()))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    if (!isa<MemRefType>(copy.getSource().getType()) ||
        !isa<MemRefType>(copy.getTarget().getType())) {
      copy.emitError("cannot expand a copy of an unranked memref into loops; "
                     "cast it to a ranked memref first");
      return signalPassFailure();
    }
    OpBuilder builder(copy);
    linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
}
