/*===- aeabi.c - the run-time ABI helpers a helia image can call ----------===
 *
 * What code compiled for the Cortex-M55 calls without naming it: the AEABI
 * integer helpers (64-bit division, shifts, multiply, comparisons; 32-bit
 * division for cores without it), the conversions between 64-bit
 * integers and floating point, and fmodf/fmod (LLVM's frem). The memory
 * helpers (__aeabi_memcpy, ...) are in runtime.c. Freestanding: no libc.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

/*--- AEABI integer helpers -------------------------------------------------*/

/* The Cortex-M55 divides 32-bit integers in hardware and clang inlines
 * 64-bit shifts and multiplies, but 64-bit division (an i64 `arith.divui`,
 * `remsi`, ...: the count of a padded average pool, the rounding of a
 * rescale) always calls __aeabi_uldivmod or __aeabi_ldivmod. Every helper
 * the run-time ABI names for integers is here, so that no lowering of the
 * model leaves an undefined symbol. None of them divides 64-bit numbers
 * with `/`, which would call itself. */

/* Unsigned 64-bit division by shift and subtract (32-bit hardware division
 * when both fit). Division by zero gives quotient 0 and remainder n. */
uint64_t helia_udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
  if (d == 0) {
    *rem = n;
    return 0;
  }
  if ((n >> 32) == 0 && (d >> 32) == 0) {
    uint32_t q = (uint32_t)n / (uint32_t)d;
    *rem = (uint32_t)n - q * (uint32_t)d;
    return q;
  }
  uint64_t q = 0, r = 0;
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) {
      r -= d;
      q |= (uint64_t)1 << i;
    }
  }
  *rem = r;
  return q;
}

/* Signed: the quotient rounds toward zero, the remainder has the sign of
 * the dividend (C's rules). */
int64_t helia_divmod64(int64_t n, int64_t d, int64_t *rem) {
  uint64_t un = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
  uint64_t ud = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
  uint64_t ur;
  uint64_t uq = helia_udivmod64(un, ud, &ur);
  *rem = n < 0 ? (int64_t)(0 - ur) : (int64_t)ur;
  return (n < 0) != (d < 0) ? (int64_t)(0 - uq) : (int64_t)uq;
}

/* {quotient, remainder} come back in {r0:r1, r2:r3}, which no C return type
 * gives: the remainder goes through the stack (as in compiler-rt). */
__attribute__((naked)) void __aeabi_uldivmod(void) {
  __asm__ volatile("push {r6, lr}\n\t"
                   "sub sp, sp, #16\n\t"
                   "add r6, sp, #8\n\t"
                   "str r6, [sp]\n\t"
                   "bl helia_udivmod64\n\t"
                   "ldrd r2, r3, [sp, #8]\n\t"
                   "add sp, sp, #16\n\t"
                   "pop {r6, pc}\n\t");
}

__attribute__((naked)) void __aeabi_ldivmod(void) {
  __asm__ volatile("push {r6, lr}\n\t"
                   "sub sp, sp, #16\n\t"
                   "add r6, sp, #8\n\t"
                   "str r6, [sp]\n\t"
                   "bl helia_divmod64\n\t"
                   "ldrd r2, r3, [sp, #8]\n\t"
                   "add sp, sp, #16\n\t"
                   "pop {r6, pc}\n\t");
}

/* 32-bit division (hardware on the M55; for code built without it). The
 * divmod forms return {quotient, remainder} in {r0, r1}: a 64-bit value. */
int __aeabi_idiv(int n, int d) { return d ? n / d : 0; }
unsigned __aeabi_uidiv(unsigned n, unsigned d) { return d ? n / d : 0; }
uint64_t __aeabi_uidivmod(unsigned n, unsigned d) {
  unsigned q = d ? n / d : 0;
  return q | (uint64_t)(n - q * d) << 32;
}
uint64_t __aeabi_idivmod(int n, int d) {
  int q = d ? n / d : 0;
  return (uint32_t)q | (uint64_t)(uint32_t)(n - q * d) << 32;
}

