//===- TestPrintAllocation.cpp - print buffers, lifetimes, offsets --------===//
//
// A test pass (helia-opt only, as upstream's test passes): prints, for each
// planned function of a bound module, every buffer the planner packed (its
// tensors, kind, size, lifetime, arena and offset) and then every arena's
// size, in the spirit of Triton's TestAllocation. Lit tests use it to check
// lifetimes and offsets in a form that reads like the spec, instead of
// matching binding attributes in the printed IR.
//
// The pass reads the plan through MemoryPlan (the same data the exporters
// read), so what it prints is what the plan says; it changes nothing.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

struct TestPrintAllocationPass
    : public PassWrapper<TestPrintAllocationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAllocationPass)

  StringRef getArgument() const final { return "test-print-allocation"; }
  StringRef getDescription() const final {
    return "Print the buffers of a bound module: tensors, kind, size, "
           "lifetime, arena and offset (test only)";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    // The plan reads platform presets (helia attributes) even from a module
    // that holds no helia attribute yet.
    registry.insert<HeliaDialect>();
  }

  void runOnOperation() override {
    FailureOr<MemoryPlan> plan = MemoryPlan::build(getOperation());
    if (failed(plan))
      return signalPassFailure();
    print(*plan, llvm::outs());
    markAllAnalysesPreserved();
  }

  static void print(const MemoryPlan &plan, raw_ostream &os) {
    for (const std::string &function : plan.functions) {
      os << "function @" << function << "\n";
      ArrayRef<PlanTensor> tensors = plan.tensors;
      // The members of a buffer are adjacent, its primary first.
      for (size_t i = 0; i < tensors.size();) {
        size_t end = i + 1;
        while (end < tensors.size() && tensors[end].buffer == tensors[i].buffer)
          ++end;
        ArrayRef<PlanTensor> members = tensors.slice(i, end - i);
        i = end;
        const PlanTensor &root = members.front();
        if (root.function != function)
          continue;
        int64_t size = 0;
        for (const PlanTensor &member : members)
          size = std::max(size, member.size);
        os << "  buffer " << root.buffer << ": "
           << stringifyTensorKind(root.kind) << ", " << size
           << " bytes, steps [" << root.firstStep << ", " << root.lastStep
           << "], @" << plan.arenas[root.arena].name << " + " << root.offset;
        if (root.streamArena)
          os << ", streamed to @" << plan.arenas[*root.streamArena].name
             << " + " << root.streamOffset << " over steps [" << root.streamStep
             << ", " << root.streamLastStep << "]";
        os << "\n";
        for (const PlanTensor &member : members) {
          os << "    tensor #" << member.tensorId;
          if (!member.name.empty())
            os << " \"" << member.name << "\"";
          os << "\n";
        }
      }
    }
    for (const PlanArena &arena : plan.arenas)
      os << "arena @" << arena.name << ": " << arena.size << " bytes\n";
  }
};

} // namespace

namespace mlir::helia {
void registerTestPerturbBindingPass();
void registerHeliaTestPasses() {
  PassRegistration<TestPrintAllocationPass>();
  registerTestPerturbBindingPass();
}
} // namespace mlir::helia
