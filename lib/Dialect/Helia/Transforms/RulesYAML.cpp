//===- RulesYAML.cpp - heliaAOT rules in YAML -----------------------------===//
//
// heliaAOT users write their rules in YAML. The document is converted to
// the JSON model (plain scalars typed as YAML's core schema types them) and
// checked by the JSON reader's code, so that the two formats accept the
// same rules and reject the same mistakes with the same words; here every
// error points at its line and column in the file.
//
//===----------------------------------------------------------------------===//

#include "RulesFileParser.h"
#include "helia/Dialect/Helia/Transforms/RulesFile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"

using namespace mlir;
using namespace mlir::helia;
namespace yaml = llvm::yaml;

namespace {

/// Deepest nesting of lists and mappings, as for JSON (the conversion
/// recurses); rules need four levels.
constexpr unsigned kMaxYAMLDepth = 64;

/// The locations of one entry and of its fields.
struct EntryLocations {
  Location entry;
  llvm::StringMap<Location> fields;
};

class YAMLRulesReader {
public:
  YAMLRulesReader(StringRef text, StringRef fileName, MLIRContext *ctx)
      : fileName(fileName), ctx(ctx) {
    sourceMgr.setDiagHandler(
        [](const llvm::SMDiagnostic &diag, void *context) {
          auto *self = static_cast<YAMLRulesReader *>(context);
          if (!self->syntaxError)
            self->syntaxError = diag;
        },
        this);
    stream.emplace(text, sourceMgr, /*ShowColors=*/false);
  }

  FailureOr<SmallVector<RuleAttr>> read(SmallVectorImpl<Location> *ruleLocs);

private:
  Location locationOf(llvm::SMLoc loc) {
    // The parser's ranges may point nowhere on malformed input.
    unsigned buffer =
        loc.isValid() ? sourceMgr.FindBufferContainingLoc(loc) : 0;
    if (buffer == 0)
      return FileLineColLoc::get(ctx, fileName, 1, 1);
    auto [line, column] = sourceMgr.getLineAndColumn(loc, buffer);
    return FileLineColLoc::get(ctx, fileName, line, column);
  }
  Location locationOf(yaml::Node *node) {
    return locationOf(node ? node->getSourceRange().Start : llvm::SMLoc());
  }

  InFlightDiagnostic error(yaml::Node *node) {
    InFlightDiagnostic diag = emitError(locationOf(node));
    diag << "rules file '" << fileName << "': ";
    return diag;
  }

  /// Reports the scanner's first error, if any, and fails then.
  LogicalResult checkSyntax() {
    if (!syntaxError && !stream->failed())
      return success();
    if (!syntaxError) {
      emitError(FileLineColLoc::get(ctx, fileName, 1, 1))
          << "rules file '" << fileName << "' is not valid YAML";
      return failure();
    }
    emitError(FileLineColLoc::get(ctx, fileName, syntaxError->getLineNo(),
                                  syntaxError->getColumnNo() + 1))
        << "rules file '" << fileName
        << "' is not valid YAML: " << syntaxError->getMessage();
    return failure();
  }

  FailureOr<llvm::json::Value> convert(yaml::Node *node, unsigned depth,
                                       EntryLocations *entry,
                                       StringRef fieldPrefix);
  FailureOr<llvm::json::Value> convertSequence(yaml::SequenceNode *sequence,
                                               unsigned depth);
  FailureOr<llvm::json::Value> convertMapping(yaml::MappingNode *mapping,
                                              unsigned depth,
                                              EntryLocations *entry,
                                              StringRef fieldPrefix);
  llvm::json::Value convertScalar(yaml::Node *node, StringRef value,
                                  bool plain);
  LogicalResult rejectAlias(yaml::AliasNode *alias);
  LogicalResult invalidUTF8(yaml::Node *node) {
    return error(node) << "holds text that is not valid UTF-8", failure();
  }

  /// Reads the list of rules in `node` into `entries` and `locations`.
  LogicalResult readList(yaml::Node *node, yaml::Node *root);
  /// Reads a root mapping: its `rules` list, other fields ignored.
  LogicalResult readRulesMapping(yaml::MappingNode *mapping);

  StringRef fileName;
  MLIRContext *ctx;
  llvm::SourceMgr sourceMgr;
  std::optional<llvm::SMDiagnostic> syntaxError;
  std::optional<yaml::Stream> stream;
  /// The rules read so far, in the JSON model, and where each one is.
  llvm::json::Array entries;
  SmallVector<EntryLocations> locations;
};

} // namespace

