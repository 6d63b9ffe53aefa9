//===- HeliaPlugin.cpp - helia as a dialect and pass plugin ---------------===//
//
// Loads helia into any MlirOptMain-based tool built against the same
// libMLIR.so (Debian's mlir-opt, torch-mlir-opt, ...):
//
//   mlir-opt --load-dialect-plugin=lib/HeliaPlugin.so \
//            --load-pass-plugin=lib/HeliaPlugin.so \
//            --helia-memory-pipeline model.mlir
//
// The dialect entry point registers the helia dialect (and the passes, so
// that one flag suffices for tools that only load dialect plugins); the pass
// entry point registers the passes and the pipeline.
//
//===----------------------------------------------------------------------===//

#include "helia/InitHelia.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Helia", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            helia::registerHeliaDialect(*registry);
            helia::registerHeliaPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "HeliaPasses", LLVM_VERSION_STRING,
          []() { helia::registerHeliaPasses(); }};
}
