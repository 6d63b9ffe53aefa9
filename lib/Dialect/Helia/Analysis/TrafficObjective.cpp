//===- TrafficObjective.cpp - which constants to pin into fast memory -----===//
//
// objective=traffic (docs/Placement.md): a pin problem (Planner/Traffic.h)
// over the constants no rule decided, into the platform's preferred
// memories, within the bytes that the rules' placements, the persistent
// tensors, the stream pool and the scratch arenas leave free.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Dialect/Helia/Analysis/Traffic.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::helia;
using ::helia::planner::AccessCost;
using ::helia::planner::Objective;
using ::helia::planner::PinChoice;
using ::helia::planner::PinItem;
using ::helia::planner::PinProblem;

namespace {

/// True for a constant whose residency the objective may choose: no rule
/// gave it a residency or a destination.
bool isOpenConstant(const BufferPlan &buffer) {
  if (buffer.info->kind != TensorKind::Constant || buffer.alignedSize == 0)
    return false;
  PlacementAttr placement = buffer.placement;
  return !placement || (!placement.getResidency() &&
                        !placement.getConstantDestinationMemory());
}

std::string formatCycles(double cycles) {
  return llvm::formatv("{0:F0}", cycles).str();
}

} // namespace

void mlir::helia::setPredictedTraffic(BindingPlan &plan) {
  SmallVector<TrafficAnalysis> traffic;
  for (const ModuleSchedule::Function &function :
       plan.getSchedule().getFunctions())
    traffic.emplace_back(function.analysis);
  for (BufferPlan &buffer : plan.getBuffers()) {
    const BufferTraffic &counted =
        traffic[buffer.func].getBuffers()[buffer.info->index];
    buffer.readBytes = counted.readBytes;
    buffer.writeBytes = counted.writeBytes;
  }
}

PinProblem
TrafficObjective::getProblem(ArrayRef<unsigned> open,
                             ArrayRef<StringRef> destinations) const {
  PinProblem problem;
  problem.inferences = static_cast<double>(std::max<uint64_t>(options.amortize, 1));
  // Every other planner has run: what is free is what pins may take.
  for (StringRef memory : destinations)
    problem.capacities.push_back(
        std::max<int64_t>(plan.getFreeBytes(memory), 0));
  for (unsigned i : open) {
    const BufferPlan &buffer = plan.getBuffer(i);
    const AccessCost &source = costs.lookup(buffer.arena.source);
    // Bytes read where it would live: measured there, else the buffer's.
    auto readsIn = [&](StringRef memory) {
      auto it = buffer.readBytesIn.find(memory);
      return static_cast<double>(it != buffer.readBytesIn.end()
                                     ? it->second
                                     : buffer.readBytes);
    };
    auto size = static_cast<double>(buffer.info->size);
    PinItem item;
    item.size = buffer.alignedSize;
    item.directCycles = source.read(readsIn(buffer.arena.source));
    for (StringRef memory : destinations) {
      const AccessCost &destination = costs.lookup(memory);
      // Pinning into the memory it is stored in copies nothing.
      bool allowed = memory != buffer.arena.source;
      item.pinnedCycles.push_back(allowed ? destination.read(readsIn(memory))
                                          : -1);
      item.hydrateCycles.push_back(source.read(size) + destination.write(size));
    }
    problem.items.push_back(std::move(item));
  }
  return problem;
}

