//===- TrafficProfile.cpp - measured traffic in place of the model --------===//
//
// helia-assign-bindings traffic-profile= (docs/Placement.md, "Placement by
// measured traffic"): the profile of a measured run replaces the static
// model's bytes of every buffer it gives. The profile must be of this
// model: the same functions with the same tensors (ids, names, kinds,
// sizes) grouped into the same buffers; anything else is a located error.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Dialect/Helia/IR/ByteSize.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::helia;
using ::helia::planner::ProfileEntry;
using ::helia::planner::ProfileFunction;
using ::helia::planner::TrafficProfile;

FailureOr<TrafficProfile> mlir::helia::loadTrafficProfile(StringRef path,
                                                          Location loc) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return emitError(loc) << "cannot read traffic profile '" << path
                          << "': " << file.getError().message();
  llvm::Expected<TrafficProfile> profile =
      ::helia::planner::parseTrafficProfile((*file)->getBuffer());
  if (!profile)
    return emitError(loc) << "traffic profile '" << path
                          << "' is malformed: "
                          << llvm::toString(profile.takeError())
                          << "; write it with bench/traffic.py --profile";
  return std::move(*profile);
}

namespace {

/// The profile's view of one tensor, for the messages.
std::string describeEntry(const ProfileEntry &entry) {
  return entry.kind + " '" +
         getTensorDisplayName(entry.name, entry.tensorId) + "' of " +
         std::to_string(entry.size) + " bytes";
}

std::string describeTensor(const TensorInfo &tensor) {
  return stringifyTensorKind(tensor.kind).str() + " '" +
         tensor.getDisplayName() + "' of " +
         std::to_string(getTensorByteSize(tensor.value.getType()).value_or(0)) +
         " bytes";
}

std::string listIds(ArrayRef<uint64_t> ids) {
  std::string text;
  for (auto [i, id] : llvm::enumerate(ids))
    text += (i ? ", #" : "#") + std::to_string(id);
  return text;
}

} // namespace

namespace {

/// The checks of a profile against the plan it is applied to; every
/// mismatch is a located error that says to measure again.
struct ProfileMatcher {
  const BindingPlan &plan;
  const TrafficProfile &profile;
  StringRef path;

  InFlightDiagnostic wrongModel(Location loc) const {
    InFlightDiagnostic diag = emitError(loc);
    diag << "traffic profile '" << path << "'";
    if (!profile.model.empty())
      diag << " (of '" << profile.model << "')";
    diag << " was measured on another model: ";
    return diag;
  }
  static constexpr const char *remeasure =
      "; measure this module again (bench/traffic.py --profile) with the "
      "options it is planned with";

  /// The functions, by name: the same as the profile's, with the same
  /// tensor counts.
  FailureOr<llvm::StringMap<unsigned>> matchFunctions() const;
  /// The profile's entries by the buffer (function, buffer index) they
  /// count: every entry names a tensor of its function, the same tensor,
  /// and the buffer it counts is that tensor's buffer here.
  FailureOr<llvm::DenseMap<std::pair<unsigned, unsigned>,
                           SmallVector<const ProfileEntry *, 1>>>
  matchEntries(const llvm::StringMap<unsigned> &functionIndex) const;
};

} // namespace

FailureOr<llvm::StringMap<unsigned>> ProfileMatcher::matchFunctions() const {
  const ModuleSchedule &schedule = plan.getSchedule();
  llvm::StringMap<unsigned> functionIndex;
  for (auto [f, function] : llvm::enumerate(schedule.getFunctions())) {
    FunctionOpInterface func = function.analysis.getFunction();
    functionIndex[func.getName()] = f;
    const ProfileFunction *measured = nullptr;
    for (const ProfileFunction &candidate : profile.functions)
      if (candidate.name == func.getName())
        measured = &candidate;
    uint64_t tensors = function.analysis.getTensors().size();
    if (!measured)
      return wrongModel(func.getLoc())
             << "it has no function '" << func.getName() << "'" << remeasure;
    if (measured->tensors != tensors)
      return wrongModel(func.getLoc())
             << "its function '" << func.getName() << "' has "
             << measured->tensors << " tensors, this one " << tensors
             << remeasure;
  }
  for (const ProfileFunction &measured : profile.functions)
    if (!functionIndex.count(measured.name))
      return wrongModel(plan.getLoc())
             << "it has a function '" << measured.name
             << "' that this module does not plan" << remeasure;
  return functionIndex;
}

