//===- ConvertFullyConnected.cpp - FULLY_CONNECTED ------------------------===//
//
// FULLY_CONNECTED becomes a 1x1 tosa.conv2d over the input's rows into an
// accumulator requantised as TFLite does (Convolution.h).
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"

using namespace mlir;
using namespace mlir::helia::tflite;

LogicalResult mlir::helia::tflite::convertFullyConnected(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 3, 1)) || failed(checkRank(ctx, 1, 2, "filter")))
    return failure();
  FailureOr<const fb::FullyConnectedOptions *> opts =
      ctx.getOptions<fb::FullyConnectedOptions>();
  if (failed(opts))
    return failure();
  fb::ActivationFunctionType act =
      *opts ? (*opts)->fused_activation_function()
            : fb::ActivationFunctionType_NONE;
  if (*opts && (*opts)->weights_format() != 0)
    return ctx.emitError() << "shuffled weights are not supported";
  FailureOr<ConvKind> kind = getConvKind(ctx, 0, 1, 2, true);
  if (failed(kind))
    return failure();
  RankedTensorType inType = ctx.getInputType(0);
  RankedTensorType filterType = ctx.getInputType(1);
  RankedTensorType outType = ctx.getOutputType();
  int64_t units = filterType.getDimSize(0), depth = filterType.getDimSize(1);
  if (depth == 0 || inType.getNumElements() % depth != 0)
    return ctx.emitError() << "input " << inType
                           << " does not split into rows of " << depth;
  int64_t batch = inType.getNumElements() / depth;
  if (outType.getNumElements() != batch * units)
    return ctx.emitError() << "output " << outType << " is not " << batch
                           << " rows of " << units;
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  Value rows = buildReshape(ctx.b, ctx.getLoc("rows"), *input,
                            {batch, 1, 1, depth});
  FailureOr<Value> filter = buildFilter(ctx, 1, {units, 1, 1, depth});
  FailureOr<Value> bias = buildBias(ctx, 2, units, *kind);
  if (failed(filter) || failed(bias))
    return failure();
  // The per-tensor kernel applies the filter's zero point, the per-channel
  // one does not; both apply the activations' (16x8 included).
  const TensorQuant &filterQ = ctx.getInputQuant(1);
  int64_t inputZp = ctx.getInputQuant(0).getZeroPoint();
  if (kind->is16x8 && inputZp != 0)
    return ctx.emitError() << "int16 input with zero point " << inputZp
                           << " is not supported (TOSA needs 0)";
  Value inZp = buildZeros(ctx, inType.getElementType(), inputZp, "input_zp");
  Value filterZp = buildZeros(
      ctx, filterType.getElementType(),
      filterQ.isPerChannel() ? 0 : filterQ.getZeroPoint(), "filter_zp");
  auto accType = RankedTensorType::get({batch, 1, 1, units}, kind->accType);
  Value acc = tosa::Conv2DOp::create(
      ctx.b, ctx.getLoc("acc"), accType, rows, *filter, *bias, inZp, filterZp,
      ctx.b.getDenseI64ArrayAttr({0, 0, 0, 0}),
      ctx.b.getDenseI64ArrayAttr({1, 1}), ctx.b.getDenseI64ArrayAttr({1, 1}),
      TypeAttr::get(kind->accType));
  FailureOr<Value> result =
      requantize(ctx, acc, *kind, 0, 1, units, act,
                 ctx.getOutputQuant().getZeroPoint(),
                 /*floatProduct=*/!filterQ.isPerChannel());
  if (failed(result))
    return failure();
  return ctx.setOutput(
      0, buildReshape(ctx.b, ctx.getLoc(), *result, outType.getShape()));
}
