//===- helia-rules-fuzzer.cpp - the JSON rules parser under libFuzzer ----===//
//
// Feeds arbitrary bytes to parseRulesJSON and to parseRulesYAML. Either the
// text is refused with at least one located error, or every rule it yields
// is a valid #helia.rule whose printed form parses back to the same
// attribute.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Transforms/RulesFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

[[noreturn]] static void fail(const Twine &what) {
  llvm::errs() << "helia rules fuzzer: " << what << "\n";
  std::abort();
}

/// Runs one parser on `text` in a fresh context and checks its contract.
static void check(StringRef text, bool yaml) {
  // A fresh context per input: no state carries over between inputs.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<mlir::helia::HeliaDialect>();
  MLIRContext *ctx = &context;
  StringRef fileName = yaml ? "rules.yaml" : "rules.json";
  Location loc = FileLineColLoc::get(ctx, fileName, 1, 1);

  unsigned errors = 0;
  bool unlocated = false;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      ++errors;
      unlocated |= isa<UnknownLoc>(diag.getLocation());
    }
    return success();
  });

  FailureOr<SmallVector<mlir::helia::RuleAttr>> rules =
      yaml ? mlir::helia::parseRulesYAML(text, fileName, ctx)
           : mlir::helia::parseRulesJSON(text, fileName, loc);
  if (unlocated)
    fail("an error without a location");
  if (failed(rules)) {
    if (errors == 0)
      fail("refused without an error");
    return;
  }
  if (errors != 0)
    fail("accepted after an error");
  for (mlir::helia::RuleAttr rule : *rules) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    os << rule;
    Attribute reparsed = parseAttribute(printed, ctx);
    if (reparsed != rule)
      fail("'" + printed + "' does not parse back to the same rule");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef text(reinterpret_cast<const char *>(data), size);
  check(text, /*yaml=*/false);
  check(text, /*yaml=*/true);
  return 0;
}
