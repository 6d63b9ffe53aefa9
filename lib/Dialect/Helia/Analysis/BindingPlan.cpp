//===- BindingPlan.cpp - where every buffer of a module lives -------------===//

#include "helia/Dialect/Helia/Analysis/BindingPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::helia;

std::string ArenaKey::getName() const {
  if (stream)
    return "stream_" + memory;
  std::string name = stringifyArenaRole(role).str() + "_" + memory;
  if (isStaged())
    name += "_from_" + source;
  return name;
}

int64_t mlir::helia::addBytes(int64_t a, int64_t b) {
  return static_cast<int64_t>(std::min<uint64_t>(
      llvm::SaturatingAdd(static_cast<uint64_t>(a), static_cast<uint64_t>(b)),
      std::numeric_limits<int64_t>::max()));
}

BindingPlan::BindingPlan(const ModuleSchedule &schedule, PlatformAttr platform,
                         llvm::StringMap<int64_t> capacities, Location loc)
    : schedule(&schedule), platform(platform),
      alignment(static_cast<int64_t>(platform.getAlignment())),
      capacities(std::move(capacities)), loc(loc) {
  size_t numBuffers = 0;
  for (const ModuleSchedule::Function &function : schedule.getFunctions())
    numBuffers += function.analysis.getBuffers().size();
  buffers.reserve(numBuffers);
  for (auto [f, function] : llvm::enumerate(schedule.getFunctions())) {
    const BufferAnalysis &analysis = function.analysis;
    for (const BufferInfo &info : analysis.getBuffers()) {
      BufferPlan buffer;
      buffer.func = f;
      buffer.info = &info;
      buffer.placement =
          getPlacement(analysis.getTensors()[info.members.front()].value);
      buffer.alignedSize = alignUp(static_cast<int64_t>(info.size));
      std::tie(buffer.first, buffer.last) = schedule.getLifetime(f, info);
      buffers.push_back(buffer);
    }
  }
}

int64_t BindingPlan::alignUp(int64_t value) const {
  return static_cast<int64_t>(llvm::alignTo(value, alignment));
}

int64_t BindingPlan::getFreeBytes(StringRef memory) const {
  int64_t used = 0;
  for (const auto &[key, bytes] : arenaSizes)
    if (key.memory == memory)
      used = addBytes(used, bytes);
  return getCapacity(memory) - used;
}

std::optional<StringRef> BindingPlan::findMemoryWithRoom(StringRef except,
                                                         int64_t bytes) const {
  std::optional<StringRef> best;
  int64_t bestFree = 0;
  for (MemoryDescAttr memory : platform.getMemoryList()) {
    if (!memory.getReadable() || !memory.getWritable() ||
        memory.getName() == except)
      continue;
    int64_t free = getFreeBytes(memory.getName());
    if (free >= std::max<int64_t>(bytes, 1) && (!best || free > bestFree)) {
      best = memory.getName();
      bestFree = free;
    }
  }
  return best;
}

std::string BindingPlan::suggestMemory(StringRef what, StringRef except,
                                       int64_t bytes) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (std::optional<StringRef> memory = findMemoryWithRoom(except, bytes))
    os << "place " << what << " with a rule in a memory with room (e.g. "
       << "memory = \"" << *memory << "\", " << getFreeBytes(*memory)
       << " bytes free)";
  else
    os << "no other writable memory of platform '" << platform.getName()
       << "' has " << bytes << " bytes free for " << what;
  return text;
}

std::string BindingPlan::describe(const BufferPlan &buffer) const {
  const BufferAnalysis &analysis = getAnalysis(buffer);
  std::string name =
      analysis.getTensors()[buffer.info->members.front()].getDisplayName();
  if (schedule->getFunctions().size() > 1)
    name = analysis.getFunction().getName().str() + ":" + name;
  return "'" + name + "'";
}

Location BindingPlan::getLoc(const BufferPlan &buffer) const {
  return getAnalysis(buffer)
      .getTensors()[buffer.info->members.front()]
      .value.getLoc();
}
