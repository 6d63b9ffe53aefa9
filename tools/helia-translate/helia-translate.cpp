//===- helia-translate.cpp - helia's translations -------------------------===//
//
// mlir-translate with helia's importers: `--import-tflite model.tflite`
// prints the model as a module of TOSA (docs/TFLite.md).
//
//===----------------------------------------------------------------------===//

#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::helia::tflite::registerImportTFLiteTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "helia translation driver\n"));
}
