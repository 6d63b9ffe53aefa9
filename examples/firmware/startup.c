/*===- startup.c - a minimal Cortex-M55 start-up for helia images ---------===
 *
 * The vector table, a reset handler that enables the FPU and MVE, copies
 * .data, zeroes .bss and the plan's writable arenas, calls the model's
 * harness `main` and exits through semihosting. Everything the image needs
 * from a C library is in runtime.c. Freestanding: no libc.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

extern uint32_t __stack_top[];
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];
/* The plan's writable arenas, per memory (from the generated linker-script
   fragment; the board's script PROVIDEs empty ranges for memories that hold
   none). */
extern uint32_t __helia_dtcm_bss_start[], __helia_dtcm_bss_end[];
extern uint32_t __helia_sram_bss_start[], __helia_sram_bss_end[];
extern uint32_t __helia_itcm_bss_start[], __helia_itcm_bss_end[];

void main(void); /* the model's harness, lowered from MLIR */
void helia_exit(int status);

static void zero(uint32_t *begin, uint32_t *end) {
  for (volatile uint32_t *p = begin; p < end; ++p)
    *p = 0;
}

__attribute__((noreturn)) void Reset_Handler(void) {
  /* CPACR: full access to coprocessors 10 and 11 (FPU and MVE). */
  volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
  *cpacr |= (0xFu << 20);
  __asm__ volatile("dsb\n\tisb" ::: "memory");

  for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  zero(__bss_start, __bss_end);
  /* A host process starts with zeroed globals; so does the image. */
  zero(__helia_dtcm_bss_start, __helia_dtcm_bss_end);
  zero(__helia_sram_bss_start, __helia_sram_bss_end);
  zero(__helia_itcm_bss_start, __helia_itcm_bss_end);

  main();
  helia_exit(0);
  for (;;)
    ;
}

static void Fault_Handler(void) { helia_exit(1); }

/* Initial stack pointer, reset, then NMI, HardFault, MemManage, BusFault,
   UsageFault, SecureFault: every fault ends the run with a failure. */
__attribute__((section(".vectors"), used)) void (*const vectors[])(void) = {
    (void (*)(void))__stack_top, Reset_Handler, Fault_Handler, Fault_Handler,
    Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
};
