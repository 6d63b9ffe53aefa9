//===- helia-compile.cpp - a .tflite model to a firmware module ----------===//
//
// One command from a model to the firmware module, as heliaAOT's
// `helia-aot convert` (docs/Compile.md):
//
//   helia-compile model.tflite --platform=apollo510_evb --rules=rules.yaml \
//     --prefix=kws -o out/
//
// imports the model (a .tflite flatbuffer, or a .mlir module), lowers TOSA
// to linalg with wide accumulators tiled, plans it with and without
// helia-pad-in-place and keeps the smaller scratch arena, lowers the plan to
// the LLVM dialect with every arena in its memory's section, and compiles it
// in process through LLVM's ARM target to a Cortex-M55 object. It writes
// <prefix>.o, the C header <prefix>.h, the linker-script fragment
// <prefix>.ld, and the plan as <prefix>.plan.json, <prefix>.plan.txt and
// <prefix>.plan.svg. The planning options are helia-memory-pipeline's own.
//
//===----------------------------------------------------------------------===//

#include "ObjectFile.h"

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/HeliaOps.h"
#include "helia/Dialect/Helia/Pipelines/Pipelines.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/InitHelia.h"
#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::helia;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("helia-compile options");
static cl::OptionCategory planCategory(
    "Planning options (helia-memory-pipeline's, docs/Lowering.md)");

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<model.tflite | model.mlir>"),
                                      cl::cat(toolCategory));
static cl::opt<std::string>
    outputDir("o", cl::init("."), cl::value_desc("directory"),
              cl::desc("Directory of the outputs, created with its parents "
                       "(default: the current directory)"),
              cl::cat(toolCategory));
static cl::opt<std::string>
    rulesPath("rules", cl::value_desc("rules.yaml|rules.json"),
              cl::desc("Placement rules with heliaAOT's fields, in YAML or "
                       "JSON (by extension, else by content); override the "
                       "module's helia.rules"),
              cl::cat(toolCategory));
static cl::opt<bool> quiet("quiet", cl::desc("No progress lines on stderr"),
                           cl::init(false), cl::cat(toolCategory));
static cl::opt<bool>
    saveTemps("save-temps",
              cl::desc("Also write the intermediate forms: <prefix>.tosa.mlir "
                       "(imported), <prefix>.llvm.mlir (LLVM dialect) and "
                       "<prefix>.ll (optimised LLVM IR)"),
              cl::init(false), cl::cat(toolCategory));

static cl::opt<bool> persistentVariables(
    "persistent-variables",
    cl::desc("A .tflite model's variable tensors (an LSTM's states) become "
             "persistent state: trailing inputs and outputs planned into the "
             "persistent arena (default: every run starts from their reset "
             "state; docs/TFLite.md)"),
    cl::init(false), cl::cat(toolCategory));

namespace {
enum class PadInPlaceMode { Auto, Always, Never };
} // namespace

static cl::opt<PadInPlaceMode> padInPlace(
    "pad-in-place",
    cl::desc("Run helia-pad-in-place before planning (it lowers the scratch "
             "arena of some models and raises it for others)"),
    cl::init(PadInPlaceMode::Auto),
    cl::values(clEnumValN(PadInPlaceMode::Auto, "auto",
                          "plan with and without it, keep the smaller "
                          "scratch (default)"),
               clEnumValN(PadInPlaceMode::Always, "always", "always run it"),
               clEnumValN(PadInPlaceMode::Never, "never", "never run it")),
    cl::cat(toolCategory));

/// The pipeline options the driver sets itself, from -o, --prefix and
/// --rules: they are not command-line options of helia-compile.
static constexpr StringLiteral kDriverOwned[] = {
    "rules-file",  "plan-json", "plan-report",  "plan-svg", "plan-ld",
    "plan-header", "lower",     "lower-copies", "to-llvm",  "triple"};

