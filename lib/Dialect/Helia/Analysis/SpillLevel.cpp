//===- SpillLevel.cpp - what one preferred memory keeps and spills --------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Planner/Intervals.h"
#include "helia/Planner/Spill.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "helia-assign-bindings"

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

SpillLevel::SpillLevel(const BindingPlan &plan, const BindingOptions &options,
                       StringRef memory, ArrayRef<unsigned> here,
                       ArrayRef<unsigned> open, ArrayRef<unsigned> next,
                       int64_t budget)
    : plan(plan), options(options), packer(plan, options), memory(memory),
      here(here), open(open), next(next), budget(budget) {}

SpillLevel::Selection SpillLevel::selectSpills(int64_t target) const {
  std::vector<planner::SpillItem> items;
  auto add = [&](ArrayRef<unsigned> buffers, planner::SpillPlace place) {
    for (unsigned i : buffers) {
      const BufferPlan &buffer = plan.getBuffer(i);
      planner::SpillItem item;
      item.size = buffer.alignedSize;
      item.firstStep = buffer.first;
      item.lastStep = buffer.last;
      // Accessed bytes: what the fast memory's speed multiplies. Under an
      // objective, the predicted traffic; else the size x readers proxy.
      uint64_t accessed =
          options.objective == ::helia::planner::Objective::Default
              ? llvm::SaturatingMultiply<uint64_t>(
                    buffer.info->size, buffer.info->readSteps.size())
              : llvm::SaturatingAdd(buffer.readBytes, buffer.writeBytes);
      item.weight = static_cast<int64_t>(std::min<uint64_t>(
          accessed, std::numeric_limits<int64_t>::max()));
      item.place = place;
      items.push_back(item);
    }
  };
  add(here, planner::SpillPlace::Fast);
  add(open, planner::SpillPlace::Open);
  add(next, planner::SpillPlace::Slow);
  planner::SpillOptions spillOptions;
  spillOptions.capacity = target;
  planner::SpillChoice choice = planner::chooseSpills(items, spillOptions);
  Selection selection;
  for (auto [k, i] : llvm::enumerate(open))
    if (!choice.fast[here.size() + k])
      selection.spilled.push_back(i);
  selection.keptPeak = choice.fastPeak;
  selection.slowPeak = choice.slowPeak;
  return selection;
}

void SpillLevel::keep(SmallVector<unsigned> spills) {
  spilled = std::move(spills);
  llvm::DenseSet<unsigned> gone(spilled.begin(), spilled.end());
  members.assign(here.begin(), here.end());
  for (unsigned i : open)
    if (!gone.contains(i))
      members.push_back(i);
}

// A packing needs at least the live bytes and nearly always reaches them.
// When it does not fit, the choice is made again for a smaller budget: first
// below the kept live bytes by the excess (so that the choice changes), then
// bisecting between the largest budget that packed and the smallest that did
// not, a few times; the packing that fits with the lowest peak in the next
// memory wins (ties: the largest budget). Leaves `members` and `spilled` at
// the returned packing.
FailureOr<planner::Solution>
SpillLevel::chooseByLiveBytes(Algorithm algorithm) {
  constexpr unsigned kMaxAttempts = 5;
  struct Fit {
    Solution solution;
    SmallVector<unsigned> members, spilled;
    int64_t slowPeak;
  };
  std::optional<Fit> fitting;
  std::optional<Solution> last;
  int64_t target = budget, fits = -1, fails = budget + 1;
  for (unsigned attempt = 0; attempt < kMaxAttempts; ++attempt) {
    Selection selection = selectSpills(target);
    keep(std::move(selection.spilled));
    FailureOr<Solution> solution =
        packer.pack(members, /*stream=*/false, algorithm);
    if (failed(solution))
      return failure();
    LDBG() << "spill choice " << attempt << " in '" << memory << "': budget "
           << target << ", " << spilled.size() << " spilled, kept peak "
           << selection.keptPeak << ", slow peak " << selection.slowPeak
           << ", packed " << solution->peak << " of " << budget;
    if (solution->peak <= budget) {
      fits = target;
      // Bisection only tries larger budgets after a fit: on a tie the later
      // choice keeps more.
      if (!fitting || selection.slowPeak <= fitting->slowPeak)
        fitting = Fit{std::move(*solution), members, spilled,
                      selection.slowPeak};
    } else {
      fails = std::min(target, selection.keptPeak);
      last = std::move(*solution);
      if (fits < 0 && spilled.size() == open.size())
        break; // Nothing left to spill by live bytes.
    }
    if (attempt == 0 && fits >= 0)
      break; // The first choice packs: no budget can do better.
    target = fits < 0 ? fails - plan.alignUp(last->peak - budget)
                      : plan.alignUp((fits + fails) / 2);
    if (target < 0 || target <= fits || target >= fails)
      break;
  }
  if (!fitting)
    return std::move(*last);
  members = std::move(fitting->members);
  spilled = std::move(fitting->spilled);
  return std::move(fitting->solution);
}

