//===- FixedPoint.cpp - TFLite's fixed-point nonlinear functions ----------===//
//
// Integer arithmetic wraps where the kernels' int32 arithmetic wraps (done
// in uint32 here, so that it is defined); float arithmetic is IEEE single
// precision step by step, without contraction, as the kernels compute it.
//
//===----------------------------------------------------------------------===//

#include "FixedPoint.h"

#include <algorithm>
#include <cmath>
#include <limits>

#pragma STDC FP_CONTRACT OFF

using namespace mlir::helia::tflite;
using namespace mlir::helia::tflite::fixedpoint;

static constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
static constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

static int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}
static int32_t wrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) -
                              static_cast<uint32_t>(b));
}

int32_t fixedpoint::srdhm(int32_t a, int32_t b) {
  if (a == kMin && b == kMin)
    return kMax;
  int64_t ab = static_cast<int64_t>(a) * b;
  int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  // C++ division truncates toward zero, as gemmlowp relies on.
  return static_cast<int32_t>((ab + nudge) / (int64_t(1) << 31));
}

int32_t fixedpoint::roundingDivideByPOT(int32_t x, int exponent) {
  int32_t mask = static_cast<int32_t>((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t fixedpoint::saturatingRoundingMultiplyByPOT(int32_t x, int exponent) {
  if (exponent == 0)
    return x;
  if (exponent < 0)
    return roundingDivideByPOT(x, -exponent);
  int32_t threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold)
    return kMax;
  if (x < -threshold)
    return kMin;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

int32_t fixedpoint::multiplyByQuantizedMultiplier(int32_t x,
                                                  int32_t multiplier,
                                                  int shift) {
  int leftShift = shift > 0 ? shift : 0;
  int rightShift = shift > 0 ? 0 : -shift;
  int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x)
                                         << leftShift);
  return roundingDivideByPOT(srdhm(shifted, multiplier), rightShift);
}

/// exp(a) for a in [-1/4, 0), Q0.31 in and out: a Taylor expansion around
/// -1/8.
static int32_t expOnQuarterInterval(int32_t a) {
  const int32_t constantTerm = 1895147668; // exp(-1/8)
  const int32_t oneThird = 715827883;
  int32_t x = wrapAdd(a, 1 << 28);
  int32_t x2 = srdhm(x, x);
  int32_t x3 = srdhm(x2, x);
  int32_t x4 = srdhm(x2, x2);
  int32_t x4Over4 = saturatingRoundingMultiplyByPOT(x4, -2);
  int32_t poly = saturatingRoundingMultiplyByPOT(
      wrapAdd(srdhm(wrapAdd(x4Over4, x3), oneThird), x2), -1);
  return wrapAdd(constantTerm, srdhm(constantTerm, wrapAdd(x, poly)));
}

int32_t fixedpoint::expOnNegativeValues(int32_t a, int integerBits) {
  int fractionalBits = 31 - integerBits;
  int32_t oneQuarter = int32_t(1) << (fractionalBits - 2);
  int32_t mask = oneQuarter - 1;
  int32_t modMinusQuarter = wrapSub(a & mask, oneQuarter);
  int32_t result = expOnQuarterInterval(
      saturatingRoundingMultiplyByPOT(modMinusQuarter, integerBits));
  int32_t remainder = wrapSub(modMinusQuarter, a);
  // exp(-2^k) in Q0.31 for k = -2 .. 4: the barrel shifter over the bits of
  // the remainder.
  static const int32_t multipliers[] = {1672461947, 1302514674, 790015084,
                                        290630308,  39332535,   720401,
                                        242};
  for (int k = -2; k <= 4; ++k) {
    if (integerBits <= k)
      continue;
    int shiftAmount = fractionalBits + k;
    if (remainder & (int32_t(1) << shiftAmount))
      result = srdhm(result, multipliers[k + 2]);
  }
  if (integerBits > 5) {
    int32_t clamp = -(int32_t(1) << (36 - integerBits));
    if (a < clamp)
      result = 0;
  }
  if (a == 0)
    result = kMax;
  return result;
}

/// The Newton-Raphson iteration that one_over_one_plus_x_for_x_in_0_1 and
/// one_minus_x_over_one_plus_x_for_x_in_0_1 share: 1 / (half of (1 + a))
/// in Q2.29.
static int32_t reciprocalOfHalfDenominator(int32_t a) {
  int64_t sum = static_cast<int64_t>(a) + kMax;
  int64_t sign = sum >= 0 ? 1 : -1;
  int32_t halfDenominator = static_cast<int32_t>((sum + sign) / 2);
  const int32_t c48Over17 = 1515870810, cNeg32Over17 = -1010580540;
  int32_t x = wrapAdd(c48Over17, srdhm(halfDenominator, cNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    int32_t halfDenominatorTimesX = srdhm(halfDenominator, x);
    int32_t oneMinus = wrapSub(int32_t(1) << 29, halfDenominatorTimesX);
    x = wrapAdd(x, saturatingRoundingMultiplyByPOT(srdhm(x, oneMinus), 2));
  }
  return x;
}

int32_t fixedpoint::oneOverOnePlusX(int32_t a) {
  return saturatingRoundingMultiplyByPOT(reciprocalOfHalfDenominator(a), 1);
}

static int32_t oneMinusXOverOnePlusX(int32_t a) {
  return saturatingRoundingMultiplyByPOT(
      wrapSub(reciprocalOfHalfDenominator(a), int32_t(1) << 29), 2);
}

int32_t fixedpoint::logistic(int32_t a, int integerBits) {
  if (a == 0)
    return 1 << 30;
  int32_t absolute = a > 0 ? a : wrapSub(0, a);
  int32_t positive =
      oneOverOnePlusX(expOnNegativeValues(wrapSub(0, absolute), integerBits));
  return a > 0 ? positive : wrapSub(kMax, positive);
}

int32_t fixedpoint::tanh(int32_t a, int integerBits) {
  if (a == 0)
    return 0;
  int32_t nonPositive = a < 0 ? a : wrapSub(0, a);
  // -tanh(n) for n <= 0 is (1 - exp(2n)) / (1 + exp(2n)); 2n is the same
  // raw value with one more integer bit.
  int32_t t = oneMinusXOverOnePlusX(
      expOnNegativeValues(nonPositive, integerBits + 1));
  return a < 0 ? wrapSub(0, t) : t;
}

int32_t fixedpoint::calculateInputRadius(int integerBits, int leftShift) {
  double maxInputRescaled = 1.0 * ((1 << integerBits) - 1) *
                            static_cast<double>(int64_t(1)
                                                << (31 - integerBits)) /
                            std::ldexp(1.0, leftShift);
  return static_cast<int32_t>(std::floor(maxInputRescaled));
}

bool fixedpoint::checkedLog2(float x, int &log2) {
  float xLog2 = std::log(x) * (1.0f / std::log(2.0f));
  float rounded = std::round(xLog2);
  float fraction = xLog2 - rounded;
  log2 = static_cast<int>(rounded);
  return std::abs(fraction) < 1e-3f;
}

Int8ActivationParams fixedpoint::prepareInt8Activation(float inputScale) {
  // Four integer bits: the kernels evaluate on Q4.27.
  Int8ActivationParams params;
  double real = static_cast<double>(inputScale) *
                static_cast<double>(1 << (31 - 4));
  double q = std::frexp(real, &params.leftShift);
  params.multiplier = static_cast<int32_t>(std::round(q * (1LL << 31)));
  params.radius = calculateInputRadius(4, params.leftShift);
  return params;
}

/// The output of TFLM's int8 LOGISTIC or TANH kernel for input byte `v`.
static int8_t activateInt8(const Int8ActivationParams &params,
                           int32_t inputZeroPoint, int32_t v, bool isTanh) {
  int32_t input = v - inputZeroPoint;
  if (input <= -params.radius)
    return -128;
  if (input >= params.radius)
    return 127;
  int32_t inQ4 = multiplyByQuantizedMultiplier(input, params.multiplier,
                                               params.leftShift);
  int32_t out =
      isTanh ? roundingDivideByPOT(tanh(inQ4, 4), 31 - 7)
             : roundingDivideByPOT(logistic(inQ4, 4), 31 - 8) - 128;
  return static_cast<int8_t>(std::clamp<int32_t>(out, -128, 127));
}

std::array<int8_t, 256>
fixedpoint::logisticInt8Table(float inputScale, int32_t inputZeroPoint) {
  Int8ActivationParams params = prepareInt8Activation(inputScale);
  std::array<int8_t, 256> table;
  for (int32_t v = -128; v < 128; ++v)
    table[v + 128] = activateInt8(params, inputZeroPoint, v, false);
  return table;
}

std::array<int8_t, 256> fixedpoint::tanhInt8Table(float inputScale,
                                                  int32_t inputZeroPoint) {
  Int8ActivationParams params = prepareInt8Activation(inputScale);
  std::array<int8_t, 256> table;
  for (int32_t v = -128; v < 128; ++v)
    table[v + 128] = activateInt8(params, inputZeroPoint, v, true);
  return table;
}

Int16ActivationParams fixedpoint::prepareInt16Activation(float inputScale,
                                                         bool isTanh) {
  // Three integer bits: Q3.12 is the kernels' native input.
  Int16ActivationParams params;
  int log2 = 0;
  bool pot = checkedLog2(inputScale, log2);
  int leftShift = (15 - 3) + log2;
  pot = pot && (leftShift == 0 || (isTanh && leftShift == 1));
  if (pot) {
    // The kernel's power-of-two case: a multiplier of 3 << shift.
    params.multiplier = 3 << leftShift;
    params.shift = 0;
    return params;
  }
  // Rescales to 1 / (3 * 4096) with a multiplier of 15 bits.
  double multiplier = static_cast<double>(inputScale) * 4096.0 * 3.0;
  int shift = 0;
  while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
    ++shift;
    multiplier = multiplier * 2.0;
  }
  params.multiplier = static_cast<int32_t>(multiplier);
  params.shift = shift;
  return params;
}

const std::array<uint16_t, 256> fixedpoint::sigmoidTableUInt16 = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535};

