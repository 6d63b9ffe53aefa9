// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A branch in a loop body that yields the loop's iter_arg in one branch and
// a value stored outside the loop in the other (reduced from the fuzzer's
// seed 84): One-Shot Analysis puts both in one alias set, so the loop could
// neither update its iter_arg in place nor copy its successor back into it,
// and One-Shot Bufferize allocates a buffer in every iteration. The branch
// yields a copy of the outer value instead, in a slot live for the loop's
// step; the iter_arg keeps one slot and is updated in place.
//
// - @outer_in_branch: the outer value is read after the loop;
// - @init_in_branches: the outer value is the loop's init, yielded by two
//   nested branches;
// - @fresh_beside_carried: the other branch yields a new value, computed
//   into a tensor of its own.

// IR-LABEL: func.func @outer_in_branch(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: scf.if
// IR: } else {
// IR-NEXT: linalg.copy
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @init_in_branches(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @fresh_beside_carried(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[IT:.*]] : memref<8xf32>)
// IR-NEXT: scf.yield %[[IT]]
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each). @outer_in_branch: the arguments, the outer
// value, the carried value (one slot: its init copy, the iter_arg and the
// update in place), the copy of the outer value and the loop's temporary,
// the last two live at the loop's step only. @init_in_branches: the
// generic reads the branch's value reversed, which may be the iter_arg, so
// its successor is computed beside it and copied back; each branch that
// yields the init yields a copy of it. @fresh_beside_carried: the argument,
// the carried value (one slot) and the branch's new value, live at the
// loop's step.
// SLOTS-LABEL: function @outer_in_branch
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 12]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 11]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [10, 11]
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: function @init_in_branches
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 11]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 11]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 11]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [10, 11]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: function @fresh_beside_carried
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 9]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 8]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: arena @scratch_dtcm: 160 bytes

// @outer_in_branch, x = [1, ..., 8], y = -x: three iterations of
// it = 2 * rev(b) - it, b = it while it[0] > 0, else -y (taken last);
// @init_in_branches, init = -x: it = rev(b) + it four times, b = it (the
// inner branch, first) or the init (both branches yield it).
// CHECK: [43,  32,  21,  10,  -1,  -12,  -23,  -34]
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]
// CHECK: [-33,  -30,  -27,  -24,  -21,  -18,  -15,  -12]
// @fresh_beside_carried: it = rev(it) - 5 while it[0] > 0 (twice), then
// it kept (twice).
// CHECK: [-9,  -8,  -7,  -6,  -5,  -4,  -3,  -2]

#id = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (-d0 + 7)>
module attributes {helia.platform = "apollo510_evb"} {
  func.func @outer_in_branch(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<8xf32>
    %o = linalg.negf ins(%y : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %e1 = tensor.empty() : tensor<8xf32>
    %init = linalg.copy ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%it = %init) -> (tensor<8xf32>) {
      %v = tensor.extract %it[%c0] : tensor<8xf32>
      %c = arith.cmpf ogt, %v, %zero : f32
      %b = scf.if %c -> (tensor<8xf32>) {
        scf.yield %it : tensor<8xf32>
      } else {
        scf.yield %o : tensor<8xf32>
      }
      %e2 = tensor.empty() : tensor<8xf32>
      %t = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
      ^bb0(%a: f32, %out: f32):
        %s = arith.addf %a, %a : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<8xf32>) outs(%it : tensor<8xf32>) {
      ^bb0(%a: f32, %out: f32):
        %s = arith.subf %a, %out : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r, %o : tensor<8xf32>, tensor<8xf32>
  }

  // Seed 84 reduced: the init itself is yielded by the inner and the outer
  // branch; the loop updates its iter_arg from the branch's value.
  func.func @init_in_branches(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<8xf32>
    %init = linalg.negf ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %init) -> (tensor<8xf32>) {
      %v = tensor.extract %it[%c0] : tensor<8xf32>
      %c = arith.cmpf olt, %v, %zero : f32
      %b = scf.if %c -> (tensor<8xf32>) {
        %w = tensor.extract %it[%c1] : tensor<8xf32>
        %d = arith.cmpf olt, %w, %v : f32
        %b2 = scf.if %d -> (tensor<8xf32>) {
          scf.yield %it : tensor<8xf32>
        } else {
          scf.yield %init : tensor<8xf32>
        }
        scf.yield %b2 : tensor<8xf32>
      } else {
        scf.yield %init : tensor<8xf32>
      }
      %n = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%it : tensor<8xf32>) {
      ^bb0(%a: f32, %out: f32):
        %s = arith.addf %a, %out : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  // Seed 532 reduced: one branch computes a new value into a tensor of its
  // own, the other yields the iter_arg, and the loop yields the branch's
  // result. The new value's destination stays in the branch for the
  // analysis (hoisted before it, it would be a buffer from outside the loop
  // in the carried value's alias set, and the loop would copy its yield in
  // every iteration); the branch's result is copied back into the carried
  // slot, and the destination gets a slot live at the loop's step.
  func.func @fresh_beside_carried(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<8xf32>
    %init = linalg.copy ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %init) -> (tensor<8xf32>) {
      %v = tensor.extract %it[%c0] : tensor<8xf32>
      %c = arith.cmpf ogt, %v, %zero : f32
      %b = scf.if %c -> (tensor<8xf32>) {
        %e = tensor.empty() : tensor<8xf32>
        %n = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%it : tensor<8xf32>) outs(%e : tensor<8xf32>) {
        ^bb0(%a: f32, %out: f32):
          %k = arith.constant 5.0 : f32
          %s = arith.subf %a, %k : f32
          linalg.yield %s : f32
        } -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      } else {
        scf.yield %it : tensor<8xf32>
      }
      scf.yield %b : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %y = arith.constant dense<[-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0]> : tensor<8xf32>
    %a:2 = call @outer_in_branch(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%a#0) : (tensor<8xf32>) -> ()
    call @print(%a#1) : (tensor<8xf32>) -> ()
    %b = call @init_in_branches(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%b) : (tensor<8xf32>) -> ()
    %f = call @fresh_beside_carried(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    return
  }
}
