// RUN: helia-opt %s -split-input-file -helia-resolve-residency -helia-assign-bindings -helia-lower-to-memref -verify-diagnostics

// A plan made without helia-insert-tensor-copies: a planned tensor passed to
// a callee that may write into it would need a copy that the plan did not
// count. An external declaration may write into every argument unless it
// says otherwise. (helia-memory-pipeline makes that copy explicit before
// planning, and the plan counts it: test/Integration/copies.mlir.)

module {
  func.func private @ext(tensor<4xf32>)
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // expected-error @below {{@ext may write into argument #0, a planned tensor, so bufferization would copy it into memory the plan did not count; if the callee only reads it, say so on its declaration ({bufferization.access = "read"}) or give it a body}}
    call @ext(%y) : (tensor<4xf32>) -> ()
    return %y : tensor<4xf32>
  }
}

// -----

// With the access annotated, the slot is passed as it is.

module {
  func.func private @ext(tensor<4xf32> {bufferization.access = "read"})
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    call @ext(%y) : (tensor<4xf32>) -> ()
    return %y : tensor<4xf32>
  }
}
