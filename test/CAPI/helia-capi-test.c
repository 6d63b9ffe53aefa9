/*===- helia-capi-test.c - use helia from C -------------------------------===*\
|*                                                                            *|
|* Registers helia through its C API, plans a module with the memory         *|
|* pipeline, prints the planned module, then checks that malformed options   *|
|* and an over-capacity plan fail with a message. Run by capi.test.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "helia-c/Helia.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printError(MlirStringRef text, void *userData) {
  (void)userData;
  printf("error: %.*s\n", (int)text.length, text.data);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToStdout,
                    NULL);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static const char *kModule =
    "module {\n"
    "  func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {\n"
    "    %a = \"tfl.relu\"(%x) : (tensor<64xf32>) -> tensor<64xf32>\n"
    "    %b = \"tfl.relu\"(%a) : (tensor<64xf32>) -> tensor<64xf32>\n"
    "    return %b : tensor<64xf32>\n"
    "  }\n"
    "}\n";

static MlirModule parse(MlirContext context) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse the module\n");
    exit(1);
  }
  return module;
}

/* Imports the .tflite file at `path` through the C API; prints the module. */
static void importFile(MlirContext context, const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  static char bytes[1 << 16];
  size_t size = fread(bytes, 1, sizeof(bytes), file);
  fclose(file);
  MlirModule module = heliaImportTFLite(
      context, mlirStringRefCreate(bytes, size),
      mlirStringRefCreateFromCString("model.tflite"),
      mlirStringRefCreateFromCString("net"));
  printf("import: %s\n", mlirModuleIsNull(module) ? "failed" : "ok");
  if (mlirModuleIsNull(module))
    return;
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);
}

int main(int argc, char **argv) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  heliaRegisterDialect(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextSetAllowUnregisteredDialects(context, true);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);

  MlirStringRef name =
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__helia__());
  printf("dialect: %.*s\n", (int)name.length, name.data);

  /* Plan and print the module. */
  MlirModule module = parse(context);
  MlirLogicalResult result = heliaRunMemoryPipeline(
      module, mlirStringRefCreateFromCString("lower=false platform=apollo3p_evb"),
      printError, NULL);
  printf("plan: %s\n", mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);

  /* Malformed options fail before anything runs. */
  module = parse(context);
  result = heliaRunMemoryPipeline(
      module, mlirStringRefCreateFromCString("algorithm=fastest"),
      printError, NULL);
  printf("bad options: %s\n",
         mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  mlirModuleDestroy(module);

  /* A plan that does not fit is a located error. */
  module = parse(context);
  result = heliaRunMemoryPipeline(
      module,
      mlirStringRefCreateFromCString(
          "lower=false memory-limit=dtcm=256 memory-limit=sram=0 "
          "memory-limit=itcm=0"),
      printError, NULL);
  printf("over capacity: %s\n",
         mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  mlirModuleDestroy(module);

  /* A TFLite model imports into a module of TOSA; bytes that are not one
     give a located error and a null module. */
  if (argc > 1) {
    importFile(context, argv[1]);
    MlirModule garbage = heliaImportTFLite(
        context, mlirStringRefCreateFromCString("not a model"),
        mlirStringRefCreateFromCString("garbage.tflite"),
        mlirStringRefCreateFromCString(""));
    printf("garbage: %s\n", mlirModuleIsNull(garbage) ? "null" : "module");
  }

  mlirContextDestroy(context);
  return 0;
}
