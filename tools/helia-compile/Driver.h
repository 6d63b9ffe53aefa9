//===- Driver.h - helia-compile's stages ------------------------*- C++ -*-===//
//
// The driver of helia-compile (docs/Compile.md): import, plan, lower,
// compile, and with --test-data the golden-data test (GoldenTest.h). The
// command line lives in helia-compile.cpp; the driver sees it as
// DriverOptions.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_TOOLS_HELIA_COMPILE_DRIVER_H
#define HELIA_TOOLS_HELIA_COMPILE_DRIVER_H

#include "GoldenTest.h"

#include "helia/Dialect/Helia/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <string>

namespace helia::compile {

enum class PadInPlaceMode { Auto, Always, Never };

/// helia-compile's own options (the planning options are the pipeline's,
/// in PipelineFlags).
struct DriverOptions {
  std::string inputPath;
  std::string outputDir = ".";
  std::string rulesPath;
  bool quiet = false;
  bool saveTemps = false;
  PadInPlaceMode padInPlace = PadInPlaceMode::Auto;
  /// A .tflite model's variable tensors become persistent state
  /// (tflite::ImportOptions::persistentVariables).
  bool persistentVariables = false;
  /// Bit width of `index` in the lowered code (a `dlti.dl_spec` on the
  /// module before planning); 0: the module's own data layout, else 64.
  unsigned indexBitwidth = 0;
  /// --test-data and its companions; inactive when dataPath is empty.
  TestOptions test;
};

/// helia-memory-pipeline's options as helia-compile's own flags: the very
/// option objects of HeliaMemoryPipelineOptions, moved from the pipeline's
/// option set to the top-level command line. A new pipeline option is a
/// flag here, with its description and values, without an edit.
struct PipelineFlags : mlir::helia::HeliaMemoryPipelineOptions {
  void exposeOnCommandLine(llvm::cl::OptionCategory &category);
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
  mlir::OwningOpRef<mlir::ModuleOp> module;
  bool padInPlace = false;
  bool planned = false;
  /// The planning's diagnostics, printed for the variant that is kept.
  std::string diagnostics;
  int64_t scratch = 0;
};

class Driver {
public:
  Driver(mlir::MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
         const DriverOptions &driverOptions, PipelineFlags &options)
      : ctx(ctx), sourceMgr(sourceMgr), flags(driverOptions), options(options) {
  }

  /// Runs every stage. Returns 0, 1 after an error, or 2 when the
  /// golden-data test ran and an output is out of tolerance.
  int run();

  /// One progress line on stderr (none with --quiet).
  void progress(llvm::StringRef stage, const Stopwatch &watch,
                const llvm::Twine &what) const;
  mlir::Location inputLoc();
  std::string outputPath(llvm::StringRef suffix) const;

private:
  mlir::OwningOpRef<mlir::ModuleOp> import();
  mlir::LogicalResult checkPrefix(mlir::ModuleOp module);
  /// With --index-bitwidth, puts a `dlti.dl_spec` with that index bit
  /// width on the module (before planning, so that the plan sizes `index`
  /// tensors as the code will); a module's own spec must agree.
  mlir::LogicalResult setIndexBitwidth(mlir::ModuleOp module);
  mlir::LogicalResult writeModule(mlir::ModuleOp module,
                                  llvm::StringRef suffix);
  mlir::FailureOr<Candidate> plan(mlir::ModuleOp module);
  Candidate planVariant(mlir::ModuleOp module, bool withPadInPlace);
  mlir::LogicalResult noteChoice();
  mlir::LogicalResult lower(mlir::ModuleOp module);

  mlir::MLIRContext &ctx;
  llvm::SourceMgr &sourceMgr;
  const DriverOptions &flags;
  PipelineFlags &options;
  std::string prefix;
  std::string choice;
};

} // namespace helia::compile

#endif // HELIA_TOOLS_HELIA_COMPILE_DRIVER_H
