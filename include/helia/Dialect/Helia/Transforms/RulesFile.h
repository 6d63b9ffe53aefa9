//===- RulesFile.h - heliaAOT rules in JSON or YAML -------------*- C++ -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_RULESFILE_H
#define HELIA_DIALECT_HELIA_TRANSFORMS_RULESFILE_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/Location.h"

namespace mlir::helia {

/// Parses heliaAOT rules from JSON text: an array (or an object with a
/// "rules" array) of `{"type": ..., "id": ..., "attributes": {...}}`
/// entries. `type` is "constant", "persistent", "scratch" or "*"; `id` a
/// name, a glob, or a list of them; attributes use the field names
/// `memory`, `constant_destination_memory` and `residency`; a null field is
/// the same as an absent one. Errors are emitted at `loc` and name
/// `fileName`, the entry and the field. Text nested more than 64 arrays or
/// objects deep is rejected before parsing (the JSON parser recurses).
FailureOr<SmallVector<RuleAttr>> parseRulesJSON(StringRef text,
                                                StringRef fileName,
                                                Location loc);

/// Parses heliaAOT rules from YAML text, with the fields and semantics of
/// parseRulesJSON: a list (or a mapping with a `rules` list) of
/// `{type: constant, id: "conv1/*", attributes: {memory: mram}}` entries.
/// Plain scalars are typed as in YAML's core schema (`null`, `~` and empty
/// values are null; `true`, `false` and numbers are not strings), so that a
/// value JSON would reject is rejected here too. Every error is located in
/// the file (`fileName:line:column`); `ruleLocs`, if given, receives the
/// location of each rule, for the errors of later checks. Anchors, aliases
/// and several documents are errors, and so is nesting deeper than 64.
FailureOr<SmallVector<RuleAttr>>
parseRulesYAML(StringRef text, StringRef fileName, MLIRContext *ctx,
               SmallVectorImpl<Location> *ruleLocs = nullptr);

/// Reads `path` and parses it as YAML (extension `.yaml` or `.yml`) or JSON
/// (`.json`); any other file is JSON if it starts with `[` or `{` and parses
/// as JSON, YAML otherwise. `ruleLocs`, if given, receives each rule's
/// location: its line in a YAML file, `loc` for JSON.
FailureOr<SmallVector<RuleAttr>>
readRulesFile(StringRef path, Location loc,
              SmallVectorImpl<Location> *ruleLocs = nullptr);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_RULESFILE_H
