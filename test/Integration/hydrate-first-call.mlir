// A harness that never calls model_hydrate_constants: with
// hydrate=first-call the lowered model hydrates its pinned weights by itself
// (once: the second run must not need it again), in each arena mode.
// Without the option, helia-verify-plan warns (test/Transforms/verify-plan/hydrate.mlir).

// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true hydrate=first-call})" -verify-diagnostics -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=GLOBAL --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg hydrate=first-call})" -verify-diagnostics -o %t.arg.mlir
// RUN: FileCheck %s --check-prefix=ARG --input-file=%t.arg.mlir
// RUN: helia-opt %t.arg.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc hydrate=first-call})" -verify-diagnostics -o %t.alloc.mlir
// RUN: FileCheck %s --check-prefix=ALLOC --input-file=%t.alloc.mlir
// RUN: helia-opt %t.alloc.mlir %{to_llvm} | %{run} | FileCheck %s

// Reference: plain One-Shot Bufferize (nothing to hydrate).
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// CHECK: ( -1.75, 8 )
// CHECK-NEXT: ( -1.75, 8 )

// GLOBAL-LABEL: func.func @model(
// GLOBAL-NEXT: %[[FLAG:.*]] = memref.get_global @model_hydrated : memref<i1>
// GLOBAL-NEXT: %[[DONE:.*]] = memref.load %[[FLAG]][] : memref<i1>
// GLOBAL-NEXT: %[[TRUE:.*]] = arith.constant true
// GLOBAL-NEXT: %[[TODO:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// GLOBAL-NEXT: scf.if %[[TODO]] {
// GLOBAL-NEXT:   func.call @model_hydrate_constants() : () -> ()
// GLOBAL-NEXT:   memref.store %[[TRUE]], %[[FLAG]][] : memref<i1>
// GLOBAL-NEXT: }
// GLOBAL-LABEL: func.func @main()
// GLOBAL-NOT: call @model_hydrate_constants
// GLOBAL: memref.global "private" @model_hydrated : memref<i1> = dense<false>

// ARG-LABEL: func.func @main()
// ARG-NEXT: %[[S:.*]] = memref.alloc() {alignment = 16 : i64} : memref<{{[0-9]+}}xi8>
// ARG-NEXT: %[[P:.*]] = memref.alloc() {alignment = 16 : i64} : memref<144xi8>
// ARG-NEXT: call @model_hydrate_constants(%[[S]], %[[P]])
// ARG-NOT: call @model_hydrate_constants
// ARG: call @model(%{{.*}}, %[[S]], %[[P]])
// ARG-NOT: call @model_hydrate_constants
// ARG: call @model(%{{.*}}, %[[S]], %[[P]])
// ARG-NOT: model_hydrated

// ALLOC-LABEL: func.func @main()
// ALLOC-NEXT: %[[A:.*]]:2 = call @model_alloc_arenas()
// ALLOC-NOT: call @model_hydrate_constants
// ALLOC-LABEL: func.func @model_alloc_arenas()
// ALLOC: call @model_hydrate_constants(%[[S:.*]], %[[P:.*]]) :
// ALLOC-NEXT: return %[[S]], %[[P]]
// ALLOC-NOT: model_hydrated

module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, id = ["fc*/w"], attributes = <memory = "mram", constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %w1 = "tosa.const"() {values = dense<[[[1.0, 0.0, -1.0, 0.5, 2.0, 0.0], [0.0, 1.0, 1.0, 0.5, -1.0, 0.0],
                                           [1.0, 1.0, 0.0, -0.5, 0.0, 1.0], [-1.0, 0.0, 2.0, 0.5, 1.0, 1.0]]]> : tensor<1x4x6xf32>} : () -> tensor<1x4x6xf32> loc("fc1/w")
    %b1 = "tosa.const"() {values = dense<[[[0.5, -0.5, 0.0, 1.0, -2.0, 0.25]]]> : tensor<1x1x6xf32>} : () -> tensor<1x1x6xf32> loc("fc1/b")
    %w2 = "tosa.const"() {values = dense<[[[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1.0]]]> : tensor<1x6x2xf32>} : () -> tensor<1x6x2xf32> loc("fc2/w")
    %b2 = "tosa.const"() {values = dense<[[[0.0, 0.5]]]> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32> loc("fc2/b")
    %m1 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x6xf32> loc("fc1")
    %h1 = tosa.add %m1, %b1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
    %r1 = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 100.0 : f32} : (tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
    %m2 = tosa.matmul %r1, %w2, %zp, %zp : (tensor<1x1x6xf32>, tensor<1x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32> loc("fc2")
    %o = tosa.add %m2, %b2 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    return %o : tensor<1x1x2xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[1.0, 2.0, -1.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x2xf32>, vector<2xf32>
    vector.print %v : vector<2xf32>
    %r2 = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
    %v2 = vector.transfer_read %r2[%c0, %c0, %c0], %pad : tensor<1x1x2xf32>, vector<2xf32>
    vector.print %v2 : vector<2xf32>
    return
  }
}
