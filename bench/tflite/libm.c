/*===- libm.c - the float math a TFLite network needs on the firmware ------===
 *
 * The example runtime has no C library; float networks lower softmax and
 * sigmoid to math.exp, which the backend calls as expf. bench/tflite/run.py
 * links this file into its QEMU images (HELIA_FIRMWARE_SOURCES). Single
 * precision only (the Cortex-M55's FPU has no doubles). expf: Cody-Waite
 * range reduction and a degree-7 Taylor polynomial, within 1 ULP of the
 * correctly rounded value (checked on every 997th float); tanhf: its series
 * below 0.25, 1 - 2 / (e^2x + 1) above, within 6 ULP. Not bit-identical with
 * glibc's, so a float network's image may differ from the host in the last
 * bits.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

float expf(float x);
float tanhf(float x);

static float scale2(float y, int k) {
  /* y * 2^k for y in [0.5, 2] and any k, without overflow in the steps. */
  while (k > 127) {
    y *= 1.7014118346046923e38f; /* 2^127 */
    k -= 127;
  }
  while (k < -126) {
    y *= 1.1754943508222875e-38f; /* 2^-126 */
    k += 126;
  }
  union { uint32_t u; float f; } s = {(uint32_t)(k + 127) << 23};
  return y * s.f;
}

float expf(float x) {
  if (x != x)
    return x;
  if (x > 88.72283935546875f)
    return __builtin_inff();
  if (x < -103.97283935546875f)
    return 0.0f;
  float t = x * 1.44269502162933349609375f;
  int k = (int)(t + (t >= 0.0f ? 0.5f : -0.5f));
  /* ln 2 = hi + lo, hi with 12 significant bits so that k * hi is exact. */
  float r = (x - (float)k * 0.693145751953125f) - (float)k * 1.428606765330187e-06f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  return scale2(p, k);
}

float tanhf(float x) {
  if (x != x)
    return x;
  float a = x < 0.0f ? -x : x;
  float y;
  if (a < 0.25f) {
    float a2 = a * a;
    y = a + a * a2 * (-1.0f / 3.0f + a2 * (2.0f / 15.0f + a2 * (-17.0f / 315.0f)));
  } else if (a > 9.0f) {
    y = 1.0f;
  } else {
    y = 1.0f - 2.0f / (expf(2.0f * a) + 1.0f);
  }
  return x < 0.0f ? -y : y;
}
