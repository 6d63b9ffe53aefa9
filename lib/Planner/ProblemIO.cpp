//===- ProblemIO.cpp - Packing problems as CSV files ----------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/ProblemIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LineIterator.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace helia::planner;

llvm::StringRef helia::planner::stringifyCsvFormat(CsvFormat format) {
  switch (format) {
  case CsvFormat::MiniMalloc:
    return "minimalloc";
  case CsvFormat::IdeallocIree:
    return "idealloc-iree";
  }
  llvm_unreachable("unknown CSV format");
}

std::optional<CsvFormat>
helia::planner::symbolizeCsvFormat(llvm::StringRef name) {
  for (CsvFormat format : {CsvFormat::MiniMalloc, CsvFormat::IdeallocIree})
    if (stringifyCsvFormat(format) == name)
      return format;
  return std::nullopt;
}

static llvm::SmallVector<llvm::StringRef> splitFields(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef> fields;
  line.split(fields, ',');
  for (llvm::StringRef &field : fields)
    field = field.trim();
  return fields;
}

namespace {
/// A column found in the header: its index and the name it was found under.
using Column = std::optional<std::pair<size_t, llvm::StringRef>>;

/// Reads a problem file into a CsvProblem: the header row names the columns,
/// every other non-blank row is a buffer.
class ProblemCsvReader {
public:
  ProblemCsvReader(llvm::StringRef fileName, CsvFormat format,
                   CsvProblem &result)
      : fileName(fileName), format(format), result(result) {}

  llvm::Error error(int64_t line, const llvm::Twine &message) const {
    return llvm::createStringError(
        llvm::formatv("{0}:{1}: ", fileName, line).str() + message.str());
  }

  /// Reads the header (the first line that is not blank) and finds the
  /// columns it names; leaves `lines` at the first row.
  llvm::Error readHeader(llvm::line_iterator &lines,
                         const llvm::line_iterator &end);
  /// Reads one non-blank row into a buffer.
  llvm::Error readRow(int64_t lineNo, llvm::StringRef line);

private:
  llvm::Error findColumns(int64_t headerLineNo,
                          const llvm::StringMap<size_t> &columnOf);
  llvm::Error readInteger(int64_t lineNo,
                          llvm::ArrayRef<llvm::StringRef> fields, size_t column,
                          int64_t &value) const;
  llvm::Error readLifetime(int64_t lineNo,
                           llvm::ArrayRef<llvm::StringRef> fields,
                           Buffer &buffer) const;
  llvm::Error readAlignment(int64_t lineNo,
                            llvm::ArrayRef<llvm::StringRef> fields,
                            Buffer &buffer) const;
  llvm::Error readOffset(int64_t lineNo, llvm::ArrayRef<llvm::StringRef> fields,
                         Buffer &buffer);
  llvm::Error readId(int64_t lineNo, llvm::ArrayRef<llvm::StringRef> fields,
                     Buffer &buffer);

  llvm::StringRef fileName;
  CsvFormat format;
  CsvProblem &result;
  Column idColumn, lowerColumn, upperColumn, sizeColumn, alignmentColumn,
      offsetColumn;
  bool upperInclusive = false;
  llvm::StringSet<> seenIds;
};
} // namespace

llvm::Error ProblemCsvReader::readHeader(llvm::line_iterator &lines,
                                         const llvm::line_iterator &end) {
  int64_t lineNo = 0;
  llvm::StringRef headerLine;
  for (; lines != end && headerLine.empty(); ++lines) {
    headerLine = lines->trim();
    lineNo = lines.line_number();
  }
  if (headerLine.empty())
    return error(lineNo ? lineNo : 1, "empty file: expected a header row");
  llvm::StringMap<size_t> columnOf;
  for (auto [index, name] : llvm::enumerate(splitFields(headerLine))) {
    std::string lower = name.lower();
    result.header.push_back(name.str());
    if (!columnOf.try_emplace(lower, index).second)
      return error(lineNo, "duplicate column '" + name + "'");
  }
  return findColumns(lineNo, columnOf);
}

