//===- RulesFile.cpp - heliaAOT rules in JSON -----------------------------===//

#include "helia/Dialect/Helia/Transforms/RulesFile.h"
#include "RulesFileParser.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::helia;

namespace {
/// Builds located errors that all start with the file, entry and field.
struct RulesFileParser {
  StringRef fileName;
  rulesfile::RuleFieldLocator locate;
  MLIRContext *ctx;

  InFlightDiagnostic error(size_t entry, StringRef field) {
    InFlightDiagnostic diag = emitError(locate(entry, field));
    diag << "rules file '" << fileName << "': entry " << entry;
    if (!field.empty())
      diag << ", field '" << field << "'";
    diag << ": ";
    return diag;
  }

  /// Reads an optional memory name; null JSON means absent.
  LogicalResult readMemory(const llvm::json::Object &attrs, StringRef field,
                           size_t entry, StringAttr &out) {
    const llvm::json::Value *value = attrs.get(field);
    if (!value || value->getAsNull())
      return success();
    std::optional<StringRef> str = value->getAsString();
    if (!str || str->empty())
      return error(entry, field) << "expected a memory name (a non-empty "
                                    "string) or null",
             failure();
    out = StringAttr::get(ctx, *str);
    return success();
  }

  /// Reads `field` of a rule: a string or a list of strings, or absent.
  LogicalResult readStrings(const llvm::json::Object &object, StringRef field,
                            size_t entry, ArrayAttr &out) {
    const llvm::json::Value *value = object.get(field);
    if (!value || value->getAsNull())
      return success();
    SmallVector<Attribute> strings;
    if (std::optional<StringRef> str = value->getAsString()) {
      strings.push_back(StringAttr::get(ctx, *str));
    } else if (const llvm::json::Array *list = value->getAsArray()) {
      for (const llvm::json::Value &item : *list) {
        std::optional<StringRef> str = item.getAsString();
        if (!str)
          return error(entry, field) << "expected a string or a list of "
                                        "strings",
                 failure();
        strings.push_back(StringAttr::get(ctx, *str));
      }
    } else {
      return error(entry, field) << "expected a string or a list of strings",
             failure();
    }
    out = ArrayAttr::get(ctx, strings);
    return success();
  }

  FailureOr<RuleAttr> parseRule(const llvm::json::Value &value, size_t entry) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return error(entry, "") << "expected an object with 'type', 'id', "
                                 "'op' and 'attributes'",
             failure();
    for (const auto &kv : *object) {
      StringRef key = kv.first;
      if (key != "type" && key != "id" && key != "op" && key != "attributes")
        return error(entry, key) << "unknown field; a rule has 'type', 'id', "
                                    "'op' and 'attributes'",
               failure();
    }

    std::optional<TensorKind> type;
    if (const llvm::json::Value *typeValue = object->get("type");
        typeValue && !typeValue->getAsNull()) {
      std::optional<StringRef> str = typeValue->getAsString();
      if (str && *str == "*")
        type = TensorKind::Any;
      else if (str)
        type = symbolizeTensorKind(*str);
      if (!type || (str && *str == "any"))
        return error(entry, "type") << "expected \"constant\", \"persistent\", "
                                       "\"scratch\" or \"*\"",
               failure();
    }

    ArrayAttr id, op;
    if (failed(readStrings(*object, "id", entry, id)) ||
        failed(readStrings(*object, "op", entry, op)))
      return failure();

    StringAttr memory, destination;
    std::optional<Residency> residency;
    if (const llvm::json::Value *attrsValue = object->get("attributes");
        attrsValue && !attrsValue->getAsNull()) {
      const llvm::json::Object *attrs = attrsValue->getAsObject();
      if (!attrs)
        return error(entry, "attributes") << "expected an object", failure();
      for (const auto &kv : *attrs) {
        StringRef key = kv.first;
        if (key != "memory" && key != "constant_destination_memory" &&
            key != "residency")
          return error(entry, ("attributes." + key).str())
                     << "unknown field; attributes are 'memory', "
                        "'constant_destination_memory' and 'residency'",
                 failure();
      }
      if (failed(readMemory(*attrs, "memory", entry, memory)) ||
          failed(readMemory(*attrs, "constant_destination_memory", entry,
                            destination)))
        return failure();
      if (const llvm::json::Value *res = attrs->get("residency");
          res && !res->getAsNull()) {
        std::optional<StringRef> str = res->getAsString();
        if (str)
          residency = symbolizeResidency(*str);
        if (!residency)
          return error(entry, "attributes.residency")
                     << "expected \"direct\", \"pin\" or \"stream\"",
                 failure();
      }
    }