namespace {

/// helia-memory-pipeline's options as helia-compile's own flags: the very
/// option objects of HeliaMemoryPipelineOptions, moved from the pipeline's
/// option set to the top-level command line. A new pipeline option is a
/// flag here, with its description and values, without an edit.
struct PipelineFlags : HeliaMemoryPipelineOptions {
  void exposeOnCommandLine(cl::OptionCategory &category) {
    cl::SubCommand &own = *this;
    SmallVector<cl::Option *> options;
    for (auto &entry : own.OptionsMap)
      options.push_back(entry.second);
    for (cl::Option *option : options) {
      if (llvm::is_contained(kDriverOwned, option->ArgStr))
        continue;
      option->removeArgument();
      option->addSubCommand(cl::SubCommand::getTopLevel());
      option->addCategory(category);
      option->addArgument();
    }
  }
};

/// Seconds since construction.
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// One planned variant of the model.
struct Candidate {
  OwningOpRef<ModuleOp> module;
  bool padInPlace = false;
  bool planned = false;
  /// The planning's diagnostics, printed for the variant that is kept.
  std::string diagnostics;
  int64_t scratch = 0;
};

class Driver {
public:
  Driver(MLIRContext &ctx, llvm::SourceMgr &sourceMgr, PipelineFlags &options)
      : ctx(ctx), sourceMgr(sourceMgr), options(options) {}

  LogicalResult run();

private:
  void progress(StringRef stage, const Stopwatch &watch, const Twine &what) {
    if (quiet)
      return;
    llvm::errs() << "helia-compile: " << llvm::left_justify(stage, 8)
                 << llvm::format("%6.2f s", watch.seconds()) << "  " << what
                 << "\n";
  }
  Location inputLoc() { return FileLineColLoc::get(&ctx, inputPath, 0, 0); }
  std::string outputPath(StringRef suffix) {
    SmallString<128> path(outputDir);
    llvm::sys::path::append(path, prefix + suffix.str());
    return std::string(path);
  }

  OwningOpRef<ModuleOp> import();
  LogicalResult checkPrefix(ModuleOp module);
  LogicalResult writeModule(ModuleOp module, StringRef suffix);
  FailureOr<Candidate> plan(ModuleOp module);
  Candidate planVariant(ModuleOp module, bool withPadInPlace);
  LogicalResult noteChoice();

  MLIRContext &ctx;
  llvm::SourceMgr &sourceMgr;
  PipelineFlags &options;
  std::string prefix;
  std::string choice;
};

} // namespace

/// A .mlir file by extension, a .tflite by extension or by its flatbuffer
/// identifier ("TFL3" at byte 4); anything else is parsed as MLIR.
static bool isTFLite(StringRef path, StringRef bytes) {
  StringRef extension = llvm::sys::path::extension(path);
  if (extension.equals_insensitive(".mlir"))
    return false;
  if (extension.equals_insensitive(".tflite"))
    return true;
  return bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3";
}

OwningOpRef<ModuleOp> Driver::import() {
  Stopwatch watch;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(inputPath, /*IsText=*/false);
  if (!buffer) {
    emitError(inputLoc()) << "cannot read the model '" << inputPath
                          << "': " << buffer.getError().message();
    return nullptr;
  }
  OwningOpRef<ModuleOp> module;
  StringRef format;
  if (isTFLite(inputPath, (*buffer)->getBuffer())) {
    format = "TFLite";
    tflite::ImportOptions importOptions;
    // --prefix names the model's function too, as heliaAOT's prefix names
    // everything the module exports.
    importOptions.functionName = options.prefix;
    importOptions.persistentVariables = persistentVariables;
    module =
        tflite::importTFLite((*buffer)->getMemBufferRef(), &ctx, importOptions);
  } else {
    format = "MLIR";
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  }
  if (!module)
    return nullptr;
  unsigned functions = 0, ops = 0;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!isPlannedFunction(func))
      continue;
    ++functions;
    func.walk([&](Operation *) { ++ops; });
  }
  if (functions == 0) {
    emitError(module->getLoc())
        << "'" << inputPath << "' has no function to compile (every "
        << "func.func is a declaration or marked helia.unplanned)";
    return nullptr;
  }
  progress("import", watch,
           Twine(llvm::sys::path::filename(inputPath)) + " (" + format +
               "): " + Twine(functions) + " function" +
               (functions == 1 ? "" : "s") + ", " + Twine(ops) + " ops");
  return module;
}

