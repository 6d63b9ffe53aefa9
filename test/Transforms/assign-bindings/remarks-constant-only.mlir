// RUN: helia-opt %s --helia-memory-pipeline="lower=false remarks=true" -verify-diagnostics -o /dev/null

// With remarks, assign-bindings names each scratch tensor computed from
// constants alone and what it costs. A tensor computed from the argument
// is not named, nor is the empty tensor a computation writes into.

func.func @model(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  // expected-remark @below {{scratch tensor '#3' is computed from constants alone and costs 24 bytes of RAM; fold-constants=true moves it to flash when its ops only move elements (helia-fold-constant-subgraphs)}}
  %b = linalg.broadcast ins(%w : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<2x3xf32>
  %y = linalg.add ins(%x, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
