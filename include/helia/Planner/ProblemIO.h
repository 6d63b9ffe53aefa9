//===- ProblemIO.h - Packing problems as CSV files --------------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Reads and writes the CSV files that memory-allocation benchmarks use
// (MiniMalloc's format and idealloc's IREE variant), so that the packer can be
// run and compared on them.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_PROBLEMIO_H
#define HELIA_PLANNER_PROBLEMIO_H

#include "helia/Planner/Planner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace helia::planner {

/// How a CSV file states lifetimes.
enum class CsvFormat {
  /// MiniMalloc: header row, columns by name: `id` (or `buffer`,
  /// `buffer_id`), `lower` (or `begin`, `start`), `upper` exclusive (or `end`
  /// inclusive), `size`; optional `alignment` and `offset` (a fixed offset;
  /// -1 or empty for none). `hint` and `gaps` are ignored (ignoring gaps only
  /// lengthens lifetimes, so plans stay valid).
  MiniMalloc,
  /// idealloc's IREE dumps: the same columns, but `upper` is inclusive and
  /// `offset` is IREE's own plan, read as a reference, not as fixed offsets.
  IdeallocIree,
};

llvm::StringRef stringifyCsvFormat(CsvFormat format);
std::optional<CsvFormat> symbolizeCsvFormat(llvm::StringRef name);

/// A problem read from CSV, with what is needed to echo it back.
struct CsvProblem {
  Problem problem;
  /// The `id` field of each row, in row order (= buffer order).
  std::vector<std::string> ids;
  /// The header fields and each row's fields, as written.
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Index of the `offset` column in `header`, if present.
  std::optional<size_t> offsetColumn;
  /// IdeallocIree: the offsets of the plan stored in the file.
  std::optional<std::vector<int64_t>> referenceOffsets;
  /// Columns that were recognised but ignored.
  std::vector<std::string> ignoredColumns;
};

/// Parses `text`. Errors name `fileName` and the 1-based line: a missing
/// column, a field that is not an integer, a negative size, an empty
/// lifetime, a duplicate id, a row with the wrong number of fields.
llvm::Expected<CsvProblem> parseProblemCsv(llvm::StringRef text,
                                           llvm::StringRef fileName,
                                           CsvFormat format);

/// Writes the input rows (without any `offset` column) plus an `offset`
/// column holding `offsets`.
void writeSolutionCsv(llvm::raw_ostream &os, const CsvProblem &problem,
                      llvm::ArrayRef<int64_t> offsets);

} // namespace helia::planner

#endif // HELIA_PLANNER_PROBLEMIO_H
