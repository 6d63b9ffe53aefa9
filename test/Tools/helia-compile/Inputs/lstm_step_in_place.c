// A C main that runs the one-step LSTM of lstm-state.test on three frames
// leaving its state where the plan keeps it: the main writes the reset
// state (the hidden state's zero point, a zero cell) into the input slots
// step_model_init gives, and after the first run points the state inputs
// at the state outputs, which live in the persistent arena: every later
// run reads the state there and writes the new one in the same place, with
// no copy by the main.
#include "step.h"

void printI64(int64_t);
void printOpen(void);
void printClose(void);
void printComma(void);
void printNewline(void);
void printString(const char *);
void *memcpy(void *, const void *, unsigned int);

static const step_input_0_t frames[3][STEP_INPUT_0_SIZE] = {
    {-100, 20, 3, 77, -5, 120},
    {64, -64, 0, 1, -127, 50},
    {10, 90, -30, -60, 45, -2}};
static step_input_0_t frame[STEP_INPUT_0_SIZE];

void main(void) {
  step_model_context_t ctx;
  if (step_model_init(&ctx) != STEP_OK || !ctx.input_1 || !ctx.input_2) {
    printString("the state inputs have no slot\n");
    return;
  }
  for (unsigned i = 0; i < STEP_INPUT_1_SIZE; ++i) {
    ctx.input_1[i] = HIDDEN_ZERO_POINT;
    ctx.input_2[i] = 0;
  }
  ctx.input_0 = frame;
  printOpen();
  for (int t = 0; t < 3; ++t) {
    memcpy(frame, frames[t], STEP_INPUT_0_BYTES);
    if (step_model_run(&ctx) != STEP_OK)
      return;
    if (t == 0) {
      ctx.input_1 = ctx.output_1;
      ctx.input_2 = ctx.output_2;
    } else if ((void *)ctx.output_1 != (void *)ctx.input_1 ||
               (void *)ctx.output_2 != (void *)ctx.input_2) {
      printString("the state moved\n");
      return;
    }
    for (unsigned i = 0; i < STEP_OUTPUT_0_SIZE; ++i) {
      if (t || i)
        printComma();
      printI64(ctx.output_0[i]);
    }
  }
  printClose();
  printNewline();
}
