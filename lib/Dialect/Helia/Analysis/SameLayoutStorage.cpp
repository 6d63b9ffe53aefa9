//===- SameLayoutStorage.cpp - the value a tensor is stored in ------------===//

#include "helia/Dialect/Helia/Analysis/SameLayoutStorage.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

Value mlir::helia::getSameLayoutStorage(Value value) {
  // A loop's iter_arg is its init's buffer: helia plans loops whose yields
  // are stored there too.
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast_or_null<LoopLikeOpInterface>(
        arg.getOwner()->getParentOp());
    OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
    return init ? init->get() : Value();
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
          tensor::ReshapeOp>(def))
    return def->getOperand(0);
  auto dps = dyn_cast<DestinationStyleOpInterface>(def);
  OpOperand *init = dps ? dps.getTiedOpOperand(cast<OpResult>(value)) : nullptr;
  return init ? init->get() : Value();
}
