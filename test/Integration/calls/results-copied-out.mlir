// A callee's returned buffers stay live until the caller has copied every
// result into its own slot: @pair returns (b, a), so the caller's slot of
// result #0 may not lie on the bytes of the callee's result #1, or the copy
// of #0 would overwrite the source of the copy of #1. The plan must give the
// same numbers as plain bufferization in every arena mode.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// (2x + 1) - (x + 2) - x = -1 (with the results swapped: 3 - 2x).
// CHECK: [-1,  -1,  -1,  -1]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @pair(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %b = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    return %b, %a : tensor<4xf32>, tensor<4xf32>
  }
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %one = arith.constant dense<1.0> : tensor<4xf32>
    %r:2 = call @pair(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%r#0, %one : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %d = linalg.sub ins(%s, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.sub ins(%d, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
