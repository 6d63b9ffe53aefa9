// The lowered IR, before the copies are lowered.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true})" | FileCheck %s --check-prefix=IR

// Planned, in one invocation, with each arena mode; then run.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=GLOBAL --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" -o %t.arg.mlir
// RUN: FileCheck %s --check-prefix=ARG --input-file=%t.arg.mlir
// RUN: helia-opt %t.arg.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" -o %t.alloc.mlir
// RUN: FileCheck %s --check-prefix=ALLOC --input-file=%t.alloc.mlir
// RUN: helia-opt %t.alloc.mlir %{to_llvm} | %{run} | FileCheck %s

// Reference: plain One-Shot Bufferize.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// A recurrent cell whose state is persistent: the state argument and the
// updated state live in the persistent arena, which no scratch tensor ever
// reuses, and the updated state is returned in place. The harness threads
// the state through two calls; with arena arguments it owns the arenas for
// both.

// IR: memref.global "private" @persistent_dtcm : memref<32xi8, #helia.memory<"dtcm">>
// IR-LABEL: func.func @model(
// IR-SAME: -> (memref<4xf32, #helia.memory<"dtcm">>, memref<4xf32, #helia.memory<"dtcm">>)
// IR-DAG: %[[P:.*]] = memref.get_global @persistent_dtcm
// IR-DAG: %[[C0:.*]] = arith.constant 0 : index
// IR-DAG: %[[C16:.*]] = arith.constant 16 : index
// The state argument is copied into its persistent slot.
// IR: %[[OLD:.*]] = memref.view %[[P]][%[[C0]]][]
// IR: memref.copy %{{.*}}, %[[OLD]]
// IR: linalg.mul ins(%[[OLD]], %{{.*}})
// The new state is written into its own persistent slot and returned there.
// IR: %[[NEW:.*]] = memref.view %[[P]][%[[C16]]][]
// IR: linalg.add {{.*}}outs(%[[NEW]] :
// IR-NOT: memref.alloc
// IR: return %{{.*}}, %[[NEW]]

// The harness keeps a copy of each result (the state it passes on, and the
// output): the next call reuses the arenas.
// GLOBAL-LABEL: func.func @model(
// GLOBAL-NOT: memref.alloc
// GLOBAL-LABEL: func.func @main()
// GLOBAL: call @model(
// GLOBAL-COUNT-2: memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// GLOBAL: call @model(
// ARG-LABEL: func.func @model(
// ARG-NOT: memref.alloc
// ARG-LABEL: func.func @main()
// ARG-COUNT-2: memref.alloc() {alignment = 16 : i64}
// ARG-NOT: memref.alloc
// ARG: call @model(
// ARG-COUNT-2: memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// ARG: call @model(
// ALLOC-LABEL: func.func @model(
// ALLOC-NOT: memref.alloc
// ALLOC-LABEL: func.func @main()
// ALLOC-NEXT: call @model_alloc_arenas()
// ALLOC-NOT: memref.alloc
// ALLOC: call @model(
// ALLOC-COUNT-2: memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// ALLOC: call @model_free_arenas(

// s1 = 0.5 * 0 + x1 = [1, 2, 3, 4];          y1 = s1 * w
// s2 = 0.5 * s1 + x2 = [0.5, 0, 2.5, 2];     y2 = s2 * w
// CHECK: ( 1, -2, 6, 2 )
// CHECK-NEXT: ( 0.5, -0, 5, 1 )
// CHECK-NEXT: ( 0.5, 0, 2.5, 2 )

module attributes {helia.platform = "apollo510_evb"} {
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
