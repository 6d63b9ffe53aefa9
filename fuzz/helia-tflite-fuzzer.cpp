//===- helia-tflite-fuzzer.cpp - the TFLite importer under libFuzzer -----===//
//
// Feeds arbitrary bytes to importTFLite as a .tflite file. Either the import
// fails with at least one located error, or it yields a module that passes
// the verifier (importTFLite verifies it) and prints; never a crash.
//
//===----------------------------------------------------------------------===//

#include "helia/Target/TFLite/ImportTFLite.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

[[noreturn]] static void fail(const Twine &what) {
  llvm::errs() << "helia tflite fuzzer: " << what << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  unsigned errors = 0;
  bool unlocated = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      ++errors;
      unlocated |= isa<UnknownLoc>(diag.getLocation());
    }
    return success();
  });
  llvm::MemoryBufferRef buffer(
      StringRef(reinterpret_cast<const char *>(data), size), "fuzz.tflite");
  OwningOpRef<ModuleOp> module = helia::tflite::importTFLite(buffer, &context);
  if (!module) {
    if (errors == 0)
      fail("the import failed without an error");
    if (unlocated)
      fail("an error without a location");
    return 0;
  }
  if (errors)
    fail("the import succeeded after an error");
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return 0;
}
