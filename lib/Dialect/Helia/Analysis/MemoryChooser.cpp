//===- MemoryChooser.cpp - homes of constants and persistent tensors ------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"

using namespace mlir;
using namespace mlir::helia;

StringRef MemoryChooser::getDefaultConstantSource() const {
  // The first memory that keeps initialised data across power cycles (MRAM
  // or flash); else the first that can hold any (a memory without init,
  // such as PSRAM, is empty at boot).
  PlatformAttr platform = plan.getPlatform();
  for (MemoryDescAttr memory : platform.getMemoryList())
    if (memory.getNonvolatile() && memory.getInit() && memory.getReadable())
      return memory.getName();
  for (MemoryDescAttr memory : platform.getMemoryList())
    if (memory.getInit() && memory.getReadable())
      return memory.getName();
  return {};
}

LogicalResult MemoryChooser::chooseConstantHomes() {
  return layOutConstants(/*decideStreams=*/true);
}

LogicalResult MemoryChooser::layOutConstantsAgain() {
  plan.clearArenaBytes(ArenaRole::Constant);
  return layOutConstants(/*decideStreams=*/false);
}

LogicalResult MemoryChooser::layOutConstants(bool decideStreams) {
  StringRef defaultSource = getDefaultConstantSource();
  std::map<ArenaKey, int64_t> next;
  for (BufferPlan &buffer : plan.getBuffers()) {
    if (buffer.info->kind != TensorKind::Constant)
      continue;
    PlacementAttr placement = buffer.placement;
    StringAttr memory = placement ? placement.getMemory() : nullptr;
    StringRef source = memory ? memory.getValue() : defaultSource;
    if (source.empty())
      return emitError(plan.getLoc(buffer))
             << "platform '" << plan.getPlatform().getName()
             << "' has no memory that holds initialised data for constant "
             << plan.describe(buffer) << "; declare one with init = true";
    std::optional<Residency> residency =
        placement ? placement.getResidency() : std::nullopt;
    StringRef home = source;
    if (residency == Residency::Pin)
      home = placement.getConstantDestinationMemory().getValue();
    buffer.arena = {ArenaRole::Constant, home.str(), source.str()};
    if (decideStreams)
      buffer.streamed =
          residency == Residency::Stream && !buffer.info->readSteps.empty();
    int64_t &offset = next[buffer.arena];
    buffer.offset = offset;
    offset = addBytes(offset, buffer.alignedSize);
  }
  // Every key has a binding pointing at it, so every key gets its arena,
  // even when its constants are all empty (tensor<0xf32>).
  for (const auto &[key, size] : next) {
    plan.setArenaBytes(key, size);
    // A staged arena also keeps its source blob in the source memory; the
    // blobs of arenas staged into several memories from one add up.
    if (key.isStaged() && size > 0)
      plan.addArenaBytes(ArenaKey::getSourceBlobs(key.source), size);
  }
  return success();
}

LogicalResult MemoryChooser::choosePersistentHomes() {
  PlatformAttr platform = plan.getPlatform();
  std::map<ArenaKey, int64_t> next;
  for (BufferPlan &buffer : plan.getBuffers()) {
    if (buffer.info->kind != TensorKind::Persistent)
      continue;
    StringAttr memory =
        buffer.placement ? buffer.placement.getMemory() : nullptr;
    std::string home;
    if (memory) {
      home = memory.getValue().str();
    } else {
      // The first preferred memory with room left.
      for (StringAttr pref : platform.getPreferredList()) {
        ArenaKey key{ArenaRole::Persistent, pref.getValue().str(),
                     pref.getValue().str()};
        int64_t used = next.count(key) ? next[key] : 0;
        if (plan.getFreeBytes(pref.getValue()) - used >= buffer.alignedSize) {
          home = pref.getValue().str();
          break;
        }
      }
      if (home.empty())
        return emitError(plan.getLoc(buffer))
               << "no preferred memory of platform '" << platform.getName()
               << "' has room for persistent tensor " << plan.describe(buffer)
               << " (" << buffer.alignedSize
               << " bytes); "
               << plan.suggestMemory("it", "", buffer.alignedSize);
    }
    buffer.arena = {ArenaRole::Persistent, home, home};
    int64_t &offset = next[buffer.arena];
    buffer.offset = offset;
    offset = addBytes(offset, buffer.alignedSize);
  }
  for (const auto &[key, size] : next)
    plan.setArenaBytes(key, size);
  return success();
}

