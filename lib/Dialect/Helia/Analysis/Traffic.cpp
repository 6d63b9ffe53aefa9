//===- Traffic.cpp - bytes each op reads and writes per inference ---------===//

#include "helia/Dialect/Helia/Analysis/Traffic.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

uint64_t mul(uint64_t a, uint64_t b) {
  return llvm::SaturatingMultiply(a, b);
}

/// Elements of a statically shaped tensor, else 0.
uint64_t getElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  return static_cast<uint64_t>(tensor.getNumElements());
}

/// Bytes of one element of a tensor, else 0 (scalars and other types are
/// not planned buffers).
uint64_t getElementBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  return getElementByteSize(tensor.getElementType()).value_or(0);
}

uint64_t getBytes(Type type) {
  return mul(getElements(type), getElementBytes(type));
}

ArrayRef<int64_t> getShape(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    return tensor.getShape();
  return {};
}

/// Product of `shape[from, to)`, 0 if a dimension is dynamic or missing.
uint64_t getProduct(ArrayRef<int64_t> shape, size_t from, size_t to) {
  if (to > shape.size())
    return 0;
  uint64_t product = 1;
  for (size_t i = from; i < to; ++i) {
    if (ShapedType::isDynamic(shape[i]))
      return 0;
    product = mul(product, static_cast<uint64_t>(shape[i]));
  }
  return product;
}

/// The shape of the table an op of `tosa` or `tfl` falls under.
enum class TableKind {
  None,
  Conv,
  Depthwise,
  FullyConnected,
  MatMul,
  Pool,
  ReadOnce,
  Slice,
  Elementwise
};

TableKind getTableKind(Operation *op, StringRef &base) {
  StringRef name = op->getName().getStringRef();
  auto [dialect, rest] = name.split('.');
  if (dialect != "tosa" && dialect != "tfl")
    return TableKind::None;
  base = rest;
  return llvm::StringSwitch<TableKind>(rest)
      .Cases({"conv2d", "conv3d", "conv_2d", "conv_3d", "transpose_conv2d"},
             TableKind::Conv)
      .Cases({"depthwise_conv2d", "depthwise_conv_2d"}, TableKind::Depthwise)
      .Case("fully_connected", TableKind::FullyConnected)
      .Cases({"matmul", "batch_matmul"}, TableKind::MatMul)
      .Cases({"avg_pool2d", "max_pool2d", "average_pool_2d", "max_pool_2d"},
             TableKind::Pool)
      .Cases({"concat", "concatenation", "pad", "reshape", "transpose",
              "mean", "sum", "reduce_max", "reduce_min", "reduce_sum",
              "reduce_prod", "reduce_all", "reduce_any", "argmax", "arg_max",
              "arg_min"},
             TableKind::ReadOnce)
      .Cases({"slice", "strided_slice", "gather"}, TableKind::Slice)
      .Default(TableKind::Elementwise);
}

/// The multiply-accumulates per output element of a convolution-like op:
/// the elements of its weight (operand 1) that one output element uses.
uint64_t getReductionSize(TableKind kind, StringRef base, Operation *op) {
  if (op->getNumOperands() < 2)
    return 0;
  ArrayRef<int64_t> weight = getShape(op->getOperand(1));
  switch (kind) {
  case TableKind::Conv:
    // TOSA and TFLite: [OC, KH, KW, IC] (conv3d: [OC, KD, KH, KW, IC]).
    return weight.empty() ? 0 : getProduct(weight, 1, weight.size());
  case TableKind::Depthwise:
    // TOSA: [KH, KW, C, M]; TFLite: [1, KH, KW, C * M].
    return base == "depthwise_conv2d" ? getProduct(weight, 0, 2)
                                      : getProduct(weight, 1, 3);
  case TableKind::FullyConnected:
    // TFLite: [OC, IC].
    return weight.empty() ? 0 : getProduct(weight, weight.size() - 1,
                                           weight.size());
  case TableKind::MatMul: {
    ArrayRef<int64_t> lhs = getShape(op->getOperand(0));
    return lhs.empty() ? 0 : getProduct(lhs, lhs.size() - 1, lhs.size());
  }
  default:
    return 0;
  }
}

