// RUN: helia-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor, helia-fuse-accumulators, canonicalize))" | FileCheck %s

// An int8 convolution with its bias, rescale and clamp: the i32 accumulator
// of the whole output (1x8x8x6xi32, 1536 bytes) becomes one element's
// (1x1x1x1xi32) inside a loop over the output elements. The padded input
// is never built: each output position fills a 3x3 window with the input's
// zero point and inserts the part of the input it covers (clamped at the
// borders), once per position, out of the loop over the channels.

// CHECK-LABEL: func.func @conv(
// CHECK-SAME:    %[[IN:[a-z0-9_]+]]: tensor<1x8x8x4xi8>
// CHECK-NOT:   tensor.pad
// CHECK-NOT:   tensor<1x8x8x6xi32>
// (canonicalize drops the loop over the batch of 1.)
// CHECK:       scf.for %[[Y:[a-z0-9_]+]] =
// CHECK:         scf.for %[[X:[a-z0-9_]+]] =
// CHECK:           %[[W0:[a-z0-9_]+]] = tensor.empty() : tensor<1x3x3x4xi8>
// CHECK:           %[[W1:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : i8) outs(%[[W0]] : tensor<1x3x3x4xi8>)
// CHECK:           %[[PART:[a-z0-9_]+]] = tensor.extract_slice %[[IN]][0, %{{.*}}, %{{.*}}, 0] [1, %{{.*}}, %{{.*}}, 4] [1, 1, 1, 1] : tensor<1x8x8x4xi8> to tensor<1x?x?x4xi8>
// CHECK:           %[[WINDOW:[a-z0-9_]+]] = tensor.insert_slice %[[PART]] into %[[W1]]
// CHECK:           scf.for %[[C:[a-z0-9_]+]] = {{.*}} iter_args(%[[OUT:[a-z0-9_]+]] = %{{.*}}) -> (tensor<1x8x8x6xi8>)
// CHECK:             %[[ACC0:[a-z0-9_]+]] = tensor.empty() : tensor<1x1x1x1xi32>
// CHECK:             %[[BIAS:[a-z0-9_]+]] = linalg.generic {{.*}} outs(%[[ACC0]] : tensor<1x1x1x1xi32>)
// CHECK:             %[[ACC:[a-z0-9_]+]] = linalg.conv_2d_nhwc_fhwc_q {{.*}} ins(%[[WINDOW]], {{.*}} outs(%[[BIAS]] : tensor<1x1x1x1xi32>)
// CHECK:             %[[TILE:[a-z0-9_]+]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<1x1x1x1xi32>
// CHECK:             tensor.insert_slice %[[TILE]] into %[[OUT]][0, %[[Y]], %[[X]], %[[C]]] [1, 1, 1, 1] [1, 1, 1, 1]
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

// -----

// A fully connected layer ([1, 1, 1, 64] outputs): one output at a time.

// CHECK-LABEL: func.func @fully_connected(
// CHECK-NOT:   tensor<1x1x1x64xi32>
// CHECK:       scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK:         linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x1x1x1xi32>
func.func @fully_connected(%x: tensor<1x1x1x32xi8>) -> tensor<1x1x1x64xi8> {
  %w = "tosa.const"() {values = dense<1> : tensor<64x1x1x32xi8>} : () -> tensor<64x1x1x32xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<64xi32>} : () -> tensor<64xi32>
  %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zw = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zi, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x64xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %z32, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x1x1x64xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x1x64xi8>
  return %r : tensor<1x1x1x64xi8>
}

// -----

// An accumulator read twice (returned as well) is needed whole: nothing is
// tiled.

// CHECK-LABEL: func.func @two_readers(
// CHECK-NOT:   scf.for
// CHECK:       linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x4x4x2xi32>
func.func @two_readers(%x: tensor<1x4x4x2xi8>) -> (tensor<1x4x4x2xi8>, tensor<1x4x4x2xi32>) {
  %w = "tosa.const"() {values = dense<1> : tensor<2x1x1x2xi8>} : () -> tensor<2x1x1x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zw = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zi, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x2xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %z32, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x4x4x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x2xi8>
  return %r, %acc : tensor<1x4x4x2xi8>, tensor<1x4x4x2xi32>
}

// -----

// A reduction inside a loop body (an LSTM's gate in its time loop) is left
// whole: it accumulates one iteration's values already, and tile loops
// nested in the region would carry its values through buffers the plan
// shares.

// CHECK-LABEL: func.func @in_loop(
// CHECK:       scf.for {{.*}} iter_args
// CHECK-NOT:     scf.for
// CHECK:         linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x1x1x8xi32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x8xi32>) outs(%{{.*}} : tensor<1x1x1x8xi8>)
func.func @in_loop(%x: tensor<1x1x1x8xi8>) -> tensor<1x1x1x8xi8> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %w = "tosa.const"() {values = dense<1> : tensor<8x1x1x8xi8>} : () -> tensor<8x1x1x8xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<8xi32>} : () -> tensor<8xi32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<1x1x1x8xi8>) {
    %zi = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %zw = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %acc = tosa.conv2d %h, %w, %b, %zi, %zw {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x8xi8>, tensor<8x1x1x8xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi32>
    %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
    %s = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
    %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %zo = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
    %y = tosa.rescale %acc, %m, %s, %z32, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x1x1x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
    scf.yield %y : tensor<1x1x1x8xi8>
  }
  return %r : tensor<1x1x1x8xi8>
}
