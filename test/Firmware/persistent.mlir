// RUN: rm -rf %t && mkdir -p %t
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{plan-ld=%t/plan.ld plan-header=%t/model.h})" -o %t/model.llvm.mlir
// RUN: FileCheck %s --check-prefix=H --input-file=%t/model.h
// RUN: %{run} %t/model.llvm.mlir > %t/host.txt
// RUN: FileCheck %s --input-file=%t/host.txt
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: %{image} %t/model.llvm.mlir %t %{boards}/mps3_an547.ld %t/image.elf
// RUN: %{readelf} -S -s -W %t/image.elf | FileCheck %s --check-prefix=ELF
// RUN: %if qemu-arm %{ %{qemu} %t/image.elf 2> %t/qemu.txt %}
// RUN: %if qemu-arm %{ cmp %t/host.txt %t/qemu.txt %}

// A recurrent cell whose state is persistent, threaded through two calls,
// with two results: on QEMU the state lives in the persistent arena's
// NOLOAD section in DTCM across both calls, and the header returns both
// results through one struct.

// H:      } model_arena_t;
// H:      typedef struct {
// H-NEXT:   float *allocated;
// H:      } model_memref_1d_f32_t;
// H:      typedef struct {
// H-NEXT:   model_memref_1d_f32_t result0;
// H-NEXT:   model_memref_1d_f32_t result1;
// H-NEXT: } model_results_t;
// H:      void _mlir_ciface_model(model_results_t *results, model_memref_1d_f32_t *arg0, model_memref_1d_f32_t *arg1);

// s1 = x1 = [1, 2, 3, 4]; y1 = s1 * w; s2 = s1 / 2 + x2; y2 = s2 * w (with
// -0 = 0 * -1, which QEMU prints as the host does); s2:
// CHECK: ( 1, -2, 6, 2 )
// CHECK-NEXT: ( 0.5, -0, 5, 1 )
// CHECK-NEXT: ( 0.5, 0, 2.5, 2 )

// ELF: .helia.dtcm.bss NOBITS 20000000
// ELF-DAG: OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_persistent_dtcm
// ELF-DAG: OBJECT GLOBAL DEFAULT {{[0-9]+}} model_arena_dtcm_scratch_dtcm

module attributes {helia.platform = "mps3_an547"} {
  func.func @model(%x: tensor<4xf32>, %state: tensor<4xf32> {helia.persistent}) -> (tensor<4xf32>, tensor<4xf32>) {
    %decay = arith.constant dense<0.5> : tensor<4xf32>
    %w = arith.constant dense<[1.0, -1.0, 2.0, 0.5]> : tensor<4xf32>
    %e0 = tensor.empty() : tensor<4xf32>
    %h = linalg.mul ins(%state, %decay : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %new = linalg.add {helia.persistent} ins(%h, %x : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%new, %w : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %y, %new : tensor<4xf32>, tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %s0 = arith.constant dense<0.0> : tensor<4xf32>
    %x1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %x2 = arith.constant dense<[0.0, -1.0, 1.0, 0.0]> : tensor<4xf32>
    %y1, %s1 = call @model(%x1, %s0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v1 = vector.transfer_read %y1[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v1 : vector<4xf32>
    %y2, %s2 = call @model(%x2, %s1) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %v2 = vector.transfer_read %y2[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v2 : vector<4xf32>
    %v3 = vector.transfer_read %s2[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v3 : vector<4xf32>
    return
  }
}
