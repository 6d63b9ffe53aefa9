//===- PlanLiveness.h - storage and lifetimes of a bound function -*- C++ -*-===//
//
// What helia-verify-plan checks a plan against, derived from the IR on its
// own terms rather than from the planner's BufferAnalysis or ModuleSchedule
// (a wrong grouping there would otherwise pass both the planner and its
// verifier). It is written apart from them, from the rules of
// docs/Design.md:
//
// - Storage: a scratch result of an op of the body is stored in the buffer
//   of the values bufferization stores it in
//   (BufferizableOpInterface::getAliasingOpOperands, and what a loop
//   yields); a value nested in a region is followed back to the tensors of
//   the body it is stored in (a loop's iter_arg to its init). A tensor whose
//   storage is one other tensor's joins that tensor's group; one that may be
//   in several groups (an `scf.if` result) owns no storage and its uses
//   extend every group it may be in; every other tensor (an argument, a
//   constant, an allocation, a call result, a result of an op without
//   bufferization) starts a group of its own.
// - Time: entry-block arguments at step 0, the i-th op of the body at step
//   i + 1, an op with regions is one step that uses everything its regions
//   use, the return at the last step. A group is live from the first
//   definition of a member to the last use of a member (or of a tensor that
//   may be stored in it).
//
// The bindings are not used to group anything; the checks compare them with
// the groups (PlanChecks.h).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_PLANLIVENESS_H
#define HELIA_DIALECT_HELIA_ANALYSIS_PLANLIVENESS_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::helia {

/// One storage group: tensors of one function that share a buffer.
struct StorageGroup {
  /// Indices into FunctionLiveness::getTensors(), in program order; the
  /// first is the root.
  SmallVector<unsigned, 2> members;
  /// Largest byte size among the members.
  int64_t size = 0;
  /// Closed lifetime on the function's own steps.
  int64_t first = 0, last = 0;
  /// Steps that read a member (sorted, unique).
  SmallVector<int64_t> readSteps;
};

/// A tensor stored in a group it was not the root of: it must be bound like
/// the root (checkSharedBindings).
struct SharedStorage {
  unsigned tensor;
  unsigned group;
};

class FunctionLiveness {
public:
  /// Analyses `func`, a planned function. Fails with a located error when a
  /// tensor cannot be planned at all (collectTensors).
  static FailureOr<FunctionLiveness> analyze(FunctionOpInterface func);

  FunctionOpInterface getFunction() const { return func; }
  ArrayRef<TensorInfo> getTensors() const { return tensors; }
  ArrayRef<StorageGroup> getGroups() const { return groups; }
  ArrayRef<SharedStorage> getSharedStorage() const { return shared; }
  /// The group of tensor `tensor`, or ~0u for a tensor that owns no storage.
  unsigned getGroupOf(unsigned tensor) const { return groupOf[tensor]; }
  /// The group holding `value`, or nullptr.
  const StorageGroup *lookup(Value value) const;
  /// The step at which `op`, an op of the body or nested in one, runs.
  int64_t getStep(Operation *op) const;
  /// The last step (the return's).
  int64_t getLastStep() const { return lastStep; }

private:
  /// Groups, in program order; `aliases` gets the groups of each tensor
  /// that may be stored in several.
  void formGroups(DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases);
  /// Lifetimes and read steps of the groups.
  void computeLifetimes(
      Block &body, const DenseMap<unsigned, SmallVector<unsigned, 2>> &aliases);

  FunctionOpInterface func;
  SmallVector<TensorInfo> tensors;
  DenseMap<Value, unsigned> tensorIndex;
  SmallVector<unsigned> groupOf;
  SmallVector<StorageGroup> groups;
  SmallVector<SharedStorage> shared;
  DenseMap<Operation *, int64_t> stepOf;
  int64_t lastStep = 0;
};

/// Every planned function of a module, in module order, on one timeline
/// (docs/Design.md, "Time across calls"), laid out from the calls in the IR:
/// a function called from one call site of a planned function (directly or
/// through unplanned functions) runs inside that call's step, between the
/// step's start and its end (results are defined at the end); a function
/// called from several sites, and what it calls, is live for the whole
/// program; the others run one after another.
struct ModuleLiveness {
  struct Timeline {
    /// First and last global step of each local step.
    SmallVector<int64_t> start, end;
    bool wholeProgram = false;
  };
  std::vector<FunctionLiveness> functions;
  /// One per function.
  std::vector<Timeline> timelines;
  int64_t numSteps = 0;

  /// Fails with a located error when a function cannot be analysed.
  static FailureOr<ModuleLiveness> analyze(ModuleOp module);

  /// The global closed lifetime of group `group` of function `func`.
  std::pair<int64_t, int64_t> getLifetime(unsigned func,
                                          const StorageGroup &group) const;
  /// The global closed window of a streamed group: from the start of its
  /// first reader's step to the end of its last reader's.
  std::pair<int64_t, int64_t> getStreamWindow(unsigned func,
                                              const StorageGroup &group) const;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_PLANLIVENESS_H
