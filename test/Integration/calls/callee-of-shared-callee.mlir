// @f is called from two sites of @model, so its tensors live for the whole
// program; @g is called only from @f, but runs during both of @f's calls, so
// its tensors must live for the whole program too and never lie on the bytes
// of @model's tensors live across the calls (keep).
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// keep = 3x; f(v) = g(v) + v, g(v) = v * v + 1; o = f(f(x)) + keep:
// CHECK: [16,  0,  7.3125,  0.8125]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @g(%v: tensor<4xf32>) -> tensor<4xf32> {
    %one = arith.constant dense<1.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %sq = linalg.mul ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %r = linalg.add ins(%sq, %one : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @f(%v: tensor<4xf32>) -> tensor<4xf32> {
    %r = call @g(%v) : (tensor<4xf32>) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%r, %v : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %three = arith.constant dense<3.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %keep = linalg.mul ins(%x, %three : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %a = call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %b = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%b, %keep : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, -0.5]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
