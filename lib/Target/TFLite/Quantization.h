//===- Quantization.h - TFLite's fixed-point parameters ---------*- C++ -*-===//
//
// The integer parameters TFLite's kernels derive from a tensor's float scales
// when they prepare an operator: a 32-bit multiplier with its fixed point at
// bit 31 and a power-of-two exponent. The importer computes them the same
// way, so that `tosa.rescale` reproduces TFLite's arithmetic bit for bit
// (docs/TFLite.md, "Quantization").
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_QUANTIZATION_H
#define HELIA_LIB_TARGET_TFLITE_QUANTIZATION_H

#include <cstdint>

namespace mlir::helia::tflite {

/// A real multiplier as TFLite stores it: real = multiplier * 2^(shift - 31),
/// with multiplier in [2^30, 2^31) (or 0 for a zero or negligible real).
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  /// Positive for a left shift, negative for a right shift.
  int shift = 0;
};

/// TFLite's QuantizeMultiplier: frexp, round half away from zero of the
/// mantissa times 2^31, renormalised when that rounds up to 2^31; a shift
/// below -31 flushes the multiplier to zero.
QuantizedMultiplier quantizeMultiplier(double real);

/// The shift operand of a 32-bit `tosa.rescale` with double rounding that
/// computes TFLite's MultiplyByQuantizedMultiplier(int32) for `qm`: 31 minus
/// TFLite's shift. Also returns false when TOSA cannot express it (a shift
/// outside [2, 62]).
bool getRescale32Shift(const QuantizedMultiplier &qm, int &tosaShift);

/// The 16-bit multiplier and shift of TFLite's MultiplyByQuantizedMultiplier
/// for a 64-bit accumulator (the 16x8 kernels): the multiplier rounded to
/// 16 bits, and 15 minus TFLite's shift, applied with single rounding.
bool getRescale16(const QuantizedMultiplier &qm, int16_t &multiplier,
                  int &tosaShift);

} // namespace mlir::helia::tflite

#endif // HELIA_LIB_TARGET_TFLITE_QUANTIZATION_H
