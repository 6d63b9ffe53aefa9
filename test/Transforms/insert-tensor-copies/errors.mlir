// RUN: helia-opt %s -split-input-file -helia-memory-pipeline=lower=false -verify-diagnostics

// Storage that bufferization would create inside a region is reported when
// planning, with what to change.

// A callee that may write into its argument gets a copy, made in the
// branch.
func.func private @write(tensor<4xf32>) -> tensor<4xf32>
func.func @copy_in_branch(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-note @below {{in this op of 'copy_in_branch'}}
  %r = scf.if %c -> tensor<4xf32> {
    // expected-error @below {{bufferization copies a tensor here, inside 'scf.if' (an op writes into a value that is read-only or read afterwards), and the copy needs a buffer of its own; helia plans the buffers of the tensors at the top level of a function body, so copy the value before the 'scf.if' (e.g. linalg.copy into a tensor.empty there) and write into the copy}}
    %n = func.call @write(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
