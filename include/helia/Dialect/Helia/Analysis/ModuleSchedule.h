//===- ModuleSchedule.h - one timeline for all functions --------*- C++ -*-===//
//
// Arenas are shared by every function of a module, so lifetimes must be
// compared on one timeline. Functions that call no planned function and are
// called by none run one after another. A function called from exactly one
// call site runs inside its caller: its steps are laid out just before the
// call's step, so that every caller tensor live across the call is live
// during the callee. A function called from several sites keeps its tensors
// live for the whole program. Recursion is rejected.
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
    /// Global step of each local step (0 .. analysis.getLastStep()).
    SmallVector<int64_t> globalStep;
    /// True for a function called from several sites: its tensors are live
    /// for the whole program.
    bool wholeProgram = false;
  };

  /// Builds the schedule of every function with a body, in module order.
  /// Fails with a located error on recursion or an unplannable tensor.
  static FailureOr<ModuleSchedule> build(ModuleOp module);

  ArrayRef<Function> getFunctions() const { return functions; }
  /// Number of global steps: every lifetime lies in [0, getNumSteps() - 1].
  int64_t getNumSteps() const { return numSteps; }
  /// The global step of local step `step` of function `func`.
  int64_t toGlobal(unsigned func, int64_t step) const;
  /// The global closed lifetime of `buffer` of function `func`.
  std::pair<int64_t, int64_t> getLifetime(unsigned func,
                                          const BufferInfo &buffer) const;

private:
  std::vector<Function> functions;
  int64_t numSteps = 0;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_MODULESCHEDULE_H
