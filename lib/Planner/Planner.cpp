//===- Planner.cpp - Packing library entry points -------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "helia/Planner/Intervals.h"
#include "PlannerInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <queue>

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
// Bounds and checks
//===----------------------------------------------------------------------===//

int64_t helia::planner::lowerBound(llvm::ArrayRef<Buffer> buffers,
                                   int64_t *peakStep) {
  std::vector<LiveRange> ranges;
  ranges.reserve(buffers.size());
  for (const Buffer &buffer : buffers)
    ranges.push_back({buffer.firstStep, buffer.lastStep, buffer.size});
  LiveProfile::Peak peak = findPeak(ranges);
  if (peakStep)
    *peakStep = peak.step;
  return peak.bytes;
}

std::vector<size_t>
helia::planner::buffersLiveAt(llvm::ArrayRef<Buffer> buffers, int64_t step) {
  std::vector<size_t> live;
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.size > 0 && buffer.firstStep <= step && step <= buffer.lastStep)
      live.push_back(index);
  return live;
}

int64_t helia::planner::computePeak(llvm::ArrayRef<Buffer> buffers,
                                    llvm::ArrayRef<int64_t> offsets) {
  int64_t peak = 0;
  for (auto [buffer, offset] : llvm::zip_equal(buffers, offsets))
    if (buffer.size > 0)
      peak = std::max(peak, offset + buffer.size);
  return peak;
}

static std::string describe(llvm::ArrayRef<Buffer> buffers, size_t index) {
  const Buffer &buffer = buffers[index];
  return llvm::formatv("buffer {0} (id {1}, size {2}, steps [{3}, {4}])", index,
                       buffer.id, buffer.size, buffer.firstStep,
                       buffer.lastStep)
      .str();
}

static llvm::Error makeError(PlanErrorKind kind, const llvm::Twine &message,
                             std::vector<size_t> buffers = {},
                             int64_t required = 0, int64_t capacity = 0) {
  return llvm::make_error<PlanError>(kind, message.str(), required, capacity,
                                     std::move(buffers));
}

/// Finds two buffers among `subset` that overlap in time and in memory, by a
/// sweep over time with the live buffers kept in offset order.
static std::optional<std::pair<size_t, size_t>>
findOverlap(llvm::ArrayRef<Buffer> buffers, llvm::ArrayRef<int64_t> offsets,
            llvm::ArrayRef<size_t> subset) {
  std::vector<size_t> byStart(subset.begin(), subset.end());
  llvm::sort(byStart, [&](size_t a, size_t b) {
    return std::make_pair(buffers[a].firstStep, a) <
           std::make_pair(buffers[b].firstStep, b);
  });
  // Live buffers by offset; invariant: pairwise disjoint in memory.
  std::map<int64_t, size_t> live;
  using Expiry = std::pair<int64_t, size_t>; // lastStep, buffer
  std::priority_queue<Expiry, std::vector<Expiry>, std::greater<Expiry>>
      expiries;
  for (size_t index : byStart) {
    const Buffer &buffer = buffers[index];
    while (!expiries.empty() && expiries.top().first < buffer.firstStep) {
      size_t gone = expiries.top().second;
      expiries.pop();
      live.erase(offsets[gone]);
    }
    int64_t begin = offsets[index], end = begin + buffer.size;
    auto next = live.lower_bound(begin);
    if (next != live.end() && next->first < end)
      return std::make_pair(next->second, index);
    if (next != live.begin()) {
      auto prev = std::prev(next);
      if (prev->first + buffers[prev->second].size > begin)
        return std::make_pair(prev->second, index);
    }
    live.emplace(begin, index);
    expiries.push({buffer.lastStep, index});
  }
  return std::nullopt;
}

static llvm::Error validateBuffers(const Problem &problem) {
  for (auto [index, buffer] : llvm::enumerate(problem.buffers)) {
    auto fail = [&, index = index](const llvm::Twine &what) {
      return makeError(PlanErrorKind::InvalidBuffer,
                       describe(problem.buffers, index) + ": " + what, {index});
    };
    if (buffer.size < 0)
      return fail("negative size");
    if (buffer.alignment < 1)
      return fail(
          llvm::formatv("alignment {0} is not positive", buffer.alignment));
    if (buffer.lastStep < buffer.firstStep)
      return fail("last step precedes first step");
    if (buffer.lastStep == std::numeric_limits<int64_t>::max())
      return fail("last step out of range");
    if (buffer.fixedOffset) {
      if (*buffer.fixedOffset < 0)
        return fail("negative fixed offset");
      if (*buffer.fixedOffset % buffer.alignment != 0)
        return fail(llvm::formatv("fixed offset {0} is not a multiple of "
                                  "alignment {1}",
                                  *buffer.fixedOffset, buffer.alignment));
    }
  }
  if (problem.capacity && *problem.capacity < 0)
    return makeError(PlanErrorKind::InvalidBuffer, "negative capacity");
  return llvm::Error::success();
}

