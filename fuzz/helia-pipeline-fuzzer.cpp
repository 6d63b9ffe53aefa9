//===- helia-pipeline-fuzzer.cpp - the whole pipeline under libFuzzer ----===//
//
// Input: a few configuration bytes, then the text of a module (the seed
// corpus holds the modules of test/ and the bench models; see
// fuzz/make-corpus.py). The configuration picks a platform (a preset or a
// small custom one that forces spilling and overflow), a random rule set, a
// packing algorithm and memory limits. The module then goes through
// resolve-residency and assign-bindings in process. What must hold:
//   - the parser and the passes never crash;
//   - a failure comes with at least one error, and every error has a
//     location;
//   - a success is a plan that helia-verify-plan accepts, that passes the
//     MLIR verifier, whose JSON export builds, and that is the same byte for
//     byte when the module is planned a second time.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/MemoryPlan.h"
#include "helia/Dialect/Helia/Export/PlanExport.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

using namespace mlir;

namespace {

[[noreturn]] void fail(const Twine &what, StringRef module = {}) {
  llvm::errs() << "helia pipeline fuzzer: " << what << "\n";
  if (!module.empty())
    llvm::errs() << "--- module ---\n" << module << "\n";
  std::abort();
}

/// The configuration decoded from the first bytes of the input.
struct Config {
  uint8_t platform = 0;
  uint8_t flags = 0;
  uint16_t ruleSeed = 0;
  uint16_t limit = 0;
  uint16_t sizes = 0;
  static constexpr size_t kBytes = 8;

  static Config decode(ArrayRef<uint8_t> bytes) {
    Config c;
    if (bytes.size() < kBytes)
      return c;
    c.platform = bytes[0];
    c.flags = bytes[1];
    c.ruleSeed = bytes[2] | bytes[3] << 8;
    c.limit = bytes[4] | bytes[5] << 8;
    c.sizes = bytes[6] | bytes[7] << 8;
    return c;
  }
};

/// A small deterministic generator (xorshift) for the rule set.
struct Rng {
  uint32_t state;
  explicit Rng(uint32_t seed) : state(seed * 2654435761u + 1) {}
  uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
  template <typename T> const T &pick(ArrayRef<T> list) {
    return list[next() % list.size()];
  }
};

/// Memories of the platform chosen by the configuration, for rules.
SmallVector<StringRef> memoryNames(const Config &config) {
  if (config.platform % 4 == 3)
    return {"tcm", "ram", "flash", "ext"};
  return {"itcm", "dtcm", "sram", "mram", "psram"};
}

/// Sets the platform attribute: a preset, or a custom platform whose small
/// memories force spilling and overflow.
void setPlatform(ModuleOp module, const Config &config) {
  MLIRContext *ctx = module.getContext();
  static constexpr StringLiteral presets[] = {"apollo510_evb", "apollo4p_evb",
                                              "apollo3p_evb"};
  switch (config.platform % 4) {
  case 0:
    return; // The module's own platform, or the default.
  case 1:
  case 2:
    module->setAttr("helia.platform",
                    StringAttr::get(ctx, presets[config.platform % 4]));
    return;
  default:
    break;
  }
  uint64_t tcm = uint64_t(16) << (config.sizes & 15);
  uint64_t ram = uint64_t(16) << ((config.sizes >> 4) & 15);
  uint64_t flash = uint64_t(16) << ((config.sizes >> 8) & 31);
  uint64_t align = uint64_t(1) << ((config.sizes >> 13) & 7);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#helia.platform<name = \"fuzz\", memories = ["
     << "#helia.memory_desc<name = \"tcm\", size = " << tcm << ", init = true>, "
     << "#helia.memory_desc<name = \"ram\", size = " << ram << ">, "
     << "#helia.memory_desc<name = \"flash\", size = " << flash
     << ", writable = false, init = true, nonvolatile = true>, "
     << "#helia.memory_desc<name = \"ext\", size = 1048576>], preferred = ["
     << ((config.platform & 4) ? "\"ram\", \"tcm\"" : "\"tcm\", \"ram\"")
     << "], alignment = " << align << ">";
  Attribute platform = parseAttribute(text, ctx);
  if (!platform)
    fail("cannot build the custom platform: " + text);
  module->setAttr("helia.platform", platform);
}

/// Replaces the module's rules with up to four random ones. Rules the
/// attribute verifier refuses are skipped (they cannot reach the passes).
void setRules(ModuleOp module, const Config &config) {
  MLIRContext *ctx = module.getContext();
  Rng rng(config.ruleSeed);
  SmallVector<StringRef> memories = memoryNames(config);
  memories.push_back("nowhere");
  static constexpr StringLiteral ids[] = {"*", "conv*", "w", "act", "[x]*",
                                          "serving_default_*", "?"};
  SmallVector<Attribute> rules;
  unsigned count = rng.next() % 5;
  for (unsigned i = 0; i < count; ++i) {
    std::optional<mlir::helia::TensorKind> type;
    switch (rng.next() % 5) {
    case 0:
      break;
    case 1:
      type = mlir::helia::TensorKind::Constant;
      break;
    case 2:
      type = mlir::helia::TensorKind::Persistent;
      break;
    case 3:
      type = mlir::helia::TensorKind::Scratch;
      break;
    case 4:
      type = mlir::helia::TensorKind::Any;
      break;
    }
    ArrayAttr id;
    if (rng.next() % 2)
      id = ArrayAttr::get(
          ctx, {StringAttr::get(ctx, ids[rng.next() % std::size(ids)])});
    auto memoryOrNull = [&]() -> StringAttr {
      if (rng.next() % 2)
        return {};
      return StringAttr::get(ctx, memories[rng.next() % memories.size()]);
    };
    StringAttr memory = memoryOrNull();
    StringAttr destination = rng.next() % 3 ? StringAttr() : memoryOrNull();
    std::optional<mlir::helia::Residency> residency;
    switch (rng.next() % 5) {
    case 0:
      residency = mlir::helia::Residency::Direct;
      break;
    case 1:
      residency = mlir::helia::Residency::Pin;
      break;
    case 2:
      residency = mlir::helia::Residency::Stream;
      break;
    default:
      break;
    }
    auto ignore = [&]() {
      return emitError(UnknownLoc::get(ctx)); // Swallowed by the caller.
    };
    auto attrs = mlir::helia::TensorAttributesAttr::getChecked(
        ignore, ctx, memory, destination, residency);
    if (!attrs)
      continue;
    auto rule = mlir::helia::RuleAttr::getChecked(ignore, ctx, type, id, attrs,
                                                     ArrayAttr());
    if (rule)
      rules.push_back(rule);
  }
  module->setAttr("helia.rules", ArrayAttr::get(ctx, rules));
}

/// The outcome of planning one module.
struct Outcome {
  bool parsed = false;
  bool planned = false;
  std::string ir;
  std::string json;
};

Outcome planOnce(StringRef text, const Config &config,
                 const DialectRegistry &registry) {
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects();
  // The rules and the platform below are helia attributes even when the
  // module names none.
  ctx.loadDialect<mlir::helia::HeliaDialect>();
  // Diagnostics: every error must be located; count them.
  unsigned errors = 0;
  std::string unlocated;
  // Set while the harness builds rules: getChecked reports the invalid
  // combinations it refuses, which are not the pipeline's errors.
  bool harness = false;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (harness || diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++errors;
    if (isa<UnknownLoc>(diag.getLocation()) && unlocated.empty())
      unlocated = diag.str();
    return success();
  });

