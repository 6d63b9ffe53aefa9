//===- TrafficProfile.cpp - measured traffic per tensor -------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/TrafficProfile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <set>
#include <tuple>
#include <utility>

using namespace helia::planner;
namespace json = llvm::json;

uint64_t TrafficProfile::perInference(uint64_t total) const {
  uint64_t n = runs ? runs : 1;
  return total / n + (total % n >= (n + 1) / 2 ? 1 : 0);
}

namespace {

/// A non-negative integer field.
bool mapCount(const json::Object &object, llvm::StringRef key, uint64_t &out,
              json::Path path) {
  const json::Value *value = object.get(key);
  if (!value) {
    path.field(key).report("missing value");
    return false;
  }
  std::optional<int64_t> number = value->getAsInteger();
  if (!number) {
    // Large unsigned counts above INT64_MAX are not counts of one run.
    path.field(key).report("expected a non-negative integer");
    return false;
  }
  if (*number < 0) {
    path.field(key).report("expected a non-negative integer");
    return false;
  }
  out = static_cast<uint64_t>(*number);
  return true;
}

bool mapString(const json::Object &object, llvm::StringRef key,
               std::string &out, json::Path path, bool optional = false) {
  const json::Value *value = object.get(key);
  if (!value) {
    if (optional)
      return true;
    path.field(key).report("missing value");
    return false;
  }
  std::optional<llvm::StringRef> text = value->getAsString();
  if (!text) {
    path.field(key).report("expected a string");
    return false;
  }
  out = text->str();
  return true;
}

bool mapFunction(const json::Value &value, ProfileFunction &out,
                 json::Path path) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    path.report("expected an object");
    return false;
  }
  return mapString(*object, "name", out.name, path) &&
         mapCount(*object, "tensors", out.tensors, path);
}

bool mapEntry(const json::Value &value, ProfileEntry &out, json::Path path) {
  const json::Object *object = value.getAsObject();
  if (!object) {
    path.report("expected an object");
    return false;
  }
  if (!mapString(*object, "function", out.function, path) ||
      !mapCount(*object, "tensor_id", out.tensorId, path) ||
      !mapString(*object, "name", out.name, path) ||
      !mapString(*object, "kind", out.kind, path) ||
      !mapCount(*object, "size", out.size, path) ||
      !mapString(*object, "memory", out.memory, path, /*optional=*/true) ||
      !mapCount(*object, "read_bytes", out.readBytes, path) ||
      !mapCount(*object, "write_bytes", out.writeBytes, path) ||
      !mapCount(*object, "reads", out.reads, path) ||
      !mapCount(*object, "writes", out.writes, path))
    return false;
  if (out.kind != "constant" && out.kind != "persistent" &&
      out.kind != "scratch") {
    path.field("kind").report(
        "expected 'constant', 'persistent' or 'scratch'");
    return false;
  }
  const json::Value *members = object->get("members");
  if (!members) {
    out.members = {out.tensorId};
    return true;
  }
  const json::Array *list = members->getAsArray();
  if (!list) {
    path.field("members").report("expected an array of tensor ids");
    return false;
  }
  for (auto [i, member] : llvm::enumerate(*list)) {
    std::optional<int64_t> id = member.getAsInteger();
    if (!id || *id < 0) {
      path.field("members").index(i).report("expected a tensor id");
      return false;
    }
    out.members.push_back(static_cast<uint64_t>(*id));
  }
  if (!llvm::is_contained(out.members, out.tensorId)) {
    path.field("members").report("does not hold the entry's tensor_id");
    return false;
  }
  return true;
}

/// The top-level fields: format, version, model, platform and runs.
bool mapHeader(const json::Object &top, TrafficProfile &profile,
               json::Path path) {
  std::string format;
  uint64_t version = 0;
  if (!mapString(top, "format", format, path) ||
      !mapCount(top, "version", version, path))
    return false;
  if (format != "helia-traffic-profile") {
    path.field("format").report("expected 'helia-traffic-profile'");
    return false;
  }
  if (version != 1) {
    path.field("version").report("expected version 1");
    return false;
  }
  if (!mapString(top, "model", profile.model, path, /*optional=*/true) ||
      !mapString(top, "platform", profile.platform, path, /*optional=*/true))
    return false;
  if (top.get("runs")) {
    if (!mapCount(top, "runs", profile.runs, path))
      return false;
    if (profile.runs == 0) {
      path.field("runs").report("expected at least one run");
      return false;
    }
  }
  return true;
}

/// A required array field; null (with the error reported) otherwise.
const json::Array *getArray(const json::Object &top, llvm::StringRef key,
                            json::Path path) {
  const json::Value *value = top.get(key);
  if (!value) {
    path.field(key).report("missing value");
    return nullptr;
  }
  const json::Array *array = value->getAsArray();
  if (!array)
    path.field(key).report("expected an array");
  return array;
}

/// The `functions` array; every name once.
bool mapFunctions(const json::Object &top, TrafficProfile &profile,
                  llvm::StringSet<> &functionNames, json::Path path) {
  const json::Array *functions = getArray(top, "functions", path);
  if (!functions)
    return false;
  // A Path refers to its parent: each level is a named object.
  json::Path functionsPath = path.field("functions");
  for (auto [i, value] : llvm::enumerate(*functions)) {
    json::Path at = functionsPath.index(i);
    ProfileFunction function;
    if (!mapFunction(value, function, at))
      return false;
    if (!functionNames.insert(function.name).second) {
      at.field("name").report("names a function twice");
      return false;
    }
    profile.functions.push_back(std::move(function));
  }
  return true;
}

/// The `tensors` array; each entry in one of the profile's functions.
bool mapTensors(const json::Object &top, TrafficProfile &profile,
                const llvm::StringSet<> &functionNames, json::Path path) {
  const json::Array *tensors = getArray(top, "tensors", path);
  if (!tensors)
    return false;
  // One entry per tensor and memory: a profile may merge runs with the
  // tensor in different memories.
  std::set<std::tuple<std::string, uint64_t, std::string>> seen;
  json::Path tensorsPath = path.field("tensors");
  for (auto [i, value] : llvm::enumerate(*tensors)) {
    json::Path at = tensorsPath.index(i);
    ProfileEntry entry;
    if (!mapEntry(value, entry, at))
      return false;
    if (!functionNames.contains(entry.function)) {
      at.field("function").report("is not one of the profile's functions");
      return false;
    }
    for (uint64_t member : entry.members)
      if (!seen.insert({entry.function, member, entry.memory}).second) {
        at.field("members").report(
            "counts a tensor that another entry counts in the same memory");
        return false;
      }
    profile.tensors.push_back(std::move(entry));
  }
  return true;
}

} // namespace

llvm::Expected<TrafficProfile>
helia::planner::parseTrafficProfile(llvm::StringRef text) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return parsed.takeError();
  json::Path::Root root("profile");
  json::Path path(root);
  TrafficProfile profile;
  const json::Object *top = parsed->getAsObject();
  if (!top) {
    path.report("expected an object");
    return root.getError();
  }
  llvm::StringSet<> functionNames;
  if (!mapHeader(*top, profile, path) ||
      !mapFunctions(*top, profile, functionNames, path) ||
      !mapTensors(*top, profile, functionNames, path))
    return root.getError();
  return profile;
}