/// The window of a pooling op: TOSA's `kernel`, TFLite's `filter_height` x
/// `filter_width`.
uint64_t getPoolWindow(Operation *op) {
  if (auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel"))
    return getProduct(kernel.asArrayRef(), 0, kernel.size());
  auto height = op->getAttrOfType<IntegerAttr>("filter_height");
  auto width = op->getAttrOfType<IntegerAttr>("filter_width");
  if (height && width && height.getInt() > 0 && width.getInt() > 0)
    return mul(height.getInt(), width.getInt());
  return 0;
}

/// Each tensor operand read once, each result written once.
void countOnce(Operation *op, OpTraffic &traffic) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    traffic.operandReads[i] = getBytes(operand.getType());
  for (auto [j, result] : llvm::enumerate(op->getResults()))
    traffic.resultWrites[j] = getBytes(result.getType());
}

void countTable(Operation *op, TableKind kind, StringRef base,
                OpTraffic &traffic) {
  countOnce(op, traffic);
  if (op->getNumResults() == 0)
    return;
  uint64_t outputs = getElements(op->getResult(0).getType());
  auto readsPerOutput = [&](unsigned i, uint64_t times) {
    if (i < op->getNumOperands())
      traffic.operandReads[i] =
          mul(mul(outputs, times), getElementBytes(op->getOperand(i).getType()));
  };
  switch (kind) {
  case TableKind::Conv:
  case TableKind::Depthwise:
  case TableKind::FullyConnected:
  case TableKind::MatMul: {
    uint64_t reduction = getReductionSize(kind, base, op);
    if (reduction == 0)
      return;
    readsPerOutput(0, reduction);
    readsPerOutput(1, reduction);
    // The bias, once per output element.
    if (kind != TableKind::MatMul)
      readsPerOutput(2, 1);
    return;
  }
  case TableKind::Pool:
    if (uint64_t window = getPoolWindow(op))
      readsPerOutput(0, window);
    return;
  case TableKind::Slice:
    readsPerOutput(0, 1);
    return;
  case TableKind::Elementwise:
    // Broadcast operands are read again for every result element.
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      traffic.operandReads[i] =
          std::max(traffic.operandReads[i],
                   mul(outputs, getElementBytes(operand.getType())));
    return;
  default:
    return;
  }
}

void countLinalg(linalg::LinalgOp op, OpTraffic &traffic) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  uint64_t iterations = getProduct(ranges, 0, ranges.size());
  if (iterations == 0 && !ranges.empty()) {
    countOnce(op, traffic);
    return;
  }
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.payloadUsesValueFromOperand(input))
      traffic.operandReads[input->getOperandNumber()] =
          mul(iterations, getElementBytes(input->get().getType()));
  for (OpOperand &init : op.getDpsInitsMutable()) {
    uint64_t bytes = getBytes(init.get().getType());
    traffic.operandWrites[init.getOperandNumber()] = bytes;
    if (op.payloadUsesValueFromOperand(&init))
      traffic.operandReads[init.getOperandNumber()] = bytes;
  }
}

} // namespace

OpTraffic mlir::helia::getOpTraffic(Operation *op) {
  OpTraffic traffic;
  traffic.operandReads.assign(op->getNumOperands(), 0);
  traffic.operandWrites.assign(op->getNumOperands(), 0);
  traffic.resultWrites.assign(op->getNumResults(), 0);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    countLinalg(linalgOp, traffic);
    return traffic;
  }
  // Nothing moves: the op names storage, or its regions do the work (their
  // ops are counted on their own).
  if (op->hasTrait<OpTrait::ConstantLike>() ||
      op->hasTrait<OpTrait::IsTerminator>() || op->getNumRegions() > 0 ||
      isa<ViewLikeOpInterface, tensor::EmptyOp, tensor::ExtractSliceOp,
          tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp,
          tensor::ReshapeOp>(op))
    return traffic;
  // An unregistered op without operands is an imported weight.
  if (!op->isRegistered() && op->getNumOperands() == 0)
    return traffic;
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    uint64_t bytes = getBytes(insert.getSource().getType());
    traffic.operandReads[insert.getSourceMutable().getOperandNumber()] = bytes;
    traffic.operandWrites[insert.getDestMutable().getOperandNumber()] = bytes;
    return traffic;
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    traffic.operandReads[0] = getElementBytes(extract.getTensor().getType());
    return traffic;
  }
  if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
    traffic.operandWrites[insert.getDestMutable().getOperandNumber()] =
        getElementBytes(insert.getDest().getType());
    return traffic;
  }
  StringRef base;
  TableKind kind = getTableKind(op, base);
  if (kind != TableKind::None) {
    countTable(op, kind, base, traffic);
    return traffic;
  }
  countOnce(op, traffic);
  return traffic;
}

