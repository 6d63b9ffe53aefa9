//===- ModelApiSignature.cpp - the entry point as the model API calls it --===//
//
// `<prefix>_model_run` calls the lowered entry point directly, with the
// expanded memref descriptors finalize-memref-to-llvm gives its arguments
// and reading the descriptors it returns. These checks say, once and
// before anything is built, that the LLVM function has exactly that shape,
// so that a module lowered otherwise (bare pointers, a hand-written record)
// is a located error rather than a malformed call.
//
//===----------------------------------------------------------------------===//

#include "ModelApi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::helia;

/// Appends what finalize-memref-to-llvm makes of a memref of rank `rank`
/// (allocated, aligned, offset, sizes, strides), with `index` for the
/// integers, or of a scalar of LLVM type `scalar`.
static void appendExpected(SmallVectorImpl<Type> &types, Type ptr, Type index,
                           std::optional<int64_t> rank, Type scalar) {
  if (!rank) {
    types.push_back(scalar);
    return;
  }
  types.append({ptr, ptr});
  types.append(1 + 2 * *rank, index);
}

LogicalResult mlir::helia::checkEntrySignature(LLVM::LLVMFuncOp func,
                                               ArrayRef<FirmwareTensor> inputs,
                                               ArrayRef<Type> inputFields,
                                               unsigned numCallerArenas,
                                               ArrayRef<FirmwareTensor> outputs,
                                               ArrayRef<Type> outputFields) {
  MLIRContext *ctx = func.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  LLVM::LLVMFunctionType type = func.getFunctionType();
  // The index type is that of the first descriptor's offset.
  Type index = IntegerType::get(ctx, 64);
  for (auto [i, param] : llvm::enumerate(type.getParams()))
    if (i >= 2 && param.isInteger() && type.getParams()[i - 2] == ptr) {
      index = param;
      break;
    }
  SmallVector<Type> params;
  for (auto [tensor, field] : llvm::zip_equal(inputs, inputFields))
    appendExpected(params, ptr, index,
                   tensor.isMemRef ? std::optional<int64_t>(tensor.shape.size())
                                   : std::nullopt,
                   field);
  for (unsigned i = 0; i < numCallerArenas; ++i)
    appendExpected(params, ptr, index, 1, Type());
  SmallVector<Type> results;
  for (auto [tensor, field] : llvm::zip_equal(outputs, outputFields)) {
    if (!tensor.isMemRef) {
      results.push_back(field);
      continue;
    }
    SmallVector<Type> descriptor = {ptr, ptr, index};
    if (!tensor.shape.empty()) {
      auto dims = LLVM::LLVMArrayType::get(index, tensor.shape.size());
      descriptor.append({dims, dims});
    }
    results.push_back(LLVM::LLVMStructType::getLiteral(ctx, descriptor));
  }
  Type result = results.empty()      ? LLVM::LLVMVoidType::get(ctx)
                : results.size() == 1 ? results.front()
                                      : LLVM::LLVMStructType::getLiteral(ctx, results);
  auto expected = LLVM::LLVMFunctionType::get(result, params);
  if (type == expected)
    return success();
  return func.emitError("@")
         << func.getName() << " has type " << type
         << ", not the type the model API calls (" << expected
         << "): lower with finalize-memref-to-llvm's expanded descriptors "
            "(no bare pointers) from the recorded entry type";
}
