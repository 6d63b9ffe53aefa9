// A recurrence written as torch-mlir writes an LSTM: the loop carries its
// state and computes it anew in every iteration, into fresh destinations,
// with a shared fill that two matmuls accumulate into. helia writes each new
// state into the buffer the loop carries and gives each temporary its own
// top-level buffer; every arena mode prints what plain bufferization
// (which allocates per iteration) prints.

// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=arg" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=alloc" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" | helia-opt --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s

// h0 = [1, 0], c0 = [0.5, 0.5], w = [[1, 1], [0, 1]], u = [[0.5, 0], [0, 0.5]];
// c' = c + h*w, h' = h*u + c':
// step 1: c = [1.5, 1.5], h = [2, 1.5]; step 2: c = [3.5, 5], h = [4.5, 5.75];
// step 3: c = [8, 15.25], h = [10.25, 18.125].
// CHECK: {{\[\[}}10.25, {{ *}}18.125]]
// CHECK: {{\[\[}}8, {{ *}}15.25]]

module {
  func.func @model(%h0: tensor<1x2xf32>, %w: tensor<2x2xf32>, %u: tensor<2x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %c0t = arith.constant dense<0.5> : tensor<1x2xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0, %c = %c0t) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
      %e = tensor.empty() : tensor<1x2xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
      %m = linalg.matmul ins(%h, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
      %n = linalg.matmul ins(%h, %u : tensor<1x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x2xf32>) -> tensor<1x2xf32>
      %c2 = linalg.add ins(%c, %m : tensor<1x2xf32>, tensor<1x2xf32>) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
      %h2 = linalg.add ins(%n, %c2 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
      scf.yield %h2, %c2 : tensor<1x2xf32>, tensor<1x2xf32>
    }
    return %r#0, %r#1 : tensor<1x2xf32>, tensor<1x2xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %h0 = arith.constant dense<[[1.0, 0.0]]> : tensor<1x2xf32>
    %w = arith.constant dense<[[1.0, 1.0], [0.0, 1.0]]> : tensor<2x2xf32>
    %u = arith.constant dense<[[0.5, 0.0], [0.0, 0.5]]> : tensor<2x2xf32>
    %h, %c = call @model(%h0, %w, %u) : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
    %uh = tensor.cast %h : tensor<1x2xf32> to tensor<*xf32>
    call @printMemrefF32(%uh) : (tensor<*xf32>) -> ()
    %uc = tensor.cast %c : tensor<1x2xf32> to tensor<*xf32>
    call @printMemrefF32(%uc) : (tensor<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(tensor<*xf32>)
}
