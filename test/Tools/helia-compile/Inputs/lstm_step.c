// A C main that runs the one-step LSTM of lstm-state.test on three frames,
// carrying its hidden and cell state (persistent variables) from each run
// to the next: the state starts at its reset value (the hidden state's zero
// point, a zero cell) and each run's state outputs become the next run's
// state inputs.
#include "step.h"

void printI64(int64_t);
void printOpen(void);
void printClose(void);
void printComma(void);
void printNewline(void);
void *memcpy(void *, const void *, unsigned int);

static const step_input_0_t frames[3][STEP_INPUT_0_SIZE] = {
    {-100, 20, 3, 77, -5, 120},
    {64, -64, 0, 1, -127, 50},
    {10, 90, -30, -60, 45, -2}};
static step_input_1_t hidden[STEP_INPUT_1_SIZE];
static step_input_2_t cell[STEP_INPUT_2_SIZE];
static step_input_0_t frame[STEP_INPUT_0_SIZE];

void main(void) {
  step_model_context_t ctx;
  if (step_model_init(&ctx) != STEP_OK)
    return;
  for (unsigned i = 0; i < STEP_INPUT_1_SIZE; ++i) {
    hidden[i] = HIDDEN_ZERO_POINT;
    cell[i] = 0;
  }
  ctx.input_0 = frame;
  ctx.input_1 = hidden;
  ctx.input_2 = cell;
  printOpen();
  for (int t = 0; t < 3; ++t) {
    memcpy(frame, frames[t], STEP_INPUT_0_BYTES);
    if (step_model_run(&ctx) != STEP_OK)
      return;
    for (unsigned i = 0; i < STEP_OUTPUT_0_SIZE; ++i) {
      if (t || i)
        printComma();
      printI64(ctx.output_0[i]);
    }
    memcpy(hidden, ctx.output_1, STEP_OUTPUT_1_BYTES);
    memcpy(cell, ctx.output_2, STEP_OUTPUT_2_BYTES);
  }
  printClose();
  printNewline();
}
