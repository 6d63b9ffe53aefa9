// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=false})" | FileCheck %s --check-prefix=PLAN
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// The copies One-Shot Bufferize makes are buffers of the plan, in every
// arena mode, then plain One-Shot Bufferize.
//
// - @fill_view (finding 14): the fill writes through a view of %x, which
//   the add reads afterwards, so bufferization fills a copy: an explicit
//   alloc_tensor that the plan counts, not the bytes of %x.
// - @accumulate: a loop carrying a tensor in place into its iter_arg is one
//   buffer with its init (written in place in every iteration).
// - @write_argument: an op writing into an argument writes into a copy (the
//   argument is the caller's data).
// - @call_writes: the unplanned @bump writes into its argument, which the
//   caller reads afterwards: the call gets a copy, a buffer of the plan.

// PLAN-LABEL: func.func @fill_view(
// PLAN: %[[X:.*]] = linalg.add {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[XOFF:[0-9]+]]]>]
// PLAN: bufferization.alloc_tensor() {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[COPY:[0-9]+]]]>]
// PLAN: linalg.fill {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[COPY]]]>]
// PLAN: linalg.add {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[XOFF]]]>]{{.*}} outs(%[[X]] :
// PLAN-LABEL: func.func @accumulate(
// PLAN: linalg.fill {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[ACC:[0-9]+]]]>]
// PLAN: scf.for
// PLAN: } {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[ACC]]]>]
// PLAN-LABEL: func.func @write_argument(
// PLAN: bufferization.alloc_tensor() {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[W:[0-9]+]]]>]
// PLAN-NEXT: linalg.add {helia.binding = [#helia.binding<@{{[a-z0-9_]+}}{{\[}}[[W]]]>]
// PLAN-LABEL: func.func @call_writes(
// PLAN: %[[Y:.*]] = linalg.add
// PLAN: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[Y]]) {helia.binding
// PLAN: call @bump(%[[C]])

// IR-LABEL: func.func @fill_view(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @accumulate(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @write_argument(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call_writes(
// IR-NOT: memref.alloc
// IR: call @bump(
// IR-NOT: memref.alloc
// IR: return

// @fill_view: y = 1 everywhere; z = 4a.
// CHECK: [1,  1,  1,  1],
// CHECK-NEXT: [1,  1,  1,  1]
// CHECK: [4,  -4,  2,  8,  12,  16,  20,  24]
// @accumulate: 1 + 3 * a.
// CHECK: [4,  -2,  2.5,  7,  10,  13,  16,  19]
// @write_argument: a + a.
// CHECK: [2,  -2,  1,  4,  6,  8,  10,  12]
// @call_writes: 2a + 4a.
// CHECK: [6,  -6,  3,  12,  18,  24,  30,  36]
// a itself, unchanged.
// CHECK: [1,  -1,  0.5,  2,  3,  4,  5,  6]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @fill_view(%a: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %x = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %v = tensor.expand_shape %x [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
    %y = linalg.fill ins(%cst : f32) outs(%v : tensor<2x4xf32>) -> tensor<2x4xf32>
    %z = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
    return %y, %z : tensor<2x4xf32>, tensor<8xf32>
  }

  func.func @accumulate(%a: tensor<8xf32>) -> tensor<8xf32> {
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %e = tensor.empty() : tensor<8xf32>
    %init = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> tensor<8xf32> {
      %n = linalg.add ins(%acc, %a : tensor<8xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  func.func @write_argument(%a: tensor<8xf32>) -> tensor<8xf32> {
    %s = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }

  func.func @bump(%t: tensor<8xf32>) -> tensor<8xf32> attributes {helia.unplanned} {
    %s = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }

  func.func @call_writes(%a: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %x = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %n = func.call @bump(%x) : (tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32>
    %b = linalg.add ins(%x, %n : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    return %b : tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @main() attributes {helia.unplanned} {
    %a = arith.constant dense<[1.0, -1.0, 0.5, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<8xf32>
    %y, %z = call @fill_view(%a) : (tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>)
    %uy = tensor.cast %y : tensor<2x4xf32> to tensor<*xf32>
    call @printMemrefF32(%uy) : (tensor<*xf32>) -> ()
    %uz = tensor.cast %z : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%uz) : (tensor<*xf32>) -> ()
    %r = call @accumulate(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %ur = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%ur) : (tensor<*xf32>) -> ()
    %s = call @write_argument(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %us = tensor.cast %s : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%us) : (tensor<*xf32>) -> ()
    %w = call @call_writes(%a) : (tensor<8xf32>) -> tensor<8xf32>
    %uw = tensor.cast %w : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%uw) : (tensor<*xf32>) -> ()
    %ua = tensor.cast %a : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
    return
  }
}
