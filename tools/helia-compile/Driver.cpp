//===- Driver.cpp - helia-compile's stages --------------------------------===//
//
// import, plan (Plan.cpp), lower and compile; with --test-data the test
// data is checked right after the import, and the image is linked and run
// after the compile (GoldenTest.h).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "ObjectFile.h"

#include "helia/Dialect/Helia/Analysis/FirmwareNames.h"
#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::helia;
using namespace ::helia::compile;

void Driver::progress(StringRef stage, const Stopwatch &watch,
                      const Twine &what) const {
  if (flags.quiet)
    return;
  llvm::errs() << "helia-compile: " << llvm::left_justify(stage, 8)
               << llvm::format("%6.2f s", watch.seconds()) << "  " << what
               << "\n";
}

Location Driver::inputLoc() {
  return FileLineColLoc::get(&ctx, flags.inputPath, 0, 0);
}

std::string Driver::outputPath(StringRef suffix) const {
  SmallString<128> path(flags.outputDir);
  llvm::sys::path::append(path, prefix + suffix.str());
  return std::string(path);
}

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
  StringRef inputPath = flags.inputPath;
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
    importOptions.persistentVariables = flags.persistentVariables;
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

LogicalResult Driver::setIndexBitwidth(ModuleOp module) {
  // 64 bits unless asked: 32 bits makes some networks faster on the
  // Cortex-M and others much slower (docs/Firmware.md, "Index width").
  unsigned bits = flags.indexBitwidth;
  if (bits == 0)
    return success();
  auto indexType = IndexType::get(&ctx);
  ctx.getOrLoadDialect<DLTIDialect>();
  if (module->hasAttr(DLTIDialect::kDataLayoutAttrName)) {
    uint64_t own = DataLayout(module).getTypeSizeInBits(indexType);
    if (own == bits)
      return success();
    return emitError(module.getLoc())
           << "the module's data layout (" << DLTIDialect::kDataLayoutAttrName
           << ") gives `index` " << own << " bits, --index-bitwidth "
           << bits << "; drop one of them";
  }
  auto entry = DataLayoutEntryAttr::get(
      indexType, IntegerAttr::get(IntegerType::get(&ctx, 32), bits));
  module->setAttr(DLTIDialect::kDataLayoutAttrName,
                  DataLayoutSpecAttr::get(&ctx, {entry}));
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

/// Lowers the kept plan, with the exports and the firmware files.
LogicalResult Driver::lower(ModuleOp module) {
  Stopwatch watch;
  ObjectTarget target;
  options.planJson = outputPath(".plan.json");
  options.planReport = outputPath(".plan.txt");
  options.planSvg = outputPath(".plan.svg");
  options.planLd = outputPath(".ld");
  options.planHeader = outputPath(".h");
  options.triple = target.triple;
  options.lower = true;
  options.toLLVM = true;
  PassManager lowering(&ctx);
  buildHeliaPlanOutputPipeline(lowering, options);
  if (failed(lowering.run(module)) || failed(noteChoice()))
    return failure();
  if (flags.saveTemps && failed(writeModule(module, ".llvm.mlir")))
    return failure();
  progress("lower", watch,
           Twine("LLVM dialect; ") + outputPath(".h") + ", " +
               outputPath(".ld") + ", " + outputPath(".plan.{json,txt,svg}"));
  return success();
}

int Driver::run() {
  OwningOpRef<ModuleOp> module = import();
  if (!module || failed(checkPrefix(*module)) ||
      failed(setIndexBitwidth(*module)))
    return 1;

  // The test data is checked against the entry point (the first planned
  // function, which the model API wraps) before anything is built.
  std::optional<GoldenData> golden;
  std::optional<TestTools> tools;
  if (!flags.test.dataPath.empty()) {
    if (options.arenaMode != ArenaMode::Global) {
      emitError(inputLoc()) << "--test-data links an image with the plan's "
                            << "own arenas; it needs --arena-mode=global";
      return 1;
    }
    if (!options.modelApi) {
      emitError(inputLoc()) << "--test-data runs the model through its model "
                            << "API; it needs --model-api=true";
      return 1;
    }
    func::FuncOp entry;
    for (auto func : module->getOps<func::FuncOp>())
      if (!entry && isPlannedFunction(func))
        entry = func;
    FailureOr<std::vector<TensorSpec>> specs = getTensorSpecs(entry);
    if (failed(specs))
      return 1;
    FailureOr<GoldenData> data =
        loadGoldenData(&ctx, flags.test, std::move(*specs));
    if (failed(data))
      return 1;
    golden = std::move(*data);
    FailureOr<TestTools> found = findTestTools(inputLoc());
    if (failed(found))
      return 1;
    tools = *found;
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(flags.outputDir)) {
    emitError(inputLoc()) << "cannot create the output directory '"
                          << flags.outputDir << "': " << ec.message();
    return 1;
  }
  if (flags.saveTemps && failed(writeModule(*module, ".tosa.mlir")))
    return 1;

  if (!flags.rulesPath.empty())
    options.rulesFile = flags.rulesPath;
  FailureOr<Candidate> planned = plan(*module);
  if (failed(planned))
    return 1;
  ModuleOp planModule = *planned->module;
  if (failed(lower(planModule)))
    return 1;

  Stopwatch compileWatch;
  ObjectTarget target;
  std::string objectPath = outputPath(".o");
  FailureOr<uint64_t> size = emitObjectFile(
      planModule, target, objectPath, flags.saveTemps ? outputPath(".ll") : "");
  if (failed(size))
    return 1;
  progress("compile", compileWatch,
           Twine(objectPath) + " (" + target.triple + ", " + target.cpu +
               ", hard float, -O2): " + Twine(*size) + " bytes");

  if (!golden)
    return 0;
  FailureOr<std::vector<uint8_t>> device =
      runOnDevice(*this, prefix, objectPath, *golden, flags.test, *tools);
  if (failed(device))
    return 1;
  FailureOr<bool> passed =
      compareOutputs(FileLineColLoc::get(&ctx, flags.test.dataPath, 0, 0),
                     *golden, *device, flags.test);
  if (failed(passed))
    return 1;
  return *passed ? 0 : 2;
}
