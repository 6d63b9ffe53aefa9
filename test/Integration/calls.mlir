// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// In every arena mode (with arena arguments, @model forwards its own to
// @layer), then plain One-Shot Bufferize. Calls across the plan's boundary: the planned @model calls the planned
// @layer (which runs inside the call's step, on the same arenas) and the
// unplanned @peek, and the unplanned @main calls @model. Every function
// boundary is in the default memory space: operands in arena slots are
// passed as memory-space casts of their views (no copy), results come back
// in their slots and the caller copies them into its own slot.

// IR-LABEL: func.func @layer(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @model(
// IR-NOT: memref.alloc
// IR: call @layer(%view{{.*}}, %view{{.*}}) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
// IR-NOT: memref.alloc
// IR: call @peek(%view{{.*}}) : (memref<4xf32>) -> ()
// IR-NOT: memref.alloc
// IR: return

// y = 2x = [2, -2, 1, 4]; z = y * w = [2, -4, 3, 16]; z + y:
// CHECK: [4,  -6,  4,  20]

module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @peek(%t: tensor<4xf32>) attributes {helia.unplanned} {
    return
  }

  func.func @layer(%a: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.mul ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %z = call @layer(%y, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    call @peek(%z) : (tensor<4xf32>) -> ()
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%z, %y : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
