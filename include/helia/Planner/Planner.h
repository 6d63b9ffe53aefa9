//===- Planner.h - Offset assignment for buffers with lifetimes -*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The packing library of helia: given buffers with a size, an alignment and a
// closed lifetime [firstStep, lastStep], give each one an offset in a single
// arena so that no two buffers whose lifetimes overlap share a byte, and keep
// the arena (the peak, max offset + size) small. This is the dynamic storage
// allocation problem; the library has no MLIR dependency so that passes, the
// helia-plan tool and tests can all call it on plain data.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_PLANNER_H
#define HELIA_PLANNER_PLANNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace helia::planner {

/// One buffer to place. Lifetimes are closed intervals of integer steps, as in
/// TFLite Micro: two buffers conflict iff [firstStep, lastStep] intervals
/// intersect, so a buffer that dies at step s and one born at step s conflict.
struct Buffer {
  /// Caller's identifier, echoed in diagnostics only. Results are indexed by
  /// the buffer's position in the problem, not by this id.
  int64_t id = 0;
  /// Size in bytes; zero-size buffers occupy nothing and are placed at 0.
  int64_t size = 0;
  /// Every offset of this buffer is a multiple of it (>= 1).
  int64_t alignment = 1;
  /// First step at which the buffer is live.
  int64_t firstStep = 0;
  /// Last step at which the buffer is live (inclusive, >= firstStep).
  int64_t lastStep = 0;
  /// A position decided elsewhere (an offline plan) that the planner must
  /// keep. The other buffers are placed around it.
  std::optional<int64_t> fixedOffset;

  /// Returns true if the lifetimes of this buffer and `other` intersect.
  bool overlapsInTime(const Buffer &other) const {
    return firstStep <= other.lastStep && other.firstStep <= lastStep;
  }
};

/// A packing problem: buffers and, optionally, the arena capacity in bytes.
struct Problem {
  std::vector<Buffer> buffers;
  std::optional<int64_t> capacity;
};

/// The packing algorithm. Every algorithm is deterministic.
enum class Algorithm {
  /// An exact replica of TensorFlow Lite Micro's GreedyMemoryPlanner: fixed
  /// buffers first, then the others by size, largest first (ties: the buffer
  /// added later first, as TFLM's stable sort over its reversed list gives),
  /// each at the lowest offset where it fits among the already placed buffers
  /// that overlap it in time. The baseline.
  GreedyBySize,
  /// A portfolio of greedy orderings (size, area, lifetime, contention,
  /// conflict degree, TFLM's order) with first-fit and best-fit placement,
  /// plus a lowest-offset-first skyline greedy; keeps the smallest peak.
  /// Never worse than GreedyBySize. The fast mode: no search.
  Heuristic,
  /// Heuristic, then a branch-and-bound search over canonical solutions
  /// (MiniMalloc-style) under an effort budget, stopping as soon as the lower
  /// bound is reached. The default.
  Best,
};

/// Returns the lowercase spelling of `algorithm` ("greedy-by-size",
/// "heuristic", "best"), for command-line and pass options.
llvm::StringRef stringifyAlgorithm(Algorithm algorithm);
/// Parses a spelling produced by stringifyAlgorithm.
std::optional<Algorithm> symbolizeAlgorithm(llvm::StringRef name);
/// All algorithms, in declaration order.
llvm::ArrayRef<Algorithm> getAllAlgorithms();

/// Default search budget of Algorithm::Best, in work units (see
/// Options::effort): about a second on one core of a 2020s x86 machine.
constexpr uint64_t kDefaultEffort = 1'000'000'000;

/// Knobs of plan().
struct Options {
  Algorithm algorithm = Algorithm::Best;
  /// The search budget of Algorithm::Best, in work units: one unit per
  /// element the search's inner loops visit (candidates, time slots,
  /// conflicting buffers), i.e. roughly a nanosecond each. A deterministic
  /// unit: wall-clock time never changes a result. 0 turns the search off.
  /// Other algorithms ignore it.
  uint64_t effort = kDefaultEffort;
  /// Algorithm::Best searches only problems with at most this many buffers of
  /// non-zero size; larger ones get the heuristic portfolio alone.
  size_t maxSearchBuffers = 4096;
};

