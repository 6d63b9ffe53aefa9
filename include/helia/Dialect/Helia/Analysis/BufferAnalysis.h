//===- BufferAnalysis.h - buffers, aliasing and lifetimes -------*- C++ -*-===//
//
// What the planner packs is a buffer, not an SSA value. The buffers are the
// ones One-Shot Bufferize creates: a value that bufferization stores in an
// operand's buffer (BufferizableOpInterface::getAliasingOpOperands: a view
// and its source, a destination-style result and its init, a loop result
// and its init) joins that operand's buffer; every other tensor (an
// allocation, a constant, an argument, a call result, a result of an op
// without bufferization such as `tfl.*`) is the root of a buffer of its own.
// The analysis assumes that every op writes in place, which holds once every
// copy bufferization would make is an explicit op
// (helia-insert-tensor-copies). A value that may be stored in one of several
// buffers (an `scf.if` yielding different buffers) owns no storage: its uses
// extend the lifetime of every buffer it may alias.
//
// Schedule: entry-block arguments are defined at step 0; the i-th op of the
// body (0-based) runs at step i + 1; an op with regions is one step that uses
// every value its regions use. A value is live from its defining step to its
// last use; a returned value to the last step. Lifetimes are closed
// intervals, as in TensorFlow Lite Micro.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_BUFFERANALYSIS_H
#define HELIA_DIALECT_HELIA_ANALYSIS_BUFFERANALYSIS_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::helia {

/// One buffer: a set of tensors that share storage.
struct BufferInfo {
  /// Index of the buffer in BufferAnalysis::getBuffers().
  unsigned index;
  /// Indices (into BufferAnalysis::getTensors()) of the member tensors, in
  /// program order; the first is the root that defines the storage.
  SmallVector<unsigned, 2> members;
  /// Kind of the root tensor.
  TensorKind kind;
  /// Largest byte size among the members (they normally agree).
  uint64_t size = 0;
  /// Closed lifetime on the function's schedule.
  int64_t firstStep = 0;
  int64_t lastStep = 0;
  /// Steps of the ops that read a member (sorted, unique), for streaming.
  SmallVector<int64_t> readSteps;
};

/// Groups the tensors of one function into buffers and computes lifetimes.
class BufferAnalysis {
public:
  /// Analyses `func`. Fails (with a located error) when a tensor of the
  /// function cannot be planned.
  static FailureOr<BufferAnalysis> analyze(FunctionOpInterface func);

  FunctionOpInterface getFunction() const { return func; }
  ArrayRef<TensorInfo> getTensors() const { return tensors; }
  ArrayRef<BufferInfo> getBuffers() const { return buffers; }
  /// The last step of the schedule (the step of the terminator).
  int64_t getLastStep() const { return lastStep; }
  /// The buffer holding `value`, or nullptr if it is not a planned tensor.
  const BufferInfo *lookup(Value value) const;
  /// The step at which `op` (an op of the body, or nested in one) runs.
  int64_t getStep(Operation *op) const;
  /// The tensor index of `value`, or -1.
  int getTensorIndex(Value value) const;
  /// The buffers `value` may be stored in: the one buffer of a member, the
  /// several buffers of a tensor that owns no storage (e.g. an `scf.if`
  /// result), none for a value that is not a planned tensor.
  SmallVector<const BufferInfo *, 2> getAliasedBuffers(Value value) const;
  /// True for a tensor that owns no storage: it may be stored in any of
  /// several buffers (getAliasedBuffers) and has no binding of its own.
  bool ownsNoStorage(Value value) const {
    return lookup(value) == nullptr && getTensorIndex(value) >= 0;
  }

private:
  /// The steps of the body's ops (numbered in program order from 1).
  void numberSteps();
  /// Checks each `helia.in_place` mark of the body (with `options`, the
  /// lowering's bufferization) and collects the marked ops.
  LogicalResult
  checkInPlaceMarks(const bufferization::BufferizationOptions &options,
                    SmallVectorImpl<Operation *> &inPlaceOps);
  /// One buffer per root of `storage` (each tensor's root tensors), its
  /// members, and the buffers each tensor that owns no storage may be.
  void groupBuffers(ArrayRef<SmallVector<unsigned, 2>> storage);
  /// Each buffer's lifetime and read steps, over every tensor it may hold.
  void computeLifetimes();
  /// Checks that each marked op's operand buffer is not read after it.
  LogicalResult checkInPlaceReads(ArrayRef<Operation *> inPlaceOps) const;

  FunctionOpInterface func;
  SmallVector<TensorInfo> tensors;
  SmallVector<BufferInfo> buffers;
  DenseMap<Value, unsigned> tensorIndex;
  /// Buffer of each tensor, or ~0u for a tensor that owns no storage.
  SmallVector<unsigned> bufferOfTensor;
  /// The buffers each tensor that owns no storage may be stored in.
  DenseMap<unsigned, SmallVector<unsigned, 2>> aliasedBuffers;
  DenseMap<Operation *, int64_t> stepOf;
  int64_t lastStep = 0;
};

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_BUFFERANALYSIS_H
