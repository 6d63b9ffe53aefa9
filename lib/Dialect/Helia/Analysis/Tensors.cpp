//===- Tensors.cpp - which values are planned tensors ---------------------===//

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

std::string mlir::helia::getTensorDisplayName(StringRef name, uint64_t id) {
  return name.empty() ? "#" + std::to_string(id) : name.str();
}

std::string TensorInfo::getDisplayName() const {
  return getTensorDisplayName(name ? name.getValue() : StringRef(), id);
}

bool mlir::helia::isTensorValue(Value value) {
  return isa<TensorType>(value.getType());
}

/// Appends the names in `loc` in order (a fused location may carry several).
static void collectLocNames(Location loc, SmallVectorImpl<StringAttr> &names) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc)) {
    names.push_back(nameLoc.getName());
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      collectLocNames(inner, names);
}

StringAttr mlir::helia::getTensorName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast_or_null<FunctionOpInterface>(parent))
      if (auto name = func.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), HeliaDialect::NameAttrHelper::getNameStr()))
        return name;
    SmallVector<StringAttr> names;
    collectLocNames(arg.getLoc(), names);
    return names.empty() ? StringAttr() : names.front();
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  unsigned index = result.getResultNumber();
  if (Attribute attr = op->getAttr(HeliaDialect::NameAttrHelper::getNameStr())) {
    if (auto name = dyn_cast<StringAttr>(attr))
      return op->getNumResults() == 1 ? name : StringAttr();
    if (auto list = dyn_cast<ArrayAttr>(attr);
        list && index < list.size())
      return dyn_cast<StringAttr>(list[index]);
  }
  SmallVector<StringAttr> names;
  collectLocNames(op->getLoc(), names);
  if (names.empty())
    return {};
  if (names.size() == op->getNumResults())
    return names[index];
  return op->getNumResults() == 1 ? names.front() : StringAttr();
}

TensorKind mlir::helia::getTensorKind(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast_or_null<FunctionOpInterface>(
            arg.getOwner()->getParentOp())) {
      unsigned i = arg.getArgNumber();
      if (func.getArgAttr(i, HeliaDialect::ConstantAttrHelper::getNameStr()))
        return TensorKind::Constant;
      if (func.getArgAttr(i, HeliaDialect::PersistentAttrHelper::getNameStr()) ||
          func.getArgAttr(i, kTflmPersistentAttrName))
        return TensorKind::Persistent;
    }
    return TensorKind::Scratch;
  }
  Operation *op = value.getDefiningOp();
  if (op->hasAttr(HeliaDialect::ConstantAttrHelper::getNameStr()) ||
      op->hasTrait<OpTrait::ConstantLike>())
    return TensorKind::Constant;
  if (op->hasAttr(HeliaDialect::PersistentAttrHelper::getNameStr()) ||
      op->hasAttr(kTflmPersistentAttrName))
    return TensorKind::Persistent;
  return TensorKind::Scratch;
}

/// The attribute `name` of a tensor: for an entry-block argument its
/// function's argument attribute, for a result the entry of its op's array.
template <typename AttrT>
static AttrT getTensorAttr(Value value, StringRef name) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast_or_null<FunctionOpInterface>(
        arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return {};
    return func.getArgAttrOfType<AttrT>(arg.getArgNumber(), name);
  }
  auto result = cast<OpResult>(value);
  auto list = result.getOwner()->getAttrOfType<ArrayAttr>(name);
  if (!list || result.getResultNumber() >= list.size())
    return {};
  return dyn_cast<AttrT>(list[result.getResultNumber()]);
}

PlacementAttr mlir::helia::getPlacement(Value value) {
  return getTensorAttr<PlacementAttr>(value,
                                      HeliaDialect::PlacementAttrHelper::getNameStr());
}

BindingAttr mlir::helia::getBinding(Value value) {
  return getTensorAttr<BindingAttr>(value, HeliaDialect::BindingAttrHelper::getNameStr());
}

/// function: host code around the model (a harness that prints through an
/// unranked cast, say) is what the planner most often trips over.
static InFlightDiagnostic emitPlanningError(Value value, Location loc) {
  InFlightDiagnostic diag = emitError(loc);
  if (auto func =
          value.getParentRegion()->getParentOfType<FunctionOpInterface>())
    attachUnplannedNote(diag, func);
  return diag;
}

