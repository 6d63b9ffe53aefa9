//===- DiscardableAttributes.cpp - helia attributes on ops and arguments --===//
//
// The verifiers of the dialect's discardable attributes (`helia.platform`,
// `helia.rules`, `helia.placement`, `helia.binding`, ...): one function per
// attribute name, looked up by HeliaDialect::verifyOperationAttribute and
// HeliaDialect::verifyRegionArgAttribute.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
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

/// Succeeds when `holds`; otherwise says what `name` must be.
static LogicalResult expect(Operation *op, StringRef name, bool holds,
                            StringRef what) {
  if (holds)
    return success();
  return op->emitOpError("'") << name << "' " << what;
}

/// An array with one `AttrT` (or unit) per result of `op`.
template <typename AttrT>
static ArrayAttr getPerResultList(Operation *op, Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  if (!list || list.size() != op->getNumResults() ||
      !llvm::all_of(list, llvm::IsaPred<AttrT, UnitAttr>))
    return {};
  return list;
}

static LogicalResult verifyPlatform(Operation *op, StringRef name,
                                    Attribute value) {
  if (failed(
          expect(op, name, isa<ModuleOp>(op), "belongs on a builtin.module")))
    return failure();
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
  return expect(op, name, false, "must be a preset name or a #helia.platform");
}

static LogicalResult verifyRules(Operation *op, StringRef name,
                                 Attribute value) {
  if (failed(
          expect(op, name, isa<ModuleOp>(op), "belongs on a builtin.module")))
    return failure();
  auto rules = dyn_cast<ArrayAttr>(value);
  return expect(op, name, rules && llvm::all_of(rules, llvm::IsaPred<RuleAttr>),
                "must be an array of #helia.rule");
}

static LogicalResult verifyMemoryLimits(Operation *op, StringRef name,
                                        Attribute value) {
  auto limits = dyn_cast<DictionaryAttr>(value);
  return expect(
      op, name,
      isa<ModuleOp>(op) && limits &&
          llvm::all_of(limits,
                       [](NamedAttribute entry) {
                         auto bytes = dyn_cast<IntegerAttr>(entry.getValue());
                         return bytes && !bytes.getValue().isNegative();
                       }),
      "must be a dictionary of memory names to byte counts on a "
      "builtin.module");
}

/// read_cycles, write_cycles and access_bytes of one memory.
static bool isMemoryCost(NamedAttribute entry) {
  auto figures = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
  return figures && figures.size() == 3 && figures[0] >= 0 && figures[1] >= 0 &&
         figures[2] > 0 &&
         static_cast<uint64_t>(figures[0]) <= kMaxAccessCycles &&
         static_cast<uint64_t>(figures[1]) <= kMaxAccessCycles &&
         static_cast<uint64_t>(figures[2]) <= kMaxAccessBytes;
}

static LogicalResult verifyMemoryCosts(Operation *op, StringRef name,
                                       Attribute value) {
  auto costs = dyn_cast<DictionaryAttr>(value);
  return expect(op, name,
                isa<ModuleOp>(op) && costs && llvm::all_of(costs, isMemoryCost),
                "must be a dictionary of memory names to array<i64: "
                "read_cycles, write_cycles, access_bytes> on a builtin.module");
}

static LogicalResult verifyAttributes(Operation *op, StringRef name,
                                      Attribute value) {
  return expect(op, name, isa<TensorAttributesAttr>(value),
                "must be a #helia.attributes");
}

static LogicalResult verifyName(Operation *op, StringRef name,
                                Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  bool perResult = list && list.size() == op->getNumResults() &&
                   llvm::all_of(list, llvm::IsaPred<StringAttr>);
  return expect(op, name, isa<StringAttr>(value) || perResult,
                "must be a string or one string per result");
}

/// `helia.constant` and `helia.persistent`.
static LogicalResult verifyUnitMark(Operation *op, StringRef name,
                                    Attribute value) {
  return expect(op, name, isa<UnitAttr>(value), "must be a unit attribute");
}

