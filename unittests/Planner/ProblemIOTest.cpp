//===- ProblemIOTest.cpp - Tests of the CSV reader and writer -------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/ProblemIO.h"

#include "gtest/gtest.h"

using namespace helia::planner;

namespace {

std::string parseError(llvm::StringRef text,
                       CsvFormat format = CsvFormat::MiniMalloc) {
  llvm::Expected<CsvProblem> parsed = parseProblemCsv(text, "in.csv", format);
  if (parsed)
    return "no error";
  return llvm::toString(parsed.takeError());
}

TEST(ProblemIO, MiniMallocExample) {
  // MiniMalloc's README example: half-open [lower, upper).
  llvm::StringRef text = "id,lower,upper,size\n"
                         "b1,0,3,4\n"
                         "b2,3,9,4\n"
                         "b3,0,9,4\n"
                         "b4,9,21,4\n"
                         "b5,0,21,4\n";
  llvm::Expected<CsvProblem> parsed =
      parseProblemCsv(text, "input.12.csv", CsvFormat::MiniMalloc);
  ASSERT_TRUE(!!parsed) << llvm::toString(parsed.takeError());
  ASSERT_EQ(parsed->problem.buffers.size(), 5u);
  EXPECT_EQ(parsed->ids[0], "b1");
  EXPECT_EQ(parsed->problem.buffers[0].firstStep, 0);
  EXPECT_EQ(parsed->problem.buffers[0].lastStep, 2);
  // b1 ends where b2 starts: no conflict.
  EXPECT_FALSE(
      parsed->problem.buffers[0].overlapsInTime(parsed->problem.buffers[1]));
  EXPECT_EQ(lowerBound(parsed->problem.buffers), 12);
  llvm::Expected<Solution> solution = plan(parsed->problem);
  ASSERT_TRUE(!!solution);
  EXPECT_EQ(solution->peak, 12);

  std::string out;
  llvm::raw_string_ostream os(out);
  writeSolutionCsv(os, *parsed, solution->offsets);
  EXPECT_EQ(llvm::StringRef(out).split('\n').first,
            "id,lower,upper,size,offset");
  // The output reads back with the offsets as fixed positions.
  llvm::Expected<CsvProblem> reread =
      parseProblemCsv(out, "out.csv", CsvFormat::MiniMalloc);
  ASSERT_TRUE(!!reread) << llvm::toString(reread.takeError());
  for (auto [buffer, offset] :
       llvm::zip_equal(reread->problem.buffers, solution->offsets))
    EXPECT_EQ(buffer.fixedOffset, offset);
  EXPECT_FALSE(verify(reread->problem, solution->offsets));
}

TEST(ProblemIO, AliasesAndOptionalColumns) {
  llvm::StringRef text = "size , buffer_id, begin, end, alignment, offset\r\n"
                         "16, a, 0, 0, 8, -1\r\n"
                         "\n"
                         "8, b, 0, 2, 4, 16\r\n";
  llvm::Expected<CsvProblem> parsed =
      parseProblemCsv(text, "x.csv", CsvFormat::MiniMalloc);
  ASSERT_TRUE(!!parsed) << llvm::toString(parsed.takeError());
  const std::vector<Buffer> &buffers = parsed->problem.buffers;
  ASSERT_EQ(buffers.size(), 2u);
  // `end` is inclusive.
  EXPECT_EQ(buffers[0].lastStep, 0);
  EXPECT_EQ(buffers[1].lastStep, 2);
  EXPECT_EQ(buffers[0].alignment, 8);
  EXPECT_FALSE(buffers[0].fixedOffset);
  EXPECT_EQ(buffers[1].fixedOffset, 16);
}

TEST(ProblemIO, IdeallocIree) {
  // Inclusive upper; offset is IREE's plan, not a constraint.
  llvm::StringRef text = "id,lower,upper,size,offset\n"
                         "0,0,1,32,0\n"
                         "1,1,2,16,32";
  llvm::Expected<CsvProblem> parsed =
      parseProblemCsv(text, "iree.csv", CsvFormat::IdeallocIree);
  ASSERT_TRUE(!!parsed) << llvm::toString(parsed.takeError());
  const std::vector<Buffer> &buffers = parsed->problem.buffers;
  EXPECT_TRUE(buffers[0].overlapsInTime(buffers[1]));
  EXPECT_FALSE(buffers[0].fixedOffset);
  ASSERT_TRUE(parsed->referenceOffsets);
  EXPECT_EQ(*parsed->referenceOffsets, (std::vector<int64_t>{0, 32}));
  EXPECT_EQ(lowerBound(buffers), 48);
  EXPECT_EQ(symbolizeCsvFormat("idealloc-iree"), CsvFormat::IdeallocIree);
}

TEST(ProblemIO, Errors) {
  EXPECT_EQ(parseError(""), "in.csv:1: empty file: expected a header row");
  EXPECT_EQ(parseError("id,lower,size\n0,1,2\n"),
            "in.csv:1: missing column 'upper' (or 'end')");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,4,8\n1,0,x,8\n"),
            "in.csv:3: column 'upper': expected an integer, got 'x'");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,4,-8\n"),
            "in.csv:2: negative size -8");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,4,4,8\n"),
            "in.csv:2: empty lifetime: upper 4 <= 4");
  EXPECT_EQ(parseError("id,lower,end,size\n0,4,3,8\n"),
            "in.csv:2: empty lifetime: end 3 < 4");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,4\n"),
            "in.csv:2: expected 4 fields, got 3");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,4,8\n0,1,4,8\n"),
            "in.csv:3: duplicate id '0'");
  EXPECT_EQ(parseError("id,lower,upper,size,alignment\n0,0,4,8,0\n"),
            "in.csv:2: alignment 0 is not positive");
  EXPECT_EQ(parseError("id,lower,upper,size,size\n"),
            "in.csv:1: duplicate column 'size'");
  EXPECT_EQ(parseError("id,lower,upper,size\n0,0,99999999999999999999,8\n"),
            "in.csv:2: column 'upper': expected an integer, got "
            "'99999999999999999999'");
  // Blank lines count; a NUL byte is not read as the end of the file.
  EXPECT_EQ(parseError("\n \r\n"),
            "in.csv:2: empty file: expected a header row");
  EXPECT_EQ(parseError("\r\nid,lower,upper,size\r\n\r\n0,4,4,8\r\n"),
            "in.csv:4: empty lifetime: upper 4 <= 4");
  EXPECT_EQ(parseError(std::string(
                "id,lower,upper,size\n0,0,4,8\n1,0\0,4,8\n", 37)),
            "in.csv:3: unexpected NUL byte: a problem file is text");
}

} // namespace
