//===- PlanReport.cpp - the memory plan as a readable report --------------===//

#include "helia/Dialect/Helia/Export/PlanReport.h"
#include "helia/Dialect/Helia/Export/Format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::helia;

/// The tensor's name, after its function's when the plan has several.
static std::string tensorLabel(const PlanTensor &t, bool qualify) {
  std::string label = t.getDisplayName();
  return qualify ? t.function + ":" + label : label;
}

/// Saturating sums: a hand-written plan may hold arenas of up to 2^63 - 1
/// bytes.
static int64_t addBytes(int64_t a, int64_t b) {
  return static_cast<int64_t>(std::min<uint64_t>(
      llvm::SaturatingAdd(static_cast<uint64_t>(a), static_cast<uint64_t>(b)),
      std::numeric_limits<int64_t>::max()));
}

static void writeMemories(const MemoryPlan &plan, llvm::raw_ostream &os) {
  os << "Memories\n";
  os << llvm::format("  %-10s %14s %14s %14s %6s\n", "memory", "capacity",
                     "used", "free", "used%");
  for (const PlanMemory &m : plan.memories) {
    os << llvm::format("  %-10s %14lld %14lld %14lld %5.1f%%", m.name.c_str(),
                       (long long)m.capacity, (long long)m.used,
                       (long long)(m.capacity - m.used),
                       m.capacity ? 100.0 * m.used / m.capacity : 0.0);
    // The plan obeyed a memory-limit: say so, with the physical size.
    if (m.physical != m.capacity)
      os << "  (memory-limit; physical " << m.physical << ")";
    os << "\n";
  }
}

static void writeArenas(const MemoryPlan &plan, llvm::raw_ostream &os) {
  os << "\nArenas\n";
  os << llvm::format("  %-28s %-10s %-8s %-8s %14s  %s\n", "arena", "role",
                     "memory", "source", "bytes", "kind");
  for (const PlanArena &a : plan.arenas) {
    os << llvm::format("  %-28s %-10s %-8s %-8s %14lld  %s\n", a.name.c_str(),
                       stringifyArenaRole(a.role).str().c_str(),
                       a.memory.c_str(), a.sourceMemory.c_str(),
                       (long long)a.size, getArenaKindName(a).str().c_str());
  }
}

/// The `topTensors` largest buffers (each through the tensor that defines
/// it); ties in program order.
static void writeLargestBuffers(const MemoryPlan &plan, llvm::raw_ostream &os,
                                unsigned topTensors, bool qualify) {
  std::vector<const PlanTensor *> bySize;
  for (const PlanTensor &t : plan.tensors)
    if (t.primary)
      bySize.push_back(&t);
  llvm::stable_sort(bySize, [](const PlanTensor *a, const PlanTensor *b) {
    return a->size > b->size;
  });
  unsigned shown = std::min<size_t>(topTensors, bySize.size());
  os << "\nLargest buffers (" << shown << " of " << bySize.size()
     << "; tensors that share storage are listed once)\n";
  os << llvm::format("  %-40s %6s %-16s %12s %-28s %10s  %s\n", "tensor", "id",
                     "kind", "bytes", "arena", "offset", "steps");
  for (const PlanTensor *t : ArrayRef(bySize).take_front(shown)) {
    std::string label = tensorLabel(*t, qualify);
    if (label.size() > 40)
      label = "..." + label.substr(label.size() - 37);
    std::string kind = stringifyTensorKind(t->kind).str();
    if (t->residency && *t->residency != Residency::Direct)
      kind += "/" + stringifyResidency(*t->residency).str();
    os << llvm::format(
        "  %-40s %6llu %-16s %12lld %-28s %10lld  [%lld, %lld]\n",
        label.c_str(), (unsigned long long)t->tensorId, kind.c_str(),
        (long long)t->size, plan.arenas[t->arena].name.c_str(),
        (long long)t->offset, (long long)t->firstStep, (long long)t->lastStep);
  }
}

