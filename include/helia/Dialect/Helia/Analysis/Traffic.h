//===- Traffic.h - bytes each op reads and writes per inference -*- C++ -*-===//
//
// The traffic model of objective=traffic and of the plan's predicted
// traffic (docs/Placement.md). Per op, getOpTraffic counts the bytes it
// reads from each operand and writes to each operand or result:
//
// - linalg ops: the naive loop nest. Every iteration of the iteration
//   domain loads one element of every input whose payload uses it (a
//   broadcast input is loaded again in every iteration that uses it); every
//   output element is written once and, when the payload reads it, read
//   once: the accumulator of a reduction stays in a register across the
//   reduction loops (what LLVM's scalar promotion does to the loops
//   linalg lowers to).
// - TOSA and TFLite ops (registered or not) by a table: convolutions,
//   depthwise convolutions, fully connected and matmul read input and
//   weight once per multiply-accumulate (output elements x reduction size),
//   the bias once per output element; pooling reads its window per output
//   element; elementwise ops read every operand once per result element
//   (broadcasts re-read); reductions, concatenations and copies read every
//   operand once.
// - views, empty tensors and constants move nothing; any other op reads
//   each tensor operand once and writes each result once.
//
// Ops nested in a loop with a static trip count are multiplied by it; a
// loop without one counts its body once, and both branches of an `scf.if`
// are counted (an upper bound).
//
// TrafficAnalysis attributes the counts of every op of a function to the
// buffers of its BufferAnalysis.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_TRAFFIC_H
#define HELIA_DIALECT_HELIA_ANALYSIS_TRAFFIC_H

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Planner/Traffic.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::helia {

/// The bytes one execution of an op reads and writes, per operand and per
/// result. Writes into a destination operand (a linalg init) are counted on
/// the operand, writes into storage the op owns on the result.
struct OpTraffic {
  SmallVector<uint64_t> operandReads, operandWrites, resultWrites;
};

/// The traffic of one execution of `op` (nested ops not included).
OpTraffic getOpTraffic(Operation *op);

/// Bytes read from and written to one buffer per call of its function.
struct BufferTraffic {
  uint64_t readBytes = 0;
  uint64_t writeBytes = 0;
};

/// The traffic of every buffer of one function.
class TrafficAnalysis {
public:
  explicit TrafficAnalysis(const BufferAnalysis &analysis);

  /// Per buffer, indexed like BufferAnalysis::getBuffers().
  ArrayRef<BufferTraffic> getBuffers() const { return buffers; }

private:
  void visit(Block &block, uint64_t times);

  const BufferAnalysis &analysis;
  SmallVector<BufferTraffic> buffers;
};

/// The access costs of every memory of `platform`: its `read_cycles`,
/// `write_cycles` and `access_bytes`, replaced by the module's
/// `helia.memory_costs` (helia-assign-bindings' memory-cost) where it gives
/// a memory.
llvm::StringMap<::helia::planner::AccessCost>
getMemoryCosts(ModuleOp module, PlatformAttr platform);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_TRAFFIC_H
