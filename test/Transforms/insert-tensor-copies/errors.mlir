// RUN: helia-opt %s -split-input-file -helia-memory-pipeline=lower=false -verify-diagnostics

// Storage that bufferization would create inside a region is reported when
// planning, with what to change.

// A loop that carries a tensor computed into a new tensor in every
// iteration, whose old value is still read after the new one is written,
// needs two buffers used in turn (upstream: "Yield operand #0 is not
// equivalent to the corresponding iter bbArg"). The empty tensors move
// before the loop (one buffer each for every iteration), so the carried
// value needs a copy in each iteration, which is reported. (Read before the
// write, the new value goes into the carried buffer: loops.mlir.)
func.func @loop_fresh(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e0 = tensor.empty() : tensor<4xf32>
  // expected-note @below {{in this op of 'loop_fresh'}}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %last = %e0) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%acc, %acc : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %p = linalg.mul ins(%s, %acc : tensor<4xf32>, tensor<4xf32>) outs(%last : tensor<4xf32>) -> tensor<4xf32>
    // expected-error @below {{bufferization copies a tensor here, inside 'scf.for' (an op writes into a value that is read-only or read afterwards), and the copy needs a buffer of its own; helia plans the buffers of the tensors at the top level of a function body, so a loop may carry a tensor only in place: compute each yielded value into its iter_arg (e.g. outs(%iter_arg)) and create temporary tensors before the loop}}
    scf.yield %s, %p : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

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
