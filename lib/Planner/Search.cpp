//===- Search.cpp - Branch and bound over canonical placements ------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// A depth-first search for a placement that fits a capacity, after
// MiniMalloc (Moffitt, ASPLOS 2023). Only canonical placements are explored:
// each buffer goes to the lowest offset above every already placed buffer it
// overlaps in time, and buffers are placed in non-decreasing (offset, rank)
// order, so every placement is produced once. On top of that:
//
// - spatial inference: in every time slot, the bytes still to place stacked
//   on the slot's floor must fit the capacity;
// - dominance: a buffer is never placed at or above an offset where another
//   unplaced buffer could already end, since that leaves a gap the other
//   buffer fills in an equivalent canonical placement;
// - decomposition: once no unplaced buffer crosses a slot boundary, the two
//   sides are independent and are solved one after the other.
//
// The bounds, spatial inference and their undo trails are the SearchState's
// (SearchState.h); this file holds the search loop and the bisection.
//
// The search is bounded by a node count, so results never depend on time.
// searchPlacement() bisects the capacity between the lower bound and the best
// known peak, restarting each probe with several static orderings and growing
// node limits (heavy-tailed search benefits from restarts).
//
//===----------------------------------------------------------------------===//

#include "SearchState.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

using namespace helia::planner;
using namespace helia::planner::detail;

namespace {

enum class Status { Found, NotFound, Aborted };

/// Static orderings tried in turn by each probe: MiniMalloc's "WAT", "TAW"
/// and "TWA" (W: lifetime length, A: area, T: contention, the largest number
/// of bytes still to place in one of the item's slots), all descending.
enum class Preorder { WidthAreaTotal, TotalAreaWidth, TotalWidthArea };

/// The depth-first search of one probe: candidates in canonical order,
/// dominance, decomposition; the bounds and spatial inference are the
/// SearchState's.
class Searcher {
public:
  Searcher(const Instance &instance, const Conflicts &conflicts)
      : instance(instance), items(instance.items), state(instance, conflicts) {
    size_t n = items.size();
    size_t slots = instance.numSlots;
    rank.resize(n);
    cuts.resize(slots ? slots - 1 : 0);
    candidateStack.resize(n + 2);
  }

  /// Looks for a placement with peak <= `capacity`, spending at most
  /// `workLimit` units of work. On Found, `result` holds the placement.
  Status solve(int64_t capacity, Preorder preorder, uint64_t workLimit,
               llvm::MutableArrayRef<int64_t> result) {
    this->preorder = preorder;
    limit = workLimit;
    work = 0;
    out = result;
    if (!state.reset(capacity))
      return Status::NotFound;
    std::fill(cuts.begin(), cuts.end(), 0);
    for (const Item &item : items)
      for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
        ++cuts[s];
    std::vector<uint32_t> all(items.size());
    std::iota(all.begin(), all.end(), 0);
    return solveRange(0, instance.numSlots, all, 0);
  }

  /// Work spent by the last solve(): one unit per element visited by the
  /// inner loops (candidates, slots, neighbours, slot members), so that a
  /// budget in work units tracks run time closely on any instance, yet is
  /// independent of the clock.
  uint64_t work = 0;

private:
  struct Candidate {
    int64_t offset;
    uint32_t rank;
    uint32_t item;
  };

  Status solveRange(uint32_t lo, uint32_t hi,
                    llvm::ArrayRef<uint32_t> candidates, unsigned depth);
  void assignRanks(llvm::ArrayRef<uint32_t> part);
  Status search(llvm::ArrayRef<uint32_t> part, uint32_t lo, uint32_t hi,
                int64_t lastOffset, uint32_t lastRank, unsigned depth);
  /// Places `candidate` and searches on; always undoes the placement.
  /// Places `candidate` and searches on. `constrainsNobody` tells whether
  /// its placement left no unplaced item overlapping it.
  Status branch(Candidate candidate, llvm::ArrayRef<uint32_t> part,
                uint32_t lo, uint32_t hi, unsigned depth,
                bool &constrainsNobody);

