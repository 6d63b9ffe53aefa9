//===- FixedPointTest.cpp - TFLite's fixed-point nonlinear functions -----===//
//
// The expected values are what TFLite Micro's reference kernels
// (reference_integer_ops::Logistic and Tanh, LUTPopulate<int16_t> in
// SoftmaxPrepare) print for the same parameters, compiled on x86-64.
//
//===----------------------------------------------------------------------===//

#include "FixedPoint.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>

using namespace mlir::helia::tflite::fixedpoint;

namespace {

TEST(FixedPointTest, Primitives) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  const int32_t max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(srdhm(min, min), max);
  EXPECT_EQ(srdhm(1 << 30, 1 << 30), 1 << 29);
  // Ties round away from zero.
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);
  EXPECT_EQ(roundingDivideByPOT(-4, 1), -2);
  EXPECT_EQ(saturatingRoundingMultiplyByPOT(1 << 29, 2), max);
  EXPECT_EQ(saturatingRoundingMultiplyByPOT(-(1 << 29), 2), min);
  EXPECT_EQ(expOnNegativeValues(0, 5), max);
  EXPECT_EQ(logistic(0, 4), 1 << 30);
  EXPECT_EQ(tanh(0, 4), 0);
}

TEST(FixedPointTest, TanhIsOdd) {
  for (int32_t a = 1; a < (1 << 30); a += 9973331)
    EXPECT_EQ(tanh(-a, 4), -tanh(a, 4)) << a;
}

TEST(FixedPointTest, LogisticInt8MatchesTFLM) {
  // Scale 0.06, zero point 3: inputs -8 .. 7.
  const int8_t expected[] = {-41, -37, -34, -30, -26, -23, -19, -15,
                             -11, -8,  -4,  0,   4,   8,   11,  15};
  std::array<int8_t, 256> table = logisticInt8Table(0.06f, 3);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(table[120 + i], expected[i]) << "input " << (i - 8);
  EXPECT_EQ(table[0], -128);
}

TEST(FixedPointTest, TanhInt8MatchesTFLM) {
  // Scale 0.03, zero point -7: inputs -8 .. 7.
  const int8_t expected[] = {-4, 0,  4,  8,  11, 15, 19, 23,
                             26, 30, 34, 37, 41, 44, 48, 51};
  std::array<int8_t, 256> table = tanhInt8Table(0.03f, -7);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(table[120 + i], expected[i]) << "input " << (i - 8);
}

TEST(FixedPointTest, SoftmaxInt16TablesMatchTFLM) {
  std::array<int16_t, 513> exps = softmaxExpTable();
  std::array<int16_t, 513> recips = softmaxReciprocalTable();
  const int index[] = {0, 100, 256, 400, 511, 512};
  const int16_t expExpected[] = {2, 11, 221, 3677, 32133, 32767};
  const int16_t recipExpected[] = {32767, 27413, 21845, 18396, 16400, 16384};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(exps[index[i]], expExpected[i]) << "exp entry " << index[i];
    EXPECT_EQ(recips[index[i]], recipExpected[i])
        << "reciprocal entry " << index[i];
  }
}

TEST(FixedPointTest, Int16Prepare) {
  // 2^-12 and, for TANH, 2^-11 are the kernels' power-of-two cases.
  Int16ActivationParams pot = prepareInt16Activation(1.0f / 4096, false);
  EXPECT_EQ(pot.multiplier, 3);
  EXPECT_EQ(pot.shift, 0);
  Int16ActivationParams tanhPot = prepareInt16Activation(1.0f / 2048, true);
  EXPECT_EQ(tanhPot.multiplier, 6);
  EXPECT_EQ(tanhPot.shift, 0);
  // 3e-4 * 12288 = 3.6864, doubled 13 times to 30198.
  Int16ActivationParams general = prepareInt16Activation(3e-4f, true);
  EXPECT_EQ(general.multiplier, 30198);
  EXPECT_EQ(general.shift, 13);
}

} // namespace
