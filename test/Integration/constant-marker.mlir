// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// A function argument or a compute op marked helia.constant was bound into
// the read-only constant arena and written at run time (a segfault); both are
// now errors (resolve-residency/errors.mlir). What they ask for instead runs
// as plain bufferization does: the argument unmarked, and helia.constant on
// a value that folds.

// x + w = [13, 19, 30.5, 42]; * k = [26, 38, 61, 84]; + x*x = [35, 39, 61.25, 88]
// CHECK: [35,  39,  61.25,  88]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @model(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
    %k = arith.constant {helia.constant} dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %a = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %m = linalg.mul ins(%a, %k : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    %e3 = tensor.empty() : tensor<4xf32>
    %sq = linalg.mul ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %r = linalg.add ins(%m, %sq : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[3.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %w = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
    %r = call @model(%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
}
