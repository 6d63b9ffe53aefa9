//===- ModelApi.h - the model API of a firmware module ----------*- C++ -*-===//
//
// helia-assign-sections gives every lowered module the same C API whatever
// its plan: `<prefix>_model_init`, `<prefix>_model_run`,
// `<prefix>_bind_arena` and the plan hash, as LLVM-dialect functions over
// the entry point and the arenas (docs/Firmware.md).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MODELAPI_H
#define HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MODELAPI_H

#include "helia/Dialect/Helia/Export/FirmwareLayout.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::helia {

/// Emits the plan hash globals and, when the layout has a model,
/// `<prefix>_bind_arena`, `<prefix>_model_init_plan` and
/// `<prefix>_model_run` into `module` (LLVM dialect, after
/// helia-assign-sections renamed the arenas).
LogicalResult emitModelApi(ModuleOp module, const FirmwareLayout &layout);

/// Checks that `func` has the LLVM type finalize-memref-to-llvm gives an
/// entry point of `inputs` (then `numCallerArenas` arena memrefs) and
/// `outputs`: expanded descriptors, scalars as `inputFields`/`outputFields`
/// (their context fields). Emits a located error and fails otherwise.
LogicalResult checkEntrySignature(LLVM::LLVMFuncOp func,
                                  ArrayRef<FirmwareTensor> inputs,
                                  ArrayRef<Type> inputFields,
                                  unsigned numCallerArenas,
                                  ArrayRef<FirmwareTensor> outputs,
                                  ArrayRef<Type> outputFields);

} // namespace mlir::helia

#endif // HELIA_LIB_DIALECT_HELIA_TRANSFORMS_MODELAPI_H
