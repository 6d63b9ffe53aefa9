//===- PlannerTest.cpp - Tests of the packing library ---------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"
#include "../../lib/Planner/PlannerInternal.h"
#include "TestUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <tuple>

using namespace helia::planner;

namespace {

struct TflmRow {
  int64_t id, size, first, last, offset;
};

/// Checks greedy-by-size against offsets that TFLite Micro's own
/// GreedyMemoryPlanner produced (../shared/bench/models/plans).
void expectTflmOffsets(llvm::ArrayRef<TflmRow> rows, int64_t arena) {
  Problem problem;
  for (const TflmRow &row : rows)
    problem.buffers.push_back(
        makeBuffer(row.id, row.size, row.first, row.last));
  Options options;
  options.algorithm = Algorithm::GreedyBySize;
  llvm::Expected<Solution> solution = plan(problem, options);
  ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
  EXPECT_EQ(solution->peak, arena);
  for (auto [row, offset] : llvm::zip_equal(rows, solution->offsets))
    EXPECT_EQ(offset, row.offset) << "tensor " << row.id;
}

TEST(PlannerTflm, Ad01Fp32) {
  // ad01_fp32.tflm_plan.tsv: equal sizes exercise TFLM's tie order.
  TflmRow rows[] = {
      {0, 2560, 0, 1, 0},     {21, 512, 1, 2, 2560}, {22, 512, 2, 3, 0},
      {23, 512, 3, 4, 512},   {24, 512, 4, 5, 0},    {25, 32, 5, 6, 512},
      {26, 512, 6, 7, 0},     {27, 512, 7, 8, 512},  {28, 512, 8, 9, 0},
      {29, 512, 9, 10, 2560}, {30, 2560, 10, 10, 0}};
  expectTflmOffsets(rows, 3072);
}

TEST(PlannerTflm, AudioPreprocessorFloat) {
  // audio_preprocessor_float.tflm_plan.tsv: TFLM is 45% above the bound.
  TflmRow rows[] = {
      {0, 960, 0, 1, 0},      {15, 960, 1, 2, 960},   {16, 960, 2, 3, 0},
      {17, 960, 3, 4, 1040},  {18, 16, 3, 11, 3024},  {19, 1040, 4, 5, 0},
      {20, 1040, 5, 6, 1040}, {21, 1040, 6, 7, 0},    {22, 944, 7, 8, 2080},
      {23, 1040, 8, 9, 1040}, {24, 1040, 9, 10, 0},   {25, 320, 10, 11, 1040},
      {26, 160, 11, 12, 0},   {27, 160, 12, 13, 320}, {28, 160, 12, 13, 160},
      {29, 160, 13, 14, 0},   {30, 80, 14, 15, 320},  {31, 160, 15, 16, 160},
      {32, 160, 16, 16, 0}};
  expectTflmOffsets(rows, 3040);

  // The default algorithm reaches the lower bound on the same problem.
  Problem problem;
  for (const TflmRow &row : rows)
    problem.buffers.push_back(
        makeBuffer(row.id, row.size, row.first, row.last));
  llvm::Expected<Solution> best = plan(problem);
  ASSERT_TRUE(!!best) << llvm::toString(best.takeError());
  EXPECT_EQ(best->lowerBound, 2096);
  EXPECT_EQ(best->peak, 2096);
  EXPECT_TRUE(best->optimal);
  EXPECT_FALSE(verify(problem, best->offsets));
}

TEST(PlannerTflm, MicroSpeechQuantized) {
  TflmRow rows[] = {{2, 4000, 2, 3, 0},
                    {3, 1968, 0, 1, 0},
                    {4, 1968, 1, 2, 4000},
                    {6, 16, 3, 4, 4000},
                    {9, 16, 4, 4, 0}};
  expectTflmOffsets(rows, 5968);
}

TEST(PlannerTflm, OfflineOffsetsComeFirst) {
  // A fixed buffer keeps its offset; the others fill around it.
  Problem problem;
  problem.buffers = {makeBuffer(0, 64, 0, 3), makeBuffer(1, 32, 0, 1),
                     makeBuffer(2, 32, 2, 3)};
  problem.buffers[0].fixedOffset = 32;
  Options options;
  options.algorithm = Algorithm::GreedyBySize;
  llvm::Expected<Solution> solution = plan(problem, options);
  ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
  EXPECT_EQ(solution->offsets, (std::vector<int64_t>{32, 0, 0}));
  EXPECT_EQ(solution->peak, 96);
}

TEST(Planner, AlgorithmNames) {
  for (Algorithm algorithm : getAllAlgorithms())
    EXPECT_EQ(symbolizeAlgorithm(stringifyAlgorithm(algorithm)), algorithm);
  EXPECT_EQ(stringifyAlgorithm(Algorithm::GreedyBySize), "greedy-by-size");
  EXPECT_EQ(stringifyAlgorithm(Algorithm::Best), "best");
  EXPECT_FALSE(symbolizeAlgorithm("greedy"));
}

TEST(Planner, LifetimesAreClosed) {
  // [0, 1] and [1, 2] share step 1, so they conflict; [3, 4] does not.
  std::vector<Buffer> buffers = {makeBuffer(0, 10, 0, 1),
                                 makeBuffer(1, 20, 1, 2),
                                 makeBuffer(2, 25, 3, 4)};
  int64_t step = -1;
  EXPECT_EQ(lowerBound(buffers, &step), 30);
  EXPECT_EQ(step, 1);
  EXPECT_EQ(buffersLiveAt(buffers, 1), (std::vector<size_t>{0, 1}));
  for (Algorithm algorithm : getAllAlgorithms()) {
    Problem problem{buffers, std::nullopt};
    Options options;
    options.algorithm = algorithm;
    llvm::Expected<Solution> solution = plan(problem, options);
    ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
    EXPECT_EQ(solution->peak, 30);
    EXPECT_FALSE(verify(problem, solution->offsets));
  }
}

TEST(Planner, EmptyAndZeroSize) {
  Problem empty;
  llvm::Expected<Solution> solution = plan(empty);
  ASSERT_TRUE(!!solution);
  EXPECT_EQ(solution->peak, 0);
  EXPECT_TRUE(solution->offsets.empty());

  Problem zeros;
  zeros.buffers = {makeBuffer(0, 0, 0, 5), makeBuffer(1, 8, 0, 5)};
  solution = plan(zeros);
  ASSERT_TRUE(!!solution);
  EXPECT_EQ(solution->peak, 8);
  EXPECT_EQ(solution->offsets, (std::vector<int64_t>{0, 0}));
}

//===----------------------------------------------------------------------===//
// Properties on random instances
//===----------------------------------------------------------------------===//

/// A random instance: graph-like short lifetimes with a few long ones, mixed
/// sizes and alignments.
Problem randomProblem(std::mt19937_64 &rng, size_t count, int64_t horizon) {
  Problem problem;
  const int64_t alignments[] = {1, 1, 2, 4, 8, 16};
  for (size_t i = 0; i < count; ++i) {
    Buffer buffer;
    buffer.id = i;
    buffer.size = rng() % 8 == 0 ? 0 : 1 + rng() % 200;
    buffer.alignment = alignments[rng() % 6];
    buffer.firstStep = rng() % horizon;
    int64_t length = rng() % 5 == 0 ? rng() % horizon : rng() % 4;
    buffer.lastStep = std::min(horizon - 1, buffer.firstStep + length);
    problem.buffers.push_back(buffer);
  }
  return problem;
}

/// Fixes a random subset of buffers at offsets of a valid placement.
void fixSome(std::mt19937_64 &rng, Problem &problem) {
  Options options;
  options.algorithm = Algorithm::Heuristic;
  llvm::Expected<Solution> seed = plan(problem, options);
  ASSERT_TRUE(!!seed);
  for (auto [buffer, offset] : llvm::zip_equal(problem.buffers, seed->offsets))
    if (rng() % 4 == 0)
      buffer.fixedOffset = offset;
}

void checkSolution(const Problem &problem, const Solution &solution) {
  ASSERT_EQ(solution.offsets.size(), problem.buffers.size());
  llvm::Error error = verify(problem, solution.offsets);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  EXPECT_EQ(solution.peak, computePeak(problem.buffers, solution.offsets));
  EXPECT_GE(solution.peak, solution.lowerBound);
  EXPECT_EQ(solution.lowerBound, lowerBound(problem.buffers));
  for (auto [buffer, offset] :
       llvm::zip_equal(problem.buffers, solution.offsets)) {
    EXPECT_EQ(offset % buffer.alignment, 0);
    if (buffer.fixedOffset)
      EXPECT_EQ(offset, *buffer.fixedOffset);
  }
}

class RandomInstances : public ::testing::TestWithParam<Algorithm> {};

TEST_P(RandomInstances, Properties) {
  std::mt19937_64 rng(42);
  Options options;
  options.algorithm = GetParam();
  // Small budgets keep the suite fast; the search still runs to its limit on
  // the instances the heuristics do not solve.
  options.effort = 20'000;
  for (int iteration = 0; iteration < 1500; ++iteration) {
    Problem problem = randomProblem(rng, 2 + rng() % 40, 2 + rng() % 30);
    if (iteration % 3 == 0)
      fixSome(rng, problem);
    llvm::Expected<Solution> solution = plan(problem, options);
    ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
    checkSolution(problem, *solution);

    // Deterministic.
    llvm::Expected<Solution> again = plan(problem, options);
    ASSERT_TRUE(!!again);
    EXPECT_EQ(again->offsets, solution->offsets);

    // Never worse than the TFLM replica.
    if (options.algorithm != Algorithm::GreedyBySize) {
      Options greedy;
      greedy.algorithm = Algorithm::GreedyBySize;
      llvm::Expected<Solution> baseline = plan(problem, greedy);
      ASSERT_TRUE(!!baseline);
      EXPECT_LE(solution->peak, baseline->peak);
    }

    // A capacity below the result is reported, at the result it holds.
    if (solution->peak > 0) {
      Problem limited = problem;
      limited.capacity = solution->lowerBound - 1;
      llvm::Expected<Solution> failed = plan(limited, options);
      ASSERT_FALSE(!!failed);
      // With fixed buffers, the offline plan alone may already not fit.
      PlanErrorKind kind = errorKind(failed.takeError());
      EXPECT_TRUE(kind == PlanErrorKind::CapacityExceeded ||
                  (kind == PlanErrorKind::InfeasibleFixedOffsets &&
                   llvm::any_of(problem.buffers, [](const Buffer &buffer) {
                     return buffer.fixedOffset.has_value();
                   })));
      limited.capacity = solution->peak;
      llvm::Expected<Solution> fits = plan(limited, options);
      ASSERT_TRUE(!!fits) << llvm::toString(fits.takeError());
      checkSolution(limited, *fits);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Planner, RandomInstances,
                         ::testing::ValuesIn(getAllAlgorithms()),
                         [](const ::testing::TestParamInfo<Algorithm> &info) {
                           std::string name =
                               stringifyAlgorithm(info.param).str();
                           llvm::erase(name, '-');
                           return name;
                         });

TEST(Planner, BestIsOptimalOnTinyInstances) {
  std::mt19937_64 rng(7);
  for (int iteration = 0; iteration < 300; ++iteration) {
    Problem problem;
    size_t count = 3 + rng() % 5;
    for (size_t i = 0; i < count; ++i) {
      int64_t first = rng() % 6;
      problem.buffers.push_back(
          makeBuffer(i, 1 + rng() % 9, first, first + rng() % 4));
    }
    llvm::Expected<Solution> solution = plan(problem);
    ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
    EXPECT_EQ(solution->peak, bruteForcePeak(problem))
        << "iteration " << iteration;
    EXPECT_TRUE(solution->optimal);
  }
}

TEST(Planner, LargeInstanceHeuristic) {
  // Graph-like: most tensors live a few steps, some skip ahead, a few live
  // long.
  std::mt19937_64 rng(3);
  Problem problem;
  for (int64_t i = 0; i < 30000; ++i) {
    int64_t length = rng() % 100 == 0 ? rng() % 3000 : rng() % 6;
    problem.buffers.push_back(
        makeBuffer(i, 16 * (1 + rng() % 64), i, i + length));
  }
  Options options;
  options.algorithm = Algorithm::Heuristic;
  llvm::Expected<Solution> solution = plan(problem, options);
  ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
  checkSolution(problem, *solution);
}

TEST(Planner, ConflictGraphPlacesAsTheIndex) {
  // placeInOrder walks the conflict graph when given one, else an interval
  // index: the offsets must not depend on it, for either fit, with fixed
  // items too.
  using namespace helia::planner::detail;
  std::mt19937_64 rng(11);
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<Buffer> buffers;
    size_t count = 20 + rng() % 400;
    for (size_t i = 0; i < count; ++i) {
      int64_t first = rng() % 200;
      int64_t length = rng() % 10 == 0 ? rng() % 100 : rng() % 5;
      Buffer buffer = makeBuffer(i, 16 * (rng() % 9), first, first + length);
      buffer.alignment = rng() % 3 == 0 ? 32 : 16;
      if (iteration % 2 && rng() % 20 == 0 && buffer.size > 0)
        buffer.fixedOffset = 32 * (rng() % 8);
      buffers.push_back(buffer);
    }
    Instance instance = buildInstance(buffers);
    std::optional<Conflicts> conflicts =
        buildConflicts(instance, std::numeric_limits<size_t>::max());
    ASSERT_TRUE(conflicts.has_value());
    for (OrderKey key : {OrderKey::Tflm, OrderKey::Start, OrderKey::Area}) {
      std::vector<uint32_t> order =
          makeOrder(instance, key, computeKeys(instance));
      for (Fit fit : {Fit::First, Fit::Best}) {
        std::vector<int64_t> viaIndex(instance.items.size());
        std::vector<int64_t> viaGraph(instance.items.size());
        int64_t peakIndex = placeInOrder(instance, order, fit, viaIndex);
        int64_t peakGraph =
            placeInOrder(instance, order, fit, viaGraph, &*conflicts);
        EXPECT_EQ(peakIndex, peakGraph) << "iteration " << iteration;
        EXPECT_EQ(viaIndex, viaGraph) << "iteration " << iteration;
      }
    }
  }
}

/// The skyline greedy as one queue of every entry (the definition that
/// placeLowestFirst must place as).
static std::vector<int64_t>
placeLowestFirstReference(const helia::planner::detail::Instance &instance,
                          const helia::planner::detail::Conflicts &conflicts,
                          llvm::ArrayRef<uint32_t> rank) {
  using Entry = std::tuple<int64_t, uint32_t, uint32_t>;
  const auto &items = instance.items;
  std::vector<Entry> queue;
  for (uint32_t i = 0; i < items.size(); ++i)
    queue.push_back({0, rank[i], i});
  std::vector<int64_t> minOffset(items.size(), 0), offsets(items.size(), -1);
  std::vector<bool> placed(items.size(), false);
  while (!queue.empty()) {
    auto lowest = std::min_element(queue.begin(), queue.end());
    auto [offset, r, i] = *lowest;
    queue.erase(lowest);
    if (placed[i] || offset != minOffset[i])
      continue;
    placed[i] = true;
    offsets[i] = offset;
    for (uint32_t other : conflicts.of(i)) {
      int64_t bound = helia::planner::detail::alignTo(
          offset + items[i].size, items[other].alignment);
      if (!placed[other] && bound > minOffset[other]) {
        minOffset[other] = bound;
        queue.push_back({bound, rank[other], other});
      }
    }
  }
  return offsets;
}

TEST(Planner, GreedyRunsStopOnlyAtTheCutoff) {
  // The portfolio cuts a greedy run once its peak reaches the best one's: a
  // run under the cutoff must place exactly as an uncut one, and a cut run
  // must never report a peak below the cutoff. The skyline greedy places as
  // its one-queue definition.
  using namespace helia::planner::detail;
  std::mt19937_64 rng(17);
  for (int iteration = 0; iteration < 40; ++iteration) {
    std::vector<Buffer> buffers;
    size_t count = 20 + rng() % 300;
    for (size_t i = 0; i < count; ++i) {
      int64_t first = rng() % 150;
      int64_t length = rng() % 10 == 0 ? rng() % 80 : rng() % 5;
      Buffer buffer =
          makeBuffer(i, 16 * (1 + rng() % 9), first, first + length);
      buffer.alignment = rng() % 3 == 0 ? 32 : 16;
      buffers.push_back(buffer);
    }
    Instance instance = buildInstance(buffers);
    std::optional<Conflicts> conflicts =
        buildConflicts(instance, std::numeric_limits<size_t>::max());
    ASSERT_TRUE(conflicts.has_value());
    std::vector<uint32_t> order =
        makeOrder(instance, OrderKey::Area, computeKeys(instance));
    std::vector<uint32_t> rank(order.size());
    for (auto [position, item] : llvm::enumerate(order))
      rank[item] = position;
    std::vector<int64_t> full(instance.items.size());
    int64_t skyline = placeLowestFirst(instance, *conflicts, rank, full);
    EXPECT_EQ(full, placeLowestFirstReference(instance, *conflicts, rank))
        << "iteration " << iteration;
    std::vector<int64_t> cut(instance.items.size());
    EXPECT_EQ(placeLowestFirst(instance, *conflicts, rank, cut, skyline + 1),
              skyline);
    EXPECT_EQ(cut, full);
    EXPECT_GE(placeLowestFirst(instance, *conflicts, rank, cut, skyline / 2),
              skyline / 2);
    for (Fit fit : {Fit::First, Fit::Best}) {
      int64_t peak = placeInOrder(instance, order, fit, full);
      for (const Conflicts *graph : {(const Conflicts *)nullptr,
                                     (const Conflicts *)&*conflicts}) {
        EXPECT_EQ(placeInOrder(instance, order, fit, cut, graph, peak + 1),
                  peak);
        EXPECT_EQ(cut, full) << "iteration " << iteration;
        EXPECT_GE(placeInOrder(instance, order, fit, cut, graph, peak / 2),
                  peak / 2);
      }
    }
  }
}

TEST(Planner, HeuristicFinalWhenBestCannotSearch) {
  // The first of a fixed series of random instances that the heuristics
  // leave above the lower bound.
  std::mt19937_64 rng(5);
  Problem problem;
  Options heuristic;
  heuristic.algorithm = Algorithm::Heuristic;
  std::optional<Solution> fast;
  for (int attempt = 0; attempt < 1000 && !fast; ++attempt) {
    problem.buffers.clear();
    for (int64_t i = 0; i < 12; ++i) {
      int64_t first = rng() % 8;
      problem.buffers.push_back(
          makeBuffer(i, 1 + rng() % 9, first, first + rng() % 4));
    }
    llvm::Expected<Solution> solution = plan(problem, heuristic);
    ASSERT_TRUE(!!solution) << llvm::toString(solution.takeError());
    if (solution->peak > solution->lowerBound)
      fast = std::move(*solution);
  }
  ASSERT_TRUE(fast.has_value()) << "no hard instance in the series";
  Options best;
  EXPECT_TRUE(isHeuristicFinal(problem, heuristic, *fast));
  EXPECT_FALSE(isHeuristicFinal(problem, best, *fast));
  Options greedy;
  greedy.algorithm = Algorithm::GreedyBySize;
  EXPECT_FALSE(isHeuristicFinal(problem, greedy, *fast));
  // Each reason the search does not run: then best returns the heuristic's
  // solution itself.
  Options noEffort, tooLarge;
  noEffort.effort = 0;
  tooLarge.maxSearchBuffers = problem.buffers.size() - 1;
  for (const Options &options : {noEffort, tooLarge}) {
    EXPECT_TRUE(isHeuristicFinal(problem, options, *fast));
    llvm::Expected<Solution> same = plan(problem, options);
    ASSERT_TRUE(!!same) << llvm::toString(same.takeError());
    EXPECT_EQ(same->offsets, fast->offsets);
    EXPECT_EQ(same->peak, fast->peak);
  }
  // Zero-size buffers do not count towards maxSearchBuffers.
  Problem padded = problem;
  padded.buffers.push_back(makeBuffer(1000, 0, 0, 0));
  Options exact;
  exact.maxSearchBuffers = problem.buffers.size();
  EXPECT_FALSE(isHeuristicFinal(padded, exact, *fast));
}

} // namespace
