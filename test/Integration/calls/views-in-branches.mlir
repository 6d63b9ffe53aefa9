// Calls inside scf.if branches with operands that are views:
// - @reshaped passes a reshape of a tensor computed before the branch (its
//   slot, seen through the reshape, is handed to the callee);
// - @sliced passes a slice across rows (a strided view, which a function
//   boundary cannot take: it is copied into a buffer the plan counts, at
//   the top level, and the branch writes the copy).
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// CHECK: [2,  4,  6,  8,  10,  12]
// CHECK: [1,  2,  3,  4,  5,  6]
// CHECK: {{\[\[}}4,   6],
// CHECK-NEXT: [10,   12]]
// CHECK: {{\[\[}}1,   2],
// CHECK-NEXT: [2,   3]]

module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})

  func.func @double(%x: tensor<6xf32>) -> tensor<6xf32> {
    %e = tensor.empty() : tensor<6xf32>
    %y = linalg.add ins(%x, %x : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) -> tensor<6xf32>
    return %y : tensor<6xf32>
  }

  func.func @double4(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %e = tensor.empty() : tensor<2x2xf32>
    %y = linalg.add ins(%x, %x : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
    return %y : tensor<2x2xf32>
  }

  func.func @reshaped(%x: tensor<2x3xf32>, %c: i1) -> tensor<6xf32> {
    %e = tensor.empty() : tensor<2x3xf32>
    %one = arith.constant 0.0 : f32
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    %y = linalg.add ins(%x, %f : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    %r = scf.if %c -> (tensor<6xf32>) {
      %v = tensor.collapse_shape %y [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
      %d = func.call @double(%v) : (tensor<6xf32>) -> tensor<6xf32>
      scf.yield %d : tensor<6xf32>
    } else {
      %v = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
      scf.yield %v : tensor<6xf32>
    }
    return %r : tensor<6xf32>
  }

  func.func @sliced(%x: tensor<3x3xf32>, %c: i1) -> tensor<2x2xf32> {
    %e = tensor.empty() : tensor<3x3xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
    %y = linalg.add ins(%x, %f : tensor<3x3xf32>, tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
    %r = scf.if %c -> (tensor<2x2xf32>) {
      %s = tensor.extract_slice %y[1, 0] [2, 2] [1, 1] : tensor<3x3xf32> to tensor<2x2xf32>
      %d = func.call @double4(%s) : (tensor<2x2xf32>) -> tensor<2x2xf32>
      scf.yield %d : tensor<2x2xf32>
    } else {
      %s = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<3x3xf32> to tensor<2x2xf32>
      %e2 = tensor.empty() : tensor<2x2xf32>
      %cp = linalg.copy ins(%s : tensor<2x2xf32>) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
      scf.yield %cp : tensor<2x2xf32>
    }
    return %r : tensor<2x2xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %t = arith.constant true
    %f = arith.constant false
    %a = call @reshaped(%x, %t) : (tensor<2x3xf32>, i1) -> tensor<6xf32>
    %pa = tensor.cast %a : tensor<6xf32> to tensor<*xf32>
    call @printMemrefF32(%pa) : (tensor<*xf32>) -> ()
    %a2 = call @reshaped(%x, %f) : (tensor<2x3xf32>, i1) -> tensor<6xf32>
    %pa2 = tensor.cast %a2 : tensor<6xf32> to tensor<*xf32>
    call @printMemrefF32(%pa2) : (tensor<*xf32>) -> ()
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]> : tensor<3x3xf32>
    %b = call @sliced(%m, %t) : (tensor<3x3xf32>, i1) -> tensor<2x2xf32>
    %pb = tensor.cast %b : tensor<2x2xf32> to tensor<*xf32>
    call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
    %b2 = call @sliced(%m, %f) : (tensor<3x3xf32>, i1) -> tensor<2x2xf32>
    %pb2 = tensor.cast %b2 : tensor<2x2xf32> to tensor<*xf32>
    call @printMemrefF32(%pb2) : (tensor<*xf32>) -> ()
    return
  }
}
