// Two SAME-padded int8 convolutions in a row through helia-pad-in-place
// alone (helia-fuse-accumulators would build the windows without padded
// tensors): the first convolution writes into the interior of the second
// one's padded input, so one buffer holds that tensor with its border. Planned in every arena mode, the model
// prints what plain bufferization of the untransformed module prints.

// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-pad-in-place), helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-pad-in-place), helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-pad-in-place), helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s

// The lowered model allocates nothing and copies only the argument into its
// slot and into the first padded buffer (a function argument has no
// producer to redirect): the first convolution writes into the second
// one's padded input.
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-pad-in-place), helia-memory-pipeline{lower=true})" | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: func.func @two_convs(
// LOWERED: memref.copy %arg0
// LOWERED: memref.copy
// LOWERED-NOT: memref.copy
// LOWERED-NOT: memref.alloc
// LOWERED: return
// CHECK: sizes = [1, 8, 8, 2]
// CHECK-NEXT: [9, 8],
// CHECK-NEXT: [15, 14],
// CHECK-NEXT: [19, 18],
// CHECK-NEXT: [19, 18],
// CHECK-NEXT: [18, 17],
// CHECK-NEXT: [16, 15],
// CHECK-NEXT: [13, 12],
// CHECK-NEXT: [7, 6]],
// CHECK-NEXT: [15, 13],

module {
  func.func @two_convs(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x2xi8> {
    %w = "tosa.const"() {values = dense<3> : tensor<6x3x3x4xi8>} : () -> tensor<6x3x3x4xi8>
    %b = "tosa.const"() {values = dense<[7, -7, 100, 0, 1, 2]> : tensor<6xi32>} : () -> tensor<6xi32>
    %zi = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
    %zw = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %acc = tosa.conv2d %x, %w, %b, %zi, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xi8>, tensor<6x3x3x4xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x6xi32>
    %m = "tosa.const"() {values = dense<1500000000> : tensor<6xi32>} : () -> tensor<6xi32>
    %s = "tosa.const"() {values = dense<36> : tensor<6xi8>} : () -> tensor<6xi8>
    %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %zo = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
    %r = tosa.rescale %acc, %m, %s, %z32, %zo {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x8x8x6xi32>, tensor<6xi32>, tensor<6xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x6xi8>
    %w2 = "tosa.const"() {values = dense<[[[[1, -1, 2, 0, 1, 1]]], [[[-2, 1, 1, 1, 0, 3]]]]> : tensor<2x1x1x6xi8>} : () -> tensor<2x1x1x6xi8>
    %w2b = tosa.const_shape {values = dense<[1, 3, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %w2t = tosa.tile %w2, %w2b : (tensor<2x1x1x6xi8>, !tosa.shape<4>) -> tensor<2x3x3x6xi8>
    %b2 = "tosa.const"() {values = dense<[5, -9]> : tensor<2xi32>} : () -> tensor<2xi32>
    %zi2 = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
    %acc2 = tosa.conv2d %r, %w2t, %b2, %zi2, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x6xi8>, tensor<2x3x3x6xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x2xi32>
    %m2 = "tosa.const"() {values = dense<1300000000> : tensor<1xi32>} : () -> tensor<1xi32>
    %s2 = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
    %zo2 = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
    %r2 = tosa.rescale %acc2, %m2, %s2, %z32, %zo2 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x8x8x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x2xi8>
    return %r2 : tensor<1x8x8x2xi8>
  }

  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[[1, -2, 3, 4], [5, 6, -7, 8], [9, 10, 11, 12], [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, -11, 12], [1, 2, 3, 4], [-50, 60, 70, -80]]]]> : tensor<1x1x8x4xi8>
    %m = tosa.const_shape {values = dense<[1, 8, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %xx = tosa.tile %x, %m : (tensor<1x1x8x4xi8>, !tosa.shape<4>) -> tensor<1x8x8x4xi8>
    %r = call @two_convs(%xx) : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x2xi8>
    %e = tosa.cast %r : (tensor<1x8x8x2xi8>) -> tensor<1x8x8x2xi32>
    %u = tensor.cast %e : tensor<1x8x8x2xi32> to tensor<*xi32>
    call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
    return
  }
}
