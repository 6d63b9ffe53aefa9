//===- TestPerturbBinding.cpp - corrupt one binding of a bound module -----===//
//
// A test pass (helia-opt only): after helia-assign-bindings, rewrites the
// binding of the tensor named `tensor` as a wrong plan would have it, and
// keeps every analysis the planner cached (it declares them preserved), so
// that a verifier that trusted the planner's grouping or schedule would let
// the corruption through. Lit tests run helia-verify-plan after it and
// expect its located error:
//
// - `offset=N`: the tensor alone moves to offset N of its arena (a member
//   split off the buffer it shares);
// - `like=NAME`: the tensor takes the binding of the tensor named NAME (two
//   buffers grouped into one).
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

struct TestPerturbBindingPass
    : public PassWrapper<TestPerturbBindingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPerturbBindingPass)

  TestPerturbBindingPass() = default;
  TestPerturbBindingPass(const TestPerturbBindingPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-perturb-binding"; }
  StringRef getDescription() const final {
    return "Rewrite one tensor's binding as a wrong plan would, keeping the "
           "planner's cached analyses (test only)";
  }

  Option<std::string> tensor{*this, "tensor",
                             llvm::cl::desc("Name of the tensor to rebind")};
  Option<int64_t> offset{*this, "offset", llvm::cl::init(-1),
                         llvm::cl::desc("Move it to this offset")};
  Option<std::string> like{
      *this, "like", llvm::cl::desc("Give it this tensor's binding")};

  /// The tensor named `name` (an op result or an argument), or null.
  static Value find(ModuleOp module, StringRef name) {
    Value found;
    module.walk([&](FunctionOpInterface func) {
      if (!isPlannedFunction(func))
        return WalkResult::advance();
      for (BlockArgument arg : func.getFunctionBody().getArguments())
        if (StringAttr n = getTensorName(arg); n && n.getValue() == name)
          found = arg;
      func.walk([&](Operation *op) {
        for (Value result : op->getResults())
          if (StringAttr n = getTensorName(result);
              !found && n && n.getValue() == name && getBinding(result))
            found = result;
      });
      return found ? WalkResult::interrupt() : WalkResult::advance();
    });
    return found;
  }

  /// Writes `binding` as `value`'s (the result's entry of its op's list, or
  /// its function's argument attribute).
  static void setBinding(Value value, BindingAttr binding) {
    StringRef attr = HeliaDialect::BindingAttrHelper::getNameStr();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto func = cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      func.setArgAttr(arg.getArgNumber(), attr, binding);
      return;
    }
    auto result = cast<OpResult>(value);
    Operation *op = result.getOwner();
    SmallVector<Attribute> list(
        op->getAttrOfType<ArrayAttr>(attr).getValue());
    list[result.getResultNumber()] = binding;
    op->setAttr(attr, ArrayAttr::get(op->getContext(), list));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Value value = find(module, tensor);
    if (!value) {
      module.emitError("no bound tensor named '") << tensor << "'";
      return signalPassFailure();
    }
    BindingAttr binding = getBinding(value);
    if (!like.empty()) {
      Value other = find(module, like);
      if (!other) {
        module.emitError("no bound tensor named '") << like << "'";
        return signalPassFailure();
      }
      binding = getBinding(other);
    } else if (offset >= 0) {
      binding = BindingAttr::get(binding.getContext(), binding.getArena(),
                                 offset, binding.getStreamArena(),
                                 binding.getStreamOffset());
    }
    setBinding(value, binding);
    // What the planner cached stays: the verifier must not rely on it.
    markAllAnalysesPreserved();
  }
};

} // namespace

namespace mlir::helia {
void registerTestPerturbBindingPass() {
  PassRegistration<TestPerturbBindingPass>();
}
} // namespace mlir::helia
