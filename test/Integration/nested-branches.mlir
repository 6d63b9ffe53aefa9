// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// scf.if nested in scf.if, where a result of the inner one is one buffer
// whichever branch runs (both yield the same value) while the outer one is
// yielded one of several (reduced from the differential fuzzer's seeds 215,
// 7010 and 7246: "must write operand #N out of place"; 235: "inconsistent
// memory space on then/else branches"; 7047: "would write to read-only
// buffer"). A result that is one buffer keeps it: its branches yield that
// buffer as it is, so the outer result's branches agree on its memory, and
// a write into it (the insert_slice) writes into that buffer in place.
//
// - @same: r#0 is always %a (through the inner scf.if too), r#1 is %x or
//   x + 1; the insert writes into r#0, i.e. %a's slot.
// - @args: both results may be the argument, the second also x + 1, swapped
//   by the outer branch.
// - @slice: a view of the argument, yielded through both levels.

// IR-LABEL: func.func @same(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @args(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @slice(
// IR-NOT: memref.alloc
// IR: return

// x = [1, 2, 3, 4, 5, 6, 7, 8]
// @same (true, false): 4x, and 3x with its first two elements 4x.
// CHECK: [4,  8,  12,  16,  20,  24,  28,  32]
// CHECK: [4,  8,  9,  12,  15,  18,  21,  24]
// @same (false, true): the same.
// CHECK: [4,  8,  12,  16,  20,  24,  28,  32]
// CHECK: [4,  8,  9,  12,  15,  18,  21,  24]
// @same (false, false): 4x + 1, and 3x with its first two elements 4x + 1.
// CHECK: [5,  9,  13,  17,  21,  25,  29,  33]
// CHECK: [5,  9,  9,  12,  15,  18,  21,  24]
// @args (true, false) and (false, true): x, x, x.
// CHECK-COUNT-6: [1,  2,  3,  4,  5,  6,  7,  8]
// @args (false, false): x, x, x + 1.
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// @slice: 2 x[0:4], whichever branches run.
// CHECK: [2,  4,  6,  8]
// CHECK: [2,  4,  6,  8]

#id = affine_map<(d0) -> (d0)>
module attributes {helia.platform = "apollo510_evb"} {
  func.func @same(%x: tensor<8xf32>, %c: i1, %d: i1) -> (tensor<8xf32>, tensor<8xf32>) {
    %three = arith.constant dense<3.0> : tensor<8xf32>
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.mul ins(%x, %three : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.if %c -> (tensor<8xf32>, tensor<8xf32>) {
      scf.yield %a, %x : tensor<8xf32>, tensor<8xf32>
    } else {
      %s:2 = scf.if %d -> (tensor<8xf32>, tensor<8xf32>) {
        scf.yield %a, %x : tensor<8xf32>, tensor<8xf32>
      } else {
        %e1 = tensor.empty() : tensor<8xf32>
        %t = linalg.add ins(%x, %one : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %a, %t : tensor<8xf32>, tensor<8xf32>
      }
      scf.yield %s#0, %s#1 : tensor<8xf32>, tensor<8xf32>
    }
    %e2 = tensor.empty() : tensor<8xf32>
    %o = linalg.add ins(%r#0, %r#1 : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    %head = tensor.extract_slice %o[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %w = tensor.insert_slice %head into %r#0[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
    return %o, %w : tensor<8xf32>, tensor<8xf32>
  }

  func.func @args(%x: tensor<8xf32>, %c: i1, %d: i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:2 = scf.if %c -> (tensor<8xf32>, tensor<8xf32>) {
      scf.yield %x, %x : tensor<8xf32>, tensor<8xf32>
    } else {
      %s:2 = scf.if %d -> (tensor<8xf32>, tensor<8xf32>) {
        scf.yield %x, %x : tensor<8xf32>, tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %t = linalg.add ins(%x, %one : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %t, %x : tensor<8xf32>, tensor<8xf32>
      }
      scf.yield %s#1, %s#0 : tensor<8xf32>, tensor<8xf32>
    }
    return %x, %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }

  func.func @slice(%x: tensor<8xf32>, %c: i1, %d: i1) -> tensor<4xf32> {
    %v = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %r = scf.if %c -> (tensor<4xf32>) {
      scf.yield %v : tensor<4xf32>
    } else {
      %s:2 = scf.if %d -> (tensor<4xf32>, tensor<4xf32>) {
        scf.yield %v, %v : tensor<4xf32>, tensor<4xf32>
      } else {
        scf.yield %v, %v : tensor<4xf32>, tensor<4xf32>
      }
      scf.yield %s#1 : tensor<4xf32>
    }
    %e = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  func.func @print4(%t: tensor<4xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %t = arith.constant true
    %f = arith.constant false
    %a0, %b0 = call @same(%x, %t, %f) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%a0) : (tensor<8xf32>) -> ()
    call @print(%b0) : (tensor<8xf32>) -> ()
    %a1, %b1 = call @same(%x, %f, %t) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%a1) : (tensor<8xf32>) -> ()
    call @print(%b1) : (tensor<8xf32>) -> ()
    %a2, %b2 = call @same(%x, %f, %f) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%a2) : (tensor<8xf32>) -> ()
    call @print(%b2) : (tensor<8xf32>) -> ()
    %p0, %q0, %r0 = call @args(%x, %t, %f) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    call @print(%p0) : (tensor<8xf32>) -> ()
    call @print(%q0) : (tensor<8xf32>) -> ()
    call @print(%r0) : (tensor<8xf32>) -> ()
    %p1, %q1, %r1 = call @args(%x, %f, %t) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    call @print(%p1) : (tensor<8xf32>) -> ()
    call @print(%q1) : (tensor<8xf32>) -> ()
    call @print(%r1) : (tensor<8xf32>) -> ()
    %p2, %q2, %r2 = call @args(%x, %f, %f) : (tensor<8xf32>, i1, i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
    call @print(%p2) : (tensor<8xf32>) -> ()
    call @print(%q2) : (tensor<8xf32>) -> ()
    call @print(%r2) : (tensor<8xf32>) -> ()
    %s0 = call @slice(%x, %t, %f) : (tensor<8xf32>, i1, i1) -> tensor<4xf32>
    call @print4(%s0) : (tensor<4xf32>) -> ()
    %s1 = call @slice(%x, %f, %f) : (tensor<8xf32>, i1, i1) -> tensor<4xf32>
    call @print4(%s1) : (tensor<4xf32>) -> ()
    return
  }
}
