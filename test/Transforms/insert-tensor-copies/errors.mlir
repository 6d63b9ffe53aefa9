// RUN: helia-opt %s -split-input-file -helia-memory-pipeline=lower=false -verify-diagnostics

// Storage that bufferization would create inside a region and that no slot
// of the plan can hold (a dynamic shape) is reported when planning, with
// what to change. (A copy a callee's write into its argument makes in a
// branch has a static shape, and is planned: test/Integration/
// call-copy-in-loop.mlir.)

// A write into an argument cast to a dynamic shape gets a copy, made in
// the branch.
func.func @copy_in_branch(%x: tensor<4xf32>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-note @below {{in this op of 'copy_in_branch'}}
  %r = scf.if %c -> f32 {
    // expected-error @below {{bufferization copies a tensor here, inside 'scf.if' (an op writes into a value that is read-only or read afterwards), and the copy needs a buffer of its own; helia plans the buffers of the tensors at the top level of a function body, so copy the value before the 'scf.if' (e.g. linalg.copy into a tensor.empty there) and write into the copy}}
    %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
    %w = tensor.insert %f into %d[%c0] : tensor<?xf32>
    %v = tensor.extract %w[%c0] : tensor<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %f : f32
  }
  return %r : f32
}

// -----

// A dynamically shaped tensor created in a branch.
func.func @dynamic_in_branch(%c: i1, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-note @below {{in this op of 'dynamic_in_branch'}}
  %r = scf.if %c -> f32 {
    // expected-error @below {{'tensor.empty' inside 'scf.if' creates a tensor that needs a buffer of its own; helia plans the buffers of the tensors at the top level of a function body, so create the tensor before the 'scf.if' (e.g. a tensor.empty there, used as the destination)}}
    %e = tensor.empty(%n) : tensor<?xf32>
    %w = linalg.fill ins(%f : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %v = tensor.extract %w[%c0] : tensor<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %f : f32
  }
  return %r : f32
}
