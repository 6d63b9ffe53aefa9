//===- Convolution.h - what the convolution converters share ----*- C++ -*-===//
//
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV become a
// TOSA convolution into an accumulator (f32, i32 for int8, i48 for 16x8)
// followed by TFLite's requantisation as a `tosa.rescale`. This header
// declares the steps they share (Convolution.cpp): the accumulator kind, the
// bias, the requantisation, the zero points and the filter layout.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_CONVOLUTION_H
#define HELIA_LIB_TARGET_TFLITE_CONVOLUTION_H

#include "Importer.h"

namespace mlir::helia::tflite {

/// How one quantized (or float) convolution accumulates.
struct ConvKind {
  bool isFloat = false;
  /// int16 activations with int8 weights.
  bool is16x8 = false;
  /// The bias (and TFLite's accumulator) is int64.
  bool wideBias = false;
  Type accType;
};

/// The accumulation of the convolution of input `inputIdx` with filter
/// `filterIdx` (bias `biasIdx`, or -1), or an error for unsupported types.
/// `biasSelectsAccumulator`: TFLite's 16x8 CONV_2D and FULLY_CONNECTED
/// accumulate in the bias's type; its DEPTHWISE_CONV_2D and TRANSPOSE_CONV
/// read any 16x8 bias as int64.
FailureOr<ConvKind> getConvKind(OpContext &ctx, unsigned inputIdx,
                                unsigned filterIdx, int biasIdx,
                                bool biasSelectsAccumulator);

/// The bias operand: the model's bias (retyped to the accumulator) or
/// zeros.
FailureOr<Value> buildBias(OpContext &ctx, int biasIdx, int64_t channels,
                           const ConvKind &kind);

/// Rescales the accumulator to the output type and applies the fused
/// activation.
/// `floatProduct`: TFLite's per-tensor FULLY_CONNECTED multiplies the input
/// and filter scales in float before dividing in double.
FailureOr<Value> requantize(OpContext &ctx, Value acc, const ConvKind &kind,
                            unsigned inputIdx, unsigned filterIdx,
                            int64_t channels, fb::ActivationFunctionType act,
                            int64_t outputZp, bool floatProduct = false);

/// The zero point TFLite's convolution kernels apply to an activation: none
/// for 16x8.
int64_t getActivationZp(const ConvKind &kind, const TensorQuant &q);

/// A zero point operand of a TOSA convolution, located at `what`.
Value buildZeros(OpContext &ctx, Type element, int64_t zp, StringRef what);

/// A constant filter re-laid out for TOSA: `permute(old index) -> new
/// index` over the same bytes, or a reshape when the layout is unchanged.
FailureOr<Value>
buildFilter(OpContext &ctx, unsigned filterIdx, ArrayRef<int64_t> newShape,
            function_ref<int64_t(ArrayRef<int64_t>)> newIndexOf = nullptr);

/// Input `i` has rank `rank`, or an error naming it `what`.
LogicalResult checkRank(OpContext &ctx, unsigned i, int64_t rank,
                        StringRef what);

} // namespace mlir::helia::tflite

#endif // HELIA_LIB_TARGET_TFLITE_CONVOLUTION_H
