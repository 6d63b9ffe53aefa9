//===- ModuleSchedule.cpp - one timeline for all functions ----------------===//

#include "helia/Dialect/Helia/Analysis/ModuleSchedule.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::helia;

namespace {
/// A call of a planned function, seen from the planned function whose step
/// makes it (directly, or through unplanned functions in between).
struct CallSite {
  unsigned caller;
  unsigned callee;
  int64_t step;
  /// The call in the caller's body.
  Operation *op;
};
} // namespace

/// The function `call` calls, if it is one of `functions`.
static Operation *lookupCallee(CallOpInterface call,
                               const llvm::StringMap<Operation *> &functions) {
  StringRef callee = getCalleeName(call);
  return callee.empty() ? nullptr : functions.lookup(callee);
}

/// Fails with a located error when the planned call graph has a cycle.
/// Iterative, so that deep call chains do not exhaust the native stack.
static LogicalResult
checkNoRecursion(ArrayRef<FunctionOpInterface> funcs,
                 ArrayRef<SmallVector<CallSite, 2>> calls) {
  enum class State : uint8_t { Unvisited, Active, Done };
  std::vector<State> state(funcs.size(), State::Unvisited);
  SmallVector<std::pair<unsigned, unsigned>> stack;
  for (unsigned root = 0; root < funcs.size(); ++root) {
    if (state[root] != State::Unvisited)
      continue;
    state[root] = State::Active;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto &[f, next] = stack.back();
      if (next == calls[f].size()) {
        state[f] = State::Done;
        stack.pop_back();
        continue;
      }
      const CallSite &site = calls[f][next++];
      if (state[site.callee] == State::Active)
        return site.op->emitError("helia cannot plan recursive calls: '")
               << FunctionOpInterface(funcs[site.callee]).getName()
               << "' is already running when this call is made";
      if (state[site.callee] == State::Unvisited) {
        state[site.callee] = State::Active;
        stack.push_back({site.callee, 0});
      }
    }
  }
  return success();
}

namespace {
/// The calls of planned functions made by each planned function, in
/// program order, and how many sites call each.
struct CallGraph {
  std::vector<SmallVector<CallSite, 2>> calls;
  std::vector<unsigned> numSites;
};
} // namespace

/// Calls of planned functions made by each planned function, in program
/// order. A call of an unplanned function with a body counts as calls of
/// every planned function it reaches through unplanned ones, at the same
/// step: that code runs inside the step.
static CallGraph collectCalls(ArrayRef<FunctionOpInterface> funcs,
                              ArrayRef<ModuleSchedule::Function> functions,
                              const llvm::StringMap<Operation *> &byName,
                              const DenseMap<Operation *, unsigned> &index) {
  unsigned n = funcs.size();
  CallGraph graph{std::vector<SmallVector<CallSite, 2>>(n),
                  std::vector<unsigned>(n, 0)};
  // The walk visits the ops of a step before those of the next, so each
  // function's calls are in step order.
  for (unsigned f = 0; f < n; ++f) {
    const BufferAnalysis &analysis = functions[f].analysis;
    FunctionOpInterface(funcs[f]).walk([&](CallOpInterface call) {
      Operation *target = lookupCallee(call, byName);
      if (!target)
        return;
      int64_t step = analysis.getStep(call);
      auto addSite = [&](Operation *callee) {
        unsigned g = index.lookup(callee);
        graph.calls[f].push_back({f, g, step, call});
        ++graph.numSites[g];
      };
      if (index.contains(target)) {
        addSite(target);
        return;
      }
      auto unplanned = cast<FunctionOpInterface>(target);
      if (unplanned.isExternal())
        return;
      llvm::DenseSet<Operation *> seen{target};
      SmallVector<Operation *> worklist{target};
      while (!worklist.empty()) {
        Operation *body = worklist.pop_back_val();
        body->walk([&](CallOpInterface inner) {
          Operation *next = lookupCallee(inner, byName);
          if (!next)
            return;
          if (index.contains(next)) {
            addSite(next);
            return;
          }
          if (!cast<FunctionOpInterface>(next).isExternal() &&
              seen.insert(next).second)
            worklist.push_back(next);
        });
      }
    });
  }
  return graph;
}

/// A function called from several sites runs at times the timeline cannot
/// tell apart: it and everything it calls stay live for the whole program.
static void
markWholeProgram(MutableArrayRef<ModuleSchedule::Function> functions,
                 const CallGraph &graph) {
  SmallVector<unsigned> worklist;
  for (unsigned f = 0, n = functions.size(); f < n; ++f)
    if (graph.numSites[f] > 1) {
      functions[f].wholeProgram = true;
      worklist.push_back(f);
    }
  while (!worklist.empty()) {
    unsigned f = worklist.pop_back_val();
    for (const CallSite &site : graph.calls[f])
      if (!functions[site.callee].wholeProgram) {
        functions[site.callee].wholeProgram = true;
        worklist.push_back(site.callee);
      }
  }
}

