//===- ImportTFLite.h - .tflite flatbuffers to TOSA -------------*- C++ -*-===//
//
// The TFLite importer: a .tflite flatbuffer becomes a module with one
// `func.func` whose arguments and results are the subgraph's inputs and
// outputs, computed by TOSA ops (MLIR 22's form: zero points, multipliers
// and shifts as operands), weights as `tosa.const` holding the file's bytes,
// and every tensor named by its TFLite name in its location, so that
// placement rules written for heliaAOT apply unchanged (docs/TFLite.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_TARGET_TFLITE_IMPORTTFLITE_H
#define HELIA_TARGET_TFLITE_IMPORTTFLITE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class MemoryBufferRef;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace helia::tflite {

struct ImportOptions {
  /// Name of the function; empty derives it from the file name (its stem,
  /// with every character outside [A-Za-z0-9_] replaced by '_').
  std::string functionName;
  /// Variable tensors (an LSTM's hidden and cell state) become persistent
  /// state: each one a trailing `helia.persistent` argument (its value
  /// before the run) and a trailing result (after it), in tensor order.
  /// Off: every run starts from the state TFLite Micro resets them to.
  bool persistentVariables = false;
};

/// Adds the dialects the importer creates ops of to `registry`.
void registerImportDialects(DialectRegistry &registry);

/// Imports the model in `buffer` (its identifier names the file in
/// diagnostics). Every problem is a located error on `context`, naming the
/// file, the operator or tensor and what is wrong; returns null then.
OwningOpRef<ModuleOp> importTFLite(llvm::MemoryBufferRef buffer,
                                   MLIRContext *context,
                                   const ImportOptions &options = {});

/// The default function name for a file: its stem, sanitised.
std::string getDefaultFunctionName(llvm::StringRef fileName);

/// Registers the `--import-tflite` translation (for helia-translate).
void registerImportTFLiteTranslation();

} // namespace helia::tflite
} // namespace mlir

#endif // HELIA_TARGET_TFLITE_IMPORTTFLITE_H
