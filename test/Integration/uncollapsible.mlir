// Bufferization copies a value where its layout forbids a view, and helia
// must plan that copy as a buffer of its own (or the lowering reports an
// allocation the plan does not count):
// - @block collapses a 2x2 block of a 4x4 tensor (rows 4 elements apart);
// - @branches returns an scf.if result whose branches yield a slice and an
//   argument (a dynamic layout, not the identity a function result needs);
// - @collapse_branches collapses such an scf.if result.
// Each runs planned, in every arena mode, as plain bufferization runs it.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.plain
// RUN: FileCheck %s --input-file=%t.plain
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.global
// RUN: diff %t.plain %t.global
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.arg
// RUN: diff %t.plain %t.arg
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | grep -v base@ > %t.alloc
// RUN: diff %t.plain %t.alloc

// CHECK: [5,  6,  9,  10]
// CHECK: [2,  4,  6,  8]
// CHECK: [5,  6,  7,  8]
// CHECK: [20,  24,  28,  32,  4,  8,  12,  16]
// CHECK: [2,  4,  6,  8,  10,  12,  14,  16]

module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})

  func.func @block(%x: tensor<4x4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %y = linalg.add ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %b = tensor.extract_slice %x[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
    %c = tensor.collapse_shape %b [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    %d = tensor.extract_slice %y[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
    %f = tensor.collapse_shape %d [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    %o = tensor.empty() : tensor<4xf32>
    %r = linalg.sub ins(%f, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @branches(%x: tensor<2x4xf32>, %c: i1) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<2x4xf32>
    %y = linalg.add ins(%x, %x : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %r = scf.if %c -> (tensor<4xf32>) {
      %s = tensor.extract_slice %y[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      %s = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }

  func.func @collapse_branches(%x: tensor<2x4xf32>, %c: i1) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<2x4xf32>
    %y = linalg.add ins(%x, %x : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %e2 = tensor.empty() : tensor<4x4xf32>
    %big = tensor.insert_slice %y into %e2[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
    %big2 = tensor.insert_slice %y into %big[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
    %r = scf.if %c -> (tensor<2x4xf32>) {
      %s = tensor.extract_slice %big2[1, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
      scf.yield %s : tensor<2x4xf32>
    } else {
      scf.yield %x : tensor<2x4xf32>
    }
    %f = tensor.collapse_shape %r [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    %o = tensor.empty() : tensor<8xf32>
    %g = linalg.add ins(%f, %f : tensor<8xf32>, tensor<8xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
    return %g : tensor<8xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>
    %a = call @block(%x) : (tensor<4x4xf32>) -> tensor<4xf32>
    %pa = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%pa) : (tensor<*xf32>) -> ()
    %x2 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
    %t = arith.constant true
    %f = arith.constant false
    %b = call @branches(%x2, %t) : (tensor<2x4xf32>, i1) -> tensor<4xf32>
    %pb = tensor.cast %b : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
    %b2 = call @branches(%x2, %f) : (tensor<2x4xf32>, i1) -> tensor<4xf32>
    %pb2 = tensor.cast %b2 : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%pb2) : (tensor<*xf32>) -> ()
    %c = call @collapse_branches(%x2, %t) : (tensor<2x4xf32>, i1) -> tensor<8xf32>
    %pc = tensor.cast %c : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%pc) : (tensor<*xf32>) -> ()
    %c2 = call @collapse_branches(%x2, %f) : (tensor<2x4xf32>, i1) -> tensor<8xf32>
    %pc2 = tensor.cast %c2 : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%pc2) : (tensor<*xf32>) -> ()
    return
  }
}
