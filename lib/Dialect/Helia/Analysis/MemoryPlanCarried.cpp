//===- MemoryPlanCarried.cpp - the memory plan's loop-carried tensors -----===//
//
// Every tensor an scf.for or scf.while of a planned function carries: how
// its storage is kept across iterations, and why (MemoryPlan::carried).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/BufferAnalysis.h"
#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::helia;

/// The top-level value whose buffer `value` is: through the inits of the
/// loops whose iter_arg it is, and the inits of the destination-style ops
/// that wrote it.
static Value getTopLevelStorage(Value value, Block *body) {
  while (value.getParentBlock() != body) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
      OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return {};
      value = init->get();
      continue;
    }
    auto dps = value.getDefiningOp<DestinationStyleOpInterface>();
    if (!dps)
      return {};
    value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
  }
  return value;
}

/// The recorded choice and reason for iter_arg `index` of `loop`.
static std::pair<StringRef, StringRef> getRecordedCarried(Operation *loop,
                                                          unsigned index) {
  if (auto entries = loop->getAttrOfType<ArrayAttr>(kCarriedAttrName))
    for (Attribute entry : entries) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto at = dict ? dict.getAs<IntegerAttr>("iter_arg") : IntegerAttr();
      auto choice = dict ? dict.getAs<StringAttr>("choice") : StringAttr();
      auto reason = dict ? dict.getAs<StringAttr>("reason") : StringAttr();
      if (at && choice && reason && at.getInt() == index)
        return {choice.getValue(), reason.getValue()};
    }
  return {};
}

BlockArgument mlir::helia::getCarriedIterArg(Operation *loop, unsigned index) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return forOp.getRegionIterArgs()[index];
  auto whileOp = dyn_cast<scf::WhileOp>(loop);
  if (!whileOp)
    return nullptr;
  BlockArgument before = whileOp.getBeforeArguments()[index];
  for (auto [operand, after] : llvm::zip(whileOp.getConditionOp().getArgs(),
                                         whileOp.getAfterArguments()))
    if (operand == before && after.getType() == before.getType())
      return after;
  return nullptr;
}

/// The tensors the loops of `func` carry, with how each is stored: read
/// from the IR (a `linalg.copy` into the iter_arg that the loop yields is
/// the copy back of a successor in its own slot) and the reasons
/// helia-insert-tensor-copies recorded.
void mlir::helia::collectCarriedTensors(FunctionOpInterface func,
                                        const BufferAnalysis &analysis,
                                        std::vector<PlanCarried> &carried) {
  if (!func.getFunctionBody().hasOneBlock())
    return;
  Block *body = &func.getFunctionBody().front();
  DenseMap<Value, const TensorInfo *> tensors;
  for (const TensorInfo &info : analysis.getTensors())
    tensors[info.value] = &info;
  auto lookup = [&](Value value) -> const TensorInfo * {
    Value storage = value ? getTopLevelStorage(value, body) : Value();
    return storage ? tensors.lookup(storage) : nullptr;
  };
  func.walk([&](LoopLikeOpInterface loop) {
    auto yielded = loop.getYieldedValues();
    for (auto [index, iterArg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!isa<RankedTensorType>(iterArg.getType()) || index >= yielded.size())
        continue;
      PlanCarried entry;
      entry.function = func.getName().str();
      llvm::raw_string_ostream os(entry.loop);
      loop->getLoc().print(os);
      entry.iterArg = index;
      if (const TensorInfo *info = lookup(iterArg)) {
        entry.tensorId = info->id;
        entry.size =
            static_cast<int64_t>(*getTensorByteSize(info->value.getType()));
      }
      auto [choice, reason] = getRecordedCarried(loop, index);
      BlockArgument into = getCarriedIterArg(loop, index);
      auto copy = yielded[index].getDefiningOp<DestinationStyleOpInterface>();
      bool copiedBack =
          into && copy && copy->getName().getStringRef() == "linalg.copy" &&
          copy.getNumDpsInputs() == 1 && copy.getDpsInits()[0] == into;
      // The copy of another iter_arg's old value (a loop carrying a value
      // and its predecessor): no slot beside the carried one.
      std::optional<unsigned> copiedFrom;
      for (unsigned other = 0, e = yielded.size(); copiedBack && other < e;
           ++other)
        if (other != index &&
            copy.getDpsInputOperand(0)->get() == getCarriedIterArg(loop, other))
          copiedFrom = other;
      if (copiedFrom) {
        entry.choice = "copy-from-iter-arg";
        entry.copiedFrom = copiedFrom;
        entry.reason = choice == "slot-and-copy"
                           ? reason.str()
                           : "it carries the old value of iter_arg #" +
                                 std::to_string(*copiedFrom);
      } else if (copiedBack) {
        entry.choice = "slot-and-copy";
        entry.reason = choice == "slot-and-copy"
                           ? reason.str()
                           : "the successor is copied back into the carried "
                             "buffer";
        if (const TensorInfo *info =
                lookup(copy.getDpsInputOperand(0)->get())) {
          entry.successorId = info->id;
          entry.successorSize =
              static_cast<int64_t>(*getTensorByteSize(info->value.getType()));
        }
      } else {
        entry.choice = "in-place";
        entry.reason = choice == "in-place"
                           ? reason.str()
                           : "the body writes its successor into the "
                             "carried buffer";
      }
      carried.push_back(std::move(entry));
    }
  });
}

