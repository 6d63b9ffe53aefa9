/*===- runtime.c - what a helia image needs from a C library --------------===
 *
 * Semihosting output and exit, memcpy/memmove/memset (and their AEABI
 * names), a small bump allocator for host code in the image (the AEABI
 * integer and conversion helpers are in aeabi.c), and the print functions that `vector.print` lowers to,
 * printing exactly what MLIR's libmlir_c_runner_utils prints on the host
 * (printf's "%g" for floats, rounded from the exact decimal value of the
 * binary number).
 *
 *===----------------------------------------------------------------------===*/

#include <stddef.h>
#include <stdint.h>

/*--- semihosting -----------------------------------------------------------*/

static int semihost(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };

static char line[256];
static unsigned lineLength;

static void flush(void) {
  if (!lineLength)
    return;
  line[lineLength] = 0;
  semihost(SYS_WRITE0, line);
  lineLength = 0;
}

static void put(char c) {
  line[lineLength++] = c;
  if (c == '\n' || lineLength == sizeof(line) - 1)
    flush();
}

static void puts_(const char *s) {
  while (*s)
    put(*s++);
}

void helia_exit(int status) {
  flush();
  /* ADP_Stopped_ApplicationExit, or ADP_Stopped_RunTimeErrorUnknown. */
  semihost(SYS_EXIT, (const void *)(uintptr_t)(status ? 0x20023 : 0x20026));
  for (;;)
    ;
}

/*--- memory ----------------------------------------------------------------*/

void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if ((((uintptr_t)d | (uintptr_t)s | n) & 3) == 0) {
    for (; n; n -= 4, d += 4, s += 4)
      *(uint32_t *)d = *(const uint32_t *)s;
    return dst;
  }
  while (n--)
    *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s || d >= s + n)
    return memcpy(dst, src, n);
  while (n--)
    d[n] = s[n];
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  while (n--)
    *d++ = (unsigned char)c;
  return dst;
}

/*--- malloc/free -----------------------------------------------------------*/

/* Host code compiled into the image (an `helia.unplanned` harness) keeps a
 * copy of each result of a planned call in a buffer of its own, and
 * bufferization allocates those with malloc. A bump allocator over a small
 * static heap serves them; free gives back the most recent block only (a
 * harness that deallocates each result after printing it, as
 * bench/tflite/run.py's does, runs any number of calls in the same bytes)
 * and ignores any other. The model itself never allocates: its tensors live
 * in the arenas. */
#ifndef HELIA_HEAP_BYTES
#define HELIA_HEAP_BYTES 4096
#endif
static unsigned char heap[HELIA_HEAP_BYTES] __attribute__((aligned(16)));
static size_t heapUsed, heapLast;

void *malloc(size_t n) {
  size_t start = (heapUsed + 15) & ~(size_t)15;
  if (start > sizeof(heap) || n > sizeof(heap) - start) {
    puts_("helia runtime: out of heap (raise HELIA_HEAP_BYTES)\n");
    helia_exit(1);
  }
  heapLast = heapUsed;
  heapUsed = start + n;
  return heap + start;
}

void free(void *p) {
  /* Only the last block, and only once: heapLast is where it began. */
  if (p && p == heap + ((heapLast + 15) & ~(size_t)15) && heapUsed != heapLast)
    heapUsed = heapLast;
}

