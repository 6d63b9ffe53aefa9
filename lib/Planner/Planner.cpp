//===- Planner.cpp - Packing library entry points -------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// plan(): the checks of the problem (Checks.cpp), then TFLM's greedy, or the
// portfolio of greedy orderings and placements and, for Algorithm::Best, the
// search (Search.cpp).
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "PlannerInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace helia::planner;
using namespace helia::planner::detail;

char PlanError::ID = 0;

void PlanError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code PlanError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

static constexpr Algorithm kAllAlgorithms[] = {
    Algorithm::GreedyBySize, Algorithm::Heuristic, Algorithm::Best};

llvm::StringRef helia::planner::stringifyAlgorithm(Algorithm algorithm) {
  switch (algorithm) {
  case Algorithm::GreedyBySize:
    return "greedy-by-size";
  case Algorithm::Heuristic:
    return "heuristic";
  case Algorithm::Best:
    return "best";
  }
  llvm_unreachable("unknown algorithm");
}

std::optional<Algorithm>
helia::planner::symbolizeAlgorithm(llvm::StringRef name) {
  for (Algorithm algorithm : kAllAlgorithms)
    if (stringifyAlgorithm(algorithm) == name)
      return algorithm;
  return std::nullopt;
}

llvm::ArrayRef<Algorithm> helia::planner::getAllAlgorithms() {
  return kAllAlgorithms;
}

//===----------------------------------------------------------------------===//
// plan()
//===----------------------------------------------------------------------===//

namespace {

/// Keeps the best placement seen so far.
struct Incumbent {
  std::vector<int64_t> offsets;
  int64_t peak = std::numeric_limits<int64_t>::max();
  std::string strategy;

  void offer(llvm::ArrayRef<int64_t> candidate, int64_t candidatePeak,
             llvm::StringRef name) {
    if (candidatePeak >= peak)
      return;
    offsets.assign(candidate.begin(), candidate.end());
    peak = candidatePeak;
    strategy = name.str();
  }
};

/// Work allowed to the heuristic portfolio, in conflicting pairs visited
/// (a greedy run costs about one unit per pair of time-overlapping buffers
/// plus a few per buffer). Problems with up to ~6 * 10^6 units get the whole
/// portfolio; bigger ones fewer runs, but always at least two. The portfolio
/// stops as soon as a run reaches the lower bound.
constexpr uint64_t kPortfolioWork = 100'000'000;
/// Largest conflict graph (directed edges) built for the skyline greedy and
/// the search.
constexpr size_t kMaxConflictEdges = 20'000'000;

/// One greedy of the portfolio, most useful first.
struct Strategy {
  OrderKey key;
  /// First fit, best fit, or (std::nullopt) the skyline greedy.
  std::optional<Fit> fit;
};

constexpr Strategy kPortfolio[] = {
    {OrderKey::Tflm, Fit::First},   {OrderKey::Contention, Fit::First},
    {OrderKey::Size, Fit::Best},    {OrderKey::Contention, std::nullopt},
    {OrderKey::Size, Fit::First},   {OrderKey::Contention, Fit::Best},
    {OrderKey::Area, std::nullopt}, {OrderKey::Area, Fit::First},
    {OrderKey::Length, Fit::First}, {OrderKey::Degree, Fit::First},
    {OrderKey::Start, Fit::First},  {OrderKey::Area, Fit::Best},
    {OrderKey::Length, Fit::Best},  {OrderKey::Degree, Fit::Best},
    {OrderKey::Start, Fit::Best},   {OrderKey::Tflm, Fit::Best},
};

} // namespace