  const Instance &instance;
  const std::vector<Item> &items;
  SearchState state;
  Preorder preorder = Preorder::WidthAreaTotal;
  std::vector<uint32_t> rank;
  llvm::MutableArrayRef<int64_t> out;
  uint64_t limit = 0;
  /// Per slot boundary, the unplaced items that cross it.
  std::vector<uint32_t> cuts;
  std::vector<std::vector<Candidate>> candidateStack;
};

} // namespace

/// Splits the unplaced buffers among `candidates` at every slot boundary in
/// [lo, hi) that no unplaced buffer crosses, and solves each side.
Status Searcher::solveRange(uint32_t lo, uint32_t hi,
                            llvm::ArrayRef<uint32_t> candidates,
                            unsigned depth) {
  llvm::SmallVector<uint32_t, 8> bounds{lo};
  for (uint32_t s = lo + 1; s < hi; ++s)
    if (cuts[s - 1] == 0)
      bounds.push_back(s);
  bounds.push_back(hi);
  std::vector<std::vector<uint32_t>> parts(bounds.size() - 1);
  for (uint32_t i : candidates) {
    if (state.isPlaced(i))
      continue;
    size_t part = std::upper_bound(bounds.begin(), bounds.end(), items[i].lo) -
                  bounds.begin() - 1;
    parts[part].push_back(i);
  }
  for (size_t p = 0; p < parts.size(); ++p) {
    if (parts[p].empty())
      continue;
    // Each part is ranked afresh with the contention that is left in it;
    // the caller's ranks come back afterwards.
    llvm::SmallVector<uint32_t, 32> savedRanks;
    for (uint32_t i : parts[p])
      savedRanks.push_back(rank[i]);
    assignRanks(parts[p]);
    Status status = search(parts[p], bounds[p], bounds[p + 1], -1, 0, depth);
    for (auto [i, saved] : llvm::zip_equal(parts[p], savedRanks))
      rank[i] = saved;
    if (status != Status::Found)
      return status;
  }
  return Status::Found;
}

/// Ranks `part` by the static preorder, larger keys first, ties by item.
void Searcher::assignRanks(llvm::ArrayRef<uint32_t> part) {
  struct Key {
    int64_t first, second, third;
    uint32_t item;
  };
  llvm::SmallVector<Key, 32> keys;
  for (uint32_t i : part) {
    const Item &item = items[i];
    int64_t contention = 0;
    for (uint32_t s = item.lo; s < item.hi; ++s)
      contention = std::max(contention, state.getBytesLeft(s));
    int64_t width = item.length, area = item.size * item.length;
    switch (preorder) {
    case Preorder::WidthAreaTotal:
      keys.push_back({width, area, contention, i});
      break;
    case Preorder::TotalAreaWidth:
      keys.push_back({contention, area, width, i});
      break;
    case Preorder::TotalWidthArea:
      keys.push_back({contention, width, area, i});
      break;
    }
  }
  llvm::sort(keys, [](const Key &a, const Key &b) {
    return std::make_tuple(-a.first, -a.second, -a.third, a.item) <
           std::make_tuple(-b.first, -b.second, -b.third, b.item);
  });
  for (auto [position, key] : llvm::enumerate(keys))
    rank[key.item] = position;
}

Status Searcher::search(llvm::ArrayRef<uint32_t> part, uint32_t lo,
                        uint32_t hi, int64_t lastOffset, uint32_t lastRank,
                        unsigned depth) {
  if (work >= limit)
    return Status::Aborted;
  work += 1 + part.size();
  int64_t minHeight = std::numeric_limits<int64_t>::max();
  bool anyLeft = false;
  for (uint32_t i : part) {
    if (state.isPlaced(i))
      continue;
    anyLeft = true;
    minHeight = std::min(minHeight, state.getMinOffset(i) + items[i].size);
  }
  if (!anyLeft)
    return Status::Found;

  std::vector<Candidate> &candidates = candidateStack[depth];
  candidates.clear();
  for (uint32_t i : part) {
    if (state.isPlaced(i))
      continue;
    int64_t at = state.getMinOffset(i);
    // Dominance: some unplaced buffer fits entirely below `at`.
    if (at >= minHeight)
      continue;
    // Canonical order: (offset, rank) never decreases along a path.
    if (at < lastOffset || (at == lastOffset && rank[i] < lastRank))
      continue;
    candidates.push_back({at, rank[i], i});
  }
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    return std::tie(a.offset, a.rank) < std::tie(b.offset, b.rank);
  });

  for (size_t c = 0; c < candidates.size(); ++c) {
    if (work >= limit)
      return Status::Aborted;
    bool constrainsNobody = false;
    Status status = branch(candidates[c], part, lo, hi, depth, constrainsNobody);
    if (status != Status::NotFound)
      return status;
    // An item that no unplaced item overlaps constrains nobody: any
    // placement that puts another candidate first can put it first
    // instead, so its failure is the node's failure. (Its own placement
    // decides, not the last one made in the subtree below it.)
    if (constrainsNobody)
      return Status::NotFound;
  }
  return Status::NotFound;
}

