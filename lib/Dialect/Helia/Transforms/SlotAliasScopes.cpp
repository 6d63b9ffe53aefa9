//===- SlotAliasScopes.cpp - which slot every load and store accesses -----===//
//
// The slots of a plan are views of one arena: to LLVM, offsets into one
// object. This pass gives every memref access the byte range of its root
// buffer that it can touch and marks it, on its location, with an alias
// scope per range and the scopes of the disjoint ranges of the same root
// (helia-attach-slot-alias-scopes moves the marks onto the LLVM ops).
//
//===----------------------------------------------------------------------===//

#include "SlotAliasScopes.h"

#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIAMARKSLOTALIASSCOPES
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;

namespace {
/// The bytes [begin, end) of a root buffer that an access can touch. The
/// root is a global (by symbol: two memref.get_global of one symbol are one
/// buffer) or a value (a function argument, an allocation).
struct ByteRange {
  Attribute global;
  Value root;
  int64_t begin = 0, end = 0;

  bool sameRoot(const ByteRange &other) const {
    return global ? global == other.global : root == other.root;
  }
  bool disjoint(const ByteRange &other) const {
    return end <= other.begin || other.end <= begin;
  }
  bool operator==(const ByteRange &other) const {
    return sameRoot(other) && begin == other.begin && end == other.end;
  }
};
} // namespace

/// The bytes of one element of `type`, or nothing (index, scalable vectors,
/// elements that do not fill their bytes exactly, such as i1 or i24).
static std::optional<int64_t> getElementBytes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return std::nullopt;
    std::optional<int64_t> element = getElementBytes(vector.getElementType());
    if (!element)
      return std::nullopt;
    return *element * vector.getNumElements();
  }
  if (!hasExactElementBytes(type))
    return std::nullopt;
  return *getElementByteSize(type);
}

/// The bytes [begin, end) past its aligned pointer that `type` can address
/// (offset, sizes and strides all static), or nothing.
static std::optional<std::pair<int64_t, int64_t>>
getStaticExtent(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes = getElementBytes(type.getElementType());
  if (!elementBytes)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  int64_t first = offset, last = offset;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    if (size == 0)
      return std::nullopt;
    if (stride >= 0)
      last += (size - 1) * stride;
    else
      first += (size - 1) * stride;
  }
  if (first < 0)
    return std::nullopt;
  return std::make_pair(first * *elementBytes, (last + 1) * *elementBytes);
}

namespace {
/// Where the aligned pointer of a memref value points: `shift` bytes past
/// the aligned pointer of its root, within the extent of the nearest view
/// if every op between that view and the value stays in bounds.
struct Origin {
  Attribute global;
  Value root;
  int64_t shift = 0;
  std::optional<std::pair<int64_t, int64_t>> viewExtent;
  bool inBounds = true;

  bool operator==(const Origin &other) const {
    return global == other.global && root == other.root &&
           shift == other.shift && viewExtent == other.viewExtent &&
           inBounds == other.inBounds;
  }
};

/// Follows memref values to their roots, through views and block arguments
/// (the memrefs a loop carries).
class OriginTracer {
public:
  /// The origin of `value`; failure when it is unknown, nullopt for a
  /// block argument already being traced (a value a loop passes back to
  /// itself, which adds no origin).
  FailureOr<std::optional<Origin>> trace(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return traceBlockArgument(cast<BlockArgument>(value));
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      APInt byteShift;
      if (!matchPattern(view.getByteShift(), m_ConstantInt(&byteShift)))
        return failure();
      FailureOr<std::optional<Origin>> origin = trace(view.getSource());
      if (failed(origin) || !*origin)
        return origin;
      Origin result = **origin;
      result.shift += byteShift.getSExtValue();
      result.viewExtent = getStaticExtent(view.getType());
      if (result.viewExtent) {
        result.viewExtent->first += result.shift;
        result.viewExtent->second += result.shift;
      }
      result.inBounds = true;
      return std::optional<Origin>(result);
    }
    // Ops whose result shares its source's aligned pointer and stays
    // within it.
    if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::AssumeAlignmentOp,
            memref::ExtractStridedMetadataOp>(def))
      return trace(def->getOperand(0));
    // The same pointer, but it can address anything past it.
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(def)) {
      FailureOr<std::optional<Origin>> origin = trace(cast.getSource());
      if (failed(origin) || !*origin)
        return origin;
      Origin result = **origin;
      result.inBounds = false;
      return std::optional<Origin>(result);
    }
    return std::optional<Origin>(getRoot(value));
  }

