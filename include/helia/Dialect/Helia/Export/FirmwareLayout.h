//===- FirmwareLayout.h - arenas placed in a board's memories ---*- C++ -*-===//
//
// Where every arena global of a lowered module goes in a firmware image, as
// plain data: its public name, memory, section, size and alignment, plus
// the entry points, the hooks and the model API (regions, inputs and
// outputs, plan hash). helia-assign-sections fills it from the
// LLVM dialect module; the linker-script fragment and the C header are
// written from it alone (docs/Firmware.md). The model API's own types are
// in FirmwareApi.h.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_FIRMWARELAYOUT_H
#define HELIA_DIALECT_HELIA_EXPORT_FIRMWARELAYOUT_H

#include "helia/Dialect/Helia/Export/FirmwareApi.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::helia {

/// One arena global as the image holds it.
struct FirmwareArena {
  /// The global's name in the lowered module (the arena's, or
  /// `<arena>_source` for the blob of a staged arena).
  std::string arena;
  /// The public symbol: `<prefix>_arena_<memory>_<arena>`.
  std::string symbol;
  std::string memory;
  std::string section;
  bool constant = false;
  uint64_t size = 0;
  uint64_t alignment = 1;
};

/// A planned function, as its C interface (`_mlir_ciface_<name>`) takes it.
struct FirmwareEntry {
  std::string name;
  FunctionType type;
};

/// The C spelling of a scalar type (`float`, `int8_t`, ...), if it has one.
FailureOr<std::string> getCScalarType(Type type);

/// `name` with every character that is not a letter or a digit replaced by
/// '_', upper-cased with `upper` (a C macro, a linker region).
std::string toCIdentifier(StringRef name, bool upper);

struct FirmwareLayout {
  std::string prefix;
  PlatformAttr platform;
  /// In region-id order (the order of `<prefix>_arena_buffers`).
  std::vector<FirmwareArena> arenas;
  std::vector<FirmwareEntry> entries;
  /// The module has `<prefix>_hydrate_constants()` without arguments (with
  /// arena arguments it is one of the entries).
  bool hasHydrate = false;
  /// The entry points hydrate on their first call
  /// (helia-hydrate-on-first-call): the flag global `<prefix>_hydrated`.
  bool hydratesItself = false;
  /// Bit width of the byte count of `<prefix>_copy`.
  unsigned copyLengthBits = 64;
  /// Bit width of `index`: the offset, sizes and strides of the memref
  /// descriptors in the header.
  unsigned indexBits = 64;
  /// Every arena by region id: the globals (in `arenas` order), then the
  /// arenas the caller supplies.
  std::vector<FirmwareRegion> regions;
  /// The entry point of the model API, when the module has one.
  std::optional<FirmwareModel> model;
  /// The plan hash of the header and the object (computePlanHash).
  uint32_t planHash = 0;

  /// The section of an arena global of `memory`: the memory's `section`
  /// when the platform gives one, else `.bss.helia.<memory>.<arena>` for a
  /// writable arena and `.rodata.helia.<memory>.<arena>` for a constant one
  /// (only `.bss.*` sections are NOBITS).
  static std::string getSectionName(MemoryDescAttr memory, StringRef arena,
                                    bool constant);

  /// Writes the platform's memories as a MEMORY block: one region per
  /// memory, `[base, base + size - reserved)`, named by getRegionName.
  void writeMemoryBlock(raw_ostream &os) const;

  /// Writes the linker-script fragment: the MEMORY block (with
  /// `withMemory`; without it the fragment goes into a script whose own
  /// MEMORY block has the regions, e.g. the vendor's) and one output
  /// section per memory and kind, constants first, writable arenas NOLOAD,
  /// with `__helia_<memory>_start`/`_end` (and `_bss_start`/`_bss_end`
  /// around the writable part).
  void writeLinkerFragment(raw_ostream &os, bool withMemory = true) const;

  /// Writes the C header: region ids and sizes, the arena symbols and table,
  /// the hooks, the entry points with their memref descriptors, and the
  /// model API when there is a model. Emits an error at `loc` and fails on
  /// an entry point whose type has no C spelling.
  LogicalResult writeHeader(raw_ostream &os, Location loc) const;

  /// Fills `regions` (the arena globals, then the arenas the caller
  /// supplies, from `record`'s `caller_arenas`) and `model` (the first entry
  /// point other than the hydrate function, with the slots of its arguments
  /// from `record`'s `slots`), after `arenas` and `entries`. Emits a located
  /// error at `module` and fails on an entry point the API cannot pass from
  /// C.
  LogicalResult describeModel(Operation *module, FirmwareAttr record);

  /// Writes the model API part of the header: the plan hash, the status
  /// codes, the regions, the shapes of the inputs and outputs, the context
  /// and the functions.
  void writeModelApi(raw_ostream &os) const;

  /// The hash of everything the header says and of the input slots: a
  /// header of another plan disagrees with the object on it.
  FailureOr<uint32_t> computePlanHash(Location loc) const;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_FIRMWARELAYOUT_H