/// A plain scalar is typed as in YAML 1.2's core schema; a quoted one, a
/// block scalar or one tagged `!!str` is a string.
llvm::json::Value YAMLRulesReader::convertScalar(yaml::Node *node,
                                                 StringRef value, bool plain) {
  if (!plain || (!node->getRawTag().empty() &&
                 node->getVerbatimTag() == "tag:yaml.org,2002:str"))
    return value.str();
  if (value.empty() || yaml::isNull(value))
    return nullptr;
  if (yaml::isBool(value))
    return value.starts_with_insensitive("t");
  if (yaml::isNumeric(value)) {
    double number = 0;
    if (value.getAsDouble(number))
      number = 0;
    return number;
  }
  return value.str();
}

/// Aliases are rejected at the alias's own text.
LogicalResult YAMLRulesReader::rejectAlias(yaml::AliasNode *alias) {
  // The parser's range of an alias starts after it: find the alias text.
  std::string text = ("*" + alias->getName()).str();
  llvm::SMLoc where = alias->getSourceRange().Start;
  if (unsigned buffer =
          where.isValid() ? sourceMgr.FindBufferContainingLoc(where) : 0) {
    const char *begin = sourceMgr.getMemoryBuffer(buffer)->getBufferStart();
    StringRef before(begin, where.getPointer() - begin);
    size_t at = before.rfind(text);
    if (at != StringRef::npos)
      where = llvm::SMLoc::getFromPointer(begin + at);
  }
  return emitError(locationOf(where))
             << "rules file '" << fileName << "': aliases ('" << text
             << "') are not supported; write the value out",
         failure();
}

/// Converts `node` to the JSON model. Inside an entry (`entry` set), the
/// location of every field is recorded under its dotted name below
/// `fieldPrefix` and under its own name.
FailureOr<llvm::json::Value> YAMLRulesReader::convert(yaml::Node *node,
                                                      unsigned depth,
                                                      EntryLocations *entry,
                                                      StringRef fieldPrefix) {
  if (!node || isa<yaml::NullNode>(node))
    return llvm::json::Value(nullptr);
  if (auto *alias = dyn_cast<yaml::AliasNode>(node))
    return rejectAlias(alias);
  if (auto *scalar = dyn_cast<yaml::ScalarNode>(node)) {
    SmallString<64> storage;
    StringRef value = scalar->getValue(storage);
    if (!llvm::json::isUTF8(value))
      return invalidUTF8(node);
    StringRef raw = scalar->getRawValue();
    bool plain = !raw.starts_with("'") && !raw.starts_with("\"");
    return convertScalar(node, value, plain);
  }
  if (auto *block = dyn_cast<yaml::BlockScalarNode>(node)) {
    if (!llvm::json::isUTF8(block->getValue()))
      return invalidUTF8(node);
    return llvm::json::Value(block->getValue().str());
  }

  if (depth >= kMaxYAMLDepth)
    return error(node) << "lists and mappings nest more than " << kMaxYAMLDepth
                       << " levels deep; rules need at most four: a list of "
                          "mappings whose 'attributes' is a mapping",
           failure();

  if (auto *sequence = dyn_cast<yaml::SequenceNode>(node))
    return convertSequence(sequence, depth);
  return convertMapping(cast<yaml::MappingNode>(node), depth, entry,
                        fieldPrefix);
}

FailureOr<llvm::json::Value>
YAMLRulesReader::convertSequence(yaml::SequenceNode *sequence, unsigned depth) {
  llvm::json::Array array;
  for (yaml::Node &item : *sequence) {
    FailureOr<llvm::json::Value> value =
        convert(&item, depth + 1, /*entry=*/nullptr, "");
    if (failed(value))
      return failure();
    array.push_back(std::move(*value));
  }
  if (failed(checkSyntax()))
    return failure();
  return llvm::json::Value(std::move(array));
}

