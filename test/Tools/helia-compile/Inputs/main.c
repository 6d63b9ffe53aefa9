// A C main for the model of compile.test, written against the generated
// header only.
#include "model.h"

void printF32(float);
void printOpen(void);
void printClose(void);
void printComma(void);
void printNewline(void);

void main(void) {
  float x[4] = {-5.0f, 0.5f, -1.0f, 2.0f};
  model_memref_2d_f32_t in = {x, x, 0, {1, 4}, {4, 1}}, out;
  _mlir_ciface_model(&out, &in);
  printOpen();
  for (int64_t i = 0; i < out.sizes[1]; ++i) {
    if (i)
      printComma();
    printF32(out.aligned[out.offset + i * out.strides[1]]);
  }
  printClose();
  printNewline();
}