/* 64-bit shifts, multiply and comparisons (inlined by clang on Thumb-2,
 * named by the ABI). */
uint64_t __aeabi_llsl(uint64_t v, int s) { return v << s; }
uint64_t __aeabi_llsr(uint64_t v, int s) { return v >> s; }
int64_t __aeabi_lasr(int64_t v, int s) { return v >> s; }
int64_t __aeabi_lmul(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a * (uint64_t)b);
}
int __aeabi_lcmp(int64_t a, int64_t b) { return a < b ? -1 : a > b; }
int __aeabi_ulcmp(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

/*--- AEABI conversions between 64-bit integers and floating point ---------*/

/* The FPU converts 32-bit integers; 64-bit ones go through these (an
 * `arith.sitofp` of an i64, an `arith.fptosi` to i64). Built from 32-bit
 * conversions and exact double arithmetic, never from a 64-bit cast, which
 * would call itself. The run-time ABI passes their floating-point values in
 * core registers even in a hard-float image: the base procedure call
 * standard, `pcs("aapcs")`. */
#define HELIA_BASE_PCS __attribute__((pcs("aapcs")))

static double u64ToDouble(uint64_t u) {
  /* Both halves and the scaling are exact; the sum rounds once. */
  return (double)(uint32_t)(u >> 32) * 4294967296.0 + (double)(uint32_t)u;
}

HELIA_BASE_PCS double __aeabi_ul2d(uint64_t u) { return u64ToDouble(u); }
HELIA_BASE_PCS double __aeabi_l2d(int64_t i) {
  return i < 0 ? -u64ToDouble(0 - (uint64_t)i) : u64ToDouble((uint64_t)i);
}

/* To float in one rounding: keep at most 53 significant bits, with the
 * discarded ones folded into a sticky bit, so that the double holds the
 * value exactly or with a sticky bit, and the float rounds once. */
static float u64ToFloat(uint64_t u) {
  int shift = 0;
  while ((u >> shift) >= ((uint64_t)1 << 53))
    ++shift;
  uint64_t kept = u >> shift;
  if (shift && (u & (((uint64_t)1 << shift) - 1)))
    kept |= 1;
  double d = u64ToDouble(kept);
  for (int i = 0; i < shift; ++i)
    d *= 2.0;
  return (float)d;
}

HELIA_BASE_PCS float __aeabi_ul2f(uint64_t u) { return u64ToFloat(u); }
HELIA_BASE_PCS float __aeabi_l2f(int64_t i) {
  return i < 0 ? -u64ToFloat(0 - (uint64_t)i) : u64ToFloat((uint64_t)i);
}

/* Truncation toward zero; NaN gives 0 and out-of-range values saturate
 * (LLVM leaves both undefined). */
static uint64_t doubleToU64(double d, int *negative) {
  union {
    double d;
    uint64_t u;
  } bits = {d};
  *negative = (int)(bits.u >> 63);
  int exponent = (int)((bits.u >> 52) & 0x7FF);
  if (exponent == 0x7FF && (bits.u & (((uint64_t)1 << 52) - 1))) {
    *negative = 0;
    return 0;
  }
  if (exponent < 1023)
    return 0;
  if (exponent >= 1023 + 64)
    return ~(uint64_t)0;
  uint64_t mantissa = (bits.u & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
  int shift = exponent - 1075;
  return shift >= 0 ? mantissa << shift : mantissa >> -shift;
}

HELIA_BASE_PCS int64_t __aeabi_d2lz(double d) {
  int negative;
  uint64_t u = doubleToU64(d, &negative);
  if (negative)
    return u > (uint64_t)1 << 63 ? INT64_MIN : (int64_t)(0 - u);
  return u >= (uint64_t)1 << 63 ? INT64_MAX : (int64_t)u;
}
HELIA_BASE_PCS uint64_t __aeabi_d2ulz(double d) {
  int negative;
  uint64_t u = doubleToU64(d, &negative);
  return negative ? 0 : u;
}
HELIA_BASE_PCS int64_t __aeabi_f2lz(float f) { return __aeabi_d2lz((double)f); }
HELIA_BASE_PCS uint64_t __aeabi_f2ulz(float f) { return __aeabi_d2ulz((double)f); }

/*--- the floating-point remainder -------------------------------------------*/

/* `arith.remf` lowers to LLVM's frem, which calls fmodf or fmod. The result
 * is exact (x - n*y for the integer n = trunc(x/y) is representable), so
 * these give glibc's bits: the remainder of the two significands by shift
 * and subtract, scaled back, with the sign of x. */

float fmodf(float x, float y) {
  union {
    float f;
    uint32_t u;
  } ux = {x}, uy = {y};
  int ex = (int)(ux.u >> 23 & 0xFF), ey = (int)(uy.u >> 23 & 0xFF);
  uint32_t sign = ux.u & 0x80000000u;
  uint32_t ax = ux.u << 1, ay = uy.u << 1;
  if (ay == 0 || ay > 0xFF000000u || ex == 0xFF)
    return (x * y) / (x * y);
  if (ax <= ay)
    return ax == ay ? 0 * x : x;
  uint32_t mx, my;
  if (ex == 0) { /* subnormal: normalise */
    for (mx = ux.u << 9; !(mx >> 31); mx <<= 1)
      --ex;
    mx = ux.u << (1 - ex);
  } else {
    mx = (ux.u & 0x007FFFFFu) | 0x00800000u;
  }
  if (ey == 0) {
    for (my = uy.u << 9; !(my >> 31); my <<= 1)
      --ey;
    my = uy.u << (1 - ey);
  } else {
    my = (uy.u & 0x007FFFFFu) | 0x00800000u;
  }
  for (; ex > ey; --ex) {
    if (mx >= my) {
      mx -= my;
      if (mx == 0)
        return 0 * x;
    }
    mx <<= 1;
  }
  if (mx >= my) {
    mx -= my;
    if (mx == 0)
      return 0 * x;
  }
  for (; !(mx >> 23); mx <<= 1)
    --ex;
  if (ex > 0)
    mx = (mx - 0x00800000u) | (uint32_t)ex << 23;
  else
    mx >>= 1 - ex;
  ux.u = mx | sign;
  return ux.f;
}

double fmod(double x, double y) {
  union {
    double d;
    uint64_t u;
  } ux = {x}, uy = {y};
  const uint64_t hidden = (uint64_t)1 << 52, fraction = hidden - 1;
  int ex = (int)(ux.u >> 52 & 0x7FF), ey = (int)(uy.u >> 52 & 0x7FF);
  uint64_t sign = ux.u & ((uint64_t)1 << 63);
  uint64_t ax = ux.u << 1, ay = uy.u << 1;
  if (ay == 0 || ay > ((uint64_t)0x7FF << 53) || ex == 0x7FF)
    return (x * y) / (x * y);
  if (ax <= ay)
    return ax == ay ? 0 * x : x;
  uint64_t mx, my;
  if (ex == 0) {
    for (mx = ux.u << 12; !(mx >> 63); mx <<= 1)
      --ex;
    mx = ux.u << (1 - ex);
  } else {
    mx = (ux.u & fraction) | hidden;
  }
  if (ey == 0) {
    for (my = uy.u << 12; !(my >> 63); my <<= 1)
      --ey;
    my = uy.u << (1 - ey);
  } else {
    my = (uy.u & fraction) | hidden;
  }
  for (; ex > ey; --ex) {
    if (mx >= my) {
      mx -= my;
      if (mx == 0)
        return 0 * x;
    }
    mx <<= 1;
  }
  if (mx >= my) {
    mx -= my;
    if (mx == 0)
      return 0 * x;
  }
  for (; !(mx >> 52); mx <<= 1)
    --ex;
  if (ex > 0)
    mx = (mx - hidden) | (uint64_t)ex << 52;
  else
    mx >>= 1 - ex;
  ux.u = mx | sign;
  return ux.d;
}
