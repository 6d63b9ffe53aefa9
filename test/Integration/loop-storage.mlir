// Storage that bufferization creates inside loop bodies, planned as slots of
// the function's arena: a concatenation in a loop body (written into a
// top-level buffer that the loop carries). Every arena mode prints what
// plain bufferization (which allocates in every iteration) prints.

// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=arg" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=alloc" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" | helia-opt --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true" | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @concat_in_loop(
// IR-NOT: memref.alloc
// IR: return

// s = [1, 2, 3, 4]; s' = concat(s, s)[2:6] + s = [3, 4, 1, 2] + s:
// [4, 6, 4, 6], [8, 12, 8, 12], [16, 24, 16, 24].
// CHECK: {{\[\[}}16, {{ *}}24, {{ *}}16, {{ *}}24]]

module {
  func.func @concat_in_loop(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %x) -> (tensor<1x4xf32>) {
      %cat = tensor.concat dim(1) %s, %s : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
      %half = tensor.extract_slice %cat[0, 2] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
      %e = tensor.empty() : tensor<1x4xf32>
      %n = linalg.add ins(%half, %s : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n : tensor<1x4xf32>
    }
    return %r : tensor<1x4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
    %r = call @concat_in_loop(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %u = tensor.cast %r : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(tensor<*xf32>)
}