/// Lays out the functions that no single call site owns, one after another
/// in module order, each with the functions nested in its steps (depth
/// first, with an explicit stack). Returns the number of steps.
static int64_t layOutSteps(MutableArrayRef<ModuleSchedule::Function> functions,
                           const CallGraph &graph) {
  auto isNested = [&](unsigned g) {
    return graph.numSites[g] == 1 && !functions[g].wholeProgram;
  };
  struct Frame {
    unsigned func;
    int64_t step = 0;
    /// Next call of the function to look at.
    unsigned call = 0;
    /// The first call of the current step.
    unsigned stepCalls = 0;
    /// The current step's start has been assigned.
    bool started = false;
  };
  int64_t next = 0;
  SmallVector<Frame> stack;
  for (unsigned root = 0, n = functions.size(); root < n; ++root) {
    if (isNested(root))
      continue;
    stack.push_back({root});
    while (!stack.empty()) {
      Frame &frame = stack.back();
      ModuleSchedule::Function &fn = functions[frame.func];
      int64_t last = fn.analysis.getLastStep();
      if (frame.step == 0 && !frame.started) {
        fn.start.assign(last + 1, 0);
        fn.end.assign(last + 1, 0);
      }
      if (frame.step > last) {
        stack.pop_back();
        continue;
      }
      if (!frame.started) {
        fn.start[frame.step] = next++;
        frame.started = true;
        frame.stepCalls = frame.call;
      }
      ArrayRef<CallSite> sites = graph.calls[frame.func];
      // Skip the calls of this step whose callee is not nested here.
      while (frame.call < sites.size() &&
             sites[frame.call].step == frame.step &&
             !isNested(sites[frame.call].callee))
        ++frame.call;
      if (frame.call < sites.size() && sites[frame.call].step == frame.step) {
        unsigned callee = sites[frame.call++].callee;
        stack.push_back({callee});
        continue;
      }
      // Every callee of the step has run: the step ends after them, and
      // their return steps end with it (results are copied out then).
      ArrayRef<CallSite> stepSites =
          sites.slice(frame.stepCalls, frame.call - frame.stepCalls);
      bool hasCallees = llvm::any_of(stepSites, [&](const CallSite &site) {
        return isNested(site.callee);
      });
      fn.end[frame.step] = hasCallees ? next++ : fn.start[frame.step];
      for (const CallSite &site : stepSites)
        if (isNested(site.callee))
          functions[site.callee].end.back() = fn.end[frame.step];
      ++frame.step;
      frame.started = false;
    }
  }
  return next;
}

FailureOr<ModuleSchedule> ModuleSchedule::build(ModuleOp module) {
  ModuleSchedule schedule;
  SmallVector<FunctionOpInterface> funcs;
  llvm::StringMap<Operation *> byName;
  DenseMap<Operation *, unsigned> index;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    byName[func.getName()] = func;
    if (!isPlannedFunction(func))
      continue;
    index[func] = funcs.size();
    funcs.push_back(func);
  }
  for (FunctionOpInterface func : funcs) {
    FailureOr<BufferAnalysis> analysis = BufferAnalysis::analyze(func);
    if (failed(analysis))
      return failure();
    Function entry;
    entry.analysis = std::move(*analysis);
    schedule.functions.push_back(std::move(entry));
  }
  CallGraph graph = collectCalls(funcs, schedule.functions, byName, index);
  if (failed(checkNoRecursion(funcs, graph.calls)))
    return failure();
  markWholeProgram(schedule.functions, graph);
  schedule.numSteps = layOutSteps(schedule.functions, graph);
  return schedule;
}

int64_t ModuleSchedule::getStepStart(unsigned func, int64_t step) const {
  return functions[func].start[step];
}

int64_t ModuleSchedule::getStepEnd(unsigned func, int64_t step) const {
  return functions[func].end[step];
}

std::pair<int64_t, int64_t>
ModuleSchedule::getLifetime(unsigned func, const BufferInfo &buffer) const {
  const Function &fn = functions[func];
  if (fn.wholeProgram)
    return {0, numSteps - 1};
  Value root = fn.analysis.getTensors()[buffer.members.front()].value;
  Operation *owner = root.getDefiningOp();
  bool definedAtEnd =
      owner && owner->getParentOp() == fn.analysis.getFunction().getOperation();
  int64_t first =
      definedAtEnd ? fn.end[buffer.firstStep] : fn.start[buffer.firstStep];
  return {first, fn.end[buffer.lastStep]};
}

std::pair<int64_t, int64_t>
ModuleSchedule::getStreamWindow(unsigned func, const BufferInfo &buffer) const {
  const Function &fn = functions[func];
  if (fn.wholeProgram || buffer.readSteps.empty())
    return {0, numSteps - 1};
  return {fn.start[buffer.readSteps.front()], fn.end[buffer.readSteps.back()]};
}

ModuleScheduleAnalysis::ModuleScheduleAnalysis(Operation *op)
    : schedule(ModuleSchedule::build(cast<ModuleOp>(op))) {}