static LogicalResult verifyUnplanned(Operation *op, StringRef name,
                                     Attribute value) {
  return expect(op, name, isa<UnitAttr>(value) && isa<FunctionOpInterface>(op),
                "must be a unit attribute on a function");
}

static LogicalResult verifyPlacements(Operation *op, StringRef name,
                                      Attribute value) {
  return expect(op, name,
                static_cast<bool>(getPerResultList<PlacementAttr>(op, value)),
                "must hold one #helia.placement (or unit) per result");
}

static LogicalResult verifyBindings(Operation *op, StringRef name,
                                    Attribute value) {
  ArrayAttr list = getPerResultList<BindingAttr>(op, value);
  if (failed(expect(op, name, static_cast<bool>(list),
                    "must hold one #helia.binding (or unit) per result")))
    return failure();
  for (Attribute binding : list)
    if (auto b = dyn_cast<BindingAttr>(binding))
      return verifyModuleHasArenas(op, b);
  return success();
}

static LogicalResult verifyInPlace(Operation *op, StringRef name,
                                   Attribute value) {
  auto index = dyn_cast<IntegerAttr>(value);
  return expect(op, name,
                index && op->getNumResults() == 1 &&
                    !index.getValue().isNegative() &&
                    index.getValue().ult(op->getNumOperands()),
                "must be the index of an operand, on an op with one result "
                "(helia-elementwise-in-place writes it)");
}

static LogicalResult verifyFirmware(Operation *op, StringRef name,
                                    Attribute value) {
  if (failed(
          expect(op, name,
                 isa<ModuleOp>(op) && isa<FirmwareAttr, DictionaryAttr>(value),
                 "must be a #helia.firmware (or its builtin form, a "
                 "dictionary) on a builtin.module")))
    return failure();
  if (auto dict = dyn_cast<DictionaryAttr>(value))
    return success(static_cast<bool>(
        FirmwareAttr::fromBuiltin(dict, [&] { return op->emitOpError(); })));
  return success();
}

/// How a loop stores the tensors it carries (helia-insert-tensor-copies
/// records it, the plan export reads it).
static bool isCarriedEntry(Attribute entry) {
  auto dict = dyn_cast<DictionaryAttr>(entry);
  return dict && dict.getAs<IntegerAttr>("iter_arg") &&
         dict.getAs<StringAttr>("choice") && dict.getAs<StringAttr>("reason");
}

static LogicalResult verifyCarried(Operation *op, StringRef name,
                                   Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  return expect(op, name,
                list && op->getNumRegions() != 0 &&
                    llvm::all_of(list, isCarriedEntry),
                "must be an array of {iter_arg, choice, reason} dictionaries "
                "on a loop");
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
  auto expectArg = [&](bool holds, StringRef what) -> LogicalResult {
    if (holds)
      return success();
    return op->emitOpError("argument attribute '") << name << "' " << what;
  };
  if (name == NameAttrHelper::getNameStr())
    return expectArg(isa<StringAttr>(value), "must be a string");
  if (name == ConstantAttrHelper::getNameStr() ||
      name == PersistentAttrHelper::getNameStr())
    return expectArg(isa<UnitAttr>(value), "must be a unit attribute");
  if (name == AttributesAttrHelper::getNameStr())
    return expectArg(isa<TensorAttributesAttr>(value),
                     "must be a #helia.attributes");
  if (name == PlacementAttrHelper::getNameStr())
    return expectArg(isa<PlacementAttr>(value), "must be a #helia.placement");
  if (name == BindingAttrHelper::getNameStr()) {
    auto binding = dyn_cast<BindingAttr>(value);
    if (failed(
            expectArg(static_cast<bool>(binding), "must be a #helia.binding")))
      return failure();
    return verifyModuleHasArenas(op, binding);
  }
  return op->emitOpError("unknown helia argument attribute '") << name << "'";
}