Status Searcher::branch(Candidate candidate, llvm::ArrayRef<uint32_t> part,
                        uint32_t lo, uint32_t hi, unsigned depth,
                        bool &constrainsNobody) {
  const Item &item = items[candidate.item];
  SearchState::Mark mark = state.getMark();
  Status status = Status::NotFound;
  out[candidate.item] = candidate.offset;
  bool placed = state.place(candidate.item, candidate.offset, lo, hi, work);
  // (A placement that fails decides nothing about the others.)
  constrainsNobody = placed && state.isHatless();
  if (placed) {
    bool split = false;
    for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
      split |= --cuts[s] == 0;
    status = split ? solveRange(lo, hi, part, depth + 1)
                   : search(part, lo, hi, candidate.offset, candidate.rank,
                            depth + 1);
    for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
      ++cuts[s];
  }
  state.unplace(candidate.item, mark);
  return status;
}

namespace {
enum class ProbeResult { Found, Infeasible, Unknown };

} // namespace

SearchResult detail::searchPlacement(const Instance &instance,
                                     const Conflicts &conflicts,
                                     int64_t lowerBound, int64_t &peak,
                                     llvm::MutableArrayRef<int64_t> offsets,
                                     uint64_t effort) {
  SearchResult result;
  const std::vector<Item> &items = instance.items;
  if (items.empty() || effort == 0)
    return result;
  int64_t granule = instance.granule;
  int64_t lo = alignTo(lowerBound, granule);
  if (peak <= lo) {
    result.optimal = true;
    return result;
  }
  Searcher searcher(instance, conflicts);
  std::vector<int64_t> trial(items.size());
  uint64_t remaining = effort;

  auto probe = [&](int64_t capacity, uint64_t budget) {
    uint64_t workLimit = 64 * (items.size() + instance.numSlots);
    while (true) {
      for (Preorder preorder :
           {Preorder::WidthAreaTotal, Preorder::TotalAreaWidth,
            Preorder::TotalWidthArea}) {
        uint64_t allowed = std::min(workLimit, std::min(budget, remaining));
        if (allowed == 0)
          return ProbeResult::Unknown;
        Status status = searcher.solve(capacity, preorder, allowed, trial);
        budget -= std::min(budget, searcher.work);
        remaining -= std::min(remaining, searcher.work);
        result.work += searcher.work;
        if (status == Status::Found)
          return ProbeResult::Found;
        if (status == Status::NotFound)
          return ProbeResult::Infeasible;
      }
      workLimit *= 2;
    }
  };

  bool loProven = instance.alignmentFree;
  bool first = true;
  while (lo < peak && remaining > 0) {
    int64_t capacity = lo;
    uint64_t budget = remaining / 5 * 3;
    if (!first) {
      int64_t steps = (peak - lo) / granule;
      capacity = lo + (steps - 1) / 2 * granule;
      budget = std::max<uint64_t>(remaining / 3, 1);
    }
    first = false;
    ProbeResult outcome = probe(capacity, budget);
    if (outcome == ProbeResult::Found) {
      int64_t trialPeak = 0;
      for (auto [i, item] : llvm::enumerate(items))
        trialPeak = std::max(trialPeak, trial[i] + item.size);
      peak = trialPeak;
      std::copy(trial.begin(), trial.end(), offsets.begin());
      result.improved = true;
      continue;
    }
    loProven &= outcome == ProbeResult::Infeasible;
    lo = capacity + granule;
  }
  result.optimal = peak <= lowerBound || (lo >= peak && loProven);
  return result;
}