std::array<int16_t, 513>
fixedpoint::populateInt16Table(float inputScale, int32_t inputZeroPoint,
                               float outputScale, int32_t outputZeroPoint,
                               float (*fn)(float)) {
  const float inputMin = inputScale * static_cast<float>(-32768 - inputZeroPoint);
  const float inputMax = inputScale * static_cast<float>(32767 - inputZeroPoint);
  const float outputMin =
      outputScale * static_cast<float>(-32768 - outputZeroPoint);
  const float outputMax =
      outputScale * static_cast<float>(32767 - outputZeroPoint);
  const int steps = 512;
  const float step = (inputMax - inputMin) / static_cast<float>(steps);
  const float halfStep = step / 2.0f;
  const float scalingInv = 65536.0f / (outputMax - outputMin);
  auto clampToTable = [](float v) {
    return static_cast<int16_t>(std::min(std::max(v, -32768.0f), 32767.0f));
  };
  std::array<int16_t, 513> table;
  for (int i = 0; i < steps; ++i) {
    float at = inputMin + static_cast<float>(i) * step;
    float val = fn(at);
    float midpoint = fn(at + halfStep);
    float next = fn(inputMin + static_cast<float>(i + 1) * step);
    float sample = std::round(val * scalingInv);
    float interpolated = std::round((next * scalingInv + sample) / 2.0f);
    float exact = std::round(midpoint * scalingInv);
    float bias = std::round((interpolated - exact) / 2.0f);
    table[i] = clampToTable(sample - bias);
  }
  table[steps] = clampToTable(std::round(fn(inputMax) * scalingInv));
  return table;
}

