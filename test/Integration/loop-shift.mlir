// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS
// RUN: helia-opt %s -helia-insert-tensor-copies | FileCheck %s --check-prefix=CARRIED

// Loops that carry a value and its previous one, (a, b) -> (f(a, b), a):
// the new a is written over the old one, and the old a is the next b
// (seeds 94, 396 and 19 more of `run.py --control-flow 2`). The old a is
// copied into b's slot after b's last read and before the write over a:
// each carried value keeps one slot, one copy per iteration (One-Shot
// Bufferize alone allocates a buffer per iteration).
//
// - @shift_for: an scf.for, which reads b through views;
// - @shift_while: the same in an scf.while.

// IR-LABEL: func.func @shift_for(
// IR-NOT: memref.alloc
// IR: scf.for {{.*}} iter_args(%[[A:[a-z0-9]+]] = %{{.*}}, %[[B:[a-z0-9]+]] = %
// IR: linalg.add ins(%[[A]], %{{.*}} :
// IR-NEXT: linalg.copy ins(%[[A]] : memref<8xf32>) outs(%[[B]] : memref<8xf32>)
// IR-NEXT: linalg.add {{.*}} outs(%[[A]] :
// IR-NEXT: scf.yield %[[A]], %[[B]]
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @shift_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR-NEXT: ^bb0(%{{.*}}: index, %[[WA:[a-z0-9]+]]: memref<8xf32>, %[[WB:[a-z0-9]+]]: memref<8xf32>):
// IR: linalg.copy ins(%[[WA]] : memref<8xf32>) outs(%[[WB]] : memref<8xf32>)
// IR-NEXT: linalg.add {{.*}} outs(%[[WA]] :
// IR: scf.yield %{{.*}}, %[[WA]], %[[WB]]
// IR-NOT: memref.alloc
// IR: return

// Why, in the loop's helia.carried (the report and JSON show it).
// CARRIED-LABEL: func.func @shift_for(
// CARRIED: helia.carried = [{choice = "slot-and-copy", iter_arg = 1 : i64, reason = "it carries the old value of iter_arg #0, which is copied into its slot before the loop writes the successor of iter_arg #0 over it"}]
// CARRIED-LABEL: func.func @shift_while(
// CARRIED: helia.carried = [{choice = "slot-and-copy", iter_arg = 2 : i64, reason = "it carries the old value of iter_arg #1, {{.*}}"}]

// The slots (32 bytes each): the argument, a (a0 and the loop's result),
// the sum %t, b (the copy of the argument it starts from, and the loop's
// result); nothing for the iteration.
// SLOTS-LABEL: function @shift_for
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: function @shift_while

// x = [1, ..., 8], a = 2 x, b = x; each iteration b = a, a = 2 (a + b):
// three iterations give a = 44 x, b = 16 x; two give 16 x, 6 x.
// CHECK: [44,  88,  132,  176,  220,  264,  308,  352]
// CHECK: [16,  32,  48,  64,  80,  96,  112,  128]
// CHECK: [16,  32,  48,  64,  80,  96,  112,  128]
// CHECK: [6,  12,  18,  24,  30,  36,  42,  48]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @shift_for(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %a0 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %a0, %b = %x) -> (tensor<8xf32>, tensor<8xf32>) {
      %e = tensor.empty() : tensor<8xf32>
      %bv = tensor.expand_shape %b [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
      %bf = tensor.collapse_shape %bv [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
      %t = linalg.add ins(%a, %bf : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      %n = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n, %a : tensor<8xf32>, tensor<8xf32>
    }
    return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @shift_while(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %a0 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r:3 = scf.while (%k = %c0, %a = %a0, %b = %x) : (index, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %a, %b : index, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>):
      %e = tensor.empty() : tensor<8xf32>
      %t = linalg.add ins(%a1, %b1 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      %n = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n, %a1 : index, tensor<8xf32>, tensor<8xf32>
    }
    return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %a:2 = call @shift_for(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%a#0) : (tensor<8xf32>) -> ()
    call @print(%a#1) : (tensor<8xf32>) -> ()
    %w:2 = call @shift_while(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%w#0) : (tensor<8xf32>) -> ()
    call @print(%w#1) : (tensor<8xf32>) -> ()
    return
  }
}
