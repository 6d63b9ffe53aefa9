//===- DiscardableAttributes.cpp - helia attributes on ops and arguments --===//
//
// The verifiers of the dialect's discardable attributes (`helia.platform`,
// `helia.rules`, `helia.placement`, `helia.binding`, ...): one function per
// attribute name, looked up by HeliaDialect::verifyOperationAttribute and
// HeliaDialect::verifyRegionArgAttribute.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::helia;

/// Verifies the attribute `name` = `value` on `op`.
using OpAttrVerifier = LogicalResult (*)(Operation *op, StringRef name,
                                         Attribute value);

/// A binding names an arena of its module. That the arena exists and holds
/// the tensor, ArenaOp::verifySymbolUses checks for the whole module at once;
/// here only that the module declares arenas at all (arenas come first in a
/// planned module, so this stops at the first op).
static LogicalResult verifyModuleHasArenas(Operation *anchor,
                                           BindingAttr binding) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (module && !module.getOps<ArenaOp>().empty())
    return success();
  return anchor->emitOpError("binding names arena ")
         << binding.getArena() << " which is not a helia.arena";
}

static LogicalResult verifyPlatform(Operation *op, StringRef name,
                                    Attribute value) {
  if (!isa<ModuleOp>(op))
    return op->emitOpError("'") << name << "' belongs on a builtin.module";
  if (isa<PlatformAttr>(value))
    return success();
  if (auto preset = dyn_cast<StringAttr>(value)) {
    if (getPlatformPreset(op->getContext(), preset.getValue()))
      return success();
    std::string names;
    llvm::raw_string_ostream os(names);
    llvm::interleaveComma(getPlatformPresetNames(), os);
    return op->emitOpError("unknown platform preset '")
           << preset.getValue() << "'; known presets: " << names;
  }
  return op->emitOpError("'")
         << name << "' must be a preset name or a #helia.platform";
}

static LogicalResult verifyRules(Operation *op, StringRef name,
                                 Attribute value) {
  if (!isa<ModuleOp>(op))
    return op->emitOpError("'") << name << "' belongs on a builtin.module";
  auto rules = dyn_cast<ArrayAttr>(value);
  if (!rules || !llvm::all_of(rules, llvm::IsaPred<RuleAttr>))
    return op->emitOpError("'") << name << "' must be an array of #helia.rule";
  return success();
}

static LogicalResult verifyMemoryLimits(Operation *op, StringRef name,
                                        Attribute value) {
  auto limits = dyn_cast<DictionaryAttr>(value);
  if (!isa<ModuleOp>(op) || !limits ||
      !llvm::all_of(limits, [](NamedAttribute entry) {
        auto bytes = dyn_cast<IntegerAttr>(entry.getValue());
        return bytes && !bytes.getValue().isNegative();
      }))
    return op->emitOpError("'")
           << name
           << "' must be a dictionary of memory names to byte counts on a "
              "builtin.module";
  return success();
}

static LogicalResult verifyMemoryCosts(Operation *op, StringRef name,
                                       Attribute value) {
  auto costs = dyn_cast<DictionaryAttr>(value);
  if (!isa<ModuleOp>(op) || !costs ||
      !llvm::all_of(costs, [](NamedAttribute entry) {
        auto figures = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
        return figures && figures.size() == 3 && figures[0] >= 0 &&
               figures[1] >= 0 && figures[2] > 0 &&
               static_cast<uint64_t>(figures[0]) <= kMaxAccessCycles &&
               static_cast<uint64_t>(figures[1]) <= kMaxAccessCycles &&
               static_cast<uint64_t>(figures[2]) <= kMaxAccessBytes;
      }))
    return op->emitOpError("'")
           << name
           << "' must be a dictionary of memory names to array<i64: "
              "read_cycles, write_cycles, access_bytes> on a builtin.module";
  return success();
}

static LogicalResult verifyAttributes(Operation *op, StringRef name,
                                      Attribute value) {
  if (!isa<TensorAttributesAttr>(value))
    return op->emitOpError("'") << name << "' must be a #helia.attributes";
  return success();
}

static LogicalResult verifyName(Operation *op, StringRef name,
                                Attribute value) {
  auto str = dyn_cast<StringAttr>(value);
  auto list = dyn_cast<ArrayAttr>(value);
  if (str || (list && list.size() == op->getNumResults() &&
              llvm::all_of(list, llvm::IsaPred<StringAttr>)))
    return success();
  return op->emitOpError("'")
         << name << "' must be a string or one string per result";
}

/// `helia.constant` and `helia.persistent`.
static LogicalResult verifyUnitMark(Operation *op, StringRef name,
                                    Attribute value) {
  if (!isa<UnitAttr>(value))
    return op->emitOpError("'") << name << "' must be a unit attribute";
  return success();
}

static LogicalResult verifyUnplanned(Operation *op, StringRef name,
                                     Attribute value) {
  if (!isa<UnitAttr>(value) || !isa<FunctionOpInterface>(op))
    return op->emitOpError("'")
           << name << "' must be a unit attribute on a function";
  return success();
}