/// Runs the greedy strategies that the problem's density allows and keeps
/// the best placement. Builds `conflicts` when the skyline greedy needs it.
static void runPortfolio(const Instance &instance, int64_t lowerBound,
                         Incumbent &best, std::optional<Conflicts> &conflicts) {
  const std::vector<Item> &items = instance.items;
  std::vector<int64_t> offsets(items.size());
  ItemKeys keys = computeKeys(instance);
  uint64_t pairs = 0;
  for (uint32_t degree : keys.degree)
    pairs += degree;
  // A run also sorts and indexes every buffer.
  uint64_t runWork = std::max<uint64_t>(pairs + 16 * items.size(), 1);
  size_t runs =
      std::clamp<uint64_t>(kPortfolioWork / runWork, 2, std::size(kPortfolio));
  std::optional<std::vector<uint32_t>> orders[kNumOrderKeys];
  for (const Strategy &strategy : llvm::ArrayRef(kPortfolio).take_front(runs)) {
    if (best.peak <= lowerBound)
      return;
    // Once a run has missed the bound, more follow: the conflict graph (the
    // skyline greedy's and the search's too) makes each of them cheaper.
    if (!conflicts && &strategy != kPortfolio && runs > 3 &&
        !instance.hasFixed && pairs <= kMaxConflictEdges)
      conflicts = buildConflicts(instance, kMaxConflictEdges);
    // Strategies that differ in their fit only share their order.
    std::optional<std::vector<uint32_t>> &cached =
        orders[static_cast<size_t>(strategy.key)];
    if (!cached)
      cached = makeOrder(instance, strategy.key, keys);
    const std::vector<uint32_t> &order = *cached;
    if (!strategy.fit) {
      if (instance.hasFixed || pairs > kMaxConflictEdges)
        continue;
      if (!conflicts)
        conflicts = buildConflicts(instance, kMaxConflictEdges);
      std::vector<uint32_t> rank(items.size());
      for (auto [position, item] : llvm::enumerate(order))
        rank[item] = position;
      int64_t peak =
          placeLowestFirst(instance, *conflicts, rank, offsets, best.peak);
      best.offer(
          offsets, peak,
          (llvm::Twine("skyline/") + getOrderKeyName(strategy.key)).str());
      continue;
    }
    // A run whose peak reaches the best one's is cut there: offer() keeps
    // only a strictly lower peak.
    int64_t peak = placeInOrder(instance, order, *strategy.fit, offsets,
                                conflicts ? &*conflicts : nullptr, best.peak);
    best.offer(
        offsets, peak,
        (llvm::Twine(*strategy.fit == Fit::First ? "first-fit/" : "best-fit/") +
         getOrderKeyName(strategy.key))
            .str());
  }
}

llvm::Expected<Solution> helia::planner::plan(const Problem &problem,
                                              const Options &options) {
  if (llvm::Error error = validateBuffers(problem))
    return std::move(error);
  llvm::ArrayRef<Buffer> buffers = problem.buffers;

  if (llvm::Error error = checkFixedOffsets(problem))
    return std::move(error);

  Instance instance = buildInstance(buffers);
  Incumbent best;
  Solution solution;
  solution.lowerBound = lowerBound(buffers);

  if (options.algorithm == Algorithm::GreedyBySize) {
    std::vector<int64_t> offsets(instance.items.size());
    std::vector<uint32_t> order =
        makeOrder(instance, OrderKey::Tflm, ItemKeys());
    int64_t peak = placeInOrder(instance, order, Fit::First, offsets);
    best.offer(offsets, peak, "greedy-by-size");
  } else {
    std::optional<Conflicts> conflicts;
    runPortfolio(instance, solution.lowerBound, best, conflicts);
    if (options.algorithm == Algorithm::Best &&
        best.peak > solution.lowerBound && !instance.hasFixed &&
        options.effort > 0 &&
        instance.items.size() <= options.maxSearchBuffers) {
      if (!conflicts)
        conflicts = buildConflicts(instance, kMaxConflictEdges);
      if (conflicts) {
        SearchResult searched =
            searchPlacement(instance, *conflicts, solution.lowerBound,
                            best.peak, best.offsets, options.effort);
        solution.searchEffort = searched.work;
        solution.optimal = searched.optimal;
        if (searched.improved)
          best.strategy = "search";
      }
    }
  }
  if (instance.items.empty()) {
    best.peak = 0;
    best.strategy = stringifyAlgorithm(options.algorithm).str();
  }

  solution.offsets.assign(buffers.size(), 0);
  for (auto [i, item] : llvm::enumerate(instance.items))
    solution.offsets[item.index] = best.offsets[i];
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.size == 0 && buffer.fixedOffset)
      solution.offsets[index] = *buffer.fixedOffset;
  solution.peak = best.peak;
  solution.strategy = best.strategy;
  solution.optimal |= solution.peak <= solution.lowerBound;

  if (problem.capacity && solution.peak > *problem.capacity) {
    int64_t step = 0;
    lowerBound(buffers, &step);
    return makePlanError(
        PlanErrorKind::CapacityExceeded,
        llvm::formatv("needs {0} bytes but the capacity is {1} (short by {2} "
                      "bytes; at least {3} bytes are live at step {4})",
                      solution.peak, *problem.capacity,
                      solution.peak - *problem.capacity, solution.lowerBound,
                      step),
        buffersLiveAt(buffers, step), solution.peak, *problem.capacity);
  }
  return solution;
}

bool helia::planner::isHeuristicFinal(const Problem &problem,
                                      const Options &options,
                                      const Solution &heuristic) {
  if (options.algorithm == Algorithm::Heuristic)
    return true;
  if (options.algorithm != Algorithm::Best)
    return false;
  if (heuristic.peak <= heuristic.lowerBound || options.effort == 0)
    return true;
  size_t sized = 0;
  for (const Buffer &buffer : problem.buffers) {
    if (buffer.size == 0)
      continue;
    if (buffer.fixedOffset)
      return true;
    ++sized;
  }
  return sized > options.maxSearchBuffers;
}
