// An int8 convolution with bias, per-channel rescale and clamp, its i32
// accumulator tiled to one output element and its padded input to one
// window by helia-fuse-accumulators (the TFLite recipe): planned in every arena mode, it prints what plain
// bufferization of the unfused module prints.

// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-fuse-accumulators), helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-fuse-accumulators), helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-fuse-accumulators), helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s

// The plan holds one element's accumulator (4 bytes), not the output's
// 1536, and one 3x3x4 window of the input (36 bytes), not a padded copy of
// the input (400): the peak is the input, the output and the two tiles.
// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), func.func(helia-fuse-accumulators), helia-memory-pipeline{plan-report=-})" -o /dev/null | FileCheck %s --check-prefix=PLAN
// PLAN: scratch_dtcm: 680 live at step {{[0-9]+}} (arena 704 bytes): #{{[0-9]+}} (256) #{{[0-9]+}} (384) #{{[0-9]+}} (4) #{{[0-9]+}} (36)
// CHECK: sizes = [1, 8, 8, 6]
// CHECK-NEXT: [5, 5, 5, 5, 5, 5],
// CHECK-NEXT: [7, 7, 7, 7, 7, 7],
// CHECK-NEXT: [7, 7, 8, 7, 7, 7],
// CHECK-NEXT: [8, 7, 8, 8, 8, 8],
// CHECK: [9, 9, 10, 9, 9, 9],

module {
  func.func @conv(%x: tensor<1x8x8x4xi8>) -> tensor<1x8x8x6xi8> {
    %w = "tosa.const"() {values = dense<3> : tensor<6x3x3x4xi8>} : () -> tensor<6x3x3x4xi8>
    %b = "tosa.const"() {values = dense<[7, -7, 100, 0, 1, 2]> : tensor<6xi32>} : () -> tensor<6xi32>
    %zi = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
    %zw = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %acc = tosa.conv2d %x, %w, %b, %zi, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xi8>, tensor<6x3x3x4xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x6xi32>
    %m = "tosa.const"() {values = dense<1500000000> : tensor<6xi32>} : () -> tensor<6xi32>
    %s = "tosa.const"() {values = dense<38> : tensor<6xi8>} : () -> tensor<6xi8>
    %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %zo = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
    %r = tosa.rescale %acc, %m, %s, %z32, %zo {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x8x8x6xi32>, tensor<6xi32>, tensor<6xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8x6xi8>
    %c = tosa.clamp %r {max_val = 127 : i8, min_val = 3 : i8} : (tensor<1x8x8x6xi8>) -> tensor<1x8x8x6xi8>
    return %c : tensor<1x8x8x6xi8>
  }

  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[[1, -2, 3, 4], [5, 6, -7, 8], [9, 10, 11, 12], [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, -11, 12], [1, 2, 3, 4], [-50, 60, 70, -80]]]]> : tensor<1x1x8x4xi8>
    %m = tosa.const_shape {values = dense<[1, 8, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %xx = tosa.tile %x, %m : (tensor<1x1x8x4xi8>, !tosa.shape<4>) -> tensor<1x8x8x4xi8>
    %r = call @conv(%xx) : (tensor<1x8x8x4xi8>) -> tensor<1x8x8x6xi8>
    %e = tosa.cast %r : (tensor<1x8x8x6xi8>) -> tensor<1x8x8x6xi32>
    %u = tensor.cast %e : tensor<1x8x8x6xi32> to tensor<*xi32>
    call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
    return
  }
}
