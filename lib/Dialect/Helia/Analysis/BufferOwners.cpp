//===- BufferOwners.cpp - the buffers a value may be stored in ------------===//

#include "helia/Dialect/Helia/Analysis/BufferOwners.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::helia;

void mlir::helia::collectBufferOwners(Value value,
                                      const bufferization::AnalysisState &state,
                                      llvm::SetVector<Value> &owners) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!visited.insert(next).second)
      continue;
    auto result = dyn_cast<OpResult>(next);
    Operation *op = result ? result.getOwner() : nullptr;
    if (!op || isa<CallOpInterface>(op)) {
      owners.insert(next);
      continue;
    }
    if (isa<RegionBranchOpInterface>(op) && !isa<LoopLikeOpInterface>(op)) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator());
              yield && yield.getNumOperands() == op->getNumResults())
            worklist.push_back(yield.getOperand(result.getResultNumber()));
      continue;
    }
    if (!state.getOptions().dynCastBufferizableOp(op)) {
      owners.insert(next);
      continue;
    }
    bufferization::AliasingOpOperandList aliases =
        state.getAliasingOpOperands(result);
    if (aliases.getNumAliases() == 0)
      owners.insert(next);
    for (const bufferization::AliasingOpOperand &alias : aliases)
      worklist.push_back(alias.opOperand->get());
  }
}

bool mlir::helia::mayBeSeveralBuffers(
    Value value, const bufferization::AnalysisState &state) {
  llvm::SetVector<Value> owners;
  collectBufferOwners(value, state, owners);
  return owners.size() > 1;
}
