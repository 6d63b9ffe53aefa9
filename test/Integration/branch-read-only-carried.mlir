// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A branch in a loop body that yields the loop's carried value in one
// branch and a value stored outside the loop (a function argument, a value
// of the function body read again after the loop) in the other, while the
// loop writes into the carried value (reduced from fuzzer seeds 331 and
// 557). One-Shot Analysis puts both in the branch result's alias set, so
// the carried buffer would alias the outer one and no write into it (nor a
// copy back) could be in place: a buffer per iteration. The branch yields a
// copy of the outer value instead, a slot live at the loop's step
// (copyOuterValuesYieldedBesideCarried, RegionCopies.cpp).
//
// - @pick_while: an scf.while whose body picks its state or the argument,
//   and adds 1 into its state;
// - @pick_for: the same in an scf.for;
// - @pick_nested_while: the pick in a branch nested in another, whose other
//   branch computes a fresh value, and the pick carried on as well (the
//   old state for one carried value, its increment for the other);
// - @pick_outer_while: the pick of a value the function computed before the
//   loop and reads after it;
// - @pick_mixed_while: the pick of a nested branch's result that is the
//   outer value or a fresh one, in a loop whose carried value only the copy
//   back writes (seed 731's class): the copy is made once the copy back is
//   known, before the module is analysed again.

// IR-LABEL: func.func @pick_while(
// IR-NOT: memref.alloc
// IR: scf.if
// IR-NEXT: linalg.copy
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @pick_for(
// IR-NOT: memref.alloc
// IR: scf.if
// IR-NEXT: linalg.copy
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @pick_nested_while(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @pick_outer_while(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: } else {
// IR-NEXT: linalg.copy
// IR-NOT: memref.alloc
// IR: return

// @pick_while and @pick_for: the argument, the constant, the carried value
// (its init's copy and the loop's result) and the argument's copy in the
// branch, live at the loop's step only: one slot for the carried value,
// not one per iteration.
// SLOTS-LABEL: function @pick_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 9]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 8]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: function @pick_for
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 9]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 8]
// SLOTS-NEXT:   tensor #3
// @pick_nested_while: the two arguments, the constant, the two carried
// values, and three slots live at the loop's step: the argument's copy in
// the inner branch, the fresh value of the outer branch (an alloc_tensor of
// the iteration for the analysis, so that no copy of it is needed:
// allocateFreshValuesYieldedBesideCarried), and the increment.
// SLOTS-NEXT: function @pick_nested_while
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 12]
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes, steps [{{8|9|10}}, 11]
// SLOTS-NOT: buffer
// SLOTS: function @pick_outer_while
// @pick_outer_while: the argument, the constant, the value computed before
// the loop, the carried value, the copy in the branch (over the argument's
// bytes, dead by then) and the value computed after the loop.
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8], @scratch_dtcm + [[X:[0-9]+]]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 12]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 13]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 10], @scratch_dtcm + [[X]]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [11, 13]
// SLOTS-NOT: buffer
// @pick_mixed_while: the argument, the constant, the outer value, the
// carried value, four slots live at the loop's step (the fresh value, the
// copy of the nested branch's result and the two sums) and the value
// computed after the loop.
// SLOTS-LABEL: function @pick_mixed_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 15]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 16]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #9
// SLOTS-COUNT-4: buffer {{[0-9]+}}: scratch, 32 bytes, steps [{{9|10|11|12}}, 13]
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [14, 16]
// SLOTS-NOT: buffer
// SLOTS: arena @scratch_dtcm: 192 bytes

// @pick_while, @pick_for: x + 1, then x + 2, then the argument picked: x + 1.
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// @pick_nested_while: (2 x, 2 x + 1), then (2 x + 1, 2 x + 2), then the
// argument picked: (x, x + 1).
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// @pick_outer_while: 2 x + 1 (the outer value picked), then 2 x + 2 and
// 2 x + 3 (the state picked); the outer value 2 x plus 1 after the loop.
// CHECK: [5,  7,  9,  11,  13,  15,  17,  19]
// CHECK: [3,  5,  7,  9,  11,  13,  15,  17]
// @pick_mixed_while: 3 x + 1, 7 x + 1, 21 x + 5; 2 x + 1 after the loop.
// CHECK: [26,  47,  68,  89,  110,  131,  152,  173]
// CHECK: [3,  5,  7,  9,  11,  13,  15,  17]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @pick_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %first = tensor.extract %a1[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %x : tensor<8xf32>
      } else {
        scf.yield %a1 : tensor<8xf32>
      }
      %n = linalg.add ins(%c, %one : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }
  func.func @pick_for(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
      %first = tensor.extract %a[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %x : tensor<8xf32>
      } else {
        scf.yield %a : tensor<8xf32>
      }
      %n = linalg.add ins(%c, %one : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  func.func @pick_nested_while(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:3 = scf.while (%k = %c0, %a = %y, %b = %x) : (index, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a, %b : index, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>):
      %first = tensor.extract %b1[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %q = arith.cmpi eq, %k1, %c1 : index
      %c = scf.if %p -> (tensor<8xf32>) {
        %d = scf.if %q -> (tensor<8xf32>) {
          scf.yield %b1 : tensor<8xf32>
        } else {
          scf.yield %x : tensor<8xf32>
        }
        scf.yield %d : tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %n = linalg.add ins(%c, %one : tensor<8xf32>, tensor<8xf32>) outs(%b1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %c, %n : index, tensor<8xf32>, tensor<8xf32>
    }
    return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @pick_outer_while(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %t = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %first = tensor.extract %a1[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %a1 : tensor<8xf32>
      } else {
        scf.yield %t : tensor<8xf32>
      }
      %n = linalg.add ins(%c, %one : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    %e2 = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%t, %one : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    return %r#1, %s : tensor<8xf32>, tensor<8xf32>
  }

  func.func @pick_mixed_while(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %e0 = tensor.empty() : tensor<8xf32>
    %t = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %first = tensor.extract %a1[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %q = arith.cmpi eq, %k1, %c1 : index
      %b = scf.if %q -> (tensor<8xf32>) {
        scf.yield %t : tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.add ins(%a1, %one : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %b : tensor<8xf32>
      } else {
        scf.yield %a1 : tensor<8xf32>
      }
      %e2 = tensor.empty() : tensor<8xf32>
      %m = linalg.add ins(%b, %c : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
      %e3 = tensor.empty() : tensor<8xf32>
      %n = linalg.add ins(%m, %a1 : tensor<8xf32>, tensor<8xf32>) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    %e4 = tensor.empty() : tensor<8xf32>
    %u = linalg.add ins(%t, %one : tensor<8xf32>, tensor<8xf32>) outs(%e4 : tensor<8xf32>) -> tensor<8xf32>
    return %r#1, %u : tensor<8xf32>, tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %y = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]> : tensor<8xf32>
    %w = call @pick_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    %f = call @pick_for(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    %n:2 = call @pick_nested_while(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%n#0) : (tensor<8xf32>) -> ()
    call @print(%n#1) : (tensor<8xf32>) -> ()
    %o:2 = call @pick_outer_while(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%o#0) : (tensor<8xf32>) -> ()
    call @print(%o#1) : (tensor<8xf32>) -> ()
    %m:2 = call @pick_mixed_while(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%m#0) : (tensor<8xf32>) -> ()
    call @print(%m#1) : (tensor<8xf32>) -> ()
    return
  }
}