FailureOr<llvm::DenseMap<std::pair<unsigned, unsigned>,
                         SmallVector<const ProfileEntry *, 1>>>
ProfileMatcher::matchEntries(
    const llvm::StringMap<unsigned> &functionIndex) const {
  const ModuleSchedule &schedule = plan.getSchedule();
  llvm::DenseMap<std::pair<unsigned, unsigned>,
                 SmallVector<const ProfileEntry *, 1>>
      byBuffer;
  for (const ProfileEntry &entry : profile.tensors) {
    unsigned f = functionIndex.lookup(entry.function);
    const BufferAnalysis &analysis = schedule.getFunctions()[f].analysis;
    FunctionOpInterface func = analysis.getFunction();
    ArrayRef<TensorInfo> tensors = analysis.getTensors();
    for (uint64_t id : entry.members)
      if (id >= tensors.size())
        return emitError(func.getLoc())
               << "traffic profile '" << path << "' gives tensor #" << id
               << " of '" << func.getName() << "', which has only "
               << tensors.size() << " tensors (#0 to #"
               << static_cast<int64_t>(tensors.size()) - 1 << ")";
    const TensorInfo &tensor = tensors[entry.tensorId];
    StringRef name;
    if (tensor.name)
      name = tensor.name.getValue();
    uint64_t size = getTensorByteSize(tensor.value.getType()).value_or(0);
    if (entry.name != name || entry.size != size ||
        entry.kind != stringifyTensorKind(tensor.kind))
      return wrongModel(tensor.value.getLoc())
             << "its tensor #" << entry.tensorId << " of '" << func.getName()
             << "' is " << describeEntry(entry) << ", here "
             << describeTensor(tensor) << remeasure;
    SmallVector<const BufferInfo *, 2> buffers =
        analysis.getAliasedBuffers(tensor.value);
    if (buffers.size() != 1)
      continue;
    const BufferInfo &buffer = *buffers.front();
    SmallVector<uint64_t> here;
    for (unsigned member : buffer.members)
      here.push_back(tensors[member].id);
    SmallVector<uint64_t> measured(entry.members.begin(), entry.members.end());
    llvm::sort(measured);
    llvm::sort(here);
    if (measured != here)
      return emitError(tensor.value.getLoc())
             << "traffic profile '" << path << "' counts tensor #"
             << entry.tensorId << " of '" << func.getName()
             << "' in one buffer with " << listIds(measured)
             << ", but here its buffer holds " << listIds(here)
             << "; measure with the planning options (in-place, "
                "pad-in-place) this plan uses";
    byBuffer[{f, buffer.index}].push_back(&entry);
  }
  return byBuffer;
}

FailureOr<unsigned>
mlir::helia::applyTrafficProfile(BindingPlan &plan,
                                 const TrafficProfile &profile, StringRef path,
                                 bool remarks) {
  ProfileMatcher matcher{plan, profile, path};
  FailureOr<llvm::StringMap<unsigned>> functionIndex = matcher.matchFunctions();
  if (failed(functionIndex))
    return failure();
  auto byBuffer = matcher.matchEntries(*functionIndex);
  if (failed(byBuffer))
    return failure();

  unsigned profiled = 0, missing = 0;
  for (BufferPlan &buffer : plan.getBuffers()) {
    if (buffer.alignedSize == 0)
      continue;
    auto found = byBuffer->find({buffer.func, buffer.info->index});
    if (found == byBuffer->end()) {
      ++missing;
      if (remarks)
        emitRemark(plan.getLoc(buffer))
            << "tensor " << plan.describe(buffer) << " is not in traffic "
            << "profile '" << path << "': the static model's "
            << buffer.readBytes << " bytes read and " << buffer.writeBytes
            << " written per inference stand";
      continue;
    }
    // The first entry (the run the profile started from) gives the
    // buffer's traffic; every entry its reads in the memory it names.
    const ProfileEntry &first = *found->second.front();
    buffer.readBytes = profile.perInference(first.readBytes);
    buffer.writeBytes = profile.perInference(first.writeBytes);
    for (const ProfileEntry *entry : found->second)
      if (!entry->memory.empty())
        buffer.readBytesIn[entry->memory] =
            profile.perInference(entry->readBytes);
    ++profiled;
  }
  if (missing)
    emitRemark(plan.getLoc())
        << "traffic profile '" << path << "' measured " << profiled << " of "
        << profiled + missing << " buffers; the other " << missing
        << " keep the static model's traffic (remarks=true names them)";
  return profiled;
}
