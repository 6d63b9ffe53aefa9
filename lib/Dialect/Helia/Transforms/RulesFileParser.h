//===- RulesFileParser.h - rules from a JSON value, for both formats ------===//
//
// The YAML reader converts its document to the JSON model and reuses the
// JSON reader's checks, so that both formats accept and reject the same
// rules with the same messages; only where an error points differs.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_RULESFILEPARSER_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_RULESFILEPARSER_H

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

namespace mlir::helia::rulesfile {

/// Where the errors about field `field` of entry `entry` go (`field` is
/// empty for the entry as a whole; attribute fields are named both
/// `attributes.<name>` and `<name>`).
using RuleFieldLocator =
    llvm::function_ref<Location(size_t entry, StringRef field)>;

/// Builds one rule per element of `list` (heliaAOT's field names); the
/// first malformed entry is an error at `locate(entry, field)` that names
/// `fileName`, the entry and the field.
FailureOr<SmallVector<RuleAttr>> parseRuleList(const llvm::json::Array &list,
                                               StringRef fileName,
                                               MLIRContext *ctx,
                                               RuleFieldLocator locate);

} // namespace mlir::helia::rulesfile

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_RULESFILEPARSER_H
