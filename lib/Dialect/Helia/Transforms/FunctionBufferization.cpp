//===- FunctionBufferization.cpp - bufferize functions a few at a time ----===//

#include "FunctionBufferization.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::helia;

/// The functions of `module` that `func` calls directly, in call order.
static llvm::SmallSetVector<func::FuncOp, 4>
getCallees(func::FuncOp func, SymbolTable &symbols) {
  llvm::SmallSetVector<func::FuncOp, 4> callees;
  func.walk([&](func::CallOp call) {
    if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
      callees.insert(callee);
  });
  return callees;
}

/// True when bufferizing `func` may create symbols in its module: a tensor
/// constant becomes a memref.global there.
static bool mayCreateSymbols(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        if (op->hasTrait<OpTrait::ConstantLike>() &&
            llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

using CalleeMap = DenseMap<func::FuncOp, llvm::SmallSetVector<func::FuncOp, 4>>;

/// The `candidates` among `planned` in callee-first order (an iterative
/// post-order walk of the call graph); a function joins only when all its
/// callees did. A cycle leaves the module to upstream, which knows how to
/// treat it: std::nullopt.
static std::optional<SmallVector<func::FuncOp>>
orderCalleesFirst(ArrayRef<func::FuncOp> planned,
                  const DenseSet<func::FuncOp> &candidates,
                  CalleeMap &callees) {
  SmallVector<func::FuncOp> order;
  DenseSet<func::FuncOp> done, onStack, rejected;
  for (func::FuncOp root : planned) {
    if (!candidates.contains(root) || done.contains(root) ||
        rejected.contains(root))
      continue;
    SmallVector<std::pair<func::FuncOp, unsigned>> stack{{root, 0}};
    onStack.insert(root);
    while (!stack.empty()) {
      auto &[func, next] = stack.back();
      const auto &calls = callees[func];
      if (next < calls.size()) {
        func::FuncOp callee = calls[next++];
        if (onStack.contains(callee))
          return std::nullopt;
        if (done.contains(callee) || rejected.contains(callee))
          continue;
        if (!candidates.contains(callee)) {
          rejected.insert(callee);
          continue;
        }
        onStack.insert(callee);
        stack.push_back({callee, 0});
        continue;
      }
      bool ready = llvm::all_of(calls, [&](func::FuncOp callee) {
        return done.contains(callee);
      });
      (ready ? done : rejected).insert(func);
      if (ready)
        order.push_back(func);
      onStack.erase(func);
      stack.pop_back();
    }
  }
  return order;
}

/// Bufferizes `batch` in a module of its own, with `module`'s attributes
/// and declarations of the callees of earlier batches (bufferized already),
/// then moves the functions back to the end of `module`.
static LogicalResult
bufferizeBatch(ModuleOp module, ArrayRef<func::FuncOp> batch,
               CalleeMap &callees,
               const bufferization::OneShotBufferizationOptions &options) {
  OpBuilder builder(module.getContext());
  auto scope = ModuleOp::create(builder, module.getLoc());
  scope->setAttrs(module->getAttrDictionary());
  Block *body = scope.getBody();
  DenseSet<func::FuncOp> inBatch(batch.begin(), batch.end());
  llvm::SmallSetVector<func::FuncOp, 8> declared;
  for (func::FuncOp func : batch)
    for (func::FuncOp callee : callees[func])
      if (!inBatch.contains(callee))
        declared.insert(callee);
  builder.setInsertionPointToEnd(body);
  for (func::FuncOp callee : declared) {
    auto decl =
        func::FuncOp::create(builder, callee.getLoc(), callee.getSymName(),
                             callee.getFunctionType());
    decl.setPrivate();
  }
  for (func::FuncOp func : batch)
    func->moveBefore(body, body->end());
  bufferization::BufferizationState state;
  LogicalResult result =
      bufferization::bufferizeModuleOp(scope, options, state);
  for (func::FuncOp func : batch)
    func->moveBefore(module.getBody(), module.getBody()->end());
  scope->erase();
  return result;
}

FailureOr<unsigned> mlir::helia::bufferizeFunctionsInBatches(
    ModuleOp module, ArrayRef<func::FuncOp> planned,
    const bufferization::OneShotBufferizationOptions &options,
    unsigned batchSize) {
  if (planned.size() < 2 * batchSize)
    return 0u;
  SymbolTable symbols(module);
  CalleeMap callees;
  DenseSet<func::FuncOp> candidates;
  for (func::FuncOp func : planned)
    if (!func.isExternal() && !mayCreateSymbols(func)) {
      candidates.insert(func);
      callees[func] = getCallees(func, symbols);
    }
  std::optional<SmallVector<func::FuncOp>> order =
      orderCalleesFirst(planned, candidates, callees);
  if (!order || order->size() < 2 * batchSize)
    return 0u;

  // Every op of the module in its place, to restore the order afterwards.
  SmallVector<Operation *> original;
  for (Operation &op : module.getBody()->getOperations())
    original.push_back(&op);
  LogicalResult result = success();
  for (size_t begin = 0; begin < order->size() && succeeded(result);
       begin += batchSize) {
    ArrayRef<func::FuncOp> batch = ArrayRef(*order).slice(
        begin, std::min<size_t>(batchSize, order->size() - begin));
    result = bufferizeBatch(module, batch, callees, options);
  }
  Block *moduleBody = module.getBody();
  for (Operation *op : original)
    op->moveBefore(moduleBody, moduleBody->end());
  if (failed(result))
    return failure();
  return static_cast<unsigned>(order->size());
}