/// Bytes hydrated once and streamed per run.
static void writeCopies(const MemoryPlan &plan, llvm::raw_ostream &os,
                        bool qualify) {
  int64_t streamed = 0, hydrated = 0;
  unsigned numStreamed = 0, numFallbacks = 0;
  for (const PlanTensor &t : plan.tensors) {
    if (t.streamArena) {
      streamed = addBytes(streamed, t.size);
      ++numStreamed;
    }
    numFallbacks += t.streamFallback;
  }
  for (const PlanArena &a : plan.arenas)
    if (a.staged)
      hydrated = addBytes(hydrated, a.size);
  os << "\nCopies\n";
  os << "  hydrated at init: " << formatBytes(hydrated, ByteStyle::Exact)
     << "\n";
  os << "  streamed per run: " << formatBytes(streamed, ByteStyle::Exact)
     << " in " << numStreamed << " copies\n";
  if (!numFallbacks)
    return;
  os << "  read in place instead of streamed (the pool could not hold "
        "them):";
  for (const PlanTensor &t : plan.tensors)
    if (t.streamFallback)
      os << " " << tensorLabel(t, qualify);
  os << "\n";
}

/// Loop-carried tensors: one slot updated in place (or given the old value
/// of another iter_arg), or a second slot for the successor and a copy back
/// per iteration.
static void writeCarried(const MemoryPlan &plan, llvm::raw_ostream &os,
                         bool qualify) {
  if (plan.carried.empty())
    return;
  int64_t extra = 0;
  for (const PlanCarried &c : plan.carried)
    extra = addBytes(extra, c.successorSize);
  os << "\nLoop-carried tensors (" << plan.carried.size() << "; "
     << formatBytes(extra, ByteStyle::Exact) << " in second slots)\n";
  auto label = [&](const PlanCarried &c,
                   std::optional<uint64_t> id) -> std::string {
    if (!id)
      return "?";
    for (const PlanTensor &t : plan.tensors)
      if (t.function == c.function && t.tensorId == *id)
        return tensorLabel(t, qualify);
    return "#" + std::to_string(*id);
  };
  for (const PlanCarried &c : plan.carried) {
    os << "  " << (qualify ? c.function + ": " : std::string()) << "iter_arg #"
       << c.iterArg << " of " << c.loop << ": " << label(c, c.tensorId) << " ("
       << c.size << " bytes), ";
    if (c.choice == "copy-from-iter-arg")
      os << "one slot, the old value of iter_arg #" << *c.copiedFrom
         << " copied into it every iteration";
    else if (c.choice == "slot-and-copy")
      os << "two slots: its successor in " << label(c, c.successorId) << " ("
         << c.successorSize << " bytes), copied back every iteration";
    else
      os << "one slot, updated in place";
    os << ": " << c.reason << "\n";
  }
}

/// The peak of each scratch arena: the step with the most live bytes.
static void writeScratchPeaks(const MemoryPlan &plan, llvm::raw_ostream &os,
                              bool qualify) {
  os << "\nScratch peaks\n";
  for (auto [index, arena] : llvm::enumerate(plan.arenas)) {
    if (arena.role != ArenaRole::Scratch || arena.stream)
      continue;
    std::optional<PlanPeak> peak = plan.findPeak(index);
    if (!peak)
      continue;
    os << "  " << arena.name << ": "
       << formatBytes(peak->bytes, ByteStyle::Exact) << " live at step "
       << peak->step;
    if (qualify)
      os << " of " << peak->function;
    os << " (arena " << arena.size << " bytes):";
    int64_t constantOnlyAtPeak = 0;
    for (const PlanTensor &t : plan.tensors)
      if (t.arena == index && t.primary && t.function == peak->function &&
          t.firstStep <= peak->step && peak->step <= t.lastStep) {
        os << " " << tensorLabel(t, false) << " (" << t.size << ")";
        if (t.constantOnly)
          constantOnlyAtPeak = addBytes(constantOnlyAtPeak, t.size);
      }
    os << "\n";
    if (constantOnlyAtPeak)
      os << "    of which computed from constants alone: "
         << formatBytes(constantOnlyAtPeak, ByteStyle::Exact) << "\n";
  }
}

