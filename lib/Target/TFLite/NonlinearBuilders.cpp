//===- NonlinearBuilders.cpp - integer kernels as IR ----------------------===//
//
// The shared builders and checks of the nonlinear converters
// (NonlinearBuilders.h).
//
//===----------------------------------------------------------------------===//

#include "NonlinearBuilders.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::helia::tflite;

Value mlir::helia::tflite::buildElementwise(OpBuilder &b, Location loc, RankedTensorType outType,
                 ValueRange inputs,
                 function_ref<Value(FixedPointBuilder &, ValueRange)> body) {
  unsigned rank = outType.getRank();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < rank; ++d)
      exprs.push_back(type.getDimSize(d) == 1 && outType.getDimSize(d) != 1
                          ? b.getAffineConstantExpr(0)
                          : b.getAffineDimExpr(d));
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                       outType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, outType, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        FixedPointBuilder fb(nb, nloc);
        linalg::YieldOp::create(nb, nloc,
                                body(fb, args.drop_back(1)));
      });
  return generic.getResult(0);
}

LogicalResult mlir::helia::tflite::checkOneQuantization(OpContext &ctx) {
  const TensorQuant &qi = ctx.getInputQuant(0), &qo = ctx.getOutputQuant();
  if (!qi.isQuantized() || qi.isPerChannel())
    return ctx.emitError() << "input 0 needs one scale and zero point";
  if (!qo.isQuantized() || qo.isPerChannel())
    return ctx.emitError() << "output needs one scale and zero point";
  return success();
}
