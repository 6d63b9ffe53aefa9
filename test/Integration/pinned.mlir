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

// A two-layer perceptron whose weights ("fc1/w", "fc2/w") are pinned: their
// bytes stay in MRAM and are copied into DTCM once, by
// model_hydrate_constants; the biases are read in place from MRAM. The
// harness calls the hydrate function through a stub that does nothing (the
// unplanned program has nothing to hydrate); the lowering defines it.

// IR: memref.global "private" constant @constant_dtcm_from_mram_source : memref<144xi8, #helia.memory<"mram">> = dense<
// IR: memref.global "private" @constant_dtcm_from_mram : memref<144xi8, #helia.memory<"dtcm">> = uninitialized
// IR: memref.global "private" constant @constant_mram : memref<64xi8, #helia.memory<"mram">> = dense<
// IR-LABEL: func.func @model(
// IR-DAG: %[[PINNED:.*]] = memref.get_global @constant_dtcm_from_mram : memref<144xi8, #helia.memory<"dtcm">>
// IR-DAG: memref.view %[[PINNED]][%{{.*}}][] : memref<144xi8, #helia.memory<"dtcm">> to memref<1x4x6xf32, #helia.memory<"dtcm">>
// IR-DAG: memref.view %[[PINNED]][%{{.*}}][] : memref<144xi8, #helia.memory<"dtcm">> to memref<1x6x2xf32, #helia.memory<"dtcm">>
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @main()
// IR-NEXT: call @model_hydrate_constants() : () -> ()
// IR-LABEL: func.func @model_hydrate_constants()
// IR: helia.hydrate %{{.*}}, %{{.*}} : memref<144xi8, #helia.memory<"mram">>, memref<144xi8, #helia.memory<"dtcm">>
// IR-NOT: memref.alloc

// GLOBAL-LABEL: func.func @model(
// GLOBAL-NOT: memref.alloc
// GLOBAL-LABEL: func.func @main()
// The harness keeps a copy of each result: the next call reuses the arena.
// GLOBAL: call @model(
// GLOBAL-NEXT: memref.alloc
// GLOBAL-NEXT: memref.copy
// GLOBAL-LABEL: func.func @model_hydrate_constants()
// GLOBAL: memref.copy
// GLOBAL-NOT: memref.alloc

// With arena arguments the harness owns the scratch arena and the runtime
// copy of the pinned weights, and hands both to the hydrate function and to
// the model.
// ARG-LABEL: func.func @model(
// ARG-NOT: memref.alloc
// ARG-LABEL: func.func @main()
// ARG-NEXT: %[[S:.*]] = memref.alloc() {alignment = 16 : i64} : memref<{{[0-9]+}}xi8>
// ARG-NEXT: %[[P:.*]] = memref.alloc() {alignment = 16 : i64} : memref<144xi8>
// ARG-NEXT: call @model_hydrate_constants(%[[S]], %[[P]])
// ARG-NOT: memref.alloc
// ARG: call @model(%{{.*}}, %[[S]], %[[P]])
// ARG-LABEL: func.func @model_hydrate_constants(
// ARG: memref.copy
// ARG-NOT: memref.alloc
// ALLOC-LABEL: func.func @model(
// ALLOC-NOT: memref.alloc
// ALLOC-LABEL: func.func @main()
// ALLOC-NEXT: %[[A:.*]]:2 = call @model_alloc_arenas()
// ALLOC-NEXT: call @model_hydrate_constants(%[[A]]#0, %[[A]]#1)
// ALLOC: call @model(%{{.*}}, %[[A]]#0, %[[A]]#1)
// ALLOC: call @model_free_arenas(%[[A]]#0, %[[A]]#1)

// x = [1, 2, -1, 0.5]; x*w1 + b1 = [-1, 2.75, 1, 3.75, -2, 0.75];
// relu = [0, 2.75, 1, 3.75, 0, 0.75]; *w2 + b2 = [-1.75, 8]
// CHECK: ( -1.75, 8 )

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
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<[[[1.0, 2.0, -1.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x2xf32>, vector<2xf32>
    vector.print %v : vector<2xf32>
    return
  }

  // Nothing to hydrate in the unplanned program; helia-lower-to-memref
  // defines the function of a planned one.
  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }
}
