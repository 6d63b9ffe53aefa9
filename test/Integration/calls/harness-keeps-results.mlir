// Host code calling planned functions in sequence: the results of @enc feed
// @dec, whose argument slots may lie on the bytes of @enc's results, and
// @enc's first result is printed again after two later calls that reuse the
// arena. The harness keeps its own copy of every result, so the plan gives
// the same numbers as plain bufferization in every arena mode.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// p = x + 2, q = 2x; dec = p * p - q; then enc(-x), and p again.
// CHECK: [7,  3,  5.25,  12]
// CHECK-NEXT: [1,  3,  1.5,  0]
// CHECK-NEXT: [3,  1,  2.5,  4]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @enc(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %b = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    return %a, %b : tensor<4xf32>, tensor<4xf32>
  }
  func.func @dec(%p: tensor<4xf32>, %q: tensor<4xf32>) -> tensor<4xf32> {
    %e0 = tensor.empty() : tensor<4xf32>
    %t = linalg.mul ins(%p, %p : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %o = linalg.sub ins(%t, %q : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %nx = arith.constant dense<[-1.0, 1.0, -0.5, -2.0]> : tensor<4xf32>
    %r:2 = call @enc(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %o = call @dec(%r#0, %r#1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %o : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %s:2 = call @enc(%nx) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %u1 = tensor.cast %s#0 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
    %u2 = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
    return
  }
}
