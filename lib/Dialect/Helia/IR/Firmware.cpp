//===- Firmware.cpp - the firmware record ---------------------------------===//
//
// The verifiers and lookups of `#helia.firmware` and its parts
// (include/helia/Dialect/Helia/IR/HeliaFirmwareAttrs.td).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

LogicalResult
FirmwareArenaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          FlatSymbolRefAttr name, StringAttr memory,
                          uint64_t size, uint64_t alignment) {
  if (!name || !memory || memory.getValue().empty())
    return emitError() << "firmware arena needs a name and a memory";
  if (size == 0)
    return emitError() << "firmware arena @" << name.getValue()
                       << " has size 0; record only arenas that hold bytes";
  if (!llvm::isPowerOf2_64(alignment))
    return emitError() << "firmware arena @" << name.getValue()
                       << " alignment " << alignment
                       << " is not a positive power of two";
  return success();
}

LogicalResult
FirmwareAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     StringAttr prefix, ArrayRef<FlatSymbolRefAttr> entries,
                     ArrayRef<FirmwareSlotAttr> slots,
                     ArrayRef<FirmwareArenaAttr> callerArenas,
                     Attribute platform, ArrayRef<FirmwareGlobalAttr> globals,
                     ArrayRef<FirmwareInterfaceAttr> interfaces,
                     ArrayRef<FlatSymbolRefAttr> unplanned) {
  if (prefix && prefix.getValue().empty())
    return emitError() << "firmware record needs a non-empty prefix (the "
                          "name of the generated helpers)";
  llvm::DenseSet<StringAttr> entryNames;
  for (FlatSymbolRefAttr entry : entries)
    if (!entryNames.insert(entry.getAttr()).second)
      return emitError() << "firmware record lists entry @"
                         << entry.getValue() << " twice";
  llvm::DenseSet<std::pair<StringAttr, uint64_t>> slotted;
  for (FirmwareSlotAttr slot : slots) {
    StringAttr entry = slot.getEntry().getAttr();
    if (!entryNames.contains(entry))
      return emitError() << "firmware slot of @" << entry.getValue()
                         << ", which is not among the record's entries";
    if (!slotted.insert({entry, slot.getArg()}).second)
      return emitError() << "firmware record gives argument "
                         << slot.getArg() << " of @" << entry.getValue()
                         << " two slots";
  }
  llvm::DenseSet<StringAttr> arenaNames;
  for (FirmwareArenaAttr arena : callerArenas)
    if (!arenaNames.insert(arena.getName().getAttr()).second)
      return emitError() << "firmware record lists caller arena @"
                         << arena.getName().getValue() << " twice";
  if (platform && !isa<PlatformAttr>(platform)) {
    auto name = dyn_cast<StringAttr>(platform);
    if (!name)
      return emitError() << "firmware platform must be a preset's name or a "
                            "#helia.platform, got "
                         << platform;
    if (!getPlatformPreset(platform.getContext(), name.getValue()))
      return emitError() << "firmware platform '" << name.getValue()
                         << "' is not a preset (known presets: "
                         << llvm::join(getPlatformPresetNames(), ", ") << ")";
  }
  if (!platform && !globals.empty())
    return emitError() << "firmware record lists the memories of globals "
                          "but no platform that has them";
  llvm::DenseSet<StringAttr> globalNames;
  for (FirmwareGlobalAttr global : globals)
    if (!globalNames.insert(global.getGlobal().getAttr()).second)
      return emitError() << "firmware record gives global @"
                         << global.getGlobal().getValue() << " two memories";
  return success();
}

FirmwareAttr FirmwareAttr::lookup(Operation *module) {
  Attribute record =
      module->getAttr(HeliaDialect::FirmwareAttrHelper::getNameStr());
  if (auto dict = dyn_cast_or_null<DictionaryAttr>(record)) {
    // The dialect verifier checked the builtin form.
    ScopedDiagnosticHandler silence(module->getContext(),
                                    [](Diagnostic &) { return success(); });
    return fromBuiltin(dict, [&] { return module->emitError(); });
  }
  return dyn_cast_or_null<FirmwareAttr>(record);
}

PlatformAttr FirmwareAttr::getPlatformAttr() const {
  Attribute platform = getPlatform();
  if (auto name = dyn_cast_or_null<StringAttr>(platform))
    return getPlatformPreset(getContext(), name.getValue());
  return dyn_cast_or_null<PlatformAttr>(platform);
}

FirmwareSlotAttr FirmwareAttr::lookupSlot(StringRef entry,
                                          uint64_t arg) const {
  for (FirmwareSlotAttr slot : getSlots())
    if (slot.getEntry().getValue() == entry && slot.getArg() == arg)
      return slot;
  return {};
}

//===----------------------------------------------------------------------===//
// The builtin form
//===----------------------------------------------------------------------===//

namespace {
/// Builds the builtin dictionaries of the record.
struct BuiltinWriter {
  MLIRContext *ctx;

