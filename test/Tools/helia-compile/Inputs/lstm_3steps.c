// A C main that runs the three-step LSTM of lstm-state.test once on the
// three frames of lstm_step.c, from the reset state.
#include "seq.h"

void printI64(int64_t);
void printOpen(void);
void printClose(void);
void printComma(void);
void printNewline(void);

static seq_input_0_t frames[SEQ_INPUT_0_SIZE] = {
    -100, 20, 3, 77, -5, 120, 64, -64, 0, 1, -127, 50, 10, 90, -30, -60, 45, -2};

void main(void) {
  seq_model_context_t ctx;
  if (seq_model_init(&ctx) != SEQ_OK)
    return;
  ctx.input_0 = frames;
  if (seq_model_run(&ctx) != SEQ_OK)
    return;
  printOpen();
  for (unsigned i = 0; i < SEQ_OUTPUT_0_SIZE; ++i) {
    if (i)
      printComma();
    printI64(ctx.output_0[i]);
  }
  printClose();
  printNewline();
}