/// A placement and what is known about it.
struct Solution {
  /// One offset per buffer of the problem, in problem order.
  std::vector<int64_t> offsets;
  /// max(offset + size) over all buffers; 0 for an empty problem.
  int64_t peak = 0;
  /// lowerBound() of the problem: no placement has a smaller peak.
  int64_t lowerBound = 0;
  /// True when the peak is proven minimal (it equals the lower bound, or the
  /// search exhausted the smaller capacities).
  bool optimal = false;
  /// Search work spent, in the units of Options::effort (0 without search).
  uint64_t searchEffort = 0;
  /// Which strategy produced the offsets, e.g. "greedy-by-size",
  /// "first-fit/area", "search". For reports only.
  std::string strategy;
};

/// The reason plan() failed.
enum class PlanErrorKind {
  /// A buffer is malformed (negative size, alignment < 1, lastStep <
  /// firstStep, negative or misaligned fixed offset).
  InvalidBuffer,
  /// The fixed offsets alone already overlap or exceed the capacity.
  InfeasibleFixedOffsets,
  /// The best placement found needs more than the capacity.
  CapacityExceeded,
};

/// The error plan() returns. Carries numbers a caller can turn into its own
/// diagnostic (e.g. a located MLIR error naming the memory).
class PlanError : public llvm::ErrorInfo<PlanError> {
public:
  static char ID;

  PlanError(PlanErrorKind kind, std::string message, int64_t required = 0,
            int64_t capacity = 0, std::vector<size_t> buffers = {})
      : kind(kind), message(std::move(message)), required(required),
        capacity(capacity), buffers(std::move(buffers)) {}

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  PlanErrorKind getKind() const { return kind; }
  llvm::StringRef getMessage() const { return message; }
  /// CapacityExceeded: the smallest peak found.
  int64_t getRequired() const { return required; }
  /// CapacityExceeded / InfeasibleFixedOffsets: the capacity in force.
  int64_t getCapacity() const { return capacity; }
  /// The buffers (problem indices) the error is about: the offending buffer
  /// or pair, or for CapacityExceeded the buffers live at the step where the
  /// live bytes are largest.
  llvm::ArrayRef<size_t> getBuffers() const { return buffers; }

private:
  PlanErrorKind kind;
  std::string message;
  int64_t required;
  int64_t capacity;
  std::vector<size_t> buffers;
};

/// Places every buffer of `problem`. Fails with a PlanError when a buffer is
/// malformed, when the fixed offsets conflict, or when the capacity cannot be
/// met by the best placement the algorithm finds.
llvm::Expected<Solution> plan(const Problem &problem,
                              const Options &options = {});

/// True if plan(`problem`, `options`) would return `heuristic`, a solution
/// plan() gave for `problem` with Algorithm::Heuristic: with Heuristic
/// itself, and with Best whenever its search does not run (the peak is at
/// the lower bound, the effort is 0, a buffer has a fixed offset, or more
/// than maxSearchBuffers buffers have a size). A caller that already holds
/// the heuristic solution need not solve again.
bool isHeuristicFinal(const Problem &problem, const Options &options,
                      const Solution &heuristic);

/// The largest total size of buffers live at one step: no placement can have
/// a smaller peak. If `peakStep` is non-null, it receives a step where that
/// total is reached (the smallest such step; 0 for an empty list).
int64_t lowerBound(llvm::ArrayRef<Buffer> buffers, int64_t *peakStep = nullptr);

/// Indices of the buffers live at `step`, in problem order.
std::vector<size_t> buffersLiveAt(llvm::ArrayRef<Buffer> buffers, int64_t step);

/// max(offset + size) over the buffers.
int64_t computePeak(llvm::ArrayRef<Buffer> buffers,
                    llvm::ArrayRef<int64_t> offsets);

/// Checks a placement independently of how it was produced: one non-negative
/// offset per buffer, every offset aligned, fixed offsets kept, the capacity
/// (if any) respected, and no two buffers that overlap in time overlap in
/// memory. Returns the first violation found as a PlanError. O(n log n).
llvm::Error verify(const Problem &problem, llvm::ArrayRef<int64_t> offsets);

} // namespace helia::planner

#endif // HELIA_PLANNER_PLANNER_H
