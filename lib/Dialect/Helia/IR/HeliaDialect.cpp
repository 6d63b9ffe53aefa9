//===- HeliaDialect.cpp - helia dialect and attributes --------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/IR/Platform.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::helia;

#include "helia/Dialect/Helia/IR/HeliaOpsDialect.cpp.inc"

#include "helia/Dialect/Helia/IR/HeliaEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "helia/Dialect/Helia/IR/HeliaAttrs.cpp.inc"

void HeliaDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "helia/Dialect/Helia/IR/HeliaAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "helia/Dialect/Helia/IR/HeliaOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Attribute verifiers
//===----------------------------------------------------------------------===//

LogicalResult
MemorySpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringAttr name) {
  if (!name || name.getValue().empty())
    return emitError() << "memory space needs a non-empty memory name";
  return success();
}

LogicalResult
MemoryDescAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef name, uint64_t size, bool readable,
                       bool writable, bool executable, bool init,
                       bool nonvolatile, uint64_t base, uint64_t reserved,
                       StringRef section, StringRef region,
                       uint64_t readCycles, uint64_t writeCycles,
                       uint64_t accessBytes) {
  if (name.empty())
    return emitError() << "memory needs a non-empty name";
  if (size == 0)
    return emitError() << "memory '" << name
                       << "' has size 0; give it a positive size in bytes";
  if (size > kMaxMemoryBytes)
    return emitError() << "memory '" << name << "' has size " << size
                       << "; helia supports memories of up to 2^62 bytes";
  if (reserved >= size)
    return emitError() << "memory '" << name << "' reserves " << reserved
                       << " of its " << size
                       << " bytes; reserve fewer bytes than the size";
  if (base > std::numeric_limits<uint64_t>::max() - size)
    return emitError() << "memory '" << name << "' at base " << base
                       << " with size " << size
                       << " ends past 2^64; give a smaller base";
  if (section.find_first_of(" \t\n\"") != StringRef::npos)
    return emitError() << "memory '" << name << "' section '" << section
                       << "' contains a space or a quote; give a plain "
                          "section name such as .shared";
  if (!llvm::all_of(region, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return emitError() << "memory '" << name << "' region '" << region
                       << "' is not a linker-script identifier; use letters, "
                          "digits and '_' (e.g. MCU_TCM)";
  if (accessBytes == 0 || accessBytes > kMaxAccessBytes)
    return emitError() << "memory '" << name << "' has access_bytes "
                       << accessBytes << "; give the bytes of one access, 1 to "
                       << kMaxAccessBytes;
  if (readCycles > kMaxAccessCycles || writeCycles > kMaxAccessCycles)
    return emitError() << "memory '" << name << "' costs more than "
                       << kMaxAccessCycles
                       << " cycles per access; give read_cycles and "
                          "write_cycles of at most that";
  return success();
}

std::string MemoryDescAttr::getRegionName() const {
  if (!getRegion().empty())
    return getRegion().str();
  std::string result;
  for (char c : getName())
    result.push_back(llvm::isAlnum(c) ? llvm::toUpper(c) : '_');
  return result;
}

LogicalResult
PlatformAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     StringRef name, ArrayRef<MemoryDescAttr> memories,
                     ArrayRef<StringAttr> preferred, uint64_t alignment) {
  if (name.empty())
    return emitError() << "platform needs a non-empty name";
  if (memories.empty())
    return emitError() << "platform '" << name << "' declares no memory";
  if (alignment == 0 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "platform '" << name << "' alignment " << alignment
                       << " is not a positive power of two";
  if (alignment > kMaxTensorBytes)
    return emitError() << "platform '" << name << "' alignment " << alignment
                       << " is larger than 2^40 bytes";
  llvm::StringSet<> names;
  for (MemoryDescAttr memory : memories) {
    if (!names.insert(memory.getName()).second)
      return emitError() << "platform '" << name << "' declares memory '"
                         << memory.getName() << "' twice";
  }
  llvm::StringSet<> seen;
  for (StringAttr pref : preferred) {
    if (!names.contains(pref.getValue()))
      return emitError() << "platform '" << name << "' prefers memory '"
                         << pref.getValue() << "' which it does not declare";
    // Scratch and persistent tensors, and the stream pool, go to the
    // preferred memories, and all of them are written and read at run time.
    auto desc = *llvm::find_if(
        memories, [&](MemoryDescAttr memory) {
          return memory.getName() == pref.getValue();
        });
    if (!desc.getWritable() || !desc.getReadable())
      return emitError()
             << "platform '" << name << "' prefers memory '" << pref.getValue()
             << "', which is "
             << (desc.getWritable() ? "not readable (readable = false)"
                                    : "read-only at run time (writable = "
                                      "false)")
             << "; preferred memories hold the tensors written at run time: "
                "list only readable, writable memories in preferred (keep "
                "read-only ones for constants)";
    if (!seen.insert(pref.getValue()).second)
      return emitError() << "platform '" << name << "' lists memory '"
                         << pref.getValue() << "' twice in its preferred order";
  }
  return success();
}

MemoryDescAttr PlatformAttr::lookupMemory(StringRef name) const {
  for (MemoryDescAttr memory : getMemoryList())
    if (memory.getName() == name)
      return memory;
  return {};
}

std::string PlatformAttr::getMemoryNamesForDiagnostic() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(getMemoryList(), os,
                        [&](MemoryDescAttr m) { os << m.getName(); });
  return result;
}

/// Shared by rules, overrides and placements: a destination makes the
/// residency `pin`, so pairing it with another residency is contradictory.
static LogicalResult
verifyDestinationResidency(function_ref<InFlightDiagnostic()> emitError,
                           StringAttr destination,
                           std::optional<Residency> residency) {
  if (destination && residency && *residency != Residency::Pin)
    return emitError() << "constant_destination_memory '"
                       << destination.getValue() << "' implies residency pin "
                       << "but residency is " << stringifyResidency(*residency)
                       << "; drop one of the two";
  return success();
}

static LogicalResult
verifyMemoryName(function_ref<InFlightDiagnostic()> emitError, StringAttr name,
                 StringRef field) {
  if (name && name.getValue().empty())
    return emitError() << field << " must be a non-empty memory name";
  return success();
}

LogicalResult TensorAttributesAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringAttr memory,
    StringAttr destination, std::optional<Residency> residency) {
  if (failed(verifyMemoryName(emitError, memory, "memory")) ||
      failed(verifyMemoryName(emitError, destination,
                              "constant_destination_memory")))
    return failure();
  return verifyDestinationResidency(emitError, destination, residency);
}