llvm::Error
ProblemCsvReader::findColumns(int64_t headerLineNo,
                              const llvm::StringMap<size_t> &columnOf) {
  auto findColumn =
      [&](std::initializer_list<llvm::StringRef> names) -> Column {
    for (llvm::StringRef name : names) {
      auto it = columnOf.find(name);
      if (it != columnOf.end())
        return std::make_pair(it->second, name);
    }
    return std::nullopt;
  };
  idColumn = findColumn({"id", "buffer", "buffer_id"});
  lowerColumn = findColumn({"lower", "begin", "start"});
  upperColumn = findColumn({"upper", "end"});
  sizeColumn = findColumn({"size"});
  alignmentColumn = findColumn({"alignment"});
  offsetColumn = findColumn({"offset"});
  struct Required {
    const Column &column;
    llvm::StringRef what;
  };
  for (const Required &required :
       {Required{idColumn, "'id' (or 'buffer', 'buffer_id')"},
        Required{lowerColumn, "'lower' (or 'begin', 'start')"},
        Required{upperColumn, "'upper' (or 'end')"},
        Required{sizeColumn, "'size'"}})
    if (!required.column)
      return error(headerLineNo, "missing column " + required.what);
  for (llvm::StringRef ignored : {"hint", "gaps"})
    if (columnOf.count(ignored))
      result.ignoredColumns.push_back(ignored.str());
  // An `end` column is inclusive in MiniMalloc's reader; so is idealloc's
  // IREE `upper`.
  upperInclusive =
      upperColumn->second == "end" || format == CsvFormat::IdeallocIree;
  if (offsetColumn)
    result.offsetColumn = offsetColumn->first;
  if (offsetColumn && format == CsvFormat::IdeallocIree)
    result.referenceOffsets.emplace();
  return llvm::Error::success();
}

llvm::Error
ProblemCsvReader::readInteger(int64_t lineNo,
                              llvm::ArrayRef<llvm::StringRef> fields,
                              size_t column, int64_t &value) const {
  llvm::StringRef field = fields[column];
  if (field.getAsInteger(10, value))
    return error(lineNo, llvm::formatv("column '{0}': expected an "
                                       "integer, got '{1}'",
                                       result.header[column], field));
  return llvm::Error::success();
}

llvm::Error
ProblemCsvReader::readLifetime(int64_t lineNo,
                               llvm::ArrayRef<llvm::StringRef> fields,
                               Buffer &buffer) const {
  int64_t lower = 0, upper = 0;
  if (llvm::Error e = readInteger(lineNo, fields, lowerColumn->first, lower))
    return e;
  if (llvm::Error e = readInteger(lineNo, fields, upperColumn->first, upper))
    return e;
  if (llvm::Error e =
          readInteger(lineNo, fields, sizeColumn->first, buffer.size))
    return e;
  if (buffer.size < 0)
    return error(lineNo, llvm::formatv("negative size {0}", buffer.size));
  if (upperInclusive ? upper < lower : upper <= lower)
    return error(lineNo, llvm::formatv("empty lifetime: {0} {1} {2} {3}",
                                       result.header[upperColumn->first], upper,
                                       upperInclusive ? "<" : "<=", lower));
  buffer.firstStep = lower;
  buffer.lastStep = upperInclusive ? upper : upper - 1;
  return llvm::Error::success();
}

llvm::Error
ProblemCsvReader::readAlignment(int64_t lineNo,
                                llvm::ArrayRef<llvm::StringRef> fields,
                                Buffer &buffer) const {
  if (!alignmentColumn || fields[alignmentColumn->first].empty())
    return llvm::Error::success();
  if (llvm::Error e =
          readInteger(lineNo, fields, alignmentColumn->first, buffer.alignment))
    return e;
  if (buffer.alignment < 1)
    return error(lineNo, llvm::formatv("alignment {0} is not positive",
                                       buffer.alignment));
  return llvm::Error::success();
}

