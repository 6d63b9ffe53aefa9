// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// scf.if yielding values defined outside it (findings 12, 12b, 12c), in
// every arena mode, then plain One-Shot Bufferize. The result of each
// scf.if owns no storage: it is either of the buffers its branches yield,
// and both stay live through its last use.
//
// - @outer: a computed tensor or a constant (in MRAM, the other in DTCM:
//   both are handed to the scf.if cast to the default memory space).
// - @argument: a computed tensor or the argument.
// - @call: the result of a planned function called in a branch (copied into
//   a buffer of @call's, created before the scf.if), or the argument.
// - @pick: the scf.if result crosses function boundaries: it is returned,
//   and passed to @g.
// - @slices: the branches yield views at different offsets (strided
//   buffers) of a computed tensor and of the argument.
// - @write_result: an op writes into the scf.if result, and a loop
//   accumulates into it: both write into copies the plan counts.
// - @same_buffer: both branches yield the same buffer (an argument, a
//   constant): the result is that buffer, passed to a call, and the init of
//   a loop that accumulates into a copy of it.

// IR-LABEL: func.func @outer(
// IR-NOT: memref.alloc
// IR: scf.if
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @argument(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: call @g(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @pick(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @slices(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @write_result(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @same_buffer(
// IR-NOT: memref.alloc
// IR: return

// x = [1, -1, 0.5, 2, 3, 4, 5, 6, 0.1, 0.2, 0.3, 0.4, 1.1, 1.2, 1.3, -1.4]
// @outer: 3x + 3, then 3 + 3.
// CHECK: [6,  0,  4.5,  9,  12,  15,  18,  21,  3.3,  3.6,  3.9,  4.2,  6.3,  6.6,  6.9,  -1.2]
// CHECK: [6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6]
// @argument: 3x + 3, then x + 3.
// CHECK: [6,  0,  4.5,  9,  12,  15,  18,  21,  3.3,  3.6,  3.9,  4.2,  6.3,  6.6,  6.9,  -1.2]
// CHECK: [4,  2,  3.5,  5,  6,  7,  8,  9,  3.1,  3.2,  3.3,  3.4,  4.1,  4.2,  4.3,  1.6]
// @call: g(3x) + 3x with g(a) = (a + 0.5) * a, then x + 3x.
// CHECK: [13.5,  4.5,  4.5,  45,  94.5,  162,  247.5,  351,  0.54,  1.26,  2.16,  3.24,  15.84,  18.36,  21.06,  11.34]
// CHECK: [4,  -4,  2,  8,  12,  16,  20,  24,  0.4,  0.8,  1.2,  1.6,  4.4,  4.8,  5.2,  -5.6]
// @pick: 3x and g(3x), then 3 and g(3) = 10.5.
// CHECK: [3,  -3,  1.5,  6,  9,  12,  15,  18,  0.3,  0.6,  0.9,  1.2,  3.3,  3.6,  3.9,  -4.2]
// CHECK: [10.5,  7.5,  3,  39,  85.5,  150,  232.5,  333,  0.24,  0.66,  1.26,  2.04,  12.54,  14.76,  17.16,  15.54]
// CHECK: [3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3]
// CHECK: [10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5,  10.5]
// @slices: 2 * (2x)[2:6], then 2 * x[0:4].
// CHECK: [2,  8,  12,  16]
// CHECK: [2,  -2,  1,  4]
// @write_result: 2x, and 2x + 3x; then 2x, and x * x + 3x.
// CHECK: [2,  -2,  1,  4,  6,  8,  10,  12,  0.2,  0.4,  0.6,  0.8,  2.2,  2.4,  2.6,  -2.8]
// CHECK: [5,  -5,  2.5,  10,  15,  20,  25,  30,  0.5,  1,  1.5,  2,  5.5,  6,  6.5,  -7]
// CHECK: [2,  -2,  1,  4,  6,  8,  10,  12,  0.2,  0.4,  0.6,  0.8,  2.2,  2.4,  2.6,  -2.8]
// CHECK: [4,  -2,  1.75,  10,  18,  28,  40,  54,  0.31,  0.64,  0.99,  1.36,  4.51,  5.04,  5.59,  -2.24]
// @same_buffer: g(x), and 3 + 3x.
// CHECK: [1.5,  0.5,  0.5,  5,  10.5,  18,  27.5,  39,  0.06,  0.14,  0.24,  0.36,  1.76,  2.04,  2.34,  1.26]
// CHECK: [6,  0,  4.5,  9,  12,  15,  18,  21,  3.3,  3.6,  3.9,  4.2,  6.3,  6.6,  6.9,  -1.2]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @outer(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
    %w = arith.constant dense<3.0> : tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.mul ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %r = scf.if %c -> tensor<16xf32> {
      scf.yield %a : tensor<16xf32>
    } else {
      scf.yield %w : tensor<16xf32>
    }
    %e2 = tensor.empty() : tensor<16xf32>
    %o = linalg.add ins(%r, %w : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
    return %o : tensor<16xf32>
  }

  func.func @argument(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
    %w = arith.constant dense<3.0> : tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.mul ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %r = scf.if %c -> tensor<16xf32> {
      scf.yield %a : tensor<16xf32>
    } else {
      scf.yield %x : tensor<16xf32>
    }
    %e2 = tensor.empty() : tensor<16xf32>
    %o = linalg.add ins(%r, %w : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
    return %o : tensor<16xf32>
  }

  func.func @g(%x: tensor<16xf32>) -> tensor<16xf32> {
    %w = arith.constant dense<0.5> : tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.add ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %e1 = tensor.empty() : tensor<16xf32>
    %b = linalg.mul ins(%a, %x : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
    return %b : tensor<16xf32>
  }

  func.func @call(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
    %w = arith.constant dense<3.0> : tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.mul ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %r = scf.if %c -> tensor<16xf32> {
      %n = func.call @g(%a) : (tensor<16xf32>) -> tensor<16xf32>
      scf.yield %n : tensor<16xf32>
    } else {
      scf.yield %x : tensor<16xf32>
    }
    %e2 = tensor.empty() : tensor<16xf32>
    %o = linalg.add ins(%r, %a : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
    return %o : tensor<16xf32>
  }

  func.func @pick(%x: tensor<16xf32>, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
    %w = arith.constant dense<3.0> : tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.mul ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %r = scf.if %c -> tensor<16xf32> {
      scf.yield %a : tensor<16xf32>
    } else {
      scf.yield %w : tensor<16xf32>
    }
    %g = func.call @g(%r) : (tensor<16xf32>) -> tensor<16xf32>
    return %r, %g : tensor<16xf32>, tensor<16xf32>
  }

  func.func @slices(%x: tensor<16xf32>, %c: i1) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %s = tensor.extract_slice %a[2] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %t = tensor.extract_slice %x[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %r = scf.if %c -> tensor<4xf32> {
      scf.yield %s : tensor<4xf32>
    } else {
      scf.yield %t : tensor<4xf32>
    }
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func @write_result(%x: tensor<16xf32>, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %e1 = tensor.empty() : tensor<16xf32>
    %b = linalg.mul ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
    %r = scf.if %c -> (tensor<16xf32>) {
      scf.yield %a : tensor<16xf32>
    } else {
      scf.yield %b : tensor<16xf32>
    }
    %s = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%r : tensor<16xf32>) -> tensor<16xf32>
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %r) -> tensor<16xf32> {
      %t = linalg.add ins(%acc, %x : tensor<16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
      scf.yield %t : tensor<16xf32>
    }
    return %s, %l : tensor<16xf32>, tensor<16xf32>
  }

  func.func @same_buffer(%x: tensor<16xf32>, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %w = arith.constant dense<3.0> : tensor<16xf32>
    %r = scf.if %c -> (tensor<16xf32>) {
      scf.yield %x : tensor<16xf32>
    } else {
      scf.yield %x : tensor<16xf32>
    }
    %g = func.call @g(%r) : (tensor<16xf32>) -> tensor<16xf32>
    %k = scf.if %c -> (tensor<16xf32>) {
      scf.yield %w : tensor<16xf32>
    } else {
      scf.yield %w : tensor<16xf32>
    }
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %k) -> tensor<16xf32> {
      %t = linalg.add ins(%acc, %x : tensor<16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
      scf.yield %t : tensor<16xf32>
    }
    return %g, %l : tensor<16xf32>, tensor<16xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @print4(%t: tensor<4xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  func.func @print(%t: tensor<16xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<16xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0, 3.0, 4.0, 5.0, 6.0, 0.1, 0.2, 0.3, 0.4, 1.1, 1.2, 1.3, -1.4]> : tensor<16xf32>
    %t = arith.constant true
    %f = arith.constant false
    %r0 = call @outer(%x, %t) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r0) : (tensor<16xf32>) -> ()
    %r1 = call @outer(%x, %f) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r1) : (tensor<16xf32>) -> ()
    %r2 = call @argument(%x, %t) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r2) : (tensor<16xf32>) -> ()
    %r3 = call @argument(%x, %f) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r3) : (tensor<16xf32>) -> ()
    %r4 = call @call(%x, %t) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r4) : (tensor<16xf32>) -> ()
    %r5 = call @call(%x, %f) : (tensor<16xf32>, i1) -> tensor<16xf32>
    call @print(%r5) : (tensor<16xf32>) -> ()
    %p0, %g0 = call @pick(%x, %t) : (tensor<16xf32>, i1) -> (tensor<16xf32>, tensor<16xf32>)
    call @print(%p0) : (tensor<16xf32>) -> ()
    call @print(%g0) : (tensor<16xf32>) -> ()
    %p1, %g1 = call @pick(%x, %f) : (tensor<16xf32>, i1) -> (tensor<16xf32>, tensor<16xf32>)
    call @print(%p1) : (tensor<16xf32>) -> ()
    call @print(%g1) : (tensor<16xf32>) -> ()
    %s0 = call @slices(%x, %t) : (tensor<16xf32>, i1) -> tensor<4xf32>
    call @print4(%s0) : (tensor<4xf32>) -> ()
    %s1 = call @slices(%x, %f) : (tensor<16xf32>, i1) -> tensor<4xf32>
    call @print4(%s1) : (tensor<4xf32>) -> ()
    %w0, %l0 = call @write_result(%x, %t) : (tensor<16xf32>, i1) -> (tensor<16xf32>, tensor<16xf32>)
    call @print(%w0) : (tensor<16xf32>) -> ()
    call @print(%l0) : (tensor<16xf32>) -> ()
    %w1, %l1 = call @write_result(%x, %f) : (tensor<16xf32>, i1) -> (tensor<16xf32>, tensor<16xf32>)
    call @print(%w1) : (tensor<16xf32>) -> ()
    call @print(%l1) : (tensor<16xf32>) -> ()
    %b0, %b1 = call @same_buffer(%x, %t) : (tensor<16xf32>, i1) -> (tensor<16xf32>, tensor<16xf32>)
    call @print(%b0) : (tensor<16xf32>) -> ()
    call @print(%b1) : (tensor<16xf32>) -> ()
    return
  }
}
