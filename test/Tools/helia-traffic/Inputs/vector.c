/* What an access is (vector.test): one MVE load and store of 16 bytes, one
   of 4 words, and an ldrd/strd pair, between the markers. */
#include <arm_mve.h>
#include <stdint.h>

volatile uint8_t src[48] __attribute__((section(".app.sram"), aligned(16)));
uint8_t dst[48] __attribute__((section(".app.dtcm"), aligned(16)));

__attribute__((noinline, used)) void helia_traffic_begin(void) {
  __asm volatile("");
}
__attribute__((noinline, used)) void helia_traffic_end(void) {
  __asm volatile("");
}

/* External: its arguments stay unknown, so vld1q_u8 stays a byte load. */
__attribute__((noinline)) void move(const uint8_t *s, uint8_t *d) {
  vst1q_u8(d, vld1q_u8(s)); /* vldrb.u8, vstrb.8 */
  vst1q_u32((uint32_t *)(d + 16),
            vld1q_u32((const uint32_t *)(s + 16))); /* vldrw, vstrw */
  __asm volatile("" ::: "memory");
  *(volatile uint64_t *)(d + 32) =
      *(volatile const uint64_t *)(s + 32); /* ldrd, strd */
}

int main(void) {
  helia_traffic_begin();
  move((const uint8_t *)src, dst);
  helia_traffic_end();
  return 0;
}
