// A caller's streamed constant whose first reader is the call: its copy into
// the stream pool comes before the callee runs, and the callee streams a
// constant of its own. The caller's slot stays live across the callee, so
// the two never share pool bytes.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// g(w) = w + v; (w + v) - w + x = v + 0.5:
// CHECK: [100.5,  200.5,  300.5,  400.5]

module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    %v = arith.constant dense<[100.0, 200.0, 300.0, 400.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.add ins(%x, %v : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %a : tensor<4xf32>
  }
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = call @g(%w) : (tensor<4xf32>) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %o = linalg.sub ins(%r, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o2 = linalg.add ins(%o, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o2 : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<0.5> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