void __aeabi_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void *d, const void *s, size_t n) { memmove(d, s, n); }
/* The AEABI memset takes the count before the value. */
void __aeabi_memset(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset4(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset8(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memclr(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr4(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr8(void *d, size_t n) { memset(d, 0, n); }

/*--- printing ----------------------------------------------------------------*/

/* Divides *n by d (d < 2^16) with 32-bit operations only (faster than the
   64-bit helper); returns the remainder. */
static uint32_t divmod64(uint64_t *n, uint32_t d) {
  uint64_t q = 0;
  uint32_t r = 0;
  for (int shift = 48; shift >= 0; shift -= 16) {
    uint32_t cur = (r << 16) | (uint32_t)((*n >> shift) & 0xFFFF);
    q |= (uint64_t)(cur / d) << shift;
    r = cur % d;
  }
  *n = q;
  return r;
}

static void printUnsigned(uint64_t u) {
  char digits[21];
  int n = 0;
  do
    digits[n++] = (char)('0' + divmod64(&u, 10));
  while (u);
  while (n)
    put(digits[--n]);
}

void printI64(int64_t i) {
  if (i < 0) {
    put('-');
    printUnsigned(0 - (uint64_t)i);
    return;
  }
  printUnsigned((uint64_t)i);
}
void printU64(uint64_t u) { printUnsigned(u); }
void printString(const char *s) { puts_(s); }
void printOpen(void) { puts_("( "); }
void printClose(void) { puts_(" )"); }
void printComma(void) { puts_(", "); }
void printNewline(void) { put('\n'); }

/* A non-negative integer in base 10^4, least significant limb first: big
   enough for every double's exact decimal expansion (< 800 digits). */
enum { kLimbs = 210, kBase = 10000 };
typedef struct {
  uint32_t limb[kLimbs];
  int size;
} Big;

static void bigMul(Big *b, uint32_t m) {
  uint32_t carry = 0;
  for (int i = 0; i < b->size; ++i) {
    uint32_t v = b->limb[i] * m + carry;
    b->limb[i] = v % kBase;
    carry = v / kBase;
  }
  while (carry) {
    b->limb[b->size++] = carry % kBase;
    carry /= kBase;
  }
}

/* Writes the decimal digits of b (no leading zeros) to out; returns their
   count. */
static int bigDigits(const Big *b, char *out) {
  int n = 0;
  for (int i = b->size - 1; i >= 0; --i) {
    uint32_t v = b->limb[i];
    char four[4];
    for (int k = 3; k >= 0; --k) {
      four[k] = (char)('0' + v % 10);
      v /= 10;
    }
    for (int k = 0; k < 4; ++k)
      if (n || four[k] != '0')
        out[n++] = four[k];
  }
  return n;
}

/* printf("%g", d): six significant digits, rounded to nearest with ties to
   even on the exact value, trailing zeros removed, scientific notation when
   the exponent is below -4 or at least 6. */
static void printG(double d) {
  union {
    double d;
    uint64_t u;
  } bits = {d};
  int negative = (int)(bits.u >> 63);
  int exponent = (int)((bits.u >> 52) & 0x7FF);
  uint64_t mantissa = bits.u & ((UINT64_C(1) << 52) - 1);
  if (exponent == 0x7FF) {
    if (negative)
      put('-');
    puts_(mantissa ? "nan" : "inf");
    return;
  }
  if (negative)
    put('-');
  if (exponent == 0 && mantissa == 0) {
    put('0');
    return;
  }
  if (exponent)
    mantissa |= UINT64_C(1) << 52;
  else
    exponent = 1;
  int binaryExponent = exponent - 1075; /* value = mantissa * 2^e */

  static Big big;
  static char digits[kLimbs * 4 + 1];
  big.size = 0;
  for (uint64_t m = mantissa; m;)
    big.limb[big.size++] = divmod64(&m, kBase);
  int fraction = 0; /* value = big / 10^fraction */
  if (binaryExponent >= 0) {
    for (int i = 0; i < binaryExponent; ++i)
      bigMul(&big, 2);
  } else {
    for (int i = 0; i < -binaryExponent; ++i)
      bigMul(&big, 5);
    fraction = -binaryExponent;
  }
  int count = bigDigits(&big, digits);
  int point = count - fraction; /* digits[0] is the 10^(point-1) digit */

  enum { P = 6 };
  if (count > P) {
    int up = 0;
    if (digits[P] > '5') {
      up = 1;
    } else if (digits[P] == '5') {
      up = (digits[P - 1] - '0') & 1; /* a tie goes to even */
      for (int i = P + 1; i < count; ++i)
        if (digits[i] != '0')
          up = 1;
    }
    count = P;
    if (up) {
      int i = P - 1;
      while (i >= 0 && digits[i] == '9')
        digits[i--] = '0';
      if (i >= 0) {
        ++digits[i];
      } else {
        digits[0] = '1';
        for (int k = 1; k < P; ++k)
          digits[k] = '0';
        ++point;
      }
    }
  }
  while (count > 1 && digits[count - 1] == '0')
    --count;
  int x = point - 1; /* the decimal exponent */
  if (x < -4 || x >= P) {
    put(digits[0]);
    if (count > 1) {
      put('.');
      for (int i = 1; i < count; ++i)
        put(digits[i]);
    }
    put('e');
    put(x < 0 ? '-' : '+');
    unsigned ax = (unsigned)(x < 0 ? -x : x);
    if (ax >= 100)
      put((char)('0' + ax / 100));
    put((char)('0' + ax / 10 % 10));
    put((char)('0' + ax % 10));
    return;
  }
  if (point <= 0) {
    put('0');
    put('.');
    for (int i = 0; i < -point; ++i)
      put('0');
    for (int i = 0; i < count; ++i)
      put(digits[i]);
    return;
  }
  for (int i = 0; i < point; ++i)
    put(i < count ? digits[i] : '0');
  if (count > point) {
    put('.');
    for (int i = point; i < count; ++i)
      put(digits[i]);
  }
}

void printF32(float f) { printG((double)f); }
void printF64(double d) { printG(d); }
