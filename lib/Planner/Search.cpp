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
// The search is bounded by a node count, so results never depend on time.
// searchPlacement() bisects the capacity between the lower bound and the best
// known peak, restarting each probe with several static orderings and growing
// node limits (heavy-tailed search benefits from restarts).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

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

class Searcher {
public:
  Searcher(const Instance &instance, const Conflicts &conflicts)
      : instance(instance), items(instance.items), conflicts(conflicts) {
    size_t n = items.size();
    size_t slots = instance.numSlots;
    offset.resize(n);
    rank.resize(n);
    minOffset.resize(n);
    floor.resize(slots);
    total.resize(slots);
    cuts.resize(slots ? slots - 1 : 0);
    candidateStack.resize(n + 2);
    sectionStamp.assign(slots, 0);
    // Slot membership lists, for the floor implied by unplaced buffers. Each
    // slot keeps its unplaced members in front, so scans skip placed ones.
    memberBegin.assign(slots + 1, 0);
    spanBegin.assign(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t s = items[i].lo; s < items[i].hi; ++s)
        ++memberBegin[s + 1];
      spanBegin[i + 1] = spanBegin[i] + (items[i].hi - items[i].lo);
    }
    for (size_t s = 0; s < slots; ++s)
      memberBegin[s + 1] += memberBegin[s];
    members.resize(memberBegin[slots]);
    memberPosition.resize(spanBegin[n]);
    memberCount.resize(slots);
  }

  /// Looks for a placement with peak  /// Looks for a placement with peak <=
  /// `capacity`, spending at most `workLimit` units of work. On Found, `result`
  /// holds the placement.
  Status solve(int64_t capacity, Preorder preorder, uint64_t workLimit,
               llvm::MutableArrayRef<int64_t> result) {
    this->capacity = capacity;
    this->preorder = preorder;
    limit = workLimit;
    work = 0;
    out = result;
    std::fill(offset.begin(), offset.end(), kNoOffset);
    std::fill(minOffset.begin(), minOffset.end(), 0);
    std::fill(floor.begin(), floor.end(), 0);
    std::fill(total.begin(), total.end(), 0);
    std::fill(cuts.begin(), cuts.end(), 0);
    for (const Item &item : items) {
      for (uint32_t s = item.lo; s < item.hi; ++s)
        total[s] += item.size;
      for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
        ++cuts[s];
    }
    for (int64_t bytes : total)
      if (bytes > capacity)
        return Status::NotFound;
    offsetTrail.clear();
    floorTrail.clear();
    std::vector<uint32_t> fill(memberBegin.begin(), memberBegin.end() - 1);
    for (uint32_t i = 0, e = items.size(); i < e; ++i) {
      for (uint32_t s = items[i].lo; s < items[i].hi; ++s) {
        memberPosition[spanBegin[i] + (s - items[i].lo)] = fill[s];
        members[fill[s]++] = i;
      }
    }
    for (size_t s = 0; s < memberCount.size(); ++s)
      memberCount[s] = memberBegin[s + 1] - memberBegin[s];
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
  struct Change {
    uint32_t index;
    int64_t old;
  };

  /// Splits the unplaced buffers among `candidates` at every slot boundary
  /// in [lo, hi) that no unplaced buffer crosses, and solves each side.
  Status solveRange(uint32_t lo, uint32_t hi,
                    llvm::ArrayRef<uint32_t> candidates, unsigned depth) {
    llvm::SmallVector<uint32_t, 8> bounds{lo};
    for (uint32_t s = lo + 1; s < hi; ++s)
      if (cuts[s - 1] == 0)
        bounds.push_back(s);
    bounds.push_back(hi);
    std::vector<std::vector<uint32_t>> parts(bounds.size() - 1);
    for (uint32_t i : candidates) {
      if (offset[i] != kNoOffset)
        continue;
      size_t part =
          std::upper_bound(bounds.begin(), bounds.end(), items[i].lo) -
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
  void assignRanks(llvm::ArrayRef<uint32_t> part) {
    struct Key {
      int64_t first, second, third;
      uint32_t item;
    };
    llvm::SmallVector<Key, 32> keys;
    for (uint32_t i : part) {
      const Item &item = items[i];
      int64_t contention = 0;
      for (uint32_t s = item.lo; s < item.hi; ++s)
        contention = std::max(contention, total[s]);
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

  Status search(llvm::ArrayRef<uint32_t> part, uint32_t lo, uint32_t hi,
                int64_t lastOffset, uint32_t lastRank, unsigned depth) {
    if (work >= limit)
      return Status::Aborted;
    work += 1 + part.size();
    int64_t minHeight = std::numeric_limits<int64_t>::max();
    bool anyLeft = false;
    for (uint32_t i : part) {
      if (offset[i] != kNoOffset)
        continue;
      anyLeft = true;
      minHeight = std::min(minHeight, minOffset[i] + items[i].size);
    }
    if (!anyLeft)
      return Status::Found;

    std::vector<Candidate> &candidates = candidateStack[depth];
    candidates.clear();
    for (uint32_t i : part) {
      if (offset[i] != kNoOffset)
        continue;
      int64_t at = minOffset[i];
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
      Candidate candidate = candidates[c];
      const Item &item = items[candidate.item];
      size_t offsetMark = offsetTrail.size();
      size_t floorMark = floorTrail.size();
      Status status = Status::NotFound;
      if (place(candidate.item, candidate.offset, lo, hi)) {
        bool split = false;
        for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
          split |= --cuts[s] == 0;
        status = split ? solveRange(lo, hi, part, depth + 1)
                       : search(part, lo, hi, candidate.offset, candidate.rank,
                                depth + 1);
        for (uint32_t s = item.lo; s + 1 < item.hi; ++s)
          ++cuts[s];
      }
      unplace(candidate.item, offsetMark, floorMark);
      if (status != Status::NotFound)
        return status;
      // An item that no unplaced item overlaps constrains nobody: any
      // placement that puts another candidate first can put it first
      // instead, so its failure is the node's failure.
      if (hatless)
        return Status::NotFound;
    }
    return Status::NotFound;
  }

  /// Places item `i` at `at`, updates the bounds of the others, and returns
  /// false as soon as spatial inference over [lo, hi) fails. Every change is
  /// on the trails, so unplace() undoes a partial update too.
  bool place(uint32_t i, int64_t at, uint32_t lo, uint32_t hi) {
    const Item &item = items[i];
    offset[i] = at;
    out[i] = at;
    int64_t height = at + item.size;
    // Updating a slot of the span costs several stores (trail, members).
    work += 1 + 4 * (item.hi - item.lo) + (hi - lo);
    for (uint32_t s = item.lo; s < item.hi; ++s) {
      floorTrail.push_back({s, floor[s]});
      floor[s] = height;
      total[s] -= item.size;
      // Swap `i` behind the unplaced members of the slot; unplace() undoes
      // this by growing the count again, as undos come in reverse order.
      uint32_t position = memberPosition[spanBegin[i] + (s - item.lo)];
      uint32_t last = memberBegin[s] + --memberCount[s];
      uint32_t other = members[last];
      members[position] = other;
      memberPosition[spanBegin[other] + (s - items[other].lo)] = position;
      members[last] = i;
      memberPosition[spanBegin[i] + (s - item.lo)] = last;
    }
    // Everything left in a slot stacks above both its floor and `at`, since
    // offsets never decrease along a path.
    for (uint32_t s = lo; s < hi; ++s)
      if (std::max(floor[s], at) + total[s] > capacity)
        return false;
    ++stampEpoch;
    affected.clear();
    hatless = true;
    work += conflicts.of(i).size();
    for (uint32_t other : conflicts.of(i)) {
      if (offset[other] != kNoOffset)
        continue;
      hatless = false;
      int64_t bound = alignTo(height, items[other].alignment);
      if (bound <= minOffset[other])
        continue;
      offsetTrail.push_back({other, minOffset[other]});
      minOffset[other] = bound;
      // Inside this item's span every unplaced buffer is above `height`
      // already; only the slots beyond it can learn something.
      auto mark = [&](uint32_t from, uint32_t to) {
        for (uint32_t s = from; s < to; ++s) {
          if (sectionStamp[s] == stampEpoch)
            continue;
          sectionStamp[s] = stampEpoch;
          affected.push_back(s);
          ++work;
        }
      };
      mark(items[other].lo, std::min(items[other].hi, item.lo));
      mark(std::max(items[other].lo, item.hi), items[other].hi);
    }
    // The unplaced buffers of a slot all lie above the lowest of their
    // minimum offsets.
    for (uint32_t s : affected) {
      int64_t current = floor[s];
      int64_t lowest = std::numeric_limits<int64_t>::max();
      for (uint32_t m = memberBegin[s], e = m + memberCount[s]; m < e; ++m) {
        ++work;
        uint32_t member = members[m];
        lowest = std::min(lowest, minOffset[member]);
        if (lowest <= current)
          break;
      }
      if (lowest == std::numeric_limits<int64_t>::max() || lowest <= current)
        continue;
      floorTrail.push_back({s, floor[s]});
      floor[s] = lowest;
      if (lowest + total[s] > capacity)
        return false;
    }
    return true;
  }

  void unplace(uint32_t i, size_t offsetMark, size_t floorMark) {
    const Item &item = items[i];
    while (floorTrail.size() > floorMark) {
      floor[floorTrail.back().index] = floorTrail.back().old;
      floorTrail.pop_back();
    }
    for (uint32_t s = item.lo; s < item.hi; ++s) {
      total[s] += item.size;
      ++memberCount[s];
    }
    while (offsetTrail.size() > offsetMark) {
      minOffset[offsetTrail.back().index] = offsetTrail.back().old;
      offsetTrail.pop_back();
    }
    offset[i] = kNoOffset;
  }

  const Instance &instance;
  const std::vector<Item> &items;
  const Conflicts &conflicts;
  Preorder preorder = Preorder::WidthAreaTotal;
  std::vector<uint32_t> rank;
  llvm::MutableArrayRef<int64_t> out;
  int64_t capacity = 0;
  uint64_t limit = 0;

  std::vector<int64_t> offset;
  std::vector<int64_t> minOffset;
  std::vector<int64_t> floor;
  std::vector<int64_t> total;
  std::vector<uint32_t> cuts;
  std::vector<uint32_t> memberBegin;
  std::vector<uint32_t> members;
  std::vector<uint32_t> memberCount;
  std::vector<uint32_t> spanBegin;
  std::vector<uint32_t> memberPosition;
  std::vector<uint32_t> sectionStamp;
  uint32_t stampEpoch = 0;
  bool hatless = false;
  std::vector<uint32_t> affected;
  std::vector<Change> offsetTrail;
  std::vector<Change> floorTrail;
  std::vector<std::vector<Candidate>> candidateStack;
};

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
