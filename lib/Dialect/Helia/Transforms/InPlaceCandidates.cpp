//===- InPlaceCandidates.cpp - elementwise writes over dying inputs -------===//

#include "InPlaceCandidates.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::helia;

/// The ops without bufferization (TensorFlow Lite, imported as unregistered
/// `tfl.*` ops) whose kernels read each element of every input whose shape
/// is the output's at the index they write, before writing it: unary
/// activations and math, binary arithmetic (whose other input may
/// broadcast), and conversions. docs/Design.md lists them as the kernels
/// that must tolerate an output that aliases an input.
static bool isElementwiseTflOp(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"tfl.add", "tfl.sub", "tfl.mul", "tfl.div",
              "tfl.squared_difference", "tfl.maximum", "tfl.minimum"},
             true)
      .Cases({"tfl.logistic", "tfl.tanh", "tfl.relu", "tfl.relu6",
              "tfl.relu_n1_to_1", "tfl.relu_0_to_1", "tfl.leaky_relu",
              "tfl.hard_swish", "tfl.elu"},
             true)
      .Cases({"tfl.exp", "tfl.log", "tfl.sqrt", "tfl.rsqrt", "tfl.abs",
              "tfl.neg", "tfl.square", "tfl.floor", "tfl.ceil", "tfl.round",
              "tfl.sin", "tfl.cos", "tfl.logical_not"},
             true)
      .Cases({"tfl.quantize", "tfl.dequantize", "tfl.cast"}, true)
      .Default(false);
}

/// The buffer of `value` if the op at `step` may write a result of `type`
/// over it: a scratch buffer computed in the function (not an argument,
/// which is the caller's, nor a constant or persistent tensor) that nothing
/// reads after `step` (no later reader of any tensor stored in it), and of
/// the result's size: a larger buffer (`value` a view into it) would live on
/// with the result and cost more than the result's own.
static const BufferInfo *getDyingBuffer(const BufferAnalysis &analysis,
                                        Value value, Type type,
                                        int64_t step) {
  const BufferInfo *buffer = analysis.lookup(value);
  if (!buffer || buffer->kind != TensorKind::Scratch ||
      buffer->lastStep != step || buffer->size != getTensorByteSize(type))
    return nullptr;
  Value root = analysis.getTensors()[buffer->members.front()].value;
  if (isa<BlockArgument>(root))
    return nullptr;
  return buffer;
}

/// True if a value other than `input` that `op` reads (an operand, or a
/// value its regions use from above) may be stored in `buffer`: the op
/// would read that value at other indices than it writes.
static bool readsBufferOtherwise(Operation *op, Value input,
                                 const BufferInfo *buffer,
                                 const BufferAnalysis &analysis) {
  auto inBuffer = [&](Value value) {
    return value != input &&
           llvm::is_contained(analysis.getAliasedBuffers(value), buffer);
  };
  if (llvm::any_of(op->getOperands(), inBuffer))
    return true;
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  // `input` itself read inside a region (e.g. tensor.extract at any index)
  // is read at other indices too.
  return llvm::any_of(above, [&](Value value) {
    return value == input || inBuffer(value);
  });
}

/// Finds an input of the linalg op `op` (at `step`) that a result may be
/// written over: the op is elementwise (parallel loops only); the init is a
/// tensor with undefined contents (`tensor.empty`, `alloc_tensor` without
/// copy) of a scratch result, and the payload does not read it; the input
/// has the result's type, the init's indexing map, which is a permutation
/// (each element read at the index written, and read by no other
/// iteration), and a dying buffer that the op reads through no other
/// operand. One result per op (the first init that finds one).
void mlir::helia::findLinalgWrites(linalg::LinalgOp op, int64_t step,
                             const BufferAnalysis &analysis,
                             DenseSet<const BufferInfo *> &taken,
                             SmallVectorImpl<InPlaceWrite> &writes) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Operation *def = init.get().getDefiningOp();
    auto alloc = dyn_cast_or_null<bufferization::AllocTensorOp>(def);
    if (!isa_and_nonnull<tensor::EmptyOp>(def) &&
        !(alloc && !alloc.getCopy()))
      continue;
    if (op.payloadUsesValueFromOperand(&init))
      continue;
    AffineMap initMap = op.getMatchingIndexingMap(&init);
    if (!initMap.isPermutation())
      continue;
    // A constant or persistent result keeps a buffer of its own.
    Value result = op.getTiedOpResult(&init);
    if (getTensorKind(result) != TensorKind::Scratch)
      continue;
    Type resultType = result.getType();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (value.getType() != resultType ||
          op.getMatchingIndexingMap(input) != initMap)
        continue;
      const BufferInfo *buffer =
          getDyingBuffer(analysis, value, resultType, step);
      if (!buffer || taken.contains(buffer))
        continue;
      // Every read of the input through this op must be at the index
      // written: another operand with the same value and another map reads
      // elsewhere.
      if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *other) {
            return other->get() == value &&
                   op.getMatchingIndexingMap(other) != initMap;
          }))
        continue;
      if (readsBufferOtherwise(op, value, buffer, analysis))
        continue;
      taken.insert(buffer);
      writes.push_back({op, &init, input});
      return;
    }
  }
}

/// Finds an operand of the table's op `op` (at `step`) that its one result
/// may be written over: same shape and byte size, a dying buffer, and no
/// other operand stored in it.
void mlir::helia::findMarkedWrite(Operation *op, int64_t step,
                            const BufferAnalysis &analysis,
                            DenseSet<const BufferInfo *> &taken,
                            SmallVectorImpl<InPlaceWrite> &writes) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      op->hasAttr(HeliaDialect::InPlaceAttrHelper::getNameStr()) ||
      !isElementwiseTflOp(op->getName().getStringRef()))
    return;
  Value result = op->getResult(0);
  if (!isTensorValue(result) || getTensorKind(result) != TensorKind::Scratch ||
      !analysis.lookup(result))
    return;
  auto resultType = cast<ShapedType>(result.getType());
  for (OpOperand &input : op->getOpOperands()) {
    Value value = input.get();
    auto type = dyn_cast<ShapedType>(value.getType());
    if (!type || !isTensorValue(value) ||
        type.getShape() != resultType.getShape() ||
        getTensorByteSize(type) != getTensorByteSize(resultType))
      continue;
    const BufferInfo *buffer =
        getDyingBuffer(analysis, value, resultType, step);
    if (!buffer || taken.contains(buffer) ||
        readsBufferOtherwise(op, value, buffer, analysis))
      continue;
    taken.insert(buffer);
    writes.push_back({op, nullptr, &input});
    return;
  }
}
