// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{arena-mode=arg plan-header=-})" -o /dev/null | FileCheck %s

// With arena-mode=arg the writable arenas are the caller's: only the
// constant arenas are globals with sections, and the hydrate function takes
// the writable arenas, so C calls it through its C interface like the model
// (the arena sizes are in the memref types above each prototype).

// CHECK:     #define F_ARENA_COUNT 1
// CHECK-NOT: void f_hydrate_constants(void);
// CHECK:     /* f(memref<4xf32>, memref<32xi8>, memref<16xi8>) -> memref<4xf32> */
// CHECK-NEXT: void _mlir_ciface_f(f_memref_1d_f32_t *result, f_memref_1d_f32_t *arg0, f_memref_1d_i8_t *arg1, f_memref_1d_i8_t *arg2);
// CHECK-NEXT: /* f_hydrate_constants(memref<32xi8>, memref<16xi8>) -> () */
// CHECK-NEXT: void _mlir_ciface_f_hydrate_constants(f_memref_1d_i8_t *arg0, f_memref_1d_i8_t *arg1);

module attributes {helia.platform = "mps3_an547",
                   helia.rules = [#helia.rule<type = constant, attributes = <memory = "qspi", constant_destination_memory = "dtcm">>]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