/// Checks one list of globs of a rule (`field` is "id" or "op").
static LogicalResult verifyGlobs(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayAttr list, StringRef field) {
  if (!list)
    return success();
  if (list.empty())
    return emitError() << "rule " << field << " list is empty; omit " << field
                       << " to match every tensor";
  for (Attribute entry : list) {
    auto str = dyn_cast<StringAttr>(entry);
    if (!str || str.getValue().empty())
      return emitError() << "rule " << field
                         << " entries must be non-empty strings";
    if (auto pattern = llvm::GlobPattern::create(str.getValue()); !pattern) {
      std::string message = llvm::toString(pattern.takeError());
      return emitError() << "rule " << field << " '" << str.getValue()
                         << "' is not a valid glob: " << message;
    }
  }
  return success();
}

LogicalResult RuleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               std::optional<TensorKind> type, ArrayAttr id,
                               TensorAttributesAttr attributes, ArrayAttr op) {
  if (!attributes)
    return emitError() << "rule needs attributes";
  return failure(failed(verifyGlobs(emitError, id, "id")) ||
                 failed(verifyGlobs(emitError, op, "op")));
}

bool RuleAttr::givesType() const {
  return getType() && *getType() != TensorKind::Any;
}

bool RuleAttr::givesId() const { return getId() || getOp(); }

LogicalResult
PlacementAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      uint64_t id, StringAttr name, TensorKind kind,
                      StringAttr memory, StringAttr destination,
                      std::optional<Residency> residency) {
  if (kind == TensorKind::Any)
    return emitError() << "a placement needs a concrete kind, not any";
  if (kind != TensorKind::Constant && (destination || residency))
    return emitError() << "only constants take a residency or a "
                          "constant_destination_memory";
  if (residency == Residency::Pin && !destination)
    return emitError() << "residency pin needs a constant_destination_memory";
  if (failed(verifyMemoryName(emitError, memory, "memory")) ||
      failed(verifyMemoryName(emitError, destination,
                              "constant_destination_memory")))
    return failure();
  return verifyDestinationResidency(emitError, destination, residency);
}

LogicalResult BindingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  FlatSymbolRefAttr arena, uint64_t offset,
                                  FlatSymbolRefAttr streamArena,
                                  std::optional<uint64_t> streamOffset) {
  if (!arena)
    return emitError() << "binding needs an arena";
  if (static_cast<bool>(streamArena) != streamOffset.has_value())
    return emitError() << "stream_arena and stream_offset go together";
  return success();
}