llvm::Error helia::planner::verify(const Problem &problem,
                                   llvm::ArrayRef<int64_t> offsets) {
  llvm::ArrayRef<Buffer> buffers = problem.buffers;
  if (offsets.size() != buffers.size())
    return makeError(PlanErrorKind::InvalidBuffer,
                     llvm::formatv("{0} offsets for {1} buffers",
                                   offsets.size(), buffers.size()));
  std::vector<size_t> placed;
  for (size_t index = 0, e = buffers.size(); index < e; ++index) {
    const Buffer &buffer = buffers[index];
    int64_t offset = offsets[index];
    // Saturating: an offset near 2^63 must not wrap the end into range.
    int64_t end = 0;
    if (llvm::AddOverflow(offset, buffer.size, end))
      end = std::numeric_limits<int64_t>::max();
    auto fail = [&](PlanErrorKind kind, const llvm::Twine &what) {
      return makeError(kind, describe(buffers, index) + ": " + what, {index},
                       end, problem.capacity.value_or(0));
    };
    if (offset < 0)
      return fail(PlanErrorKind::InvalidBuffer,
                  llvm::formatv("negative offset {0}", offset));
    if (buffer.alignment > 1 && offset % buffer.alignment != 0)
      return fail(PlanErrorKind::InvalidBuffer,
                  llvm::formatv("offset {0} is not a multiple of alignment {1}",
                                offset, buffer.alignment));
    if (buffer.fixedOffset && *buffer.fixedOffset != offset)
      return fail(PlanErrorKind::InvalidBuffer,
                  llvm::formatv("offset {0} differs from the fixed offset {1}",
                                offset, *buffer.fixedOffset));
    if (buffer.size == 0)
      continue;
    if (problem.capacity && end > *problem.capacity)
      return fail(PlanErrorKind::CapacityExceeded,
                  llvm::formatv("ends at {0}, beyond the capacity {1}", end,
                                *problem.capacity));
    placed.push_back(index);
  }
  if (auto pair = findOverlap(buffers, offsets, placed))
    return makeError(
        PlanErrorKind::InvalidBuffer,
        llvm::formatv("{0} at offset {1} and {2} at offset {3} overlap in "
                      "time and memory",
                      describe(buffers, pair->first), offsets[pair->first],
                      describe(buffers, pair->second), offsets[pair->second]),
        {pair->first, pair->second});
  return llvm::Error::success();
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
  for (const Strategy &strategy : llvm::ArrayRef(kPortfolio).take_front(runs)) {
    if (best.peak <= lowerBound)
      return;
    // Once a run has missed the bound, more follow: the conflict graph (the
    // skyline greedy's and the search's too) makes each of them cheaper.
    if (!conflicts && &strategy != kPortfolio && runs > 3 &&
        !instance.hasFixed && pairs <= kMaxConflictEdges)
      conflicts = buildConflicts(instance, kMaxConflictEdges);
    std::vector<uint32_t> order = makeOrder(instance, strategy.key, keys);
    if (!strategy.fit) {
      if (instance.hasFixed || pairs > kMaxConflictEdges)
        continue;
      if (!conflicts)
        conflicts = buildConflicts(instance, kMaxConflictEdges);
      std::vector<uint32_t> rank(items.size());
      for (auto [position, item] : llvm::enumerate(order))
        rank[item] = position;
      int64_t peak = placeLowestFirst(instance, *conflicts, rank, offsets);
      best.offer(
          offsets, peak,
          (llvm::Twine("skyline/") + getOrderKeyName(strategy.key)).str());
      continue;
    }
    int64_t peak = placeInOrder(instance, order, *strategy.fit, offsets,
                                conflicts ? &*conflicts : nullptr);
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

  // An offline plan must be consistent on its own.
  std::vector<size_t> fixed;
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.fixedOffset && buffer.size > 0)
      fixed.push_back(index);
  if (!fixed.empty()) {
    std::vector<int64_t> fixedOffsets(buffers.size(), 0);
    for (size_t index : fixed) {
      fixedOffsets[index] = *buffers[index].fixedOffset;
      int64_t end = fixedOffsets[index] + buffers[index].size;
      if (problem.capacity && end > *problem.capacity)
        return makeError(
            PlanErrorKind::InfeasibleFixedOffsets,
            llvm::formatv("{0}: fixed offset {1} ends at {2}, beyond the "
                          "capacity {3}",
                          describe(buffers, index), fixedOffsets[index], end,
                          *problem.capacity),
            {index}, end, *problem.capacity);
    }
    if (auto pair = findOverlap(buffers, fixedOffsets, fixed))
      return makeError(
          PlanErrorKind::InfeasibleFixedOffsets,
          llvm::formatv(
              "fixed offsets overlap: {0} at {1} and {2} at {3}",
              describe(buffers, pair->first), fixedOffsets[pair->first],
              describe(buffers, pair->second), fixedOffsets[pair->second]),
          {pair->first, pair->second}, 0, problem.capacity.value_or(0));
  }

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
    return makeError(
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
