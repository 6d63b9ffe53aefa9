//===- PlanJSON.cpp - the memory plan as JSON -----------------------------===//

#include "helia/Dialect/Helia/Export/PlanJSON.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::helia;

using llvm::json::OStream;

/// The fast memory and the share of accessed bytes it holds.
static void writeFastShare(OStream &json, const MemoryPlan &plan) {
  PlanFastShare fast = plan.getFastShare();
  json.attribute("fast_memory", fast.memory);
  // Four decimals, not the 17 digits of a double.
  json.attributeBegin("fast_share");
  if (fast.share)
    json.rawValue(llvm::formatv("{0:F4}", *fast.share).str());
  else
    json.value(nullptr);
  json.attributeEnd();
  json.attribute("accessed_bytes", fast.accessedBytes);
  json.attribute("fast_accessed_bytes", fast.fastAccessedBytes);
}

static void writeMemory(OStream &json, const PlanMemory &m) {
  json.object([&] {
    json.attribute("name", m.name);
    json.attribute("capacity", m.capacity);
    if (m.physical != m.capacity)
      json.attribute("physical_capacity", m.physical);
    json.attribute("used", m.used);
    json.attribute("free", m.capacity - m.used);
    json.attribute("read_cycles", static_cast<int64_t>(m.cost.readCycles));
    json.attribute("write_cycles", static_cast<int64_t>(m.cost.writeCycles));
    json.attribute("access_bytes", static_cast<int64_t>(m.cost.accessBytes));
  });
}

static void writeArena(OStream &json, int64_t regionId, const PlanArena &a) {
  json.object([&] {
    json.attribute("region_id", regionId);
    json.attribute("name", a.name);
    json.attribute("role", stringifyArenaRole(a.role));
    json.attribute("memory", a.memory);
    json.attribute("source_memory", a.sourceMemory);
    json.attribute("size", a.size);
    json.attribute("alignment", a.alignment);
    json.attribute("staged", a.staged);
    json.attribute("stream", a.stream);
  });
}

static void writeTensor(OStream &json, const PlanTensor &t) {
  json.object([&] {
    json.attribute("function", t.function);
    json.attribute("tensor_id", static_cast<int64_t>(t.tensorId));
    json.attribute("buffer", static_cast<int64_t>(t.buffer));
    json.attribute("name", t.name);
    json.attribute("kind", stringifyTensorKind(t.kind));
    json.attribute("size", t.size);
    json.attribute("first_step", t.firstStep);
    json.attribute("last_step", t.lastStep);
    json.attribute("readers", t.readers);
    if (t.residency)
      json.attribute("residency", stringifyResidency(*t.residency));
    else
      json.attribute("residency", nullptr);
    json.attribute("stream_fallback", t.streamFallback);
    json.attribute("constant_only", t.constantOnly);
    json.attribute("memory", t.memory);
    json.attribute("offset", t.offset);
    json.attributeObject("binding", [&] {
      json.attribute("region_id", static_cast<int64_t>(t.arena));
      json.attribute("role", stringifyArenaRole(t.role));
      json.attribute("memory", t.memory);
      json.attribute("source_memory", t.sourceMemory);
      json.attribute("offset", t.offset);
    });
    json.attribute("read_bytes", static_cast<int64_t>(t.readBytes));
    json.attribute("write_bytes", static_cast<int64_t>(t.writeBytes));
  });
}

/// The stream slot of a streamed tensor.
static void writeStream(OStream &json, const PlanTensor &t) {
  json.object([&] {
    json.attribute("function", t.function);
    json.attribute("tensor_id", static_cast<int64_t>(t.tensorId));
    json.attribute("region_id", static_cast<int64_t>(*t.streamArena));
    json.attribute("step", t.streamStep);
    json.attribute("last_step", t.streamLastStep);
    json.attribute("slot_offset", t.streamOffset);
  });
}

static void writeCarried(OStream &json, const PlanCarried &c) {
  auto optionalId = [&](StringRef key, std::optional<uint64_t> id) {
    if (id)
      json.attribute(key, static_cast<int64_t>(*id));
    else
      json.attribute(key, nullptr);
  };
  json.object([&] {
    json.attribute("function", c.function);
    json.attribute("loop", c.loop);
    json.attribute("iter_arg", static_cast<int64_t>(c.iterArg));
    optionalId("tensor_id", c.tensorId);
    json.attribute("size", c.size);
    json.attribute("choice", c.choice);
    optionalId("copied_from_iter_arg", c.copiedFrom);
    optionalId("successor_tensor_id", c.successorId);
    json.attribute("successor_size", c.successorSize);
    json.attribute("reason", c.reason);
  });
}

static void writeTrafficEntry(OStream &json, const PlanTrafficEntry &e,
                              bool arena) {
  json.object([&] {
    json.attribute("name", e.name);
    if (arena)
      json.attribute("memory", e.memory);
    json.attribute("read_bytes", static_cast<int64_t>(e.readBytes));
    json.attribute("write_bytes", static_cast<int64_t>(e.writeBytes));
    json.attribute("reads", static_cast<int64_t>(e.reads));
    json.attribute("writes", static_cast<int64_t>(e.writes));
    json.attribute("cycles", static_cast<int64_t>(e.cycles));
  });
}

/// The measured traffic's shape (memories and arenas with read_bytes,
/// write_bytes, reads, writes), plus the cycles the costs give.
static void writeTraffic(OStream &json, const MemoryPlan &plan) {
  PlanTraffic traffic = plan.getTraffic();
  json.attributeObject("predicted_traffic", [&] {
    json.attribute("cycles", static_cast<int64_t>(traffic.cycles));
    json.attribute("hydrate_bytes", static_cast<int64_t>(traffic.hydrateBytes));
    json.attribute("hydrate_cycles",
                   static_cast<int64_t>(traffic.hydrateCycles));
    json.attributeArray("memories", [&] {
      for (const PlanTrafficEntry &e : traffic.memories)
        writeTrafficEntry(json, e, /*arena=*/false);
    });
    json.attributeArray("arenas", [&] {
      for (const PlanTrafficEntry &e : traffic.arenas)
        writeTrafficEntry(json, e, /*arena=*/true);
    });
  });
}

void mlir::helia::writePlanJSON(const MemoryPlan &plan, llvm::raw_ostream &os) {
  OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("platform", plan.platform);
    json.attribute("function",
                   plan.functions.empty() ? "" : plan.functions.front());
    json.attributeArray("functions", [&] {
      for (const std::string &f : plan.functions)
        json.value(f);
    });
    writeFastShare(json, plan);
    json.attributeArray("memories", [&] {
      for (const PlanMemory &m : plan.memories)
        writeMemory(json, m);
    });
    json.attributeArray("arenas", [&] {
      for (auto [index, arena] : llvm::enumerate(plan.arenas))
        writeArena(json, static_cast<int64_t>(index), arena);
    });
    json.attributeArray("tensors", [&] {
      for (const PlanTensor &t : plan.tensors)
        writeTensor(json, t);
    });
    json.attributeArray("streams", [&] {
      for (const PlanTensor &t : plan.tensors)
        if (t.streamArena)
          writeStream(json, t);
    });
    json.attributeArray("carried", [&] {
      for (const PlanCarried &c : plan.carried)
        writeCarried(json, c);
    });
    writeTraffic(json, plan);
  });
  os << "\n";
}
