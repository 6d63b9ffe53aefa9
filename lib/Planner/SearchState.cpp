//===- SearchState.cpp - One path of the placement search -----------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "SearchState.h"

#include <algorithm>
#include <limits>

using namespace helia::planner;
using namespace helia::planner::detail;

SearchState::SearchState(const Instance &instance, const Conflicts &conflicts)
    : items(instance.items), conflicts(conflicts) {
  size_t n = items.size();
  size_t slots = instance.numSlots;
  offset.resize(n);
  minOffset.resize(n);
  floor.resize(slots);
  total.resize(slots);
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

bool SearchState::reset(int64_t capacity) {
  this->capacity = capacity;
  std::fill(offset.begin(), offset.end(), kNoOffset);
  std::fill(minOffset.begin(), minOffset.end(), 0);
  std::fill(floor.begin(), floor.end(), 0);
  std::fill(total.begin(), total.end(), 0);
  for (const Item &item : items)
    for (uint32_t s = item.lo; s < item.hi; ++s)
      total[s] += item.size;
  for (int64_t bytes : total)
    if (bytes > capacity)
      return false;
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
  return true;
}

bool SearchState::place(uint32_t i, int64_t at, uint32_t lo, uint32_t hi,
                        uint64_t &work) {
  const Item &item = items[i];
  offset[i] = at;
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
  return raiseFloors(work);
}

bool SearchState::raiseFloors(uint64_t &work) {
  // The unplaced buffers of a slot all lie above the lowest of their minimum
  // offsets.
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

void SearchState::unplace(uint32_t i, Mark mark) {
  const Item &item = items[i];
  while (floorTrail.size() > mark.floors) {
    floor[floorTrail.back().index] = floorTrail.back().old;
    floorTrail.pop_back();
  }
  for (uint32_t s = item.lo; s < item.hi; ++s) {
    total[s] += item.size;
    ++memberCount[s];
  }
  while (offsetTrail.size() > mark.offsets) {
    minOffset[offsetTrail.back().index] = offsetTrail.back().old;
    offsetTrail.pop_back();
  }
  offset[i] = kNoOffset;
}
