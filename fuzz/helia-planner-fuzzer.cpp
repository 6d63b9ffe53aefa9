//===- helia-planner-fuzzer.cpp - the packing library under libFuzzer ----===//
//
// Decodes random bytes into a packing problem (sizes up to 2^62, every
// power-of-two alignment, fixed offsets, a capacity, deliberately malformed
// buffers) and checks what the library promises: malformed input is refused
// with InvalidBuffer, a solution passes the independent verify(), its peak is
// the real peak and at least the lower bound, Heuristic and Best are never
// worse than GreedyBySize, and planning twice gives the same offsets.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"

#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

namespace planner = ::helia::planner;

/// Reports a broken promise and aborts, so that libFuzzer saves the input.
[[noreturn]] static void fail(const char *what, const planner::Problem &p) {
  llvm::errs() << "helia planner fuzzer: " << what << "\n";
  for (const planner::Buffer &b : p.buffers) {
    llvm::errs() << "  size " << b.size << " align " << b.alignment
                 << " steps [" << b.firstStep << ", " << b.lastStep << "]";
    if (b.fixedOffset)
      llvm::errs() << " fixed " << *b.fixedOffset;
    llvm::errs() << "\n";
  }
  if (p.capacity)
    llvm::errs() << "  capacity " << *p.capacity << "\n";
  std::abort();
}

static bool isValid(const planner::Buffer &b) {
  return b.size >= 0 && b.alignment >= 1 && b.lastStep >= b.firstStep &&
         (!b.fixedOffset ||
          (*b.fixedOffset >= 0 && *b.fixedOffset % b.alignment == 0));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  planner::Problem problem;
  // Huge mode: sizes, alignments and offsets up to 2^40 bytes, the largest
  // tensor helia plans (kMaxTensorBytes), where sums of many buffers must
  // still not overflow. (Beyond that the library's sums can overflow int64:
  // callers bound sizes, see docs/Hardening.md.)
  bool huge = in.ConsumeBool();
  bool malformed = in.ConsumeProbability<double>() < 0.05;
  unsigned count = in.ConsumeIntegralInRange<unsigned>(0, 48);
  int64_t horizon = in.ConsumeIntegralInRange<int64_t>(1, 64);
  for (unsigned i = 0; i < count && in.remaining_bytes(); ++i) {
    planner::Buffer b;
    b.id = i;
    b.size = huge ? in.ConsumeIntegralInRange<int64_t>(0, int64_t(1) << 40)
                  : in.ConsumeIntegralInRange<int64_t>(0, 4096);
    b.alignment = int64_t(1)
                  << in.ConsumeIntegralInRange<int>(0, huge ? 40 : 8);
    b.firstStep = in.ConsumeIntegralInRange<int64_t>(0, horizon);
    b.lastStep = b.firstStep + in.ConsumeIntegralInRange<int64_t>(0, horizon);
    if (in.ConsumeProbability<double>() < 0.1) {
      int64_t slot = in.ConsumeIntegralInRange<int64_t>(0, huge ? 1 << 20 : 64);
      b.fixedOffset = slot * b.alignment;
    }
    if (malformed && in.ConsumeBool()) {
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        b.size = -1 - b.size;
        break;
      case 1:
        b.alignment = in.ConsumeIntegralInRange<int64_t>(-4, 0);
        break;
      case 2:
        std::swap(b.firstStep, b.lastStep), b.firstStep += 1;
        break;
      case 3:
        b.fixedOffset = -in.ConsumeIntegralInRange<int64_t>(1, 64);
        break;
      }
    }
    problem.buffers.push_back(b);
  }
  if (in.ConsumeBool())
    problem.capacity = huge ? in.ConsumeIntegralInRange<int64_t>(
                                  0, std::numeric_limits<int64_t>::max())
                            : in.ConsumeIntegralInRange<int64_t>(0, 1 << 16);

  planner::Options options;
  options.algorithm = planner::getAllAlgorithms()[in.ConsumeIntegralInRange<
      size_t>(0, planner::getAllAlgorithms().size() - 1)];
  // A small budget keeps an input under a millisecond or so.
  options.effort = in.ConsumeIntegralInRange<uint64_t>(0, 200'000);

  bool valid = llvm::all_of(problem.buffers, isValid);
  llvm::Expected<planner::Solution> solution = planner::plan(problem, options);
  if (!solution) {
    planner::PlanErrorKind kind = planner::PlanErrorKind::InvalidBuffer;
    llvm::handleAllErrors(solution.takeError(), [&](const planner::PlanError &e) {
      kind = e.getKind();
    });
    if (!valid && kind != planner::PlanErrorKind::InvalidBuffer)
      fail("a malformed buffer was not refused as InvalidBuffer", problem);
    if (valid && kind == planner::PlanErrorKind::InvalidBuffer)
      fail("a well-formed buffer was refused as InvalidBuffer", problem);
    if (kind == planner::PlanErrorKind::CapacityExceeded && !problem.capacity)
      fail("CapacityExceeded without a capacity", problem);
    return 0;
  }
  if (!valid)
    fail("a malformed buffer was accepted", problem);
  const planner::Solution &s = *solution;
  if (s.offsets.size() != problem.buffers.size())
    fail("not one offset per buffer", problem);
  if (llvm::Error error = planner::verify(problem, s.offsets)) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    fail("the solution does not pass verify()", problem);
  }
  if (s.peak != planner::computePeak(problem.buffers, s.offsets))
    fail("the reported peak is not the solution's peak", problem);
  if (s.lowerBound != planner::lowerBound(problem.buffers))
    fail("the reported lower bound is not lowerBound()", problem);
  if (s.peak < s.lowerBound)
    fail("the peak is below the lower bound", problem);
  if (s.optimal && s.peak != s.lowerBound &&
      options.algorithm != planner::Algorithm::Best)
    fail("a heuristic claims an unproven optimum", problem);

  // Same input, same answer.
  llvm::Expected<planner::Solution> again = planner::plan(problem, options);
  if (!again)
    fail("a second run failed where the first succeeded", problem);
  if (again->offsets != s.offsets || again->peak != s.peak)
    fail("two runs gave different offsets", problem);

  // Never worse than the baseline (without fixed offsets or capacity, where
  // the baseline always succeeds).
  if (options.algorithm != planner::Algorithm::GreedyBySize &&
      !problem.capacity &&
      llvm::none_of(problem.buffers,
                    [](const planner::Buffer &b) { return b.fixedOffset; })) {
    planner::Options greedy = options;
    greedy.algorithm = planner::Algorithm::GreedyBySize;
    llvm::Expected<planner::Solution> base = planner::plan(problem, greedy);
    if (!base) {
      llvm::consumeError(base.takeError());
      fail("greedy-by-size failed where another algorithm succeeded", problem);
    }
    if (base->peak < s.peak)
      fail("worse than greedy-by-size", problem);
  }
  return 0;
}
