// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// In every arena mode, then plain One-Shot Bufferize. The harness prints
// the model's results with printMemrefF32, which takes an unranked memref in
// the default memory space. The model returns its results in their arena
// slots (in DTCM); at the call site each result is cast to the default
// memory space (memref.memory_space_cast, which helia-lower-copies drops
// with the memory spaces), so the harness's casts to tensor<*xf32>
// bufferize like any other. The harness also accumulates into the first
// result: a caller's write goes to a copy, never into the arena.

// IR-LABEL: func.func @main()
// IR: %[[R:.*]]:2 = call @model(
// IR-NOT: memref.memory_space_cast
// IR: call @printMemrefF32
// IR-LABEL: func.func @model(
// IR-NOT: memref.alloc
// IR: return

// CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]
// CHECK-NEXT: [2,   4,   6],
// CHECK-NEXT: [8,   10,   12]
// CHECK: rank = 1 offset = 0 sizes = [3] strides = [1]
// CHECK-NEXT: [5,   7,   9]
// CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]
// CHECK-NEXT: [3,   6,   9],
// CHECK-NEXT: [12,   15,   18]

module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %y, %s = func.call @model(%x) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
    // y + x, written over y: the arena slot is not writable by the caller,
    // so bufferization writes into a copy of y.
    %z = linalg.add ins(%y, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%y : tensor<2x3xf32>) -> tensor<2x3xf32>
    %uy = tensor.cast %y : tensor<2x3xf32> to tensor<*xf32>
    func.call @printMemrefF32(%uy) : (tensor<*xf32>) -> ()
    %us = tensor.cast %s : tensor<3xf32> to tensor<*xf32>
    func.call @printMemrefF32(%us) : (tensor<*xf32>) -> ()
    %uz = tensor.cast %z : tensor<2x3xf32> to tensor<*xf32>
    func.call @printMemrefF32(%uz) : (tensor<*xf32>) -> ()
    return
  }

  func.func @model(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
    %y = tosa.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
    %shape = tosa.const_shape {values = dense<[3]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %r = tosa.reshape %s, %shape : (tensor<1x3xf32>, !tosa.shape<1>) -> tensor<3xf32>
    return %y, %r : tensor<2x3xf32>, tensor<3xf32>
  }
}
