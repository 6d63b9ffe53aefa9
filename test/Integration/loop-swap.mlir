// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS
// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Loops whose body passes the old values of its iter_args on in a cycle:
// (a, b) -> (b, a), a swap (seeds 1057, 1156 of `run.py --control-flow 2`),
// and (a, b, c) -> (b, c, a). The first old value is copied into a
// top-level slot before the yield, each other into the slot of the
// iter_arg it is yielded for, the saved one last: each carried value keeps
// its one slot and the cycle one more (One-Shot Bufferize alone allocates
// a buffer per iteration).
//
// - @swap_for: a swap in an scf.for, which reads both values through views;
// - @rotate_while: a rotation of three in an scf.while.

// IR-LABEL: func.func @swap_for(
// IR-NOT: memref.alloc
// IR: scf.for {{.*}} iter_args(%[[A:[a-z0-9]+]] = %{{.*}}, %[[B:[a-z0-9]+]] = %
// IR: linalg.copy ins(%[[A]] : memref<8xf32>) outs(%[[T:[a-z0-9_]+]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[B]] : memref<8xf32>) outs(%[[A]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[T]] : memref<8xf32>) outs(%[[B]] : memref<8xf32>)
// IR-NEXT: scf.yield %[[A]], %[[B]]
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @rotate_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR-NEXT: ^bb0(%{{.*}}: index, %[[WA:[a-z0-9]+]]: memref<8xf32>, %[[WB:[a-z0-9]+]]: memref<8xf32>, %[[WC:[a-z0-9]+]]: memref<8xf32>):
// IR: linalg.copy ins(%[[WA]] : memref<8xf32>) outs(%[[WT:[a-z0-9_]+]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[WB]] : memref<8xf32>) outs(%[[WA]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[WC]] : memref<8xf32>) outs(%[[WB]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[WT]] : memref<8xf32>) outs(%[[WC]] : memref<8xf32>)
// IR-NEXT: scf.yield %{{.*}}, %[[WA]], %[[WB]], %[[WC]]
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): @swap_for's argument, a (a0 and the loop's
// result), b (the copy of the argument it starts from, and the loop's
// result), the saved value (live at the loop's step only), then the sums
// after the loop; nothing per iteration.
// SLOTS-LABEL: function @swap_for
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [{{[0-9]+}}, {{[0-9]+}}]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #9
// SLOTS-NEXT:   tensor #10
// SLOTS-NEXT: function @rotate_while

// What the report says of them: the saved value is the one second slot.
// REPORT:      Loop-carried tensors (5; 64 in second slots)
// REPORT-NEXT:   swap_for: iter_arg #0 of {{.*}} (32 bytes), one slot, the old value of iter_arg #1 copied into it every iteration: it carries the old value of iter_arg #1 in a cycle of 2 iter_args, {{.*}}
// REPORT-NEXT:   swap_for: iter_arg #1 of {{.*}} (32 bytes), two slots: its successor in {{.*}} (32 bytes), copied back every iteration: it carries the old value of iter_arg #0 in a cycle of 2 iter_args, {{.*}}
// REPORT-NEXT:   rotate_while: iter_arg #1 of {{.*}} (32 bytes), one slot, the old value of iter_arg #2 copied into it every iteration
// REPORT-NEXT:   rotate_while: iter_arg #2 of {{.*}} (32 bytes), one slot, the old value of iter_arg #3 copied into it every iteration
// REPORT-NEXT:   rotate_while: iter_arg #3 of {{.*}} (32 bytes), two slots: its successor in {{.*}} (32 bytes), copied back every iteration

// x = [1, ..., 8]; @swap_for: a = x + x, b = x, swapped three times (a = x,
// b = 2 x), then a + 2 b; @rotate_while: a = x, b = 2 x, c = 3 x rotated
// twice (3 x, x, 2 x), then a + 2 b + 4 c.
// CHECK: [5,  10,  15,  20,  25,  30,  35,  40]
// CHECK: [13,  26,  39,  52,  65,  78,  91,  104]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @swap_for(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %a0 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %a0, %b = %x) -> (tensor<8xf32>, tensor<8xf32>) {
      %av = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
      %bv = tensor.expand_shape %b [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
      %s = tensor.extract %av[%c0, %c1] : tensor<2x4xf32>
      %t = tensor.extract %bv[%c1, %c0] : tensor<2x4xf32>
      scf.yield %b, %a : tensor<8xf32>, tensor<8xf32>
    }
    %e1 = tensor.empty() : tensor<8xf32>
    %b2 = linalg.add ins(%r#1, %r#1 : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32>
    %y = linalg.add ins(%r#0, %b2 : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    return %y : tensor<8xf32>
  }
  func.func @rotate_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %b0 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %e1 = tensor.empty() : tensor<8xf32>
    %c0v = linalg.add ins(%b0, %x : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %r:4 = scf.while (%k = %c0, %a = %x, %b = %b0, %c = %c0v) : (index, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %a, %b, %c : index, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>, %cc1: tensor<8xf32>):
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %b1, %cc1, %a1 : index, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
    }
    %e2 = tensor.empty() : tensor<8xf32>
    %b2 = linalg.add ins(%r#2, %r#2 : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    %e3 = tensor.empty() : tensor<8xf32>
    %c4 = linalg.add ins(%r#3, %r#3 : tensor<8xf32>, tensor<8xf32>) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
    %e4 = tensor.empty() : tensor<8xf32>
    %c8 = linalg.add ins(%c4, %c4 : tensor<8xf32>, tensor<8xf32>) outs(%e4 : tensor<8xf32>) -> tensor<8xf32>
    %e5 = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%r#1, %b2 : tensor<8xf32>, tensor<8xf32>) outs(%e5 : tensor<8xf32>) -> tensor<8xf32>
    %e6 = tensor.empty() : tensor<8xf32>
    %y = linalg.add ins(%s, %c8 : tensor<8xf32>, tensor<8xf32>) outs(%e6 : tensor<8xf32>) -> tensor<8xf32>
    return %y : tensor<8xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %s = call @swap_for(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%s) : (tensor<8xf32>) -> ()
    %w = call @rotate_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    return
  }
}