SoftmaxInt8Params fixedpoint::prepareSoftmaxInt8(float beta,
                                                 float inputScale) {
  SoftmaxInt8Params params;
  double real = std::min<double>(static_cast<double>(beta) *
                                     static_cast<double>(inputScale) *
                                     static_cast<double>(1 << (31 - 5)),
                                 (1LL << 31) - 1.0);
  if (!(real > 1.0))
    return params;
  double q = std::frexp(real, &params.leftShift);
  auto fixed = static_cast<int64_t>(std::round(q * (1LL << 31)));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++params.leftShift;
  }
  params.multiplier = static_cast<int32_t>(fixed);
  params.diffMin = static_cast<int32_t>(
      -1.0 * calculateInputRadius(5, params.leftShift));
  params.valid = true;
  return params;
}

std::array<int32_t, 256>
fixedpoint::softmaxInt8ExpTable(const SoftmaxInt8Params &params) {
  std::array<int32_t, 256> table;
  for (int32_t d = 0; d < 256; ++d) {
    int32_t diff = -d;
    if (diff < params.diffMin) {
      table[d] = 0;
      continue;
    }
    // MultiplyByQuantizedMultiplierGreaterThanOne, then exp on Q5.26.
    int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(diff)
                                           << params.leftShift);
    table[d] = expOnNegativeValues(srdhm(shifted, params.multiplier), 5);
  }
  return table;
}

static float expFloat(float v) { return std::exp(v); }
static float oneOverOnePlus(float v) { return 1.0f / (1.0f + v); }

std::array<int16_t, 513> fixedpoint::softmaxExpTable() {
  const float range = 65535.0f;
  return populateInt16Table(10.0f / range, 32767, 2.0f / range, 0, expFloat);
}

std::array<int16_t, 513> fixedpoint::softmaxReciprocalTable() {
  const float range = 65535.0f;
  return populateInt16Table(1.0f / range, -32768, 2.0f / range, 0,
                            oneOverOnePlus);
}