static LogicalResult verifyPlacements(Operation *op, StringRef name,
                                      Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  if (!list || list.size() != op->getNumResults() ||
      !llvm::all_of(list, llvm::IsaPred<PlacementAttr, UnitAttr>))
    return op->emitOpError("'") << name
                                << "' must hold one #helia.placement (or "
                                   "unit) per result";
  return success();
}

static LogicalResult verifyBindings(Operation *op, StringRef name,
                                    Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  if (!list || list.size() != op->getNumResults() ||
      !llvm::all_of(list, llvm::IsaPred<BindingAttr, UnitAttr>))
    return op->emitOpError("'") << name
                                << "' must hold one #helia.binding (or "
                                   "unit) per result";
  for (Attribute binding : list)
    if (auto b = dyn_cast<BindingAttr>(binding))
      return verifyModuleHasArenas(op, b);
  return success();
}

static LogicalResult verifyInPlace(Operation *op, StringRef name,
                                   Attribute value) {
  auto index = dyn_cast<IntegerAttr>(value);
  if (!index || op->getNumResults() != 1 || index.getValue().isNegative() ||
      index.getValue().uge(op->getNumOperands()))
    return op->emitOpError("'")
           << name
           << "' must be the index of an operand, on an op with one result "
              "(helia-elementwise-in-place writes it)";
  return success();
}

static LogicalResult verifyFirmware(Operation *op, StringRef name,
                                    Attribute value) {
  if (!isa<ModuleOp>(op) || !isa<FirmwareAttr, DictionaryAttr>(value))
    return op->emitOpError("'")
           << name << "' must be a #helia.firmware (or its builtin form, "
           << "a dictionary) on a builtin.module";
  if (auto dict = dyn_cast<DictionaryAttr>(value))
    return success(static_cast<bool>(FirmwareAttr::fromBuiltin(
        dict, [&] { return op->emitOpError(); })));
  return success();
}

/// How a loop stores the tensors it carries (helia-insert-tensor-copies
/// records it, the plan export reads it).
static LogicalResult verifyCarried(Operation *op, StringRef name,
                                   Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  auto isEntry = [](Attribute entry) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    return dict && dict.getAs<IntegerAttr>("iter_arg") &&
           dict.getAs<StringAttr>("choice") &&
           dict.getAs<StringAttr>("reason");
  };
  if (!list || op->getNumRegions() == 0 || !llvm::all_of(list, isEntry))
    return op->emitOpError("'")
           << name
           << "' must be an array of {iter_arg, choice, reason} "
              "dictionaries on a loop";
  return success();
}

LogicalResult HeliaDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  OpAttrVerifier verify =
      llvm::StringSwitch<OpAttrVerifier>(name)
          .Case(PlatformAttrHelper::getNameStr(), verifyPlatform)
          .Case(RulesAttrHelper::getNameStr(), verifyRules)
          .Case(MemoryLimitsAttrHelper::getNameStr(), verifyMemoryLimits)
          .Case(MemoryCostsAttrHelper::getNameStr(), verifyMemoryCosts)
          .Case(AttributesAttrHelper::getNameStr(), verifyAttributes)
          .Case(NameAttrHelper::getNameStr(), verifyName)
          .Case(ConstantAttrHelper::getNameStr(), verifyUnitMark)
          .Case(PersistentAttrHelper::getNameStr(), verifyUnitMark)
          .Case(UnplannedAttrHelper::getNameStr(), verifyUnplanned)
          .Case(PlacementAttrHelper::getNameStr(), verifyPlacements)
          .Case(BindingAttrHelper::getNameStr(), verifyBindings)
          .Case(InPlaceAttrHelper::getNameStr(), verifyInPlace)
          .Case(FirmwareAttrHelper::getNameStr(), verifyFirmware)
          .Case(CarriedAttrHelper::getNameStr(), verifyCarried)
          .Default(nullptr);
  if (!verify)
    return op->emitOpError("unknown helia attribute '") << name << "'";
  return verify(op, name, attr.getValue());
}

LogicalResult HeliaDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned argIndex,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == NameAttrHelper::getNameStr()) {
    if (!isa<StringAttr>(value))
      return op->emitOpError("argument attribute '") << name
                                                     << "' must be a string";
    return success();
  }
  if (name == ConstantAttrHelper::getNameStr() ||
      name == PersistentAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return op->emitOpError("argument attribute '")
             << name << "' must be a unit attribute";
    return success();
  }
  if (name == AttributesAttrHelper::getNameStr()) {
    if (!isa<TensorAttributesAttr>(value))
      return op->emitOpError("argument attribute '")
             << name << "' must be a #helia.attributes";
    return success();
  }
  if (name == PlacementAttrHelper::getNameStr()) {
    if (!isa<PlacementAttr>(value))
      return op->emitOpError("argument attribute '")
             << name << "' must be a #helia.placement";
    return success();
  }
  if (name == BindingAttrHelper::getNameStr()) {
    auto binding = dyn_cast<BindingAttr>(value);
    if (!binding)
      return op->emitOpError("argument attribute '")
             << name << "' must be a #helia.binding";
    return verifyModuleHasArenas(op, binding);
  }
  return op->emitOpError("unknown helia argument attribute '") << name << "'";
}
