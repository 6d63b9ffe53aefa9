// The planned @model calls the unplanned @helper, which calls the planned
// @layer: @layer runs inside @model's call step, so its tensors never lie on
// the bytes of @model's tensors live across the call (keep, keep2, keep3).
// With arena arguments, @helper would own arenas while called from @model,
// which is a located error (test/Transforms/lower-to-memref/errors-arg.mlir).
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --helia-resolve-residency --helia-assign-bindings --helia-verify-plan -o /dev/null

// keep3 = x - 2; layer(keep3) = (keep3 + 100) * keep3 + keep3 + 100;
// o = layer + 2x + (x + 2) + keep3:
// CHECK: [4,  -198,  -47.25,  322]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @layer(%a: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<100.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.add ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %r2 = linalg.mul ins(%r, %a : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %e3 = tensor.empty() : tensor<4xf32>
    %r3 = linalg.add ins(%r2, %r : tensor<4xf32>, tensor<4xf32>) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
    return %r3 : tensor<4xf32>
  }
  func.func @helper(%a: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %r = call @layer(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %keep = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e1 = tensor.empty() : tensor<4xf32>
    %keep2 = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
    %e3 = tensor.empty() : tensor<4xf32>
    %keep3 = linalg.sub ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
    %h = call @helper(%keep3) : (tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%h, %keep : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %o2 = linalg.add ins(%o, %keep2 : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %e5 = tensor.empty() : tensor<4xf32>
    %o3 = linalg.add ins(%o2, %keep3 : tensor<4xf32>, tensor<4xf32>) outs(%e5 : tensor<4xf32>) -> tensor<4xf32>
    return %o3 : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 4.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
