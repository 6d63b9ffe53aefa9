//===- RulesFile.h - heliaAOT rules in JSON ---------------------*- C++ -*-===//

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

/// Reads `path` and parses it with parseRulesJSON.
FailureOr<SmallVector<RuleAttr>> readRulesFile(StringRef path, Location loc);

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_RULESFILE_H
