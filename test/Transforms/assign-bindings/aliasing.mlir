// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// Values that bufferization stores in one buffer are one buffer: a
// reshape's result and its operand; a destination-style op's result and its
// tied init. The buffer lives from its first definition to the last use of
// any member.

module {
  // CHECK: helia.arena @scratch_dtcm {{.*}}size 128 align
  // CHECK-LABEL: func.func @reshapes
  func.func @reshapes(%x: tensor<4x4xf32>) -> tensor<16xf32> {
    // tensor.empty, linalg.fill and linalg.add are one buffer; the argument
    // (live until the add) takes the other 64 bytes.
    // CHECK: tensor.empty() {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[OFF:[0-9]+]]]>]
    %e = tensor.empty() : tensor<4x4xf32>
    %zero = arith.constant 0.0 : f32
    // CHECK: linalg.fill {{.*}}helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[OFF]]]>]
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    // CHECK: linalg.add {{.*}}helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[OFF]]]>]
    %s = linalg.add ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    // The reshape aliases the sum: same offset, and the sum's buffer lives
    // to the return.
    // CHECK: tensor.collapse_shape {{.*}}helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[OFF]]]>]
    %c = tensor.collapse_shape %s [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    return %c : tensor<16xf32>
  }
}