  Outcome outcome;
  ParserConfig parserConfig(&ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, parserConfig, "fuzz.mlir");
  if (!module) {
    if (errors == 0)
      fail("the parser failed without an error", text);
    return outcome;
  }
  outcome.parsed = true;
  setPlatform(*module, config);
  if (config.flags & 1) {
    harness = true;
    setRules(*module, config);
    harness = false;
  }

  PassManager pm(&ctx, ModuleOp::getOperationName());
  // The verifier runs below, so that a pass producing invalid IR is a
  // finding rather than an error like any other.
  pm.enableVerifier(false);
  pm.addPass(mlir::helia::createHeliaResolveResidency());
  mlir::helia::HeliaAssignBindingsOptions assign;
  assign.algorithm = static_cast<::helia::planner::Algorithm>((config.flags >> 1) % 3);
  assign.effort = 20'000;
  assign.remarks = config.flags & 8;
  if (config.flags & 16) {
    SmallVector<StringRef> memories = memoryNames(config);
    std::string limit = memories[config.limit % memories.size()].str() + "=" +
                        std::to_string(config.limit * 16u);
    assign.memoryLimits.push_back(limit);
  }
  if (config.flags & 32)
    assign.streamBudget = config.limit;
  pm.addPass(mlir::helia::createHeliaAssignBindings(assign));
  if (failed(pm.run(*module))) {
    if (errors == 0)
      fail("a pass failed without an error", text);
    if (!unlocated.empty())
      fail("an error without a location: " + unlocated, text);
    return outcome;
  }
  if (!unlocated.empty())
    fail("an error without a location: " + unlocated, text);

  if (failed(verify(*module)))
    fail("the planned module does not verify", text);
  PassManager check(&ctx, ModuleOp::getOperationName());
  mlir::helia::HeliaVerifyPlanOptions verifyOptions;
  verifyOptions.memoryLimits = assign.memoryLimits;
  check.addPass(mlir::helia::createHeliaVerifyPlan(verifyOptions));
  if (failed(check.run(*module)))
    fail("helia-verify-plan rejects the plan", text);
  FailureOr<mlir::helia::MemoryPlan> plan = mlir::helia::MemoryPlan::build(*module);
  if (failed(plan))
    fail("the plan cannot be exported", text);
  llvm::raw_string_ostream json(outcome.json);
  mlir::helia::writePlanJSON(*plan, json);
  std::string report;
  llvm::raw_string_ostream reportOs(report);
  mlir::helia::writePlanReport(*plan, reportOs);
  llvm::raw_string_ostream ir(outcome.ir);
  module->print(ir);
  outcome.planned = true;
  return outcome;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    r->insert<mlir::helia::HeliaDialect, func::FuncDialect, arith::ArithDialect,
              tensor::TensorDialect, linalg::LinalgDialect, scf::SCFDialect,
              tosa::TosaDialect>();
    return r;
  }();
  ArrayRef<uint8_t> bytes(data, size);
  Config config = Config::decode(bytes);
  if (size < Config::kBytes)
    return 0;
  // MLIR's lexer needs a NUL after the text; libFuzzer's bytes have none.
  std::string text(reinterpret_cast<const char *>(data) + Config::kBytes,
                   size - Config::kBytes);
  Outcome first = planOnce(text, config, *registry);
  if (!first.planned)
    return 0;
  Outcome second = planOnce(text, config, *registry);
  if (!second.planned)
    fail("a second run failed where the first succeeded", text);
  if (first.ir != second.ir)
    fail("two runs printed different IR", text);
  if (first.json != second.json)
    fail("two runs exported different JSON", text);
  return 0;
}
