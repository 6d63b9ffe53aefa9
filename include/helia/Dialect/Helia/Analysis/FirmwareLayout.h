//===- FirmwareLayout.h - arenas placed in a board's memories ---*- C++ -*-===//
//
// Where every arena global of a lowered module goes in a firmware image, as
// plain data: its public name, memory, section, size and alignment, plus
// the entry points and the hooks. helia-assign-sections fills it from the
// LLVM dialect module; the linker-script fragment and the C header are
// written from it alone (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARELAYOUT_H
#define HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARELAYOUT_H

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
  /// Bit width of the byte count of `<prefix>_copy`, when the module has it.
  std::optional<unsigned> copyLengthBits;

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
  /// the hooks, and the entry points with their memref descriptors. Emits an
  /// error at `loc` and fails on an entry point whose type has no C
  /// spelling.
  LogicalResult writeHeader(raw_ostream &os, Location loc) const;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_FIRMWARELAYOUT_H