/// The prefix names the outputs and every exported symbol: it must be a C
/// identifier.
LogicalResult Driver::checkPrefix(ModuleOp module) {
  // The pipeline's default, the first planned function's name, chosen
  // before planning (getFirmwarePrefix knows bound functions only).
  prefix = options.prefix;
  for (auto func : module.getOps<func::FuncOp>())
    if (prefix.empty() && isPlannedFunction(func))
      prefix = func.getName().str();
  auto isIdentifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (prefix.empty() || llvm::isDigit(prefix.front()) ||
      !llvm::all_of(prefix, isIdentifierChar))
    return emitError(module.getLoc())
           << "the prefix '" << prefix << "' is not a C identifier; give one "
           << "with --prefix=<name>";
  options.prefix = prefix;
  return success();
}

LogicalResult Driver::writeModule(ModuleOp module, StringRef suffix) {
  std::string path = outputPath(suffix);
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(module.getLoc())
           << "cannot write '" << path << "': " << error;
  // With locations: they carry the tensor names the rules match.
  module->print(file->os(), OpPrintingFlags().enableDebugInfo());
  file->keep();
  return success();
}

/// The sum of the scratch arenas (stream pools included) of a planned
/// module.
static int64_t scratchBytes(ModuleOp module) {
  int64_t total = 0;
  for (ArenaOp arena : module.getOps<ArenaOp>())
    if (arena.getRole() == ArenaRole::Scratch)
      total += arena.getSize();
  return total;
}

Candidate Driver::planVariant(ModuleOp module, bool withPadInPlace) {
  Candidate candidate;
  candidate.module = module.clone();
  candidate.padInPlace = withPadInPlace;
  llvm::raw_string_ostream os(candidate.diagnostics);
  SourceMgrDiagnosticHandler capture(sourceMgr, &ctx, os);
  PassManager pm(&ctx);
  if (withPadInPlace)
    pm.nest<func::FuncOp>().addPass(createHeliaPadInPlace());
  buildHeliaPlanningPipeline(pm, options);
  candidate.planned = succeeded(pm.run(*candidate.module));
  if (candidate.planned)
    candidate.scratch = scratchBytes(*candidate.module);
  return candidate;
}

FailureOr<Candidate> Driver::plan(ModuleOp module) {
  Stopwatch watch;
  // The TFLite recipe (docs/TFLite.md): TOSA to linalg with TFLite's
  // rescale, then wide accumulators tiled so that they exist one tile at a
  // time.
  PassManager frontend(&ctx);
  OpPassManager &funcs = frontend.nest<func::FuncOp>();
  funcs.addPass(tosa::createTosaToLinalgNamed());
  funcs.addPass(tosa::createTosaToLinalg());
  TosaToArithPassOptions arith;
  arith.includeApplyRescale = true;
  funcs.addPass(createTosaToArithPass(arith));
  funcs.addPass(createTosaToTensorPass());
  funcs.addPass(createHeliaFuseAccumulators());
  if (failed(frontend.run(module)))
    return failure();

  SmallVector<Candidate, 2> candidates;
  if (padInPlace != PadInPlaceMode::Always)
    candidates.push_back(planVariant(module, /*withPadInPlace=*/false));
  if (padInPlace != PadInPlaceMode::Never)
    candidates.push_back(planVariant(module, /*withPadInPlace=*/true));

  // The smaller scratch wins; a tie keeps the variant without the rewrite.
  Candidate *kept = nullptr;
  for (Candidate &candidate : candidates)
    if (candidate.planned && (!kept || candidate.scratch < kept->scratch))
      kept = &candidate;
  if (!kept) {
    // Neither plans: the errors of the plain recipe (the first variant).
    llvm::errs() << candidates.front().diagnostics;
    return failure();
  }
  llvm::errs() << kept->diagnostics;
  Candidate *other = nullptr;
  for (Candidate &candidate : candidates)
    if (&candidate != kept)
      other = &candidate;

  auto describe = [](const Candidate &c) -> std::string {
    if (!c.planned)
      return "does not plan";
    return std::to_string(c.scratch) + " bytes";
  };
  std::string what = "scratch " + std::to_string(kept->scratch) + " bytes, " +
                     (kept->padInPlace ? "with" : "without") +
                     " helia-pad-in-place";
  if (other)
    what += std::string(" (") + (other->padInPlace ? "with" : "without") +
            ": " + describe(*other) + ")";
  else
    what +=
        " (--pad-in-place=" +
        std::string(padInPlace == PadInPlaceMode::Always ? "always" : "never") +
        ")";
  choice = what;
  progress("plan", watch, what);
  return std::move(*kept);
}

