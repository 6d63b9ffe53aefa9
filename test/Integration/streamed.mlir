// The lowered IR, before the copies are lowered.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true})" | FileCheck %s --check-prefix=IR

// Planned, in one invocation, with each arena mode; then run.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=COPIES --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" -o %t.arg.mlir
// RUN: FileCheck %s --check-prefix=ARG --input-file=%t.arg.mlir
// RUN: helia-opt %t.arg.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" -o %t.alloc.mlir
// RUN: FileCheck %s --check-prefix=ALLOC --input-file=%t.alloc.mlir
// RUN: helia-opt %t.alloc.mlir %{to_llvm} | %{run} | FileCheck %s

// Reference: plain One-Shot Bufferize.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// Three layers whose weights ("l1/w", "l2/w", "l3/w") are streamed: their
// bytes stay in MRAM, and each is copied into the stream pool in DTCM right
// before the matmul that reads it. Slots of the pool are reused by lifetime.

// IR: memref.global "private" @stream_dtcm : memref<{{[0-9]+}}xi8, #helia.memory<"dtcm">> = uninitialized
// IR-LABEL: func.func @model(
// IR-DAG: %[[POOL:.*]] = memref.get_global @stream_dtcm
// IR-DAG: %[[COLD:.*]] = memref.get_global @constant_mram
// IR: %[[W1:.*]] = memref.view %[[COLD]]{{.*}} to memref<1x4x4xf32, #helia.memory<"mram">>
// IR: %[[S1:.*]] = memref.view %[[POOL]]{{.*}} to memref<1x4x4xf32, #helia.memory<"dtcm">>
// IR: helia.stream %[[W1]], %[[S1]]
// IR-NEXT: linalg.batch_matmul ins(%{{.*}}, %[[S1]] :
// IR: helia.stream
// IR-NEXT: linalg.batch_matmul
// IR: helia.stream
// IR-NEXT: linalg.batch_matmul
// IR-NOT: memref.alloc
// IR: return

// COPIES-NOT: memref.alloc
// COPIES-LABEL: func.func @model(
// COPIES-NOT: helia.stream
// COPIES-COUNT-3: memref.copy {{.*}} : memref<1x4x4xf32> to memref<1x4x4xf32>
// COPIES-NOT: memref.alloc
// COPIES-LABEL: func.func @main()
// The harness keeps a copy of each result: the next call reuses the arena.
// COPIES: call @model(
// COPIES-NEXT: memref.alloc
// COPIES-NEXT: memref.copy

// With arena arguments, the harness owns the scratch arena and the stream
// pool: memref.alloc in arg mode, @model_alloc_arenas in alloc mode. The
// model allocates nothing.
// ARG-LABEL: func.func @model(
// ARG-NOT: memref.alloc
// ARG-LABEL: func.func @main()
// ARG-COUNT-2: memref.alloc() {alignment = 16 : i64} : memref<{{[0-9]+}}xi8>
// ARG-NOT: memref.alloc
// ARG: call @model(
// ARG-COUNT-2: memref.dealloc
// ALLOC-LABEL: func.func @model(
// ALLOC-NOT: memref.alloc
// ALLOC-LABEL: func.func @main()
// ALLOC-NEXT: %[[A:.*]]:2 = call @model_alloc_arenas()
// ALLOC-NOT: memref.alloc
// ALLOC: call @model(%{{.*}}, %[[A]]#0, %[[A]]#1)
// ALLOC: call @model_free_arenas(%[[A]]#0, %[[A]]#1)
// ALLOC-LABEL: func.func @model_alloc_arenas()
// ALLOC-COUNT-2: memref.alloc() {alignment = 16 : i64}
// ALLOC-NOT: memref.alloc

// x*w1 = [1.5, 4, 9, 3]; *w2 = [3.75, 3.5, 8.5, 10.5]; *w3:
// CHECK: ( -6.75, -0.25, 5, 2 )

module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, id = ["*/w"], attributes = <residency = stream>>]} {
  func.func @model(%x: tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %w1 = "tosa.const"() {values = dense<[[[1.0, 0.0, 0.0, 1.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0], [1.0, 0.0, 0.0, 4.0]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l1/w")
    %w2 = "tosa.const"() {values = dense<[[[0.5, 1.0, 0.0, 0.0], [0.0, 0.5, 1.0, 0.0], [0.0, 0.0, 0.5, 1.0], [1.0, 0.0, 0.0, 0.5]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l2/w")
    %w3 = "tosa.const"() {values = dense<[[[1.0, -1.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0], [0.0, 0.0, 1.0, -1.0], [-1.0, 0.0, 0.0, 1.0]]]> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("l3/w")
    %m1 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l1")
    %m2 = tosa.matmul %m1, %w2, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l2")
    %m3 = tosa.matmul %m2, %w3, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("l3")
    return %m3 : tensor<1x1x4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
