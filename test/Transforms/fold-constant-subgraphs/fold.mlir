// RUN: helia-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(helia-fold-constant-subgraphs))" | FileCheck %s

// A weight broadcast over a batch (as torch-mlir emits for batch_matmul),
// read by the matmul: folded, element for element.

// CHECK-LABEL: func.func @broadcast_generic(
// CHECK-DAG: %[[B:.*]] = arith.constant dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]], {{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]]> : tensor<2x2x3xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.batch_matmul ins(%{{.*}}, %[[B]] :
func.func @broadcast_generic(%x: tensor<2x1x2xf32>) -> tensor<2x1x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x3xf32>) outs(%e : tensor<2x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x3xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x1x3xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %r = linalg.batch_matmul ins(%x, %b : tensor<2x1x2xf32>, tensor<2x2x3xf32>) outs(%acc : tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  return %r : tensor<2x1x3xf32>
}

// -----

// A transpose of a broadcast of a reshaped weight: the chain folds as a
// whole; the fill that the matmul accumulates into stays (it is written).

// CHECK-LABEL: func.func @chain(
// CHECK: %[[T:.*]] = arith.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%{{.*}}, %[[T]] :
func.func @chain(%x: tensor<1x2xi32>) -> tensor<1x2xi32> {
  %w = arith.constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32>
  %c = tensor.collapse_shape %w [[0, 1], [2]] : tensor<1x2x2xi32> into tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xi32>
  %t = linalg.transpose ins(%c : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) permutation = [1, 0]
  %z = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<1x2xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e2 : tensor<1x2xi32>) -> tensor<1x2xi32>
  %r = linalg.matmul ins(%x, %t : tensor<1x2xi32>, tensor<2x2xi32>) outs(%acc : tensor<1x2xi32>) -> tensor<1x2xi32>
  return %r : tensor<1x2xi32>
}

// -----

// linalg.broadcast, a constant index in the input map, and a fill that is
// only read.

// CHECK-LABEL: func.func @broadcast_and_fill(
// CHECK-DAG: %[[B:.*]] = arith.constant dense<{{\[}}[7, 8], [7, 8], [7, 8]]> : tensor<3x2xi8>
// CHECK-DAG: %[[F:.*]] = arith.constant dense<5> : tensor<3x2xi8>
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.fill
// CHECK: linalg.add ins(%[[B]], %[[F]] :
// CHECK: %[[ROW:.*]] = arith.constant dense<{{\[}}[30, 40], [30, 40]]> : tensor<2x2xi16>
// CHECK-NOT: linalg.generic
// CHECK: linalg.add ins(%[[ROW]], %[[ROW]] :
func.func @broadcast_and_fill() -> (tensor<3x2xi8>, tensor<2x2xi16>) {
  %v = arith.constant dense<[7, 8]> : tensor<2xi8>
  %e = tensor.empty() : tensor<3x2xi8>
  %b = linalg.broadcast ins(%v : tensor<2xi8>) outs(%e : tensor<3x2xi8>) dimensions = [0]
  %five = arith.constant 5 : i8
  %f = linalg.fill ins(%five : i8) outs(%e : tensor<3x2xi8>) -> tensor<3x2xi8>
  %e1 = tensor.empty() : tensor<3x2xi8>
  %s = linalg.add ins(%b, %f : tensor<3x2xi8>, tensor<3x2xi8>) outs(%e1 : tensor<3x2xi8>) -> tensor<3x2xi8>
  %m = arith.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi16>
  %e2 = tensor.empty() : tensor<2x2xi16>
  %row = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (1, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x2xi16>) outs(%e2 : tensor<2x2xi16>) {
  ^bb0(%in: i16, %out: i16):
    linalg.yield %in : i16
  } -> tensor<2x2xi16>
  %e3 = tensor.empty() : tensor<2x2xi16>
  %d = linalg.add ins(%row, %row : tensor<2x2xi16>, tensor<2x2xi16>) outs(%e3 : tensor<2x2xi16>) -> tensor<2x2xi16>
  return %s, %d : tensor<3x2xi8>, tensor<2x2xi16>
}

// -----

// Left alone: arithmetic in the body (its rounding belongs to the target),
// an input that is not a constant, a result that an op writes into, i1
// elements (bit-packed), and host code.

// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-4: linalg.generic
// CHECK-LABEL: func.func @host(
// CHECK: linalg.transpose
func.func @kept(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>) {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %copy = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2xf32>
  %acc = linalg.add ins(%x, %x : tensor<2xf32>, tensor<2xf32>) outs(%init : tensor<2xf32>) -> tensor<2xf32>
  %bits = arith.constant dense<[true, false]> : tensor<2xi1>
  %eb = tensor.empty() : tensor<2xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bits : tensor<2xi1>) outs(%eb : tensor<2xi1>) {
  ^bb0(%in: i1, %out: i1):
    linalg.yield %in : i1
  } -> tensor<2xi1>
  return %scaled, %copy, %acc, %b : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>
}

func.func @host() -> tensor<2x2xi32> attributes {helia.unplanned} {
  %w = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xi32>
  %t = linalg.transpose ins(%w : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) permutation = [1, 0]
  return %t : tensor<2x2xi32>
}

// -----

// Left alone: i24 elements, which take 4 bytes each in a planned buffer and
// 3 in the attribute, so that moving bytes is not moving elements (only
// elements that fill their bytes exactly are folded: ByteSize.h).

// CHECK-LABEL: func.func @wide_elements(
// CHECK: linalg.transpose
func.func @wide_elements(%x: tensor<2x2xi24>) -> tensor<2x2xi24> {
  %w = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi24>
  %e = tensor.empty() : tensor<2x2xi24>
  %t = linalg.transpose ins(%w : tensor<2x2xi24>) outs(%e : tensor<2x2xi24>) permutation = [1, 0]
  %s = linalg.add ins(%x, %t : tensor<2x2xi24>, tensor<2x2xi24>) outs(%e : tensor<2x2xi24>) -> tensor<2x2xi24>
  return %s : tensor<2x2xi24>
}
