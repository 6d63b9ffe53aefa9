//===- FoldConstantSubgraphs.cpp - constants moved at compile time --------===//
//
// Frontends broadcast, transpose and reshape weights at run time: each such
// op writes a scratch tensor computed from constants alone, RAM that a
// microcontroller can rarely spare. This pass evaluates those ops at compile
// time so that their results become constants (flash) instead of scratch.
// It only folds ops that move elements without arithmetic, so the folded
// bytes are exactly the bytes the op would have written.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/DebugLog.h"

#include <cstring>

#define DEBUG_TYPE "helia-fold-constant-subgraphs"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAFOLDCONSTANTSUBGRAPHS
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
struct HeliaFoldConstantSubgraphs
    : mlir::helia::impl::HeliaFoldConstantSubgraphsBase<
          HeliaFoldConstantSubgraphs> {
  using Base::Base;
  void runOnOperation() override;
};

/// The bytes of a constant tensor, one element after the other in row-major
/// order; a splat holds one element.
struct ConstantBytes {
  ArrayRef<char> data;
  bool splat = false;
};
} // namespace

/// The bytes of one element of a statically shaped tensor whose elements are
/// exact bytes (hasExactElementBytes), so that moving an element is copying
/// its bytes.
static std::optional<unsigned> getElementBytes(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape() ||
      !hasExactElementBytes(shaped.getElementType()))
    return std::nullopt;
  return *getElementByteSize(shaped.getElementType());
}

static std::optional<ConstantBytes> getConstantBytes(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    // Bit-packed i1 data is not one byte per element.
    if (!getElementBytes(dense.getType()))
      return std::nullopt;
    return ConstantBytes{dense.getRawData(), dense.isSplat()};
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    std::optional<unsigned> bytes = getElementBytes(resource.getType());
    if (!blob || !bytes)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    if (static_cast<int64_t>(data.size()) !=
        resource.getType().getNumElements() * *bytes)
      return std::nullopt;
    return ConstantBytes{data, false};
  }
  return std::nullopt;
}

/// Every use only reads the value: folding it into a constant then saves its
/// buffer. An op that writes into it (a destination) would make
/// bufferization copy the constant into a new buffer, which saves nothing.
static bool onlyRead(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
      return !dps.isDpsInit(&use);
    return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp,
               tensor::ExtractOp, tensor::ExtractSliceOp>(user);
  });
}

/// A linalg op that copies one element of one input into each element of
/// its result: a `linalg.generic` whose body only yields an input's block
/// argument, or `linalg.broadcast`, `linalg.transpose`, `linalg.copy`.
/// Returns the input it copies from.
static OpOperand *getMovedInput(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return nullptr;
  Block *body = op.getBlock();
  if (!body || !llvm::hasSingleElement(*body))
    return nullptr;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return nullptr;
  auto arg = dyn_cast<BlockArgument>(yield.getOperand(0));
  if (!arg || arg.getOwner() != body)
    return nullptr;
  OpOperand *input = op.getMatchingOpOperand(arg);
  if (!input || op.isDpsInit(input))
    return nullptr;
  return input;
}

/// The elements of `type`, copied from `source`: loop d runs `ranges[d]`
/// times and moves `inputStride[d]` elements in the source and
/// `outputStride[d]` in the result; the first element read is `inputBase`.
static DenseElementsAttr gather(RankedTensorType type, ArrayRef<char> source,
                                size_t bytes, ArrayRef<int64_t> ranges,
                                ArrayRef<int64_t> inputStride,
                                int64_t inputBase,
                                ArrayRef<int64_t> outputStride) {
  std::vector<char> result(type.getNumElements() * bytes);
  if (result.empty())
    return DenseElementsAttr::getFromRawBuffer(type, result);
  int64_t numLoops = ranges.size();
  SmallVector<int64_t> point(numLoops, 0);
  int64_t in = inputBase, out = 0;
  while (true) {
    std::memcpy(result.data() + out * bytes, source.data() + in * bytes,
                bytes);
    // Odometer over the loop ranges, innermost loop fastest.
    int64_t d = numLoops - 1;
    for (; d >= 0; --d) {
      if (++point[d] < ranges[d]) {
        in += inputStride[d];
        out += outputStride[d];
        break;
      }
      in -= inputStride[d] * (ranges[d] - 1);
      out -= outputStride[d] * (ranges[d] - 1);
      point[d] = 0;
    }
    if (d < 0)
      break;
  }
  return DenseElementsAttr::getFromRawBuffer(type, result);
}

