//===- ConvertTensor.cpp - data movement ----------------------------------===//
//
// RESHAPE, SQUEEZE, EXPAND_DIMS, PAD, STRIDED_SLICE, TRANSPOSE and
// CONCATENATION move elements without arithmetic. Pooling and reductions
// are in ConvertPool.cpp.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::helia::tflite;

LogicalResult mlir::helia::tflite::convertReshape(OpContext &ctx) {
  // RESHAPE's second input (the shape) only repeats the output's shape.
  if (failed(ctx.checkArity(1, 2, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  if (failed(input))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  if (inType.getNumElements() != outType.getNumElements() ||
      inType.getElementType() != outType.getElementType())
    return ctx.emitError() << "cannot reshape " << inType << " to " << outType;
  auto result = tosa::ReshapeOp::create(
      ctx.b, ctx.getLoc(), outType, *input,
      buildShape(ctx.b, ctx.getLoc("shape"), outType.getShape()));
  return ctx.setOutput(0, result);
}

LogicalResult mlir::helia::tflite::convertPad(OpContext &ctx) {
  bool isV2 = ctx.getCode() == 60;
  if (failed(ctx.checkArity(2, isV2 ? 3 : 2, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  FailureOr<SmallVector<int64_t>> paddings = ctx.getConstantInts(1);
  if (failed(input) || failed(paddings))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  int64_t rank = inType.getRank();
  if (static_cast<int64_t>(paddings->size()) != 2 * rank)
    return ctx.emitError() << "paddings hold " << paddings->size()
                           << " values for rank " << rank;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t before = (*paddings)[2 * d], after = (*paddings)[2 * d + 1];
    if (before < 0 || after < 0 ||
        inType.getDimSize(d) + before + after != outType.getDimSize(d))
      return ctx.emitError() << "paddings do not give the output shape "
                             << outType;
  }
  Type element = inType.getElementType();
  Value padValue;
  Location loc = ctx.getLoc("pad_value");
  if (isV2 && ctx.hasInput(2)) {
    FailureOr<Value> constant = ctx.getInput(2);
    if (failed(constant))
      return failure();
    if (ctx.getInputType(2).getNumElements() != 1 ||
        ctx.getInputType(2).getElementType() != element)
      return ctx.emitError() << "the pad value must be one " << element;
    padValue = buildReshape(ctx.b, loc, *constant, {1});
  } else if (isa<FloatType>(element)) {
    padValue = buildScalarFloat(ctx.b, loc, element, 0.0);
  } else {
    // TFLite pads int8 with the output's zero point, int16 with 0.
    int64_t zp =
        element.isInteger(8) ? ctx.getOutputQuant().getZeroPoint() : 0;
    padValue = buildScalar(ctx.b, loc, element, zp);
  }
  auto result = tosa::PadOp::create(
      ctx.b, ctx.getLoc(), outType, *input,
      buildShape(ctx.b, ctx.getLoc("paddings"), *paddings), padValue);
  return ctx.setOutput(0, result);
}

namespace {
/// A STRIDED_SLICE resolved axis by axis as TFLite's kernel resolves it:
/// forward starts, sizes and steps after reversing the axes with a negative
/// stride, and the output shape without the shrunk axes.
struct ResolvedSlice {
  SmallVector<int64_t> starts, sizes, steps, keptShape;
  bool unitStrides = true;
  SmallVector<int32_t> reverseAxes;
};

/// The masks and the offset flag of a STRIDED_SLICE.
struct SliceMasks {
  int32_t begin = 0, end = 0, shrink = 0;
  bool offset = false;
};
} // namespace

/// Resolves begin, end and strides against the input's shape (negative
/// indices, clamping, masks), or an error for a zero stride.
static FailureOr<ResolvedSlice>
resolveSlice(OpContext &ctx, RankedTensorType inType, ArrayRef<int64_t> begin,
             ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
             const SliceMasks &masks) {
  ResolvedSlice r;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    int64_t dim = inType.getDimSize(d), stride = strides[d];
    if (stride == 0) {
      ctx.emitError() << "stride of axis " << d << " is 0";
      return failure();
    }
    int64_t s = begin[d];
    if (s < 0)
      s += dim;
    s = stride > 0 ? std::clamp<int64_t>(s, 0, dim)
                   : std::clamp<int64_t>(s, -1, dim - 1);
    if (masks.begin & (1 << d))
      s = stride > 0 ? 0 : dim - 1;
    int64_t e;
    bool shrink = masks.shrink & (1 << d);
    if (shrink) {
      e = s >= dim ? s : s + 1;
      stride = 1;
    } else {
      e = end[d] + (masks.offset ? s : 0);
      if (e < 0)
        e += dim;
      e = stride > 0 ? std::clamp<int64_t>(e, 0, dim)
                     : std::clamp<int64_t>(e, -1, dim - 1);
      if (masks.end & (1 << d))
        e = stride > 0 ? dim : -1;
    }
    int64_t count = stride > 0 ? std::max<int64_t>(0, (e - s + stride - 1) / stride)
                               : std::max<int64_t>(0, (s - e - stride - 1) / -stride);
    if (stride < 0) {
      // Reverse the axis, then walk it forwards.
      r.reverseAxes.push_back(d);
      s = dim - 1 - s;
      stride = -stride;
    }
    if (stride != 1)
      r.unitStrides = false;
    r.starts.push_back(s);
    r.sizes.push_back(count);
    r.steps.push_back(stride);
    if (!shrink)
      r.keptShape.push_back(count);
  }
  return r;
}

/// The slice of `value`: the reversed axes, a tosa.slice (unit strides) or
/// a strided tensor.extract_slice, and the reshape that drops shrunk axes.
static LogicalResult buildSlice(OpContext &ctx, Value value,
                                const ResolvedSlice &r) {
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  for (int32_t axis : r.reverseAxes)
    value = tosa::ReverseOp::create(ctx.b, ctx.getLoc("reversed"),
                                    value.getType(), value,
                                    ctx.b.getI32IntegerAttr(axis));
  auto slicedType = RankedTensorType::get(r.sizes, inType.getElementType());
  if (r.unitStrides) {
    value = tosa::SliceOp::create(
        ctx.b, ctx.getLoc("slice"), slicedType, value,
        buildShape(ctx.b, ctx.getLoc("start"), r.starts),
        buildShape(ctx.b, ctx.getLoc("size"), r.sizes));
  } else {
    value = tensor::ExtractSliceOp::create(
        ctx.b, ctx.getLoc("slice"), slicedType, value, ValueRange{},
        ValueRange{}, ValueRange{}, ctx.b.getDenseI64ArrayAttr(r.starts),
        ctx.b.getDenseI64ArrayAttr(r.sizes),
        ctx.b.getDenseI64ArrayAttr(r.steps));
  }
  if (slicedType == outType) {
    // Name the slice after the output.
    value.getDefiningOp()->setLoc(ctx.getLoc());
    return ctx.setOutput(0, value);
  }
  return ctx.setOutput(0, tosa::ReshapeOp::create(
                              ctx.b, ctx.getLoc(), outType, value,
                              buildShape(ctx.b, ctx.getLoc("shape"),
                                         outType.getShape())));
}

LogicalResult mlir::helia::tflite::convertStridedSlice(OpContext &ctx) {
  if (failed(ctx.checkArity(4, 4, 1)))
    return failure();
  FailureOr<const fb::StridedSliceOptions *> opts =
      ctx.getOptions<fb::StridedSliceOptions>();
  if (failed(opts))
    return failure();
  SliceMasks masks;
  if (*opts) {
    if ((*opts)->ellipsis_mask() || (*opts)->new_axis_mask())
      return ctx.emitError() << "ellipsis and new-axis masks are not supported";
    masks.begin = (*opts)->begin_mask();
    masks.end = (*opts)->end_mask();
    masks.shrink = (*opts)->shrink_axis_mask();
    masks.offset = (*opts)->offset();
  }
  FailureOr<Value> input = ctx.getInput(0);
  FailureOr<SmallVector<int64_t>> begin = ctx.getConstantInts(1);
  FailureOr<SmallVector<int64_t>> end = ctx.getConstantInts(2);
  FailureOr<SmallVector<int64_t>> strides = ctx.getConstantInts(3);
  if (failed(input) || failed(begin) || failed(end) || failed(strides))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  int64_t rank = inType.getRank();
  if (static_cast<int64_t>(begin->size()) != rank ||
      static_cast<int64_t>(end->size()) != rank ||
      static_cast<int64_t>(strides->size()) != rank)
    return ctx.emitError() << "begin, end and strides must have " << rank
                           << " elements";
  FailureOr<ResolvedSlice> slice =
      resolveSlice(ctx, inType, *begin, *end, *strides, masks);
  if (failed(slice))
    return failure();
  if (RankedTensorType::get(slice->keptShape, inType.getElementType()) !=
      outType)
    return ctx.emitError() << "the slice has shape " << "["
                           << llvm::make_range(slice->keptShape.begin(),
                                               slice->keptShape.end())
                           << "], the output " << outType;
  return buildSlice(ctx, *input, *slice);
}

LogicalResult mlir::helia::tflite::convertTranspose(OpContext &ctx) {
  if (failed(ctx.checkArity(2, 2, 1)))
    return failure();
  FailureOr<Value> input = ctx.getInput(0);
  FailureOr<SmallVector<int64_t>> perm = ctx.getConstantInts(1);
  if (failed(input) || failed(perm))
    return failure();
  RankedTensorType inType = ctx.getInputType(0), outType = ctx.getOutputType();
  int64_t rank = inType.getRank();
  SmallVector<int32_t> perms;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= rank || seen[p])
      return ctx.emitError() << "the permutation is not one of " << rank
                             << " axes";
    seen[p] = true;
    perms.push_back(p);
  }
  if (static_cast<int64_t>(perms.size()) != rank)
    return ctx.emitError() << "the permutation has " << perms.size()
                           << " elements for rank " << rank;
  return ctx.setOutput(0, tosa::TransposeOp::create(
                              ctx.b, ctx.getLoc(), outType, *input,
                              ctx.b.getDenseI32ArrayAttr(perms)));
}

LogicalResult mlir::helia::tflite::convertConcatenation(OpContext &ctx) {
  if (failed(ctx.checkArity(1, 1u << 16, 1)))
    return failure();
  FailureOr<const fb::ConcatenationOptions *> opts =
      ctx.getOptions<fb::ConcatenationOptions>();
  if (failed(opts))
    return failure();
  int64_t rank = ctx.getOutputType().getRank();
  int64_t axis = *opts ? (*opts)->axis() : 0;
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return ctx.emitError() << "axis " << axis << " is out of range";
  if (*opts &&
      (*opts)->fused_activation_function() != fb::ActivationFunctionType_NONE)
    return ctx.emitError() << "fused activations are not supported";
  SmallVector<Value> inputs;
  const TensorQuant &qo = ctx.getOutputQuant();
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i) {
    FailureOr<Value> input = ctx.getInput(i);
    if (failed(input))
      return failure();
    const TensorQuant &qi = ctx.getInputQuant(i);
    if (ctx.getOutputType().getElementType().isInteger(8) &&
        (qi.getScale() != qo.getScale() ||
         qi.getZeroPoint() != qo.getZeroPoint()))
      return ctx.emitError() << "input " << i
                             << " is quantized differently from the output "
                                "(TFLite requires one scale and zero point)";
    inputs.push_back(*input);
  }
  return ctx.setOutput(0, tosa::ConcatOp::create(ctx.b, ctx.getLoc(),
                                                 ctx.getOutputType(), inputs,
                                                 ctx.b.getI32IntegerAttr(axis)));
}
