//===- CopyBackOrder.cpp - the order of copies into carried buffers -------===//

#include "CopyBackOrder.h"
#include "LoopStorage.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::helia;

/// Copies `copy`'s source into a buffer of its own right before its yield.
static Value saveIntoSlot(const CopyBack &copy) {
  Operation *yield = copy.yielded->getOwner();
  OpBuilder builder(yield);
  Region &body =
      yield->getParentOfType<FunctionOpInterface>().getFunctionBody();
  Operation *top =
      body.hasOneBlock() ? body.front().findAncestorOpInBlock(*yield) : nullptr;
  if (top)
    return copyIntoTopLevelTensor(builder, copy.loc, top, copy.source);
  auto type = cast<RankedTensorType>(copy.source.getType());
  Value init = tensor::EmptyOp::create(builder, copy.loc, type.getShape(),
                                       type.getElementType(),
                                       type.getEncoding());
  return linalg::CopyOp::create(builder, copy.loc, copy.source, init)
      .getResult(0);
}

SmallVector<unsigned> mlir::helia::orderCopyBacks(
    MutableArrayRef<CopyBack> copies) {
  unsigned size = copies.size();
  SmallVector<bool> done(size, false);
  // True when pending copy `i` reads a buffer that copy `j` writes.
  auto reads = [&](unsigned i, unsigned j) {
    return i != j && !done[i] && !copies[i].slot &&
           llvm::any_of(copies[i].reads, [&](Value buffer) {
             return llvm::is_contained(copies[j].writes, buffer);
           });
  };
  SmallVector<unsigned> order;
  while (order.size() < size) {
    std::optional<unsigned> next;
    for (unsigned j = 0; j < size && !next; ++j)
      if (!done[j] && llvm::none_of(llvm::seq(size), [&](unsigned i) {
            return reads(i, j);
          }))
        next = j;
    if (next) {
      done[*next] = true;
      order.push_back(*next);
      continue;
    }
    // A cycle: the first copy left keeps its value in a slot of its own.
    unsigned k = *llvm::find_if(llvm::seq(size), [&](unsigned i) {
      return !done[i] && !copies[i].slot;
    });
    copies[k].slot = saveIntoSlot(copies[k]);
  }
  return order;
}

Value mlir::helia::makeCopyBack(OpBuilder &builder, const CopyBack &copy,
                                Value source) {
  Value copied =
      linalg::CopyOp::create(builder, copy.loc,
                             copy.slot ? copy.slot : source, copy.target)
          .getResult(0);
  copy.yielded->set(copied);
  return copied;
}