// The open buffers reaching the highest addresses of `solution` spill, one,
// then up to two, four, ..., so that a memory far too small is settled in
// O(log n) packings.
FailureOr<std::optional<planner::Solution>>
SpillLevel::spillByAddress(Algorithm algorithm, Solution solution) {
  llvm::SmallDenseSet<unsigned> candidates(members.begin() + here.size(),
                                           members.end());
  planner::LiveProfile load(
      std::max<int64_t>(plan.getSchedule().getNumSteps(), 1));
  for (unsigned i : members) {
    const BufferPlan &buffer = plan.getBuffer(i);
    if (buffer.alignedSize != 0)
      load.add(buffer.first, buffer.last, buffer.alignedSize);
  }
  // The fixed buffers alone exceed the budget: no packing fits.
  if (load.getPeak().bytes > budget)
    return std::optional<Solution>();
  size_t batch = 1;
  while (solution.peak > budget) {
    // (top address, position in members), highest first, ties in member
    // order.
    SmallVector<std::pair<int64_t, size_t>> tops;
    for (auto [k, i] : llvm::enumerate(members))
      if (candidates.contains(i))
        tops.push_back(
            {solution.offsets[k] + plan.getBuffer(i).alignedSize, k});
    if (tops.empty())
      return std::optional<Solution>(); // The caller reports it.
    llvm::sort(tops, [](const auto &a, const auto &b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    size_t above = llvm::count_if(
        tops, [&](const auto &top) { return top.first > budget; });
    llvm::DenseSet<unsigned> gone;
    for (auto [top, k] : ArrayRef(tops).take_front(
             std::max<size_t>(1, std::min(batch, above)))) {
      candidates.erase(members[k]);
      spilled.push_back(members[k]);
      gone.insert(members[k]);
    }
    llvm::erase_if(members, [&](unsigned i) { return gone.contains(i); });
    batch *= 2;
    FailureOr<Solution> repacked =
        packer.pack(members, /*stream=*/false, algorithm);
    if (failed(repacked))
      return failure();
    solution = std::move(*repacked);
  }
  return std::optional<Solution>(std::move(solution));
}

// The fast heuristic settles most spills; the final packing with the chosen
// algorithm must fit too, or a memory would fail where a smaller one (that
// spilled more) succeeds: it goes on spilling until it does. `best` never
// packs worse than `heuristic`, so it only packs once more, and not at all
// when its search would not run (it would give the same).
FailureOr<std::optional<planner::Solution>> SpillLevel::run() {
  FailureOr<std::optional<Solution>> fit = failure();
  if (FailureOr<Solution> solution =
          chooseByLiveBytes(Algorithm::Heuristic);
      succeeded(solution))
    fit = spillByAddress(Algorithm::Heuristic, std::move(*solution));
  Algorithm algorithm = options.algorithm;
  if (failed(fit) || !*fit || algorithm == Algorithm::Heuristic ||
      planner::isHeuristicFinal(packer.getProblem(members, /*stream=*/false),
                                packer.getOptions(algorithm), **fit))
    return fit;
  FailureOr<Solution> solution =
      packer.pack(members, /*stream=*/false, algorithm);
  if (succeeded(solution) && solution->peak > budget)
    solution = chooseByLiveBytes(algorithm);
  if (failed(solution))
    return failure();
  return spillByAddress(algorithm, std::move(*solution));
}