SmallVector<MemoryChooser::User>
MemoryChooser::getUsers(StringRef memory) const {
  // Scratch and the stream pool report their own shortfalls.
  SmallVector<User> users;
  for (auto [i, buffer] : llvm::enumerate(plan.getBuffers())) {
    const ArenaKey &key = buffer.arena;
    if (buffer.alignedSize == 0 || key.role == ArenaRole::Scratch)
      continue;
    if (key.memory == memory)
      users.push_back({i, key.role == ArenaRole::Persistent ? Use::Persistent
                          : key.isStaged()                  ? Use::Pinned
                                                            : Use::Cold});
    else if (key.isStaged() && key.source == memory)
      users.push_back({i, Use::Source});
  }
  llvm::stable_sort(users, [&](const User &a, const User &b) {
    return plan.getBuffer(a.first).alignedSize >
           plan.getBuffer(b.first).alignedSize;
  });
  return users;
}

LogicalResult MemoryChooser::checkCapacities() const {
  for (MemoryDescAttr memory : plan.getPlatform().getMemoryList()) {
    int64_t free = plan.getFreeBytes(memory.getName());
    if (free >= 0)
      continue;
    // The constants and persistent tensors that take bytes of this memory:
    // the error points at the largest and names them.
    SmallVector<User> users = getUsers(memory.getName());
    int64_t capacity = plan.getCapacity(memory.getName());
    InFlightDiagnostic diag =
        emitError(users.empty() ? plan.getLoc()
                                : plan.getLoc(plan.getBuffer(users[0].first)))
        << "memory '" << memory.getName() << "' over capacity: it holds "
        << capacity << " bytes but its arenas need " << capacity - free
        << ", short by " << -free << " bytes:";
    for (const auto &[key, bytes] : plan.getArenaSizes())
      if (key.memory == memory.getName())
        diag << " "
             << (key.sourceBlob ? "source blobs of staged constants"
                                : key.getName())
             << " (" << bytes << " bytes)";
    if (!users.empty())
      explainUsers(diag, memory.getName(), -free, users);
    return failure();
  }
  return success();
}

void MemoryChooser::explainUsers(InFlightDiagnostic &diag, StringRef memory,
                                 int64_t shortBy, ArrayRef<User> users) const {
  constexpr size_t kMaxNamed = 8;
  diag << "; the tensors there, largest first:";
  bool uses[4] = {false, false, false, false};
  for (auto [n, user] : llvm::enumerate(users)) {
    uses[static_cast<unsigned>(user.second)] = true;
    if (n == kMaxNamed) {
      diag << " and " << users.size() - kMaxNamed << " more";
      continue;
    }
    if (n > kMaxNamed)
      continue;
    const BufferPlan &buffer = plan.getBuffer(user.first);
    diag << " " << plan.describe(buffer) << " (" << buffer.alignedSize
         << " bytes, ";
    switch (user.second) {
    case Use::Pinned:
      diag << "pinned from '" << buffer.arena.source << "'";
      break;
    case Use::Source:
      diag << "source of a constant pinned to '" << buffer.arena.memory << "'";
      break;
    case Use::Cold:
      diag << "constant read in place";
      break;
    case Use::Persistent:
      diag << "persistent";
      break;
    }
    diag << ")";
  }
  Diagnostic &note = diag.attachNote();
  note << "free " << shortBy << " bytes of '" << memory << "'";
  if (uses[static_cast<unsigned>(Use::Pinned)])
    note << "; pin fewer constants there (drop constant_destination_memory "
            "from their rule, or stream them with residency = stream)";
  if (uses[static_cast<unsigned>(Use::Source)] ||
      uses[static_cast<unsigned>(Use::Cold)])
    note << "; keep some constants' bytes in another memory that holds "
            "initialised data (a rule's memory = ...)";
  if (uses[static_cast<unsigned>(Use::Persistent)])
    note << "; " << plan.suggestMemory("persistent tensors", memory, shortBy);
  note << "; or raise its memory-limit";
}
