//===- helia-opt.cpp - helia optimizer driver -----------------------------===//
//
// The helia dialect and passes plus every upstream dialect, extension and
// pass, so that one tool takes a TOSA or linalg model through the helia
// pipeline down to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/InitHelia.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlir::helia {
/// The test passes (lib/Dialect/Helia/Test), for lit tests only.
void registerHeliaTestPasses();
} // namespace mlir::helia

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::helia::registerHeliaPasses();
  mlir::helia::registerHeliaTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::helia::registerHeliaDialect(registry);

  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "helia memory planner driver\n", registry);
  // `-o out/model.llvm.mlir` works without `mkdir out`, as plan-ld= and the
  // other writers of the pipeline do.
  if (output != "-")
    if (llvm::StringRef parent = llvm::sys::path::parent_path(output);
        !parent.empty())
      (void)llvm::sys::fs::create_directories(parent);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