private:
  static Origin getRoot(Value value) {
    Origin origin;
    if (auto global = value.getDefiningOp<memref::GetGlobalOp>())
      origin.global = global.getNameAttr();
    else
      origin.root = value;
    return origin;
  }

  /// A block argument other than a function's: the one origin of every
  /// value its predecessors pass.
  FailureOr<std::optional<Origin>> traceBlockArgument(BlockArgument arg) {
    Block *block = arg.getOwner();
    if (block->isEntryBlock())
      return std::optional<Origin>(getRoot(arg));
    if (!inProgress.insert(arg).second)
      return std::optional<Origin>();
    std::optional<Origin> result;
    bool ok = true;
    for (auto it = block->pred_begin(); ok && it != block->pred_end(); ++it) {
      auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
      if (!branch) {
        ok = false;
        break;
      }
      Operation *terminator = branch.getOperation();
      for (unsigned i = 0; ok && i < terminator->getNumSuccessors(); ++i) {
        if (terminator->getSuccessor(i) != block)
          continue;
        Value incoming =
            branch.getSuccessorOperands(i)[arg.getArgNumber()];
        if (!incoming) {
          ok = false;
          break;
        }
        FailureOr<std::optional<Origin>> origin = trace(incoming);
        if (failed(origin)) {
          ok = false;
          break;
        }
        if (!*origin)
          continue;
        if (result && !(*result == **origin))
          ok = false;
        result = *origin;
      }
    }
    inProgress.erase(arg);
    if (!ok)
      return failure();
    return result;
  }

  DenseSet<Value> inProgress;
};
} // namespace

/// The bytes of its root that an access through `memref` can touch.
static std::optional<ByteRange> getByteRange(Value memref,
                                             OriginTracer &tracer) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return std::nullopt;
  FailureOr<std::optional<Origin>> origin = tracer.trace(memref);
  if (failed(origin) || !*origin)
    return std::nullopt;
  // From the memref's own layout, past its aligned pointer; else the
  // extent of the view it lies in.
  std::optional<std::pair<int64_t, int64_t>> extent;
  if (std::optional<std::pair<int64_t, int64_t>> own = getStaticExtent(type))
    extent = std::make_pair((*origin)->shift + own->first,
                            (*origin)->shift + own->second);
  else if ((*origin)->inBounds)
    extent = (*origin)->viewExtent;
  if (!extent)
    return std::nullopt;
  ByteRange range;
  range.global = (*origin)->global;
  range.root = (*origin)->root;
  range.begin = extent->first;
  range.end = extent->second;
  return range;
}

/// The memref an access reads or writes.
static Value getAccessedMemRef(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getBase();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getBase();
  return nullptr;
}

namespace {
struct HeliaMarkSlotAliasScopes
    : mlir::helia::impl::HeliaMarkSlotAliasScopesBase<
          HeliaMarkSlotAliasScopes> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration())
        continue;
      // The distinct ranges, in order of first access, and each access's.
      SmallVector<ByteRange> ranges;
      SmallVector<std::pair<Operation *, unsigned>> accesses;
      OriginTracer tracer;
      func.walk([&](Operation *op) {
        Value memref = getAccessedMemRef(op);
        if (!memref)
          return;
        std::optional<ByteRange> range = getByteRange(memref, tracer);
        if (!range)
          return;
        auto *it = llvm::find(ranges, *range);
        unsigned index = it - ranges.begin();
        if (it == ranges.end())
          ranges.push_back(*range);
        accesses.push_back({op, index});
      });
      if (ranges.size() < 2)
        continue;
      auto domain = LLVM::AliasScopeDomainAttr::get(
          ctx, StringAttr::get(ctx, "helia slots of @" + func.getName()));
      SmallVector<Attribute> scopes;
      for (const ByteRange &range : ranges)
        scopes.push_back(LLVM::AliasScopeAttr::get(
            domain, StringAttr::get(ctx, "bytes [" + Twine(range.begin) +
                                             ", " + Twine(range.end) + ")")));
      // Each range's disjoint ranges of the same root.
      SmallVector<ArrayAttr> disjoint;
      for (const ByteRange &range : ranges) {
        SmallVector<Attribute> others;
        for (auto [other, scope] : llvm::zip(ranges, scopes))
          if (range.sameRoot(other) && range.disjoint(other))
            others.push_back(scope);
        disjoint.push_back(ArrayAttr::get(ctx, others));
      }
      for (auto [op, index] : accesses) {
        if (disjoint[index].empty())
          continue;
        op->setLoc(markSlotAccess(op->getLoc(),
                                  ArrayAttr::get(ctx, {scopes[index]}),
                                  disjoint[index]));
      }
    }
  }
};
} // namespace
