//===- Quantization.cpp - TFLite's fixed-point parameters -----------------===//

#include "Quantization.h"

#include <cmath>
#include <limits>

using namespace mlir::helia::tflite;

QuantizedMultiplier mlir::helia::tflite::quantizeMultiplier(double real) {
  QuantizedMultiplier result;
  if (real == 0.0 || !std::isfinite(real))
    return result;
  int shift = 0;
  double mantissa = std::frexp(real, &shift);
  // std::round rounds half away from zero, as TfLiteRound does.
  auto fixed = static_cast<int64_t>(std::round(mantissa * (1LL << 31)));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    fixed = 0;
  }
  result.multiplier = static_cast<int32_t>(fixed);
  result.shift = shift;
  return result;
}

bool mlir::helia::tflite::getRescale32Shift(const QuantizedMultiplier &qm,
                                            int &tosaShift) {
  if (qm.multiplier == 0) {
    // A zero multiplier gives zero whatever the shift.
    tosaShift = 31;
    return true;
  }
  tosaShift = 31 - qm.shift;
  return tosaShift >= 2 && tosaShift <= 62;
}

bool mlir::helia::tflite::getRescale16(const QuantizedMultiplier &qm,
                                       int16_t &multiplier, int &tosaShift) {
  int32_t reduced = qm.multiplier < 0x7FFF0000
                        ? ((qm.multiplier + (1 << 15)) >> 16)
                        : 0x7FFF;
  multiplier = static_cast<int16_t>(reduced);
  tosaShift = 15 - qm.shift;
  if (qm.multiplier == 0)
    tosaShift = 15;
  return tosaShift >= 2 && tosaShift <= 62;
}