void TrafficObjective::remark(const PinProblem &problem,
                              ArrayRef<unsigned> open,
                              ArrayRef<StringRef> destinations,
                              const std::vector<int> &choice) const {
  std::vector<int64_t> used(destinations.size(), 0);
  for (auto [k, d] : llvm::enumerate(choice))
    if (d >= 0)
      used[d] += problem.items[k].size;
  for (auto [k, i] : llvm::enumerate(open)) {
    const BufferPlan &buffer = plan.getBuffer(i);
    int d = choice[k];
    double cost = problem.getCost(k, d);
    InFlightDiagnostic diag = emitRemark(plan.getLoc(buffer));
    diag << "constant " << plan.describe(buffer) << " (" << buffer.alignedSize
         << " bytes, " << buffer.readBytes << " bytes read per inference) ";
    if (d >= 0)
      diag << "pinned into '" << destinations[d] << "': "
           << formatCycles(problem.items[k].pinnedCycles[d])
           << " cycles per inference, hydrated once in "
           << formatCycles(problem.items[k].hydrateCycles[d]) << " cycles";
    else
      diag << "read in place from '" << buffer.arena.source << "': "
           << formatCycles(cost) << " cycles per inference";
    // What moving it would save (negative) or cost, hydration amortised.
    for (int to = -1; to < static_cast<int>(destinations.size()); ++to) {
      if (to == d || !problem.allows(k, to))
        continue;
      double delta = problem.getCost(k, to) - cost;
      StringRef where = to < 0 ? StringRef(buffer.arena.source)
                               : destinations[to];
      diag << "; " << (to < 0 ? "reading it from '" : "pinning it into '")
           << where << "' would " << (delta > 0 ? "cost " : "save ")
           << formatCycles(std::abs(delta)) << " cycles per inference";
      if (to >= 0 && problem.capacities[to] - used[to] < problem.items[k].size)
        diag << " but needs " << problem.items[k].size << " of "
             << std::max<int64_t>(problem.capacities[to] - used[to], 0)
             << " bytes left there";
    }
  }
}

LogicalResult TrafficObjective::run() {
  if (options.objective == Objective::Default)
    return success();
  SmallVector<unsigned> open;
  for (auto [i, buffer] : llvm::enumerate(plan.getBuffers()))
    if (isOpenConstant(buffer))
      open.push_back(i);
  // Pins go to the preferred memories: readable, writable, chosen by the
  // platform for what the rules leave open.
  SmallVector<StringRef> destinations;
  for (StringAttr memory : plan.getPlatform().getPreferredList())
    destinations.push_back(memory.getValue());
  if (open.empty() || destinations.empty())
    return success();
  PinProblem problem = getProblem(open, destinations);
  PinChoice choice;
  switch (options.objective) {
  case Objective::Default:
    return success();
  case Objective::Traffic:
    choice = ::helia::planner::choosePins(problem);
    break;
  case Objective::Exact: {
    std::optional<PinChoice> exact = ::helia::planner::choosePinsExact(problem);
    if (!exact)
      return emitError(plan.getLoc())
             << "objective=exact gave up on " << open.size()
             << " open constants within its search budget; use "
                "objective=traffic, which is within a few percent of it";
    choice = std::move(*exact);
    break;
  }
  case Objective::Hand:
  case Objective::FastShare: {
    std::vector<double> key;
    for (unsigned i : open) {
      const BufferPlan &buffer = plan.getBuffer(i);
      key.push_back(options.objective == Objective::Hand
                        ? static_cast<double>(buffer.readBytes)
                        : static_cast<double>(buffer.info->size) *
                              static_cast<double>(
                                  buffer.info->readSteps.size()));
    }
    choice = ::helia::planner::choosePinsByKey(problem, key);
    break;
  }
  }
  MLIRContext *ctx = plan.getPlatform().getContext();
  for (auto [k, i] : llvm::enumerate(open)) {
    int d = choice.destination[k];
    if (d < 0)
      continue;
    BufferPlan &buffer = plan.getBuffer(i);
    PlacementAttr old = buffer.placement;
    buffer.placement = PlacementAttr::get(
        ctx, old ? old.getId() : 0, old ? old.getName() : StringAttr(),
        TensorKind::Constant, StringAttr::get(ctx, buffer.arena.source),
        StringAttr::get(ctx, destinations[d]), Residency::Pin);
    buffer.pinnedByObjective = true;
  }
  if (options.remarks)
    remark(problem, open, destinations, choice.destination);
  return MemoryChooser(plan).layOutConstantsAgain();
}
