// RUN: helia-opt %s -test-print-allocation -verify-diagnostics -o /dev/null

// The pass prints a plan; on a module that has none it says which pass makes
// it (at the first tensor without a binding, here the argument).

// expected-error @+1 {{tensor #0 of 'unbound' has no binding; run helia-assign-bindings first}}
func.func @unbound(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
