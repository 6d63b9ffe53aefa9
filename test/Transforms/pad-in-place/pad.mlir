// RUN: helia-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(helia-pad-in-place))" | FileCheck %s

// The producer of a padded tensor writes into the interior of a tensor
// filled with the padding value before it runs; the pad becomes an
// insert_slice of the result into the same place.

// CHECK-LABEL: func.func @padded(
// CHECK:       %[[BIG:.*]] = tensor.empty() : tensor<1x6x6x2xi8>
// CHECK:       %[[FILLED:.*]] = linalg.fill ins(%{{.*}} : i8) outs(%[[BIG]] : tensor<1x6x6x2xi8>)
// CHECK:       %[[INNER:.*]] = tensor.extract_slice %[[FILLED]][0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1]
// CHECK:       %[[X:.*]] = linalg.generic {{.*}} outs(%[[INNER]] : tensor<1x4x4x2xi8>)
// CHECK-NOT:   tensor.pad
// CHECK:       %[[P:.*]] = tensor.insert_slice %[[X]] into %[[FILLED]][0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1]
// CHECK:       return %[[P]]
func.func @padded(%a: tensor<1x4x4x2xi8>) -> tensor<1x6x6x2xi8> {
  %zp = arith.constant -3 : i8
  %e = tensor.empty() : tensor<1x4x4x2xi8>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x4x2xi8>) outs(%e : tensor<1x4x4x2xi8>) {
  ^bb0(%in: i8, %out: i8):
    %s = arith.addi %in, %in : i8
    linalg.yield %s : i8
  } -> tensor<1x4x4x2xi8>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zp : i8
  } : tensor<1x4x4x2xi8> to tensor<1x6x6x2xi8>
  return %p : tensor<1x6x6x2xi8>
}

// -----

// The unpadded tensor is read again (returned): it keeps its own buffer,
// and the pad stays.

// CHECK-LABEL: func.func @read_twice(
// CHECK:       tensor.pad
func.func @read_twice(%a: tensor<1x4x4x2xi8>) -> (tensor<1x6x6x2xi8>, tensor<1x4x4x2xi8>) {
  %zp = arith.constant 0 : i8
  %e = tensor.empty() : tensor<1x4x4x2xi8>
  %x = linalg.copy ins(%a : tensor<1x4x4x2xi8>) outs(%e : tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zp : i8
  } : tensor<1x4x4x2xi8> to tensor<1x6x6x2xi8>
  return %p, %x : tensor<1x6x6x2xi8>, tensor<1x4x4x2xi8>
}

// -----

// A function argument has no producer here to redirect.

// CHECK-LABEL: func.func @argument(
// CHECK:       tensor.pad
func.func @argument(%a: tensor<1x4x4x2xi8>) -> tensor<1x6x6x2xi8> {
  %zp = arith.constant 0 : i8
  %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zp : i8
  } : tensor<1x4x4x2xi8> to tensor<1x6x6x2xi8>
  return %p : tensor<1x6x6x2xi8>
}