FailureOr<llvm::json::Value>
YAMLRulesReader::convertMapping(yaml::MappingNode *mapping, unsigned depth,
                                EntryLocations *entry, StringRef fieldPrefix) {
  llvm::json::Object object;
  for (yaml::KeyValueNode &pair : *mapping) {
    auto *keyNode = dyn_cast_or_null<yaml::ScalarNode>(pair.getKey());
    if (!keyNode) {
      if (failed(checkSyntax()))
        return failure();
      return error(pair.getKey() ? pair.getKey() : &pair)
                 << "expected a field name (a string)",
             failure();
    }
    SmallString<32> keyStorage;
    std::string key = keyNode->getValue(keyStorage).str();
    if (!llvm::json::isUTF8(key))
      return invalidUTF8(keyNode);
    if (object.find(key) != object.end())
      return error(keyNode)
                 << "field '" << fieldPrefix << key << "' is given twice",
             failure();
    std::string dotted = (fieldPrefix + key).str();
    if (entry && fieldPrefix.empty()) {
      entry->fields.insert_or_assign(dotted, locationOf(keyNode));
    } else if (entry) {
      // The JSON reader names some attribute fields without the prefix; a
      // field of the entry itself keeps its own name.
      entry->fields.try_emplace(dotted, locationOf(keyNode));
      entry->fields.try_emplace(key, locationOf(keyNode));
    }
    // Below an entry's `attributes`, fields are `attributes.<name>`.
    std::string childPrefix = entry ? dotted + "." : "";
    FailureOr<llvm::json::Value> value =
        convert(pair.getValue(), depth + 1, entry, childPrefix);
    if (failed(value))
      return failure();
    object[key] = std::move(*value);
  }
  if (failed(checkSyntax()))
    return failure();
  return llvm::json::Value(std::move(object));
}

LogicalResult YAMLRulesReader::readList(yaml::Node *node, yaml::Node *root) {
  auto *list = dyn_cast_or_null<yaml::SequenceNode>(node);
  if (!list)
    return error(node ? node : root)
           << "expected a YAML list of rules (or a mapping with a "
              "'rules' list)";
  for (yaml::Node &item : *list) {
    locations.push_back({locationOf(&item), {}});
    FailureOr<llvm::json::Value> value =
        convert(&item, /*depth=*/2, &locations.back(), "");
    if (failed(value))
      return failure();
    entries.push_back(std::move(*value));
  }
  return checkSyntax();
}

LogicalResult YAMLRulesReader::readRulesMapping(yaml::MappingNode *mapping) {
  bool found = false;
  for (yaml::KeyValueNode &pair : *mapping) {
    auto *key = dyn_cast_or_null<yaml::ScalarNode>(pair.getKey());
    SmallString<8> storage;
    if (key && key->getValue(storage) == "rules" && !found) {
      found = true;
      if (failed(readList(pair.getValue(), mapping)))
        return failure();
      continue;
    }
    // Other fields are ignored, as in JSON; converting them bounds their
    // depth (skipping would recurse through any nesting).
    if (failed(convert(pair.getValue(), 1, /*entry=*/nullptr, "")))
      return failure();
  }
  if (failed(checkSyntax()))
    return failure();
  if (!found)
    return error(mapping) << "expected a YAML list of rules (or a mapping "
                             "with a 'rules' list)";
  return success();
}

FailureOr<SmallVector<RuleAttr>>
YAMLRulesReader::read(SmallVectorImpl<Location> *ruleLocs) {
  yaml::document_iterator document = stream->begin();
  if (document == stream->end()) {
    if (failed(checkSyntax()))
      return failure();
    return error(nullptr) << "expected a YAML list of rules (or a mapping "
                             "with a 'rules' list)",
           failure();
  }
  yaml::Node *root = document->getRoot();
  if (failed(checkSyntax()))
    return failure();

  // The list: the root, or the root's `rules`. The parser streams, so the
  // list is read where it stands, before the fields after it.
  if (auto *mapping = dyn_cast_or_null<yaml::MappingNode>(root)) {
    if (failed(readRulesMapping(mapping)))
      return failure();
  } else if (failed(readList(root, root))) {
    return failure();
  }

  // One document only: a second one would be silently ignored.
  ++document;
  if (failed(checkSyntax()))
    return failure();
  if (document != stream->end())
    return error(document->getRoot())
               << "holds several YAML documents; put every rule in one list",
           failure();

  auto locate = [&](size_t index, StringRef field) -> Location {
    const EntryLocations &entry = locations[index];
    auto it = entry.fields.find(field);
    return it == entry.fields.end() ? entry.entry : it->second;
  };
  FailureOr<SmallVector<RuleAttr>> rules =
      rulesfile::parseRuleList(entries, fileName, ctx, locate);
  if (succeeded(rules) && ruleLocs) {
    ruleLocs->clear();
    for (const EntryLocations &entry : locations)
      ruleLocs->push_back(entry.entry);
  }
  return rules;
}

FailureOr<SmallVector<RuleAttr>>
mlir::helia::parseRulesYAML(StringRef text, StringRef fileName,
                            MLIRContext *ctx,
                            SmallVectorImpl<Location> *ruleLocs) {
  YAMLRulesReader reader(text, fileName, ctx);
  return reader.read(ruleLocs);
}