/// Evaluates a moving linalg op on constant bytes. The output map must be a
/// permutation (every element written once); each input dimension must be a
/// loop dimension or a constant index.
static std::optional<DenseElementsAttr> evaluateMove(linalg::LinalgOp op) {
  OpOperand *input = getMovedInput(op);
  if (!input)
    return std::nullopt;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = dyn_cast<RankedTensorType>(input->get().getType());
  if (!resultType || !inputType || !inputType.hasStaticShape())
    return std::nullopt;
  std::optional<unsigned> elementBytes = getElementBytes(resultType);
  if (!elementBytes ||
      getElementBytes(inputType) != elementBytes ||
      inputType.getElementType() != resultType.getElementType())
    return std::nullopt;
  std::optional<ConstantBytes> source = getConstantBytes(input->get());
  if (!source)
    return std::nullopt;
  if (source->splat)
    return DenseElementsAttr::getFromRawBuffer(resultType, source->data);

  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap inputMap = op.getMatchingIndexingMap(input);
  if (!outputMap.isPermutation())
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;

  // Per loop dimension, the element stride it moves in the input and in the
  // output; constant input indices add a fixed offset.
  unsigned numLoops = ranges.size();
  SmallVector<int64_t> inputStride(numLoops, 0), outputStride(numLoops, 0);
  int64_t inputBase = 0;
  SmallVector<int64_t> inStrides = computeStrides(inputType.getShape());
  SmallVector<int64_t> outStrides = computeStrides(resultType.getShape());
  for (auto [r, expr] : llvm::enumerate(inputMap.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      inputStride[dim.getPosition()] += inStrides[r];
    } else if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
      if (cst.getValue() < 0 || cst.getValue() >= inputType.getDimSize(r))
        return std::nullopt;
      inputBase += cst.getValue() * inStrides[r];
    } else {
      return std::nullopt;
    }
  }
  for (auto [r, expr] : llvm::enumerate(outputMap.getResults()))
    outputStride[cast<AffineDimExpr>(expr).getPosition()] = outStrides[r];
  return gather(resultType, source->data, *elementBytes, ranges, inputStride,
                inputBase, outputStride);
}

/// Evaluates a `tensor.extract_slice` of a constant with static offsets,
/// sizes and strides (a rank-reducing slice drops unit dimensions, which
/// leaves the row-major order of the elements as it is).
static std::optional<DenseElementsAttr>
evaluateSlice(tensor::ExtractSliceOp slice) {
  RankedTensorType sourceType = slice.getSourceType();
  RankedTensorType resultType = slice.getResultType();
  std::optional<unsigned> elementBytes = getElementBytes(resultType);
  if (!elementBytes || !sourceType.hasStaticShape() ||
      getElementBytes(sourceType) != elementBytes)
    return std::nullopt;
  std::optional<ConstantBytes> source = getConstantBytes(slice.getSource());
  if (!source)
    return std::nullopt;
  if (source->splat)
    return DenseElementsAttr::getFromRawBuffer(resultType, source->data);
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (llvm::any_of(offsets, ShapedType::isDynamic) ||
      llvm::any_of(sizes, ShapedType::isDynamic) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  unsigned rank = sourceType.getRank();
  SmallVector<int64_t> sourceStrides = computeStrides(sourceType.getShape());
  SmallVector<int64_t> outputStride = computeStrides(sizes);
  SmallVector<int64_t> inputStride(rank);
  int64_t inputBase = 0;
  for (unsigned d = 0; d < rank; ++d) {
    inputStride[d] = sourceStrides[d] * strides[d];
    inputBase += offsets[d] * sourceStrides[d];
  }
  return gather(resultType, source->data, *elementBytes, sizes, inputStride,
                inputBase, outputStride);
}

/// The constant an op would compute, if it only moves constant elements.
static std::optional<DenseElementsAttr> evaluate(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // A fill of a constant scalar: every element the same.
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      Attribute value;
      auto type = dyn_cast<RankedTensorType>(fill.getResult(0).getType());
      if (!type || !type.hasStaticShape() ||
          !matchPattern(fill.value(), m_Constant(&value)) ||
          !isa<IntegerAttr, FloatAttr>(value) ||
          cast<TypedAttr>(value).getType() != type.getElementType())
        return std::nullopt;
      return DenseElementsAttr::get(type, value);
    }
    return evaluateMove(linalgOp);
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return evaluateSlice(slice);
  // Reshapes of constants fold upstream.
  if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp>(
          op))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    Attribute attr;
    if (!matchPattern(operand, m_Constant(&attr)))
      return std::nullopt;
    operands.push_back(attr);
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return std::nullopt;
  auto attr = dyn_cast_if_present<DenseElementsAttr>(
      dyn_cast<Attribute>(folded.front()));
  if (!attr || attr.getType() != op->getResult(0).getType())
    return std::nullopt;
  return attr;
}

void HeliaFoldConstantSubgraphs::runOnOperation() {
  FunctionOpInterface func = getOperation();
  // Host code stays as written.
  if (func.isExternal() || !isPlannedFunction(func))
    return markAllAnalysesPreserved();
  // Producers before their users, so that chains fold as a whole.
  SmallVector<Operation *> candidates;
  func.getFunctionBody().walk([&](Operation *op) {
    if (op->getNumResults() == 1 &&
        isa<RankedTensorType>(op->getResult(0).getType()) &&
        !op->hasTrait<OpTrait::ConstantLike>())
      candidates.push_back(op);
  });
  uint64_t folded = 0;
  for (Operation *op : candidates) {
    if (!onlyRead(op->getResult(0)))
      continue;
    std::optional<DenseElementsAttr> value = evaluate(op);
    if (!value)
      continue;
    LDBG() << "folding " << op->getName() << " at " << op->getLoc();
    OpBuilder builder(op);
    auto constant = arith::ConstantOp::create(builder, op->getLoc(), *value);
    op->getResult(0).replaceAllUsesWith(constant);
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    ++folded;
    // Drop what only fed the folded op (its empty destination, a weight
    // that is now folded everywhere).
    for (Value operand : operands) {
      Operation *def = operand.getDefiningOp();
      if (def && def->use_empty() && isMemoryEffectFree(def))
        def->erase();
    }
  }
  numFolded += folded;
  if (!folded)
    markAllAnalysesPreserved();
}
