//===- Format.h - how the exporters write bytes and arenas ------*- C++ -*-===//
//
// The spellings the report and the SVG timeline share, so that both say the
// same thing the same way.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_EXPORT_FORMAT_H
#define HELIA_DIALECT_HELIA_EXPORT_FORMAT_H

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"

#include <string>

namespace mlir::helia {

/// How formatBytes writes a byte count.
enum class ByteStyle {
  /// The exact count, followed from 1 KiB on by the count in a binary unit:
  /// "512", "1536 (1.5 KiB)", "3145728 (3.00 MiB)".
  Exact,
  /// The count in a binary unit alone, short enough for an axis label:
  /// "512 B", "1.5 KiB", "3.00 MiB".
  Short,
};

/// Formats a byte count for readers: KiB with one decimal from 1 KiB on,
/// MiB with two from 1 MiB on.
std::string formatBytes(int64_t bytes, ByteStyle style);

/// What kind of storage an arena is, in words: "stream pool", "read-write"
/// (scratch and persistent arenas), "staged" (constants hydrated into it at
/// init) or "cold" (constants read in place).
StringRef getArenaKindName(const PlanArena &arena);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_EXPORT_FORMAT_H
