//===- FixedPoint.h - TFLite's fixed-point nonlinear functions --*- C++ -*-===//
//
// Scalar transcriptions of the integer arithmetic that TFLite Micro's
// reference kernels use for LOGISTIC, TANH and SOFTMAX: gemmlowp's
// FixedPoint<int32_t, N> functions (exp on negative values, logistic, tanh),
// the multipliers their Prepare derives, and the float lookup tables the
// int16 kernels build. The importer evaluates them at import time where a
// result is a function of one byte (the int8 tables) and where the kernel
// itself fills a table in Prepare (the int16 SOFTMAX tables); the
// arithmetic that depends on a whole row (the reciprocal of a softmax sum)
// is emitted as IR by the converters. No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_TARGET_TFLITE_FIXEDPOINT_H
#define HELIA_LIB_TARGET_TFLITE_FIXEDPOINT_H

#include <array>
#include <cstdint>

namespace mlir::helia::tflite::fixedpoint {

/// gemmlowp's SaturatingRoundingDoublingHighMul on int32.
int32_t srdhm(int32_t a, int32_t b);
/// gemmlowp's RoundingDivideByPOT: round to nearest, ties away from zero.
int32_t roundingDivideByPOT(int32_t x, int exponent);
/// gemmlowp's SaturatingRoundingMultiplyByPOT<exponent>: a saturating left
/// shift for a positive exponent, a rounding right shift for a negative one.
int32_t saturatingRoundingMultiplyByPOT(int32_t x, int exponent);
/// TFLite's MultiplyByQuantizedMultiplier(int32) with double rounding.
int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                      int shift);

/// gemmlowp's exp_on_negative_values for FixedPoint<int32_t, integerBits>
/// (raw value in, Q0.31 raw value out).
int32_t expOnNegativeValues(int32_t a, int integerBits);
/// gemmlowp's one_over_one_plus_x_for_x_in_0_1 (Q0.31 in and out).
int32_t oneOverOnePlusX(int32_t a);
/// gemmlowp's logistic and tanh on FixedPoint<int32_t, integerBits>.
int32_t logistic(int32_t a, int integerBits);
int32_t tanh(int32_t a, int integerBits);

/// TFLite's CalculateInputRadius(integerBits, leftShift, 31).
int32_t calculateInputRadius(int integerBits, int leftShift);
/// TFLite's CheckedLog2: the rounded log2 of `x`, and whether `x` is a power
/// of two within TFLite's tolerance.
bool checkedLog2(float x, int &log2);

/// The parameters TFLM's LOGISTIC and TANH Prepare derive for int8.
struct Int8ActivationParams {
  int32_t multiplier = 0;
  int leftShift = 0;
  int32_t radius = 0;
};
Int8ActivationParams prepareInt8Activation(float inputScale);

/// TFLM's int8 LOGISTIC (output scale 1/256, zero point -128) and TANH
/// (output scale 1/128, zero point 0) of every input byte: element `i` is
/// the output for input `i - 128`.
std::array<int8_t, 256> logisticInt8Table(float inputScale,
                                          int32_t inputZeroPoint);
std::array<int8_t, 256> tanhInt8Table(float inputScale,
                                      int32_t inputZeroPoint);

/// The multiplier and shift TFLM's int16 LOGISTIC and TANH Prepare derive
/// (a power-of-two input scale already folded into `multiplier`, as the
/// kernel does before its loop): the kernel's input is
/// `(x * multiplier + round) >> shift`.
struct Int16ActivationParams {
  int32_t multiplier = 0;
  int shift = 0;
};
Int16ActivationParams prepareInt16Activation(float inputScale, bool isTanh);

/// TFLite's sigmoid_table_uint16: sigmoid(i / 24) in 0.16.
extern const std::array<uint16_t, 256> sigmoidTableUInt16;

/// TFLite's LUTPopulate<int16_t> in float: the 513-entry table of `fn` for
/// inputs quantized with (inputScale, inputZeroPoint) and outputs with
/// (outputScale, outputZeroPoint).
std::array<int16_t, 513> populateInt16Table(float inputScale,
                                            int32_t inputZeroPoint,
                                            float outputScale,
                                            int32_t outputZeroPoint,
                                            float (*fn)(float));
/// What TFLM's int8 SOFTMAX Prepare derives (PreprocessSoftmaxScaling with
/// five integer bits for the scaled differences); `valid` is false when
/// TFLite rejects the scale (a multiplier not above 1).
struct SoftmaxInt8Params {
  int32_t multiplier = 0;
  int leftShift = 0;
  int32_t diffMin = 0;
  bool valid = false;
};
SoftmaxInt8Params prepareSoftmaxInt8(float beta, float inputScale);
/// exp(beta * scale * d) of TFLM's int8 SOFTMAX in Q0.31 for each difference
/// `-d` to the row's maximum, d in [0, 255]; 0 where the kernel skips the
/// element (a difference below diffMin).
std::array<int32_t, 256> softmaxInt8ExpTable(const SoftmaxInt8Params &params);

/// The two tables of TFLM's int16 SOFTMAX: exp on [-10, 0] and 1 / (1 + x)
/// on [0, 1].
std::array<int16_t, 513> softmaxExpTable();
std::array<int16_t, 513> softmaxReciprocalTable();

} // namespace mlir::helia::tflite::fixedpoint

#endif // HELIA_LIB_TARGET_TFLITE_FIXEDPOINT_H
