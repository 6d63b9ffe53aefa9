/* Copy loops of known size for the plugin test (copy.test): every access to
   the four buffers is a volatile load or store of a known width. */
#include <stdint.h>

#define WORDS 256
#define BYTES 100

volatile uint32_t src[WORDS] __attribute__((section(".app.sram")));
volatile uint8_t src8[BYTES] __attribute__((section(".app.sram")));
volatile uint32_t dst[WORDS] __attribute__((section(".app.dtcm")));
volatile uint8_t dst8[BYTES] __attribute__((section(".app.dtcm")));

__attribute__((noinline, used)) void helia_traffic_begin(void) {
  __asm volatile("");
}
__attribute__((noinline, used)) void helia_traffic_end(void) {
  __asm volatile("");
}

__attribute__((noinline)) static void copy(void) {
  for (unsigned i = 0; i < WORDS; ++i)
    dst[i] = src[i];
  for (unsigned i = 0; i < BYTES; ++i)
    dst8[i] = src8[i];
}

int main(void) {
  copy(); /* before the window: not counted */
  helia_traffic_begin();
  copy();
  for (unsigned i = 0; i < WORDS; ++i)
    dst[i] = dst[i] + 1;
  helia_traffic_end();
  copy(); /* after it: not counted */
  return 0;
}
