//===- Helia.cpp - C API of the helia dialect and pipeline ----------------===//

#include "helia-c/Helia.h"

#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/Pipelines/Pipelines.h"
#include "helia/InitHelia.h"
#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Helia, helia, mlir::helia::HeliaDialect)

void heliaRegisterDialect(MlirDialectRegistry registry) {
  mlir::helia::registerHeliaDialect(*unwrap(registry));
}

void heliaRegisterPasses(void) { mlir::helia::registerHeliaPasses(); }

MlirLogicalResult heliaAddMemoryPipeline(MlirOpPassManager passManager,
                                         MlirStringRef options,
                                         MlirStringCallback errorCallback,
                                         void *userData) {
  mlir::helia::HeliaMemoryPipelineOptions parsed;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsed.parseFromString(unwrap(options), errorStream))) {
    // llvm::cl reports some errors on stderr only; always say which string
    // failed.
    if (errors.empty())
      errorStream << "invalid helia-memory-pipeline options '"
                  << unwrap(options) << "'";
    if (errorCallback)
      errorCallback(wrap(StringRef(errors)), userData);
    return mlirLogicalResultFailure();
  }
  mlir::helia::buildHeliaMemoryPipeline(*unwrap(passManager), parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult heliaRunMemoryPipeline(MlirModule module,
                                         MlirStringRef options,
                                         MlirStringCallback errorCallback,
                                         void *userData) {
  ModuleOp op = unwrap(module);
  PassManager pm(op->getContext(), ModuleOp::getOperationName());
  if (mlirLogicalResultIsFailure(heliaAddMemoryPipeline(
          wrap(static_cast<OpPassManager *>(&pm)), options, errorCallback,
          userData)))
    return mlirLogicalResultFailure();
  return wrap(pm.run(op));
}

MlirModule heliaImportTFLite(MlirContext context, MlirStringRef buffer,
                             MlirStringRef fileName,
                             MlirStringRef functionName) {
  mlir::helia::tflite::ImportOptions options;
  options.functionName = unwrap(functionName).str();
  llvm::MemoryBufferRef ref(unwrap(buffer), unwrap(fileName));
  OwningOpRef<ModuleOp> module =
      mlir::helia::tflite::importTFLite(ref, unwrap(context), options);
  return wrap(module.release());
}
