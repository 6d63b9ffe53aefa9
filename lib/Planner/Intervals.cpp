//===- Intervals.cpp - Live bytes over steps and an interval index --------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <limits>

using namespace helia::planner;

//===----------------------------------------------------------------------===//
// LiveProfile
//===----------------------------------------------------------------------===//

/// The total of a padding leaf: far below any real total, far enough from
/// the int64_t limits that additions over a range never overflow it.
static constexpr int64_t kPadding = std::numeric_limits<int64_t>::min() / 4;

LiveProfile::LiveProfile(int64_t numSteps)
    : numSteps(std::max<int64_t>(numSteps, 1)) {
  while (width < this->numSteps)
    width *= 2;
  best.assign(2 * width, 0);
  pending.assign(2 * width, 0);
  argBest.resize(2 * width);
  for (int64_t i = 0; i < width; ++i) {
    argBest[width + i] = i;
    if (i >= this->numSteps)
      best[width + i] = kPadding;
  }
  for (int64_t node = width - 1; node >= 1; --node) {
    int64_t side =
        best[2 * node] >= best[2 * node + 1] ? 2 * node : 2 * node + 1;
    best[node] = best[side];
    argBest[node] = argBest[side];
  }
}

void LiveProfile::add(int64_t first, int64_t last, int64_t bytes) {
  assert(0 <= first && first <= last && last < numSteps &&
         "range out of profile");
  add(1, 0, width - 1, first, last, bytes);
}

void LiveProfile::add(int64_t node, int64_t lo, int64_t hi, int64_t first,
                      int64_t last, int64_t bytes) {
  if (last < lo || hi < first)
    return;
  if (first <= lo && hi <= last) {
    best[node] += bytes;
    pending[node] += bytes;
    return;
  }
  int64_t mid = lo + (hi - lo) / 2;
  add(2 * node, lo, mid, first, last, bytes);
  add(2 * node + 1, mid + 1, hi, first, last, bytes);
  // Ties go left: the leftmost step with the peak.
  int64_t side = best[2 * node] >= best[2 * node + 1] ? 2 * node : 2 * node + 1;
  best[node] = best[side] + pending[node];
  argBest[node] = argBest[side];
}

LiveProfile::Peak LiveProfile::getPeak() const { return {argBest[1], best[1]}; }

int64_t LiveProfile::getMax(int64_t first, int64_t last) const {
  assert(0 <= first && first <= last && last < numSteps &&
         "range out of profile");
  return getMax(1, 0, width - 1, first, last);
}

int64_t LiveProfile::getMax(int64_t node, int64_t lo, int64_t hi, int64_t first,
                            int64_t last) const {
  if (last < lo || hi < first)
    return std::numeric_limits<int64_t>::min();
  if (first <= lo && hi <= last)
    return best[node];
  int64_t mid = lo + (hi - lo) / 2;
  return pending[node] +
         std::max(getMax(2 * node, lo, mid, first, last),
                  getMax(2 * node + 1, mid + 1, hi, first, last));
}

LiveProfile::Peak helia::planner::findPeak(llvm::ArrayRef<LiveRange> ranges) {
  // Each range covers the slots between its first step and the step after
  // its last, among the sorted distinct such steps.
  std::vector<int64_t> points;
  points.reserve(ranges.size() * 2);
  for (const LiveRange &range : ranges) {
    if (range.bytes == 0 || range.last < range.first)
      continue;
    points.push_back(range.first);
    points.push_back(range.last + 1);
  }
  if (points.empty())
    return {};
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  auto slotOf = [&](int64_t step) {
    return std::lower_bound(points.begin(), points.end(), step) -
           points.begin();
  };
  LiveProfile profile(static_cast<int64_t>(points.size()) - 1);
  for (const LiveRange &range : ranges) {
    if (range.bytes == 0 || range.last < range.first)
      continue;
    profile.add(slotOf(range.first), slotOf(range.last + 1) - 1, range.bytes);
  }
  LiveProfile::Peak peak = profile.getPeak();
  if (peak.bytes <= 0)
    return {};
  return {points[peak.step], peak.bytes};
}

//===----------------------------------------------------------------------===//
// IntervalIndex
//===----------------------------------------------------------------------===//

IntervalIndex::IntervalIndex(uint32_t numSlots) {
  while (width < std::max<uint32_t>(numSlots, 1))
    width <<= 1;
  head.assign(2 * width, -1);
  nonEmpty.assign(2 * width, false);
}

void IntervalIndex::insert(uint32_t value, uint32_t lo, uint32_t hi) {
  for (uint32_t l = lo + width, r = hi + width; l < r; l >>= 1, r >>= 1) {
    if (l & 1)
      addAt(l++, value);
    if (r & 1)
      addAt(--r, value);
  }
}

void IntervalIndex::addAt(uint32_t node, uint32_t value) {
  entries.push_back({value, head[node]});
  head[node] = entries.size() - 1;
  for (uint32_t n = node; n >= 1 && !nonEmpty[n]; n >>= 1)
    nonEmpty[n] = true;
}
