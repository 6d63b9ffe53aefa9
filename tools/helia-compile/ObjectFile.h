//===- ObjectFile.h - an LLVM-dialect module to a Cortex-M55 object ------===//
//
// helia-compile's back end: the LLVM dialect is translated to LLVM IR,
// optimised with the new pass manager's default -O2 pipeline and emitted as
// an ELF object through LLVM's ARM target, in process (no clang).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_TOOLS_HELIA_COMPILE_OBJECTFILE_H
#define HELIA_TOOLS_HELIA_COMPILE_OBJECTFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace helia::compile {

/// The machine the object is for. The defaults are the firmware's: a
/// Cortex-M55 (Armv8.1-M with MVE and the FPU) with the hard-float ABI, as
/// scripts/firmware-image.sh compiles with clang.
struct ObjectTarget {
  std::string triple = "thumbv8.1m.main-none-eabi";
  std::string cpu = "cortex-m55";
  bool hardFloat = true;
};

/// Translates `module` (in the LLVM dialect) to LLVM IR, optimises it at
/// -O2 and writes the object to `objectPath`; with `llvmIRPath` non-empty
/// the optimised IR is written there too. Errors are emitted at the
/// module's location and name what failed (the target, a path). Returns
/// the object's size in bytes.
mlir::FailureOr<uint64_t> emitObjectFile(mlir::ModuleOp module,
                                         const ObjectTarget &target,
                                         llvm::StringRef objectPath,
                                         llvm::StringRef llvmIRPath = "");

} // namespace helia::compile

#endif // HELIA_TOOLS_HELIA_COMPILE_OBJECTFILE_H
