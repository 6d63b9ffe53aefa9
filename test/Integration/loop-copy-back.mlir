// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// Loops whose carried value needs a second buffer, planned as one slot for
// the carried value, one for the iteration's new value, and a copy back
// into the carried slot before the yield (never a buffer per iteration);
// where the new value can be computed over the old one, one slot:
//
// - @fresh_while: an scf.while computes each new value into a new tensor,
//   from the old value reversed (the reference allocates one per
//   iteration);
// - @update_while: the same elementwise: computed into the carried slot;
// - @inner_reads_old: an outer scf.for carries %acc and its inner loop
//   updates a copy of it while reading the old value (the copy One-Shot
//   Bufferize makes in every outer iteration);
// - @nested_while: the same with scf.while loops (the copy passes through
//   the inner loop's condition).

// IR-LABEL: func.func @fresh_while(
// IR-NOT: memref.alloc
// IR: scf.while
// IR: } do {
// IR: linalg.copy ins(%[[NEW:.*]] : memref<8xf32>) outs(%[[CARRIED:.*]] : memref<8xf32>)
// IR-NEXT: scf.yield %{{.*}}, %[[CARRIED]]
// IR-LABEL: func.func @update_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR-NOT: linalg.copy
// IR: scf.yield
// IR-LABEL: func.func @inner_reads_old(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: scf.for
// IR: linalg.copy
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @nested_while(
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): @fresh_while's argument, the new value (live
// at the loop's step, where it is copied back, over the argument's bytes,
// dead by then) and the carried value;
// @update_while's argument and the carried value, no third;
// @inner_reads_old's argument, the carried value and the inner loop's copy
// (over the argument's bytes, dead by then).
// SLOTS-LABEL: function @fresh_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 5], @scratch_dtcm + [[ARG0:[0-9]+]]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 8]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 7], @scratch_dtcm + [[ARG0]]
// SLOTS-LABEL: function @update_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 5]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 7]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: function @inner_reads_old
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 5], @scratch_dtcm + [[ARG:[0-9]+]]
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [4, 8]
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 7], @scratch_dtcm + [[ARG]]

// x = [1, ..., 8]; @fresh_while: x reversed three times, + 3 * 2;
// @update_while: x + 3 * 2; @inner_reads_old: 9 x.
// CHECK: [14,  13,  12,  11,  10,  9,  8,  7]
// CHECK: [7,  8,  9,  10,  11,  12,  13,  14]
// CHECK: [9,  18,  27,  36,  45,  54,  63,  72]
// @nested_while: 9 x too.
// CHECK: [9,  18,  27,  36,  45,  54,  63,  72]

#id = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (-d0 + 7)>
module attributes {helia.platform = "apollo510_evb"} {
  // scf.while computing each new value into a new tensor, from the old one
  // reversed (so not in place): the new value has a slot of its own and is
  // copied back into the carried slot before the yield.
  func.func @fresh_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %two = arith.constant dense<2.0> : tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %e = tensor.empty() : tensor<8xf32>
      %n = linalg.generic {indexing_maps = [#rev, #id, #id], iterator_types = ["parallel"]} ins(%t1, %two : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  // The same loop adding elementwise: the new value is computed into the
  // carried slot itself (one slot, no copy).
  func.func @update_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %two = arith.constant dense<2.0> : tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %e = tensor.empty() : tensor<8xf32>
      %n = linalg.add ins(%t1, %two : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  // An outer loop carries %acc; its inner loop updates a copy of it while
  // reading the old value in every iteration (a successor computed beside
  // the value it is computed from).
  func.func @inner_reads_old(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %init = linalg.copy ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %init) -> tensor<8xf32> {
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%y = %acc) -> tensor<8xf32> {
        %s = linalg.add ins(%y, %acc : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      scf.yield %in : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  // The same in scf.while loops: the copy of %t that the inner loop starts
  // from goes through the inner loop's condition; it lives for one outer
  // iteration and is copied back into the outer loop's slot.
  func.func @nested_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %in:2 = scf.while (%j = %c0, %y = %t1) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
        %go2 = arith.cmpi slt, %j, %c2 : index
        scf.condition(%go2) %j, %y : index, tensor<8xf32>
      } do {
      ^bb0(%j1: index, %y1: tensor<8xf32>):
        %s = linalg.add ins(%y1, %t1 : tensor<8xf32>, tensor<8xf32>) outs(%y1 : tensor<8xf32>) -> tensor<8xf32>
        %j2 = arith.addi %j1, %c1 : index
        scf.yield %j2, %s : index, tensor<8xf32>
      }
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %in#1 : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %a = call @fresh_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%a) : (tensor<8xf32>) -> ()
    %u = call @update_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%u) : (tensor<8xf32>) -> ()
    %b = call @inner_reads_old(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%b) : (tensor<8xf32>) -> ()
    %n = call @nested_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%n) : (tensor<8xf32>) -> ()
    return
  }
}
