// A callee returns its own argument as one of three results, and the caller
// reads two of the results only inside the branches of scf.if ops. The
// results are copied into the caller's slots after the call, while the
// callee's returned buffers (including its argument's slot) are still live.
// @main also calls @f1 directly, between calls of @f0.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// x = [1, -1, 0.5, -0.5], w = [1, -1, 0.5, 0.25]; f1(x) = (x * w, x, x - w);
// f0(x, true) = x + (x - w) + x * w; f0(x, false) = (x - w) - x + x * w.
// CHECK: [2,  0,  0.75,  -1.375]
// CHECK-NEXT: [1,  1,  0.25,  -0.125]
// CHECK-NEXT: [0,  2,  -0.25,  -0.375]
// CHECK-NEXT: [5,  1,  1.375,  -3.34375]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @f1(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %w = arith.constant dense<[1.0, -1.0, 0.5, 0.25]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %m = linalg.mul ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %s = linalg.sub ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    return %m, %a, %s : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func @f0(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
    %r:3 = call @f1(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %d = tensor.empty() : tensor<4xf32>
    %y = scf.if %c -> tensor<4xf32> {
      %t = linalg.add ins(%r#1, %r#2 : tensor<4xf32>, tensor<4xf32>) outs(%d : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    } else {
      %t = linalg.sub ins(%r#2, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%d : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    }
    %e = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%y, %r#0 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, -0.5]> : tensor<4xf32>
    %t = arith.constant true
    %f = arith.constant false
    %r = call @f0(%x, %t) : (tensor<4xf32>, i1) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %q:3 = call @f1(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %u1 = tensor.cast %q#0 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
    %r2 = call @f0(%x, %f) : (tensor<4xf32>, i1) -> tensor<4xf32>
    %u2 = tensor.cast %r2 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
    %r3 = call @f0(%r, %t) : (tensor<4xf32>, i1) -> tensor<4xf32>
    %u3 = tensor.cast %r3 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
    return
  }
}
