// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir %{tosa_to_linalg} -o %t/linalg.mlir

// RUN: helia-opt %t/linalg.mlir --helia-memory-pipeline -o %t/bound.mlir
// RUN: %{open_module} %t/bound.mlir > %t/planned.mlir
// RUN: cat %t/harness.mlir >> %t/planned.mlir
// RUN: helia-opt %t/planned.mlir --helia-lower-to-memref -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/lowered.mlir
// RUN: helia-opt %t/lowered.mlir --helia-lower-copies -o %t/copies.mlir
// RUN: FileCheck %s --check-prefix=COPIES < %t/copies.mlir
// RUN: helia-opt %t/copies.mlir %{to_llvm} | %{run} | FileCheck %s

// RUN: %{open_module} %t/linalg.mlir > %t/plain.mlir
// RUN: cat %t/harness.mlir >> %t/plain.mlir
// RUN: helia-opt %t/plain.mlir %{plain_bufferize} --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s

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

// COPIES-NOT: helia.stream
// COPIES-LABEL: func.func @model(
// COPIES-COUNT-3: memref.copy {{.*}} : memref<1x4x4xf32> to memref<1x4x4xf32>
// COPIES-NOT: memref.alloc

// x*w1 = [1.5, 4, 9, 3]; *w2 = [3.75, 3.5, 8.5, 10.5]; *w3:
// CHECK: ( -6.75, -0.25, 5, 2 )

//--- model.mlir
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
}

//--- harness.mlir
  func.func @main() {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 0.5]]]> : tensor<1x1x4xf32>
    %r = call @model(%x) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
