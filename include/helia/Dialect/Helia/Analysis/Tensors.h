//===- Tensors.h - which values are planned tensors, and who they are -*- C++ -*-===//
//
// The identity of the tensors that helia plans: which values are tensors, in
// which order, with which name and kind. Every pass of the pipeline sees the
// same tensors through these functions.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_TENSORS_H
#define HELIA_DIALECT_HELIA_ANALYSIS_TENSORS_H

#include "helia/Dialect/Helia/IR/ByteSize.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/Value.h"

namespace mlir::helia {

/// One tensor of a function in program order.
struct TensorInfo {
  Value value;
  /// Position in the function's program order: entry-block arguments first,
  /// then the results of the ops of the body in order.
  uint64_t id;
  /// Name from `helia.name` or the location; null when it has none.
  StringAttr name;
  TensorKind kind;

  /// The name diagnostics and reports give the tensor (getTensorDisplayName).
  std::string getDisplayName() const;
};

/// The name diagnostics, remarks and reports give a tensor: `name`, or
/// `#<id>` (its position in program order) when it has none.
std::string getTensorDisplayName(StringRef name, uint64_t id);

/// True for values helia plans: values of tensor type.
bool isTensorValue(Value value);

/// Returns the tensor's name: a `helia.name` attribute (on the defining op,
/// a string or one per result; on a function argument, a string), else the
/// name of its location (`NameLoc`, also inside a `FusedLoc`; a fused
/// location with one name per result names each result). Null if none.
StringAttr getTensorName(Value value);

/// Returns the tensor's kind: constant for results of ConstantLike ops and
/// of ops marked `helia.constant`; persistent for values marked
/// `helia.persistent` or `tflm.persistent`; scratch otherwise.
TensorKind getTensorKind(Value value);

/// The `#helia.placement` of a tensor (from its op's `helia.placement`
/// array, or its function's argument attribute), or null.
PlacementAttr getPlacement(Value value);

/// The `#helia.binding` of a tensor (from its op's `helia.binding` array, or
/// its function's argument attribute for an entry-block argument), or null.
BindingAttr getBinding(Value value);

/// Collects the tensors of `func` in program order: entry-block arguments,
/// then the results of the ops directly in the body (ops nested in regions
/// belong to their parent op's step and are not planned separately).
/// Emits a located error and fails for a tensor that is not ranked and
/// statically shaped, and for a constant whose value is not known before the
/// program runs: a function argument marked `helia.constant`, or a result
/// marked so that does not fold (`m_Constant`), except the results of
/// unregistered ops without operands or regions (imported weights).
FailureOr<SmallVector<TensorInfo>> collectTensors(FunctionOpInterface func);

/// Name of the TFLite Micro persistence marker used by imported models.
inline constexpr llvm::StringLiteral kTflmPersistentAttrName =
    "tflm.persistent";

} // namespace mlir::helia

#endif // HELIA_DIALECT_HELIA_ANALYSIS_TENSORS_H