/// Once scratch spills, how much of it is read from the fast memory decides
/// the speed: accessed bytes are size x readers.
static void writeFastShare(const MemoryPlan &plan, llvm::raw_ostream &os) {
  PlanFastShare fast = plan.getFastShare();
  if (fast.share)
    os << "\nFast share\n  " << fast.memory << " holds "
       << llvm::format("%.1f", 100.0 * *fast.share)
       << "% of the scratch bytes read (size x readers): "
       << fast.fastAccessedBytes << " of " << fast.accessedBytes << "\n";
}

/// What the plan costs per inference by the memories' access costs
/// (docs/Placement.md).
static void writeTraffic(const MemoryPlan &plan, llvm::raw_ostream &os) {
  PlanTraffic traffic = plan.getTraffic();
  os << "\nPredicted traffic per inference\n";
  for (const PlanTrafficEntry &m : traffic.memories) {
    if (!m.readBytes && !m.writeBytes)
      continue;
    os << "  " << m.name << ": " << m.readBytes << " bytes read, "
       << m.writeBytes << " written, " << llvm::format("%.0f", m.cycles)
       << " cycles\n";
  }
  os << "  total " << llvm::format("%.0f", traffic.cycles) << " cycles";
  if (traffic.hydrateBytes)
    os << "; hydration once: " << traffic.hydrateBytes << " bytes, "
       << llvm::format("%.0f", traffic.hydrateCycles) << " cycles";
  os << "\n";
}

/// Scratch computed from constants alone costs RAM that folding at compile
/// time would move to flash: how much, and what folding saves.
static void writeConstantOnly(const MemoryPlan &plan, llvm::raw_ostream &os) {
  int64_t constantOnlyBytes = 0;
  unsigned numConstantOnly = 0;
  for (const PlanTensor &t : plan.tensors)
    if (t.constantOnly && t.primary) {
      constantOnlyBytes = addBytes(constantOnlyBytes, t.size);
      ++numConstantOnly;
    }
  if (!numConstantOnly)
    return;
  os << "\nComputed from constants alone\n  " << numConstantOnly
     << " scratch buffers, " << formatBytes(constantOnlyBytes, ByteStyle::Exact)
     << ", are computed from constants only (e.g. weights broadcast at run "
        "time); folding them into constants at compile time would move "
        "them from RAM to flash\n";
  // What folding saves: the peak of all scratch arenas together, each
  // tensor rounded up to its arena's alignment as the packer places it,
  // with and without them (fold-constants=true folds those that only move
  // elements).
  auto scratchBytes = [&](bool withoutConstantOnly) {
    std::optional<PlanPeak> peak =
        plan.findPeak([&](const PlanTensor &t, unsigned index) -> int64_t {
          const PlanArena &arena = plan.arenas[index];
          if (arena.role != ArenaRole::Scratch ||
              (withoutConstantOnly && t.constantOnly))
            return 0;
          return static_cast<int64_t>(
              llvm::alignTo(t.size, std::max<int64_t>(arena.alignment, 1)));
        });
    return peak ? peak->bytes : 0;
  };
  int64_t nowBytes = scratchBytes(false);
  int64_t foldedBytes = scratchBytes(true);
  os << "  scratch peak of all scratch arenas together: "
     << formatBytes(nowBytes, ByteStyle::Exact)
     << "; without them: " << formatBytes(foldedBytes, ByteStyle::Exact) << ", "
     << formatBytes(nowBytes - foldedBytes, ByteStyle::Exact)
     << " less (fold-constants=true folds those that only move elements)\n";
}

void mlir::helia::writePlanReport(const MemoryPlan &plan, llvm::raw_ostream &os,
                                  unsigned topTensors) {
  bool qualify = plan.functions.size() > 1;
  os << "helia memory plan: platform " << plan.platform << ", function"
     << (plan.functions.size() == 1 ? " " : "s ");
  llvm::interleaveComma(plan.functions, os);
  os << "\n\n";
  writeMemories(plan, os);
  writeArenas(plan, os);
  writeLargestBuffers(plan, os, topTensors, qualify);
  writeCopies(plan, os, qualify);
  writeCarried(plan, os, qualify);
  writeScratchPeaks(plan, os, qualify);
  writeFastShare(plan, os);
  writeTraffic(plan, os);
  writeConstantOnly(plan, os);
}
