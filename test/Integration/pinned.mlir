// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir %{tosa_to_linalg} -o %t/linalg.mlir

// Planned: the harness declares the hydrate function that the lowering
// defines, and calls it once before the model.
// RUN: helia-opt %t/linalg.mlir --helia-memory-pipeline -o %t/bound.mlir
// RUN: %{open_module} %t/bound.mlir > %t/planned.mlir
// RUN: cat %t/hydrate-decl.mlir %t/harness.mlir >> %t/planned.mlir
// RUN: helia-opt %t/planned.mlir --helia-lower-to-memref -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/lowered.mlir
// RUN: helia-opt %t/lowered.mlir --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s

// Reference: nothing to hydrate, so the hydrate function is a stub.
// RUN: %{open_module} %t/linalg.mlir > %t/plain.mlir
// RUN: cat %t/hydrate-stub.mlir %t/harness.mlir >> %t/plain.mlir
// RUN: helia-opt %t/plain.mlir %{plain_bufferize} --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s

// A two-layer perceptron whose weights ("fc1/w", "fc2/w") are pinned: their
// bytes stay in MRAM and are copied into DTCM once, by
// model_hydrate_constants; the biases are read in place from MRAM.

// IR: memref.global "private" constant @constant_dtcm_from_mram_source : memref<144xi8, #helia.memory<"mram">> = dense<
// IR: memref.global "private" @constant_dtcm_from_mram : memref<144xi8, #helia.memory<"dtcm">> = uninitialized
// IR: memref.global "private" constant @constant_mram : memref<64xi8, #helia.memory<"mram">> = dense<
// IR-LABEL: func.func @model(
// IR-DAG: %[[PINNED:.*]] = memref.get_global @constant_dtcm_from_mram : memref<144xi8, #helia.memory<"dtcm">>
// IR-DAG: memref.view %[[PINNED]][%{{.*}}][] : memref<144xi8, #helia.memory<"dtcm">> to memref<1x4x6xf32, #helia.memory<"dtcm">>
// IR-DAG: memref.view %[[PINNED]][%{{.*}}][] : memref<144xi8, #helia.memory<"dtcm">> to memref<1x6x2xf32, #helia.memory<"dtcm">>
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @model_hydrate_constants()
// IR: helia.hydrate %{{.*}}, %{{.*}} : memref<144xi8, #helia.memory<"mram">>, memref<144xi8, #helia.memory<"dtcm">>
// IR-NOT: memref.alloc

// x = [1, 2, -1, 0.5]; x*w1 + b1 = [-1, 2.75, 1, 3.75, -2, 0.75];
// relu = [0, 2.75, 1, 3.75, 0, 0.75]; *w2 + b2 = [-1.75, 8]
// CHECK: ( -1.75, 8 )

//--- model.mlir
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
}

//--- hydrate-decl.mlir
  func.func private @model_hydrate_constants()

//--- hydrate-stub.mlir
  func.func @model_hydrate_constants() {
    return
  }

//--- harness.mlir
  func.func @main() {
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<[[[1.0, 2.0, -1.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x2xf32>, vector<2xf32>
    vector.print %v : vector<2xf32>
    return
  }
}
