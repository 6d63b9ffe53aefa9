//===- helia-translate.cpp - helia's translations -------------------------===//
//
// mlir-translate with helia's importers: `--import-tflite model.tflite`
// prints the model as a module of TOSA (docs/TFLite.md).
//
// Locations are printed by default: they carry the TFLite tensor names that
// placement rules match, and a module printed without them would plan with
// anonymous tensors. `--mlir-print-debuginfo=false` turns them off.
//
//===----------------------------------------------------------------------===//

#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

int main(int argc, char **argv) {
  mlir::helia::tflite::registerImportTFLiteTranslation();
  llvm::SmallVector<char *> args(argv, argv + argc);
  bool explicitDebugInfo = false;
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with("--mlir-print-debuginfo") ||
        llvm::StringRef(argv[i]).starts_with("-mlir-print-debuginfo"))
      explicitDebugInfo = true;
  static char debugInfo[] = "--mlir-print-debuginfo";
  if (!explicitDebugInfo)
    args.insert(args.begin() + 1, debugInfo);
  return mlir::failed(mlir::mlirTranslateMain(
      static_cast<int>(args.size()), args.data(),
      "helia translation driver\n"));
}