/// Checks that a tensor can be planned: ranked, static, sized.
static LogicalResult checkPlannable(Value value, Location loc,
                                    const Twine &what) {
  auto type = cast<TensorType>(value.getType());
  if (!type.hasRank())
    return emitPlanningError(value, loc) << what << " has unranked type " << type
                          << "; helia plans only ranked, statically shaped "
                             "tensors";
  if (!type.hasStaticShape())
    return emitPlanningError(value, loc) << what << " has dynamic shape " << type
                          << "; helia plans only statically shaped tensors "
                             "(give every dimension a size)";
  std::optional<uint64_t> bytes = getTensorByteSize(type);
  if (!bytes)
    return emitPlanningError(value, loc) << what << " of type " << type
                          << " has no byte size (element type without a bit "
                             "width, or more than 2^64 bytes)";
  // Planned buffers give an index element kIndexByteSize bytes; a module
  // that lowers index to another width would read past or short of them.
  if (isa<IndexType>(type.getElementType())) {
    Operation *scope = value.getParentBlock()->getParentOp();
    uint64_t bits = DataLayout::closest(scope).getTypeSizeInBits(
        type.getElementType());
    if (bits != 8 * kIndexByteSize)
      return emitPlanningError(value, loc)
             << what << " of type " << type
             << " has index elements, which the data layout makes " << bits
             << " bits wide; helia plans index as " << 8 * kIndexByteSize
             << " bits (use a fixed-width integer element type, or the "
                "default index width)";
  }
  if (*bytes > kMaxTensorBytes)
    return emitPlanningError(value, loc) << what << " of type " << type << " takes "
                          << *bytes
                          << " bytes; helia plans tensors of up to 2^40 bytes";
  return success();
}

/// Checks that a tensor of kind constant has a value helia knows before the
/// program runs: constant arenas are read-only images, so a value computed
/// (or passed in) at run time would be written into them.
static LogicalResult checkConstant(Value value, Location loc,
                                   const Twine &what) {
  if (isa<BlockArgument>(value))
    return emitError(loc)
           << what << " is marked helia.constant, but an argument's bytes "
           << "are the caller's, written at run time, and constant arenas "
           << "are read-only; drop helia.constant (the argument is then "
           << "scratch), or make the weight an arith.constant or tosa.const "
           << "inside the function";
  Operation *op = value.getDefiningOp();
  if (matchPattern(value, m_Constant()))
    return success();
  // An unregistered op without operands or regions (an imported weight such
  // as `tfl.pseudo_const`) cannot depend on run-time values; helia cannot
  // fold it, but plans it (its bytes come from the importer).
  if (!op->isRegistered() && op->getNumOperands() == 0 &&
      op->getNumRegions() == 0)
    return success();
  return emitError(loc)
         << what << " of '" << op->getName()
         << "' is marked helia.constant, but only constant-foldable values "
            "(ConstantLike ops such as arith.constant or tosa.const) are "
            "constants: this one is computed at run time and would be "
            "written into a read-only constant arena; drop helia.constant "
            "(the result is then scratch)";
}

FailureOr<SmallVector<TensorInfo>>
mlir::helia::collectTensors(FunctionOpInterface func) {
  SmallVector<TensorInfo> tensors;
  if (func.isExternal())
    return tensors;
  Region &body = func.getFunctionBody();
  // Lifetimes are intervals of program order, which a branch back to an
  // earlier block would break (a value read again after its slot was
  // reused).
  if (!body.hasOneBlock())
    return emitError(func.getLoc())
               << "function '" << func.getName() << "' has "
               << body.getBlocks().size()
               << " blocks; helia plans function bodies of one block "
                  "(express control flow with scf ops)",
           failure();
  uint64_t nextId = 0;
  bool ok = true;
  auto add = [&](Value value, Location loc, const Twine &what) {
    if (!isTensorValue(value))
      return;
    if (failed(checkPlannable(value, loc, what))) {
      ok = false;
      return;
    }
    TensorKind kind = getTensorKind(value);
    if (kind == TensorKind::Constant &&
        failed(checkConstant(value, loc, what))) {
      ok = false;
      return;
    }
    tensors.push_back({value, nextId++, getTensorName(value), kind});
  };
  for (BlockArgument arg : body.front().getArguments())
    add(arg, arg.getLoc(), "argument #" + Twine(arg.getArgNumber()));
  for (Block &block : body)
    for (Operation &op : block)
      for (OpResult result : op.getResults())
        add(result, op.getLoc(), "result #" + Twine(result.getResultNumber()));
  if (!ok)
    return failure();
  return tensors;
}