/// Appends the front-end choice to the readable report.
LogicalResult Driver::noteChoice() {
  std::string path = outputPath(".plan.txt");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return emitError(inputLoc())
           << "cannot write '" << path << "': " << ec.message();
  os << "\nhelia-compile\n  " << choice << "\n";
  return success();
}

LogicalResult Driver::run() {
  OwningOpRef<ModuleOp> module = import();
  if (!module || failed(checkPrefix(*module)))
    return failure();

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return emitError(inputLoc()) << "cannot create the output directory '"
                                 << outputDir << "': " << ec.message();
  if (saveTemps && failed(writeModule(*module, ".tosa.mlir")))
    return failure();

  if (!rulesPath.empty())
    options.rulesFile = rulesPath;
  FailureOr<Candidate> planned = plan(*module);
  if (failed(planned))
    return failure();

  // Lower the kept plan, with the exports and the firmware files.
  Stopwatch lowerWatch;
  ::helia::compile::ObjectTarget target;
  options.planJson = outputPath(".plan.json");
  options.planReport = outputPath(".plan.txt");
  options.planSvg = outputPath(".plan.svg");
  options.planLd = outputPath(".ld");
  options.planHeader = outputPath(".h");
  options.triple = target.triple;
  options.lower = true;
  options.toLLVM = true;
  ModuleOp planModule = *planned->module;
  PassManager lowering(&ctx);
  buildHeliaPlanOutputPipeline(lowering, options);
  if (failed(lowering.run(planModule)))
    return failure();
  if (failed(noteChoice()))
    return failure();
  if (saveTemps && failed(writeModule(planModule, ".llvm.mlir")))
    return failure();
  progress("lower", lowerWatch,
           Twine("LLVM dialect; ") + outputPath(".h") + ", " +
               outputPath(".ld") + ", " + outputPath(".plan.{json,txt,svg}"));

  Stopwatch compileWatch;
  std::string objectPath = outputPath(".o");
  FailureOr<uint64_t> size = ::helia::compile::emitObjectFile(
      planModule, target, objectPath, saveTemps ? outputPath(".ll") : "");
  if (failed(size))
    return failure();
  progress("compile", compileWatch,
           Twine(objectPath) + " (" + target.triple + ", " + target.cpu +
               ", hard float, -O2): " + Twine(*size) + " bytes");
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  PipelineFlags options;
  options.exposeOnCommandLine(planCategory);
  cl::HideUnrelatedOptions({&toolCategory, &planCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "helia-compile: a .tflite (or .mlir) model to a Cortex-M55 firmware "
      "module\n\n"
      "  helia-compile model.tflite --platform=apollo510_evb "
      "[--rules=rules.yaml] [--prefix=kws] -o out/\n\n"
      "writes <prefix>.o (thumbv8.1m.main-none-eabi, cortex-m55, hard "
      "float), <prefix>.h, <prefix>.ld, <prefix>.plan.json, "
      "<prefix>.plan.txt and <prefix>.plan.svg\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerHeliaDialect(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext ctx(registry);
  // An error names its tensor or operator; a dump of the whole model after
  // it would bury it.
  ctx.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  Driver driver(ctx, sourceMgr, options);
  return failed(driver.run()) ? 1 : 0;
}