    auto emit = [&]() { return error(entry, ""); };
    TensorAttributesAttr attributes = TensorAttributesAttr::getChecked(
        emit, ctx, memory, destination, residency);
    if (!attributes)
      return failure();
    RuleAttr rule =
        RuleAttr::getChecked(emit, ctx, type, id, attributes, op);
    if (!rule)
      return failure();
    return rule;
  }
};
} // namespace

/// Deepest nesting of arrays and objects a rules file may have. Rules need
/// four levels (`{"rules": [{"attributes": {...}}]}`); llvm::json parses
/// recursively, so a file nested 100,000 deep would overflow the stack.
static constexpr unsigned kMaxRulesDepth = 64;

/// Returns the offset of the first bracket in `text` that opens level
/// kMaxRulesDepth + 1, outside strings, or nullopt if there is none.
static std::optional<size_t> findTooDeep(StringRef text) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxRulesDepth)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

FailureOr<SmallVector<RuleAttr>>
mlir::helia::parseRulesJSON(StringRef text, StringRef fileName, Location loc) {
  if (std::optional<size_t> offset = findTooDeep(text)) {
    StringRef before = text.take_front(*offset);
    size_t lineStart = before.rfind('\n');
    unsigned line = 1 + before.count('\n');
    unsigned column =
        lineStart == StringRef::npos ? *offset + 1 : *offset - lineStart;
    // At `loc`, like the other errors: a location in the file would make the
    // diagnostic echo a line that may be megabytes long.
    emitError(loc)
        << "rules file '" << fileName << "' nests arrays and objects more "
        << "than " << kMaxRulesDepth << " levels deep (at line " << line
        << ", column " << column << "); rules need at most four: an array "
        << "of objects whose 'attributes' is an object";
    return failure();
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    std::string message = llvm::toString(json.takeError());
    emitError(loc) << "rules file '" << fileName
                   << "' is not valid JSON: " << message;
    return failure();
  }
  const llvm::json::Array *list = json->getAsArray();
  if (!list)
    if (const llvm::json::Object *object = json->getAsObject())
      if (const llvm::json::Value *rules = object->get("rules"))
        list = rules->getAsArray();
  if (!list) {
    emitError(loc) << "rules file '" << fileName
                   << "': expected a JSON array of rules (or an object with "
                      "a \"rules\" array)";
    return failure();
  }
  return rulesfile::parseRuleList(
      *list, fileName, loc->getContext(),
      [&](size_t, StringRef) -> Location { return loc; });
}

FailureOr<SmallVector<RuleAttr>>
rulesfile::parseRuleList(const llvm::json::Array &list, StringRef fileName,
                      MLIRContext *ctx, RuleFieldLocator locate) {
  RulesFileParser parser{fileName, locate, ctx};
  SmallVector<RuleAttr> rules;
  for (auto [index, value] : llvm::enumerate(list)) {
    FailureOr<RuleAttr> rule = parser.parseRule(value, index);
    if (failed(rule))
      return failure();
    rules.push_back(*rule);
  }
  return rules;
}

/// Whether `text` is a JSON rules file rather than YAML, for a file whose
/// extension says neither. JSON is (almost) YAML, so JSON is tried first,
/// and only on text that looks like it: `[{type: constant}]` is YAML.
static bool looksLikeJSON(StringRef text) {
  StringRef trimmed = text.ltrim();
  if (!trimmed.starts_with("[") && !trimmed.starts_with("{"))
    return false;
  if (findTooDeep(text))
    return true;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (json)
    return true;
  llvm::consumeError(json.takeError());
  return false;
}

FailureOr<SmallVector<RuleAttr>>
mlir::helia::readRulesFile(StringRef path, Location loc,
                           SmallVectorImpl<Location> *ruleLocs) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    emitError(loc) << "cannot read rules file '" << path
                   << "': " << buffer.getError().message();
    return failure();
  }
  StringRef text = (*buffer)->getBuffer();
  StringRef extension = llvm::sys::path::extension(path);
  bool yaml = extension.equals_insensitive(".yaml") ||
              extension.equals_insensitive(".yml") ||
              (!extension.equals_insensitive(".json") && !looksLikeJSON(text));
  if (yaml)
    return parseRulesYAML(text, path, loc->getContext(), ruleLocs);
  FailureOr<SmallVector<RuleAttr>> rules = parseRulesJSON(text, path, loc);
  if (succeeded(rules) && ruleLocs)
    ruleLocs->assign(rules->size(), loc);
  return rules;
}
