// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.lowered.mlir
// RUN: helia-opt %t.lowered.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// A branchy graph: values live across each other irregularly (a and b feed
// ops far apart, e is read by two later ops), so the scratch arena reuses
// slots in a non-trivial pattern; the concat writes both halves in place
// into its own slot. @main is the unplanned harness.

// IR-NOT: memref.alloc
// IR-LABEL: func.func @model(
// IR: memref.subview
// IR-NOT: memref.alloc
// IR-LABEL: func.func @main()
// The harness keeps a copy of each result: the next call reuses the arena.
// IR: call @model(
// IR-NEXT: memref.alloc
// IR-NEXT: memref.copy

// CHECK: ( ( 4, 2, 4.5, 7, 2, 11, 9, 6.5 ), ( 4, 0, 3, 6, -6, 14, 4, -3 ) )

module attributes {helia.platform = "apollo510_evb"} {
  func.func @model(%x: tensor<1x8xf32>) -> tensor<2x8xf32> {
    %one = "tosa.const"() {values = dense<1.0> : tensor<1x8xf32>} : () -> tensor<1x8xf32>
    %ramp = "tosa.const"() {values = dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]> : tensor<1x8xf32>} : () -> tensor<1x8xf32>
    %a = tosa.add %x, %one : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %b = tosa.sub %x, %ramp : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %c = tosa.maximum %a, %b : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %d = tosa.minimum %a, %ramp : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %e = tosa.add %c, %d : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %f = tosa.sub %b, %e : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %g = tosa.abs %f : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %h = tosa.maximum %g, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    %k = tosa.concat %h, %e {axis = 0 : i32} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    return %k : tensor<2x8xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[3.0, -1.0, 0.5, 2.0, -4.0, 8.0, 1.0, -2.5]]> : tensor<1x8xf32>
    %r = call @model(%x) : (tensor<1x8xf32>) -> tensor<2x8xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0], %pad : tensor<2x8xf32>, vector<2x8xf32>
    vector.print %v : vector<2x8xf32>
    return
  }
}
