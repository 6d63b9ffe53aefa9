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
// With --test-data=golden.npz it also runs the samples on QEMU and compares
// (heliaAOT's golden-data test).
//
// This file is the command line; the stages are Driver.h's.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "helia/InitHelia.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace ::helia::compile;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("helia-compile options");
static cl::OptionCategory testCategory(
    "Golden-data test (needs clang-22, ld.lld-22 and qemu-system-arm)");
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

static cl::opt<unsigned> indexBitwidth(
    "index-bitwidth", cl::value_desc("32|64"), cl::init(0),
    cl::desc("Bit width of `index` (loop counters, sizes, offsets) in the "
             "generated code (default: a .mlir module's own dlti.dl_spec, "
             "else 64; 32 is faster on some networks and slower on others, "
             "docs/Firmware.md)"),
    cl::cat(toolCategory));

static cl::opt<std::string> testData(
    "test-data", cl::value_desc("golden.npz"),
    cl::desc("Run every sample of the .npz (input_<i>, output_<j>, each with "
             "a leading sample axis, each sample shaped or flat) on QEMU's "
             "mps3-an547 board (--platform=mps3_an547) and compare the "
             "outputs; exit status 2 if one is out of tolerance"),
    cl::cat(testCategory));
static cl::opt<std::string> testOutput(
    "test-output", cl::value_desc("out.npz"),
    cl::desc("Write the outputs the device computed (output_<j>, the golden "
             "outputs' shapes)"),
    cl::cat(testCategory));
static cl::opt<uint64_t> testTolerance(
    "test-tolerance", cl::value_desc("LSB"), cl::init(1),
    cl::desc("Largest |difference| of an integer output that passes, in LSB "
             "(default 1)"),
    cl::cat(testCategory));
static cl::opt<double> testFloatTolerance(
    "test-float-tolerance", cl::value_desc("relative"), cl::init(1e-4),
    cl::desc("Largest max |difference| / max |expected| of a float output "
             "that passes (default 1e-4)"),
    cl::cat(testCategory));
static cl::opt<unsigned>
    testTimeout("test-timeout", cl::value_desc("seconds"), cl::init(600),
                cl::desc("Seconds the QEMU run may take (default 600)"),
                cl::cat(testCategory));

/// The pipeline options the driver sets itself, from -o, --prefix and
/// --rules: they are not command-line options of helia-compile.
static constexpr StringLiteral kDriverOwned[] = {
    "rules-file",  "plan-json", "plan-report",  "plan-svg", "plan-ld",
    "plan-header", "lower",     "lower-copies", "to-llvm",  "triple"};

void PipelineFlags::exposeOnCommandLine(cl::OptionCategory &category) {
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

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  PipelineFlags options;
  options.exposeOnCommandLine(planCategory);
  cl::HideUnrelatedOptions({&toolCategory, &testCategory, &planCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "helia-compile: a .tflite (or .mlir) model to a Cortex-M55 firmware "
      "module\n\n"
      "  helia-compile model.tflite --platform=apollo510_evb "
      "[--rules=rules.yaml] [--prefix=kws] -o out/\n"
      "  helia-compile model.tflite --platform=mps3_an547 "
      "--test-data=golden.npz [--test-output=out.npz]\n\n"
      "writes <prefix>.o (thumbv8.1m.main-none-eabi, cortex-m55, hard "
      "float), <prefix>.h, <prefix>.ld, <prefix>.plan.json, "
      "<prefix>.plan.txt and <prefix>.plan.svg; the object needs no clang. "
      "--test-data links it with a test main (clang-22, ld.lld-22) and runs "
      "it on qemu-system-arm, which must then be on PATH\n");

  // Flag errors, in cl's words.
  if (!testOutput.empty() && testData.empty()) {
    llvm::errs() << "helia-compile: for the --test-output option: it needs "
                 << "--test-data=<golden.npz> (the samples to run)\n";
    return 1;
  }
  if (indexBitwidth != 0 && indexBitwidth != 32 && indexBitwidth != 64) {
    llvm::errs() << "helia-compile: for the --index-bitwidth option: '"
                 << indexBitwidth << "' is not 32 or 64\n";
    return 1;
  }
  if (!(testFloatTolerance >= 0)) {
    llvm::errs() << "helia-compile: for the --test-float-tolerance option: '"
                 << testFloatTolerance << "' is not a non-negative number\n";
    return 1;
  }

  DriverOptions flags;
  flags.inputPath = inputPath;
  flags.outputDir = outputDir;
  flags.rulesPath = rulesPath;
  flags.quiet = quiet;
  flags.saveTemps = saveTemps;
  flags.padInPlace = padInPlace;
  flags.persistentVariables = persistentVariables;
  flags.indexBitwidth = indexBitwidth;
  flags.test.dataPath = testData;
  flags.test.outputPath = testOutput;
  flags.test.tolerance = testTolerance;
  flags.test.floatTolerance = testFloatTolerance;
  flags.test.timeout = testTimeout;

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  mlir::helia::registerHeliaDialect(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext ctx(registry);
  // An error names its tensor or operator; a dump of the whole model after
  // it would bury it.
  ctx.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  Driver driver(ctx, sourceMgr, flags, options);
  return driver.run();
}
