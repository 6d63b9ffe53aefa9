// RUN: helia-opt %s --helia-memory-pipeline="lower=false hydrate=first-call" -verify-diagnostics -o /dev/null

// With hydrate=first-call the lowered model hydrates itself, so host code
// that never calls the hydrate function draws no warning (compare
// hydrate.mlir).

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