TrafficAnalysis::TrafficAnalysis(const BufferAnalysis &analysis)
    : analysis(analysis) {
  buffers.resize(analysis.getBuffers().size());
  FunctionOpInterface func = analysis.getFunction();
  for (Block &block : func.getFunctionBody())
    visit(block, 1);
}

/// The value whose buffer `value` is stored in, for the values that
/// BufferAnalysis does not track as tensors of their own: ops nested in a
/// region (a tiled loop's slices, its iter_args, the results written into
/// them) share the storage of a view's source, a destination's init or a
/// loop's init.
static Value getStorage(const BufferAnalysis &analysis, Value value) {
  for (unsigned depth = 0; depth < 64; ++depth) {
    if (!analysis.getAliasedBuffers(value).empty())
      return value;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return value;
      value = init->get();
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (isa<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::CastOp, tensor::ReshapeOp>(op)) {
      value = op->getOperand(0);
      continue;
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      value = insert.getDest();
      continue;
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
      continue;
    }
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      unsigned number = cast<OpResult>(value).getResultNumber();
      if (number >= loop.getRegionIterArgs().size())
        return value;
      OpOperand *init = loop.getTiedLoopInit(loop.getRegionIterArgs()[number]);
      if (!init)
        return value;
      value = init->get();
      continue;
    }
    return value;
  }
  return value;
}

/// A tensor that a linalg payload reads by `tensor.extract` (a lookup
/// table, such as a softmax's exp table) is no operand of the op: one
/// element per iteration of the op's domain.
template <typename AddFn>
static void addPayloadLookups(linalg::LinalgOp op, AddFn &add) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return;
  uint64_t iterations = getProduct(ranges, 0, ranges.size());
  op->walk([&](tensor::ExtractOp extract) {
    Value table = extract.getTensor();
    Operation *owner = table.getParentBlock()->getParentOp();
    if (op == owner || op->isProperAncestor(owner))
      return;
    add(table, mul(iterations, getElementBytes(table.getType())), 0);
  });
}

void TrafficAnalysis::visit(Block &block, uint64_t times) {
  auto add = [&](Value value, uint64_t reads, uint64_t writes) {
    if (!reads && !writes)
      return;
    value = getStorage(analysis, value);
    for (const BufferInfo *buffer : analysis.getAliasedBuffers(value)) {
      BufferTraffic &traffic = buffers[buffer->index];
      traffic.readBytes =
          llvm::SaturatingAdd(traffic.readBytes, mul(reads, times));
      traffic.writeBytes =
          llvm::SaturatingAdd(traffic.writeBytes, mul(writes, times));
    }
  };
  for (Operation &op : block) {
    if (op.getNumRegions() > 0 && !isa<linalg::LinalgOp>(op)) {
      uint64_t inner = times;
      if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
        if (std::optional<APInt> trips = loop.getStaticTripCount())
          inner = mul(times, trips->getLimitedValue());
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          visit(nested, inner);
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      addPayloadLookups(linalgOp, add);
    OpTraffic traffic = getOpTraffic(&op);
    for (OpOperand &operand : op.getOpOperands())
      add(operand.get(), traffic.operandReads[operand.getOperandNumber()],
          traffic.operandWrites[operand.getOperandNumber()]);
    for (auto [j, result] : llvm::enumerate(op.getResults()))
      add(result, 0, traffic.resultWrites[j]);
  }
}

llvm::StringMap<::helia::planner::AccessCost>
mlir::helia::getMemoryCosts(ModuleOp module, PlatformAttr platform) {
  llvm::StringMap<::helia::planner::AccessCost> costs;
  for (MemoryDescAttr memory : platform.getMemoryList())
    costs[memory.getName()] = {memory.getReadCycles(), memory.getWriteCycles(),
                               memory.getAccessBytes()};
  auto overrides = module->getAttrOfType<DictionaryAttr>(
      HeliaDialect::MemoryCostsAttrHelper::getNameStr());
  if (!overrides)
    return costs;
  for (NamedAttribute entry : overrides) {
    auto figures = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
    if (!figures || figures.size() != 3 || !costs.count(entry.getName()))
      continue;
    costs[entry.getName()] = {static_cast<uint64_t>(figures[0]),
                              static_cast<uint64_t>(figures[1]),
                              static_cast<uint64_t>(figures[2])};
  }
  return costs;
}