llvm::Error ProblemCsvReader::readOffset(int64_t lineNo,
                                         llvm::ArrayRef<llvm::StringRef> fields,
                                         Buffer &buffer) {
  if (!offsetColumn || fields[offsetColumn->first].empty()) {
    if (result.referenceOffsets)
      return error(lineNo, "missing reference offset");
    return llvm::Error::success();
  }
  int64_t offset = 0;
  if (llvm::Error e = readInteger(lineNo, fields, offsetColumn->first, offset))
    return e;
  if (offset < -1)
    return error(lineNo, llvm::formatv("negative offset {0}", offset));
  if (result.referenceOffsets) {
    result.referenceOffsets->push_back(offset);
  } else if (offset >= 0) {
    if (offset % buffer.alignment != 0)
      return error(lineNo, llvm::formatv("offset {0} is not a multiple of "
                                         "alignment {1}",
                                         offset, buffer.alignment));
    buffer.fixedOffset = offset;
  }
  return llvm::Error::success();
}

llvm::Error ProblemCsvReader::readId(int64_t lineNo,
                                     llvm::ArrayRef<llvm::StringRef> fields,
                                     Buffer &buffer) {
  llvm::StringRef id = fields[idColumn->first];
  if (!seenIds.insert(id).second)
    return error(lineNo, "duplicate id '" + id + "'");
  int64_t numericId;
  buffer.id = id.getAsInteger(10, numericId)
                  ? static_cast<int64_t>(result.ids.size())
                  : numericId;
  result.ids.push_back(id.str());
  return llvm::Error::success();
}

llvm::Error ProblemCsvReader::readRow(int64_t lineNo, llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef> fields = splitFields(line);
  if (fields.size() != result.header.size())
    return error(lineNo, llvm::formatv("expected {0} fields, got {1}",
                                       result.header.size(), fields.size()));
  Buffer buffer;
  if (llvm::Error e = readLifetime(lineNo, fields, buffer))
    return e;
  if (llvm::Error e = readAlignment(lineNo, fields, buffer))
    return e;
  if (llvm::Error e = readOffset(lineNo, fields, buffer))
    return e;
  if (llvm::Error e = readId(lineNo, fields, buffer))
    return e;
  result.rows.emplace_back(fields.begin(), fields.end());
  result.problem.buffers.push_back(buffer);
  return llvm::Error::success();
}

llvm::Expected<CsvProblem>
helia::planner::parseProblemCsv(llvm::StringRef text, llvm::StringRef fileName,
                                CsvFormat format) {
  CsvProblem result;
  ProblemCsvReader reader(fileName, format, result);

  // line_iterator reads a NUL-terminated copy and stops at a NUL byte: a NUL
  // in the text is an error rather than a silent end of the file.
  if (size_t nul = text.find('\0'); nul != llvm::StringRef::npos)
    return reader.error(1 + text.take_front(nul).count('\n'),
                        "unexpected NUL byte: a problem file is text");
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(text, fileName);
  // Blank lines are kept so that an all-blank file names its last line.
  llvm::line_iterator lines(*buffer, /*SkipBlanks=*/false), end;
  if (llvm::Error e = reader.readHeader(lines, end))
    return std::move(e);
  for (; lines != end; ++lines) {
    llvm::StringRef line = lines->trim();
    if (line.empty())
      continue;
    if (llvm::Error e = reader.readRow(lines.line_number(), line))
      return std::move(e);
  }
  return result;
}

void helia::planner::writeSolutionCsv(llvm::raw_ostream &os,
                                      const CsvProblem &problem,
                                      llvm::ArrayRef<int64_t> offsets) {
  auto writeRow = [&](llvm::ArrayRef<std::string> fields,
                      llvm::StringRef last) {
    for (auto [index, field] : llvm::enumerate(fields)) {
      if (problem.offsetColumn && index == *problem.offsetColumn)
        continue;
      os << field << ',';
    }
    os << last << '\n';
  };
  writeRow(problem.header, "offset");
  for (auto [row, offset] : llvm::zip_equal(problem.rows, offsets))
    writeRow(row, std::to_string(offset));
}
