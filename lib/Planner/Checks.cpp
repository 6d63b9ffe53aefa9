//===- Checks.cpp - Bounds and checks of the packing library --------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// What is known about a problem or a placement without packing it: the lower
// bound, the buffers live at a step, the peak, and the checks of a problem
// (malformed buffers, inconsistent fixed offsets) and of a placement
// (verify()), with the PlanErrors they return.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "helia/Planner/Intervals.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>
#include <queue>

using namespace helia::planner;
using namespace helia::planner::detail;

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

llvm::Error detail::makePlanError(PlanErrorKind kind,
                                  const llvm::Twine &message,
                                  std::vector<size_t> buffers,
                                  int64_t required, int64_t capacity) {
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

llvm::Error detail::validateBuffers(const Problem &problem) {
  for (auto [index, buffer] : llvm::enumerate(problem.buffers)) {
    auto fail = [&, index = index](const llvm::Twine &what) {
      return makePlanError(PlanErrorKind::InvalidBuffer,
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
    return makePlanError(PlanErrorKind::InvalidBuffer, "negative capacity");
  return llvm::Error::success();
}

llvm::Error detail::checkFixedOffsets(const Problem &problem) {
  llvm::ArrayRef<Buffer> buffers = problem.buffers;
  std::vector<size_t> fixed;
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.fixedOffset && buffer.size > 0)
      fixed.push_back(index);
  if (fixed.empty())
    return llvm::Error::success();
  std::vector<int64_t> fixedOffsets(buffers.size(), 0);
  for (size_t index : fixed) {
    fixedOffsets[index] = *buffers[index].fixedOffset;
    int64_t end = fixedOffsets[index] + buffers[index].size;
    if (problem.capacity && end > *problem.capacity)
      return makePlanError(
          PlanErrorKind::InfeasibleFixedOffsets,
          llvm::formatv("{0}: fixed offset {1} ends at {2}, beyond the "
                        "capacity {3}",
                        describe(buffers, index), fixedOffsets[index], end,
                        *problem.capacity),
          {index}, end, *problem.capacity);
  }
  if (auto pair = findOverlap(buffers, fixedOffsets, fixed))
    return makePlanError(
        PlanErrorKind::InfeasibleFixedOffsets,
        llvm::formatv(
            "fixed offsets overlap: {0} at {1} and {2} at {3}",
            describe(buffers, pair->first), fixedOffsets[pair->first],
            describe(buffers, pair->second), fixedOffsets[pair->second]),
        {pair->first, pair->second}, 0, problem.capacity.value_or(0));
  return llvm::Error::success();
}

llvm::Error helia::planner::verify(const Problem &problem,
                                   llvm::ArrayRef<int64_t> offsets) {
  llvm::ArrayRef<Buffer> buffers = problem.buffers;
  if (offsets.size() != buffers.size())
    return makePlanError(PlanErrorKind::InvalidBuffer,
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
      return makePlanError(kind, describe(buffers, index) + ": " + what, {index},
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
    return makePlanError(
        PlanErrorKind::InvalidBuffer,
        llvm::formatv("{0} at offset {1} and {2} at offset {3} overlap in "
                      "time and memory",
                      describe(buffers, pair->first), offsets[pair->first],
                      describe(buffers, pair->second), offsets[pair->second]),
        {pair->first, pair->second});
  return llvm::Error::success();
}