  NamedAttribute named(StringRef name, Attribute value) const {
    return NamedAttribute(StringAttr::get(ctx, name), value);
  }
  Attribute integer(uint64_t value) const {
    return IntegerAttr::get(IntegerType::get(ctx, 64), value);
  }
  template <typename T, typename Fn>
  void list(SmallVectorImpl<NamedAttribute> &fields, StringRef name,
            ArrayRef<T> elements, Fn encode) const {
    if (elements.empty())
      return;
    SmallVector<Attribute> encoded;
    for (T element : elements)
      encoded.push_back(encode(element));
    fields.push_back(named(name, ArrayAttr::get(ctx, encoded)));
  }
};

/// Reads the builtin dictionaries of the record; the first mismatch is
/// reported and makes every later read fail.
struct BuiltinReader {
  function_ref<InFlightDiagnostic()> emitError;
  bool failed = false;

  template <typename T>
  T field(DictionaryAttr dict, StringRef name, StringRef expected) {
    if (failed)
      return {};
    auto value = dyn_cast_or_null<T>(dict.get(name));
    if (!value) {
      emitError() << "firmware record " << dict << " needs '" << name
                  << "' (" << expected << ")";
      failed = true;
    }
    return value;
  }
  uint64_t integer(DictionaryAttr dict, StringRef name) {
    auto value = field<IntegerAttr>(dict, name, "an integer");
    return value ? value.getValue().getZExtValue() : 0;
  }
  template <typename T, typename Fn>
  SmallVector<T> list(DictionaryAttr dict, StringRef name, Fn decode) {
    SmallVector<T> elements;
    if (failed || !dict.get(name))
      return elements;
    auto array = field<ArrayAttr>(dict, name, "a list");
    for (Attribute element : array ? array.getValue() : ArrayRef<Attribute>())
      elements.push_back(decode(element));
    return elements;
  }

  /// A list of dictionaries, each decoded by `decode`.
  template <typename T, typename Fn>
  SmallVector<T> records(DictionaryAttr dict, StringRef name, Fn decode) {
    return list<T>(dict, name, [&](Attribute element) {
      DictionaryAttr d = dictionary(element);
      return d ? decode(d) : T();
    });
  }

  /// Each element of a list, as the type the list holds.
  FlatSymbolRefAttr symbol(Attribute element);
  DictionaryAttr dictionary(Attribute element);

  /// The parts of the record, one reader each.
  bool checkFieldNames(DictionaryAttr dict);
  FirmwareSlotAttr slot(DictionaryAttr d);
  FirmwareArenaAttr callerArena(DictionaryAttr d);
  Attribute platform(DictionaryAttr dict);
  FirmwareGlobalAttr global(DictionaryAttr d);
  FirmwareInterfaceAttr interface(DictionaryAttr d);
};
} // namespace

FlatSymbolRefAttr BuiltinReader::symbol(Attribute element) {
  auto ref = dyn_cast<FlatSymbolRefAttr>(element);
  if (!ref && !failed) {
    emitError() << "firmware record: expected a symbol reference, got "
                << element;
    failed = true;
  }
  return ref;
}

DictionaryAttr BuiltinReader::dictionary(Attribute element) {
  auto d = dyn_cast<DictionaryAttr>(element);
  if (!d && !failed) {
    emitError() << "firmware record: expected a dictionary, got " << element;
    failed = true;
  }
  return d;
}

bool BuiltinReader::checkFieldNames(DictionaryAttr dict) {
  static constexpr StringLiteral known[] = {
      "prefix",   "entries", "slots",      "caller_arenas",
      "platform", "globals", "interfaces", "unplanned"};
  for (NamedAttribute field : dict)
    if (!llvm::is_contained(known, field.getName().getValue())) {
      emitError() << "firmware record has an unknown field '"
                  << field.getName().getValue() << "'";
      return false;
    }
  return true;
}

FirmwareSlotAttr BuiltinReader::slot(DictionaryAttr d) {
  auto entry = field<FlatSymbolRefAttr>(d, "entry", "a symbol reference");
  uint64_t arg = integer(d, "arg");
  auto arena = field<FlatSymbolRefAttr>(d, "arena", "a symbol reference");
  uint64_t offset = integer(d, "offset");
  return failed
             ? FirmwareSlotAttr()
             : FirmwareSlotAttr::get(d.getContext(), entry, arg, arena, offset);
}

FirmwareArenaAttr BuiltinReader::callerArena(DictionaryAttr d) {
  auto name = field<FlatSymbolRefAttr>(d, "name", "a symbol reference");
  auto memory = field<StringAttr>(d, "memory", "a string");
  uint64_t size = integer(d, "size");
  uint64_t alignment = integer(d, "alignment");
  return failed ? FirmwareArenaAttr()
                : FirmwareArenaAttr::getChecked(emitError, d.getContext(), name,
                                                memory, size, alignment);
}

/// A preset's name, or a #helia.platform printed into a string.
Attribute BuiltinReader::platform(DictionaryAttr dict) {
  if (!dict.get("platform"))
    return {};
  MLIRContext *ctx = dict.getContext();
  auto text = field<StringAttr>(dict, "platform", "a string");
  Attribute platform = text;
  if (text && !getPlatformPreset(ctx, text.getValue())) {
    // The parser's own diagnostic would point into the string.
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    platform =
        dyn_cast_or_null<PlatformAttr>(parseAttribute(text.getValue(), ctx));
  }
  if (text && !platform && !failed) {
    emitError() << "firmware platform '" << text.getValue()
                << "' is neither a preset nor a #helia.platform";
    failed = true;
  }
  return platform;
}

