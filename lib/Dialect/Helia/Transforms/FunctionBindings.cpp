//===- FunctionBindings.cpp - the bindings of one planned function --------===//

#include "FunctionBindings.h"

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/SameLayoutStorage.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

/// The value whose buffer a loop stores `value` in, where `value` is
/// carried by a loop nested in a planned body and has no binding of its own:
/// an `scf.while` after-region argument or result is the value its
/// condition passes on; a loop result is its init's buffer. Null otherwise.
static Value getLoopStorage(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto whileOp = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
    if (!whileOp || arg.getParentRegion() != &whileOp.getAfter())
      return {};
    return whileOp.getConditionOp().getArgs()[arg.getArgNumber()];
  }
  auto result = cast<OpResult>(value);
  if (auto whileOp = dyn_cast<scf::WhileOp>(result.getOwner()))
    return whileOp.getConditionOp().getArgs()[result.getResultNumber()];
  auto loop = dyn_cast<LoopLikeOpInterface>(result.getOwner());
  OpOperand *init = loop ? loop.getTiedLoopInit(result) : nullptr;
  return init ? init->get() : Value();
}

/// The slot every branch of `result`'s op (an `scf.if`) yields it in, or
/// null.
static BindingAttr lookupYieldedStorage(const FunctionBindings &bindings,
                                        OpResult result) {
  Operation *op = result.getOwner();
  BindingAttr common;
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      auto yield = dyn_cast<scf::YieldOp>(block.getTerminator());
      if (!yield || yield.getNumOperands() != op->getNumResults())
        return {};
      BindingAttr binding =
          bindings.lookupStorage(yield.getOperand(result.getResultNumber()));
      if (!binding || (common && binding != common))
        return {};
      common = binding;
    }
  return common;
}

BindingAttr FunctionBindings::lookupStorage(Value value) const {
  while (value) {
    if (BindingAttr binding = bindings.lookup(value))
      return binding;
    // An scf.if result nested in a region is the buffer of the value the
    // taken branch yields: when every branch yields a value in the same
    // slot, the result is that slot whichever branch runs.
    if (auto result = dyn_cast<OpResult>(value);
        result && isa<RegionBranchOpInterface>(result.getOwner()) &&
        !isa<LoopLikeOpInterface>(result.getOwner()))
      return lookupYieldedStorage(*this, result);
    Value next = getSameLayoutStorage(value);
    value = next ? next : getLoopStorage(value);
  }
  return {};
}

LogicalResult mlir::helia::collectBindings(func::FuncOp func,
                                           FunctionBindings &result) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("planned function has ")
           << func.getBody().getBlocks().size()
           << " blocks; helia-lower-to-memref lowers single-block bodies "
              "(structure control flow with scf first)";
  // The buffers are the planner's: a tensor that owns no storage (an scf.if
  // result that may be either of two buffers) has no binding.
  FailureOr<BufferAnalysis> analysis = BufferAnalysis::analyze(func);
  if (failed(analysis))
    return failure();
  for (const BufferInfo &buffer : analysis->getBuffers())
    for (unsigned member : ArrayRef(buffer.members).drop_front())
      result.storedInOperand.insert(analysis->getTensors()[member].value);
  for (const TensorInfo &tensor : analysis->getTensors()) {
    if (analysis->ownsNoStorage(tensor.value))
      continue;
    BindingAttr binding = getBinding(tensor.value);
    if (!binding) {
      Location loc = tensor.value.getLoc();
      return emitError(loc) << "tensor "
                            << (tensor.name ? "'" + tensor.name.str() + "' "
                                            : std::string())
                            << "of a planned function has no helia.binding; "
                               "run helia-assign-bindings on the whole module";
    }
    // The dialect verifier checked that the arenas exist.
    result.bindings[tensor.value] = binding;
  }
  return success();
}
