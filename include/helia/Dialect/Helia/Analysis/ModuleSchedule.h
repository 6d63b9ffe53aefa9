//===- ModuleSchedule.h - one timeline for all functions --------*- C++ -*-===//
//
// Arenas are shared by every function of a module, so lifetimes must be
// compared on one timeline (docs/Design.md, "Time across calls").
//
// Every local step of a function covers a range [start, end] of global
// steps. An ordinary step is one global step. A step that calls a function
// laid out inside it covers, in order: its own start (stream copies for the
// step, operands ready), every step of the callee, and its own end (the
// callee's results copied out, the step's results defined). The callee's
// return step ends at its caller's end, so the buffers a callee returns stay
// live until they are copied out.
//
// A function called from exactly one call site of a planned function (also
// through unplanned functions in between) is laid out inside that call's
// step. A function called from several sites, and everything it calls,
// keeps its tensors live for the whole program. Functions called from no
// planned function run one after another. Recursion is a located error.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_MODULESCHEDULE_H
#define HELIA_DIALECT_HELIA_ANALYSIS_MODULESCHEDULE_H

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace mlir::helia {

class ModuleSchedule {
public:
  struct Function {
    BufferAnalysis analysis;
    /// First and last global step of each local step
    /// (0 .. analysis.getLastStep()).
    SmallVector<int64_t> start, end;
    /// True for a function called from several sites, or called by such a
    /// function: its tensors are live for the whole program.
    bool wholeProgram = false;
  };

  /// Builds the schedule of every planned function, in module order. Fails
  /// with a located error on recursion or an unplannable tensor.
  static FailureOr<ModuleSchedule> build(ModuleOp module);

  ArrayRef<Function> getFunctions() const { return functions; }
  /// Number of global steps: every lifetime lies in [0, getNumSteps() - 1].
  int64_t getNumSteps() const { return numSteps; }
  /// The first and the last global step of local step `step` of `func`.
  int64_t getStepStart(unsigned func, int64_t step) const;
  int64_t getStepEnd(unsigned func, int64_t step) const;
  /// The global closed lifetime of `buffer` of function `func`: from the
  /// start of its first step (the end, when the root is the result of an op
  /// of the body, which is defined once the op's callees have returned) to
  /// the end of its last step.
  std::pair<int64_t, int64_t> getLifetime(unsigned func,
                                          const BufferInfo &buffer) const;
  /// The global closed window in which a streamed constant occupies its
  /// pool slot: from the start of its first reader's step (the copy comes
  /// before the reader and before any callee of that step) to the end of its
  /// last reader's step.
  std::pair<int64_t, int64_t> getStreamWindow(unsigned func,
                                              const BufferInfo &buffer) const;

private:
  std::vector<Function> functions;
  int64_t numSteps = 0;
};

/// The schedule as an MLIR analysis (`getAnalysis<ModuleScheduleAnalysis>()`
/// on the module), so that the passes of one pipeline build it once:
/// helia-assign-bindings builds it and preserves it (it writes bindings and
/// arenas, which the schedule does not read), helia-verify-plan and
/// helia-export-plan reuse it. Any pass that does not preserve it drops it.
class ModuleScheduleAnalysis {
public:
  /// Builds the schedule of `op`, a module; a failure has been reported
  /// with a located error.
  explicit ModuleScheduleAnalysis(Operation *op);

  /// The schedule, or failure when building it failed (reported once, when
  /// it was built).
  FailureOr<const ModuleSchedule *> getSchedule() const {
    if (failed(schedule))
      return failure();
    return &*schedule;
  }

private:
  FailureOr<ModuleSchedule> schedule;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_MODULESCHEDULE_H
