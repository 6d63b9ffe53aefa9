//===- helia-plan.cpp - Run the packer on a CSV problem -------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// Reads a buffer list (MiniMalloc's CSV, or idealloc's IREE variant), places
// it with the helia packer and prints the peak, the lower bound and the time.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "helia/Planner/ProblemIO.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/resource.h>

using namespace helia::planner;

namespace {
llvm::cl::OptionCategory category("helia-plan options");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::desc("<input.csv>"),
                                     llvm::cl::init("-"),
                                     llvm::cl::cat(category));

llvm::cl::opt<Algorithm> algorithm(
    "algorithm", llvm::cl::desc("Packing algorithm"),
    llvm::cl::init(Algorithm::Best),
    llvm::cl::values(
        clEnumValN(Algorithm::GreedyBySize, "greedy-by-size",
                   "TFLite Micro's GreedyMemoryPlanner, replicated"),
        clEnumValN(Algorithm::Heuristic, "heuristic",
                   "portfolio of greedy orderings, no search (fast)"),
        clEnumValN(Algorithm::Best, "best",
                   "heuristics, then branch and bound under --effort")),
    llvm::cl::cat(category));

llvm::cl::opt<CsvFormat> format(
    "format", llvm::cl::desc("Input lifetime convention"),
    llvm::cl::init(CsvFormat::MiniMalloc),
    llvm::cl::values(
        clEnumValN(CsvFormat::MiniMalloc, "minimalloc",
                   "upper exclusive (end inclusive); offset = fixed"),
        clEnumValN(CsvFormat::IdeallocIree, "idealloc-iree",
                   "upper inclusive; offset = IREE's plan, for reference")),
    llvm::cl::cat(category));

llvm::cl::opt<int64_t> capacity("capacity",
                                llvm::cl::desc("Arena capacity in bytes"),
                                llvm::cl::init(-1), llvm::cl::cat(category));

llvm::cl::opt<uint64_t>
    effort("effort",
           llvm::cl::desc("Search budget of --algorithm=best, in work units "
                          "(~1 ns each)"),
           llvm::cl::init(kDefaultEffort), llvm::cl::cat(category));

llvm::cl::opt<unsigned> maxSearchBuffers(
    "max-search-buffers",
    llvm::cl::desc("Largest problem that --algorithm=best searches"),
    llvm::cl::init(Options().maxSearchBuffers), llvm::cl::cat(category));

llvm::cl::opt<std::string> outputFile(
    "o", llvm::cl::desc("Write the solution (input columns + offset) here"),
    llvm::cl::value_desc("file"), llvm::cl::cat(category));

llvm::cl::opt<bool> verifyPlan("verify",
                               llvm::cl::desc("Re-check the solution"),
                               llvm::cl::cat(category));

llvm::cl::opt<bool>
    resourceStats("resource-stats",
                  llvm::cl::desc("Print parse time and peak RSS"),
                  llvm::cl::cat(category));
} // namespace

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "helia-plan") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "helia-plan: place buffers with lifetimes in one arena\n");

  auto parseStart = std::chrono::steady_clock::now();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!file)
    return fail("cannot read '" + inputFile +
                "': " + file.getError().message());
  llvm::Expected<CsvProblem> parsed =
      parseProblemCsv((*file)->getBuffer(), inputFile, format);
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  double parseSeconds = secondsSince(parseStart);
  for (const std::string &column : parsed->ignoredColumns)
    llvm::WithColor::warning(llvm::errs(), "helia-plan")
        << inputFile << ": ignoring column '" << column << "'\n";

  Problem &problem = parsed->problem;
  if (capacity >= 0)
    problem.capacity = capacity;
  Options options;
  options.algorithm = algorithm;
  options.effort = effort;
  options.maxSearchBuffers = maxSearchBuffers;

  auto solveStart = std::chrono::steady_clock::now();
  llvm::Expected<Solution> solution = plan(problem, options);
  double solveSeconds = secondsSince(solveStart);
  if (!solution)
    return fail(inputFile + ": " + llvm::toString(solution.takeError()));

  llvm::raw_ostream &os = llvm::outs();
  double ratio = solution->lowerBound
                     ? double(solution->peak) / double(solution->lowerBound)
                     : 1.0;
  os << "file: " << inputFile << "\n";
  os << "algorithm: " << stringifyAlgorithm(algorithm) << "\n";
  os << "buffers: " << problem.buffers.size() << "\n";
  os << "lower-bound: " << solution->lowerBound << "\n";
  os << "peak: " << solution->peak << "\n";
  os << "peak/lower-bound: " << llvm::format("%.4f", ratio) << "\n";
  os << "optimal: " << (solution->optimal ? "yes" : "unknown") << "\n";
  os << "strategy: " << solution->strategy << "\n";
  os << "search-effort: " << solution->searchEffort << "\n";
  os << "solve-seconds: " << llvm::format("%.4f", solveSeconds) << "\n";
  if (parsed->referenceOffsets) {
    int64_t referencePeak =
        computePeak(problem.buffers, *parsed->referenceOffsets);
    os << "reference-peak: " << referencePeak << "\n";
  }

  if (verifyPlan) {
    if (llvm::Error error = verify(problem, solution->offsets))
      return fail(inputFile +
                  ": verification failed: " + llvm::toString(std::move(error)));
    os << "verify: ok\n";
  }
  if (resourceStats) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    os << "parse-seconds: " << llvm::format("%.4f", parseSeconds) << "\n";
    os << "max-rss-kib: " << usage.ru_maxrss << "\n";
  }

  if (!outputFile.empty()) {
    std::error_code ec;
    llvm::ToolOutputFile out(outputFile, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + outputFile + "': " + ec.message());
    writeSolutionCsv(out.os(), *parsed, solution->offsets);
    out.keep();
  }
  return 0;
}
