//===- ConstantOnly.cpp - scratch computed from constants alone -----------===//

#include "helia/Dialect/Helia/Analysis/ConstantOnly.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::helia;

/// The values of `func`'s body computed from constants alone: results of
/// ConstantLike ops, and of side-effect-free ops (regions included) whose
/// operands all are such values (`tensor.empty` has none).
static llvm::DenseSet<Value> getConstantDerivedValues(FunctionOpInterface func) {
  llvm::DenseSet<Value> derived;
  if (func.isExternal())
    return derived;
  // Every op, nested ones too (a loop body may transpose weights on each
  // iteration), before the ops it contains.
  func.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumResults() == 0)
      return;
    bool fromConstants = op->hasTrait<OpTrait::ConstantLike>();
    if (!fromConstants && isMemoryEffectFree(op)) {
      fromConstants = true;
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (!op->isAncestor(operand.getParentBlock()->getParentOp()) &&
              !derived.contains(operand))
            fromConstants = false;
      });
    }
    if (fromConstants)
      derived.insert(op->result_begin(), op->result_end());
  });
  return derived;
}

llvm::BitVector
mlir::helia::findConstantOnlyBuffers(FunctionOpInterface func,
                                     const BufferAnalysis &analysis) {
  llvm::BitVector result(analysis.getBuffers().size());
  llvm::DenseSet<Value> fromConstants = getConstantDerivedValues(func);
  for (const BufferInfo &buffer : analysis.getBuffers()) {
    // A scratch buffer whose every value is computed from constants (an
    // empty tensor filled from a weight, say), once it holds data.
    bool constantOnly = buffer.kind == TensorKind::Scratch;
    bool computed = false;
    for (unsigned member : buffer.members) {
      Value value = analysis.getTensors()[member].value;
      constantOnly &= fromConstants.contains(value);
      if (!isa_and_nonnull<tensor::EmptyOp>(value.getDefiningOp())) {
        computed = true;
        continue;
      }
      // An empty tensor hoisted out of a loop body holds what the body's
      // ops write into it, and what later ops of the body write into
      // their results in place (a matmul accumulating into a fill).
      SmallVector<Value> written{value};
      while (!written.empty()) {
        Value next = written.pop_back_val();
        for (OpOperand &use : next.getUses()) {
          auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
          if (!dps || !dps.isDpsInit(&use) ||
              dps->getParentRegion() == &func.getFunctionBody())
            continue;
          computed = true;
          OpResult result = dps.getTiedOpResult(&use);
          constantOnly &= fromConstants.contains(result);
          written.push_back(result);
        }
      }
    }
    constantOnly &= computed;
    if (constantOnly)
      result.set(buffer.index);
  }
  return result;
}
