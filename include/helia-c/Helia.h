/*===-- helia-c/Helia.h - C API of the helia dialect and pipeline -*- C -*-===*\
|*                                                                            *|
|* The C interface of helia, in the style of the mlir-c headers: register    *|
|* the dialect and the passes, and run the memory pipeline on a module, so   *|
|* that bindings (Python, Rust, ...) can follow. Works with MLIR's own C API *|
|* (mlir-c/IR.h) for contexts, modules and diagnostics. See                  *|
|* docs/Embedding.md.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef HELIA_C_HELIA_H
#define HELIA_C_HELIA_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The helia dialect handle: mlirGetDialectHandle__helia__().
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Helia, helia);

/// Adds the helia dialect to `registry`.
MLIR_CAPI_EXPORTED void heliaRegisterDialect(MlirDialectRegistry registry);

/// Registers every helia pass and the `helia-memory-pipeline` with the global
/// pass registry, so that textual pipelines (mlirParsePassPipeline) can name
/// them. Call once, before parsing pipelines; not needed for
/// heliaAddMemoryPipeline and heliaRunMemoryPipeline.
MLIR_CAPI_EXPORTED void heliaRegisterPasses(void);

/// Adds the memory pipeline (resolve, assign, verify and the exports asked
/// for) to `passManager`, which must be anchored on `builtin.module`.
/// `options` uses the pipeline's textual option syntax, e.g.
/// "platform=apollo4p_evb rules-file=rules.json plan-json=plan.json".
/// On malformed options, calls `errorCallback` (if non-null) with the message
/// and returns failure without changing `passManager`.
MLIR_CAPI_EXPORTED MlirLogicalResult heliaAddMemoryPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

/// Runs the memory pipeline with `options` (as for heliaAddMemoryPipeline) on
/// `module`. The plan's errors and remarks are emitted as diagnostics on the
/// module's context (see mlirContextAttachDiagnosticHandler); option errors
/// go to `errorCallback`. Returns failure if either happened.
MLIR_CAPI_EXPORTED MlirLogicalResult heliaRunMemoryPipeline(
    MlirModule module, MlirStringRef options, MlirStringCallback errorCallback,
    void *userData);

/// Imports the TFLite model in `buffer` (the bytes of a .tflite file;
/// `fileName` names it in diagnostics and gives the function its default
/// name, `functionName` overrides that name when not empty) into a new
/// module of TOSA ops in `context` (docs/TFLite.md). On malformed or
/// unsupported input, emits located errors on the context's diagnostic
/// handlers and returns a null module (mlirModuleIsNull).
MLIR_CAPI_EXPORTED MlirModule heliaImportTFLite(MlirContext context,
                                                MlirStringRef buffer,
                                                MlirStringRef fileName,
                                                MlirStringRef functionName);

#ifdef __cplusplus
}
#endif

#endif // HELIA_C_HELIA_H
