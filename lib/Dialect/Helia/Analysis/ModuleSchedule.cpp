//===- ModuleSchedule.cpp - one timeline for all functions ----------------===//

#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::helia;

FailureOr<ModuleSchedule> ModuleSchedule::build(ModuleOp module) {
  ModuleSchedule schedule;
  SmallVector<FunctionOpInterface> funcs;
  llvm::StringMap<unsigned> index;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (!isPlannedFunction(func))
      continue;
    index[func.getName()] = funcs.size();
    funcs.push_back(func);
  }
  for (FunctionOpInterface func : funcs) {
    FailureOr<BufferAnalysis> analysis = BufferAnalysis::analyze(func);
    if (failed(analysis))
      return failure();
    Function entry{std::move(*analysis), {}, false};
    schedule.functions.push_back(std::move(entry));
  }

  // Call sites: callee -> (caller, local step of the top-level op).
  struct CallSite {
    unsigned caller;
    int64_t step;
    Operation *op;
  };
  std::vector<SmallVector<CallSite, 1>> callers(funcs.size());
  // Per caller: local step -> callees, in order.
  std::vector<std::map<int64_t, SmallVector<std::pair<unsigned, Operation *>, 1>>>
      calleesAt(funcs.size());
  for (auto [f, func] : llvm::enumerate(funcs)) {
    const BufferAnalysis &analysis = schedule.functions[f].analysis;
    func.walk([&](CallOpInterface call) {
      auto callee = dyn_cast_if_present<SymbolRefAttr>(
          call.getCallableForCallee().dyn_cast<SymbolRefAttr>());
      if (!callee)
        return;
      auto it = index.find(callee.getLeafReference().getValue());
      if (it == index.end())
        return;
      int64_t step = analysis.getStep(call);
      callers[it->second].push_back({static_cast<unsigned>(f), step, call});
      calleesAt[f][step].push_back({it->second, call});
    });
  }

  // Lay out functions depth first; a callee with one call site goes right
  // before its call's step.
  enum class State { Unvisited, Active, Done };
  std::vector<State> state(funcs.size(), State::Unvisited);
  int64_t next = 0;
  std::function<LogicalResult(unsigned)> layout = [&](unsigned f) {
    state[f] = State::Active;
    Function &fn = schedule.functions[f];
    int64_t last = fn.analysis.getLastStep();
    fn.globalStep.resize(last + 1);
    for (int64_t s = 0; s <= last; ++s) {
      auto it = calleesAt[f].find(s);
      if (it != calleesAt[f].end()) {
        for (auto [g, callOp] : it->second) {
          if (state[g] == State::Active) {
            return callOp->emitError("helia cannot plan recursive calls: '")
                   << funcs[g].getName()
                   << "' is already running when this call is made",
                   failure();
          }
          if (callers[g].size() == 1 && state[g] == State::Unvisited &&
              failed(layout(g)))
            return failure();
        }
      }
      fn.globalStep[s] = next++;
    }
    state[f] = State::Done;
    return success();
  };
  for (unsigned f = 0; f < funcs.size(); ++f)
    if (state[f] == State::Unvisited && callers[f].size() != 1 &&
        failed(layout(f)))
      return failure();
  // What is left is only reachable through calls from functions never laid
  // out, which cannot happen without a cycle.
  for (unsigned f = 0; f < funcs.size(); ++f)
    if (state[f] == State::Unvisited) {
      const CallSite &site = callers[f].front();
      return site.op->emitError("helia cannot plan recursive calls: '")
                 << funcs[f].getName() << "' is only reachable through a "
                 << "cycle of calls",
             failure();
    }
  for (unsigned f = 0; f < funcs.size(); ++f)
    schedule.functions[f].wholeProgram = callers[f].size() > 1;
  schedule.numSteps = next;
  return schedule;
}

int64_t ModuleSchedule::toGlobal(unsigned func, int64_t step) const {
  return functions[func].globalStep[step];
}

std::pair<int64_t, int64_t>
ModuleSchedule::getLifetime(unsigned func, const BufferInfo &buffer) const {
  if (functions[func].wholeProgram)
    return {0, numSteps - 1};
  return {toGlobal(func, buffer.firstStep), toGlobal(func, buffer.lastStep)};
}