FirmwareGlobalAttr BuiltinReader::global(DictionaryAttr d) {
  auto global = field<FlatSymbolRefAttr>(d, "global", "a symbol reference");
  auto memory = field<StringAttr>(d, "memory", "a string");
  return failed ? FirmwareGlobalAttr()
                : FirmwareGlobalAttr::get(d.getContext(), global, memory);
}

FirmwareInterfaceAttr BuiltinReader::interface(DictionaryAttr d) {
  auto name = field<FlatSymbolRefAttr>(d, "name", "a symbol reference");
  auto type = field<TypeAttr>(d, "type", "a function type");
  auto function =
      type ? dyn_cast<FunctionType>(type.getValue()) : FunctionType();
  if (type && !function && !failed) {
    emitError() << "firmware interface @" << name.getValue() << " has type "
                << type.getValue() << ", not a function type";
    failed = true;
  }
  return failed ? FirmwareInterfaceAttr()
                : FirmwareInterfaceAttr::get(d.getContext(), name, function);
}

DictionaryAttr FirmwareAttr::toBuiltin() const {
  MLIRContext *ctx = getContext();
  BuiltinWriter w{ctx};
  SmallVector<NamedAttribute> fields;
  if (getPrefix())
    fields.push_back(w.named("prefix", getPrefix()));
  w.list(fields, "entries", getEntries(),
         [](FlatSymbolRefAttr entry) -> Attribute { return entry; });
  w.list(fields, "slots", getSlots(), [&](FirmwareSlotAttr slot) -> Attribute {
    return DictionaryAttr::get(
        ctx, {w.named("entry", slot.getEntry()),
              w.named("arg", w.integer(slot.getArg())),
              w.named("arena", slot.getArena()),
              w.named("offset", w.integer(slot.getOffset()))});
  });
  w.list(fields, "caller_arenas", getCallerArenas(),
         [&](FirmwareArenaAttr arena) -> Attribute {
           return DictionaryAttr::get(
               ctx, {w.named("name", arena.getName()),
                     w.named("memory", arena.getMemory()),
                     w.named("size", w.integer(arena.getSize())),
                     w.named("alignment", w.integer(arena.getAlignment()))});
         });
  if (Attribute platform = getPlatform()) {
    // A preset stays its name; another platform is not a builtin attribute.
    if (!isa<StringAttr>(platform)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      platform.print(os);
      platform = StringAttr::get(ctx, text);
    }
    fields.push_back(w.named("platform", platform));
  }
  w.list(fields, "globals", getGlobals(),
         [&](FirmwareGlobalAttr global) -> Attribute {
           return DictionaryAttr::get(
               ctx, {w.named("global", global.getGlobal()),
                     w.named("memory", global.getMemory())});
         });
  w.list(fields, "interfaces", getInterfaces(),
         [&](FirmwareInterfaceAttr interface) -> Attribute {
           return DictionaryAttr::get(
               ctx, {w.named("name", interface.getName()),
                     w.named("type", TypeAttr::get(interface.getType()))});
         });
  w.list(fields, "unplanned", getUnplanned(),
         [](FlatSymbolRefAttr name) -> Attribute { return name; });
  return DictionaryAttr::get(ctx, fields);
}

FirmwareAttr
FirmwareAttr::fromBuiltin(DictionaryAttr dict,
                          function_ref<InFlightDiagnostic()> emitError) {
  BuiltinReader r{emitError};
  if (!r.checkFieldNames(dict))
    return {};
  auto symbol = [&](Attribute e) { return r.symbol(e); };
  StringAttr prefix;
  if (dict.get("prefix"))
    prefix = r.field<StringAttr>(dict, "prefix", "a string");
  auto entries = r.list<FlatSymbolRefAttr>(dict, "entries", symbol);
  auto slots = r.records<FirmwareSlotAttr>(
      dict, "slots", [&](DictionaryAttr d) { return r.slot(d); });
  auto callerArenas = r.records<FirmwareArenaAttr>(
      dict, "caller_arenas",
      [&](DictionaryAttr d) { return r.callerArena(d); });
  Attribute platform = r.platform(dict);
  auto globals = r.records<FirmwareGlobalAttr>(
      dict, "globals", [&](DictionaryAttr d) { return r.global(d); });
  auto interfaces = r.records<FirmwareInterfaceAttr>(
      dict, "interfaces", [&](DictionaryAttr d) { return r.interface(d); });
  auto unplanned = r.list<FlatSymbolRefAttr>(dict, "unplanned", symbol);
  if (r.failed)
    return {};
  return FirmwareAttr::getChecked(
      emitError, dict.getContext(), prefix, ArrayRef(entries), ArrayRef(slots),
      ArrayRef(callerArenas), platform, ArrayRef(globals), ArrayRef(interfaces),
      ArrayRef(unplanned));
}
