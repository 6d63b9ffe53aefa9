// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A call in a loop body handed the loop's carried value, which the loop then
// overwrites while a call result that may be that value (the callee returns
// it from a branch) is still read: One-Shot copies the operand for the call,
// in every iteration (reduced from fuzzer seed 157's class). The copy is a
// copy into a top-level slot live at the loop's step, handed to the callee
// as the copy was (hoistRegionStorage, RegionCopies.cpp).
//
// - @call_copy_while: in an scf.while;
// - @call_copy_for: in an scf.for;
// - @call_copy_branch: a call in an scf.if branch to a callee that writes
//   into its argument (an unplanned @write, which doubles it in place):
//   the argument is copied into a slot handed over writable, and the
//   argument itself, read after the branch, keeps its value.

// IR-LABEL: func.func @call_copy_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR: linalg.copy
// IR: call @pass(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call_copy_for(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: linalg.copy
// IR: call @pass(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call_copy_branch(
// IR-NOT: memref.alloc
// IR: scf.if
// IR-NEXT: linalg.copy ins(%[[X:.*]] : memref<8xf32>) outs(%[[C:.*]] : memref<8xf32>)
// IR-NEXT: call @write(%[[C]])
// IR-NOT: memref.alloc
// IR: return

// The argument, the carried value, the copy for the call and the copies of
// the call's two results, each live at the loop's step: one slot for the
// carried value, one for the copy.
// SLOTS-LABEL: function @call_copy_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #{{[0-9]+}}
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @call_copy_for
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #{{[0-9]+}}
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// @call_copy_branch: the argument, the copy for the call, the copy of its
// result and the sum after the branch.
// SLOTS-LABEL: function @call_copy_branch
// SLOTS-COUNT-4: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer

// a -> x + 2 a three times from x: 15 x.
// CHECK: [15,  30,  45,  60,  75,  90,  105,  120]
// CHECK: [15,  30,  45,  60,  75,  90,  105,  120]
// @call_copy_branch: 2 x from the callee, 2 x from the argument after it.
// CHECK: [2,  4,  6,  8,  10,  12,  14,  16]
// CHECK: [2,  4,  6,  8,  10,  12,  14,  16]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @pass(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %first = tensor.extract %a[%c0] : tensor<8xf32>
    %p = arith.cmpf ogt, %first, %zero : f32
    %r = scf.if %p -> (tensor<8xf32>) {
      scf.yield %b : tensor<8xf32>
    } else {
      scf.yield %a : tensor<8xf32>
    }
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %s, %r : tensor<8xf32>, tensor<8xf32>
  }
  func.func @call_copy_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %p:2 = func.call @pass(%x, %a1) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
      %n = linalg.add ins(%p#0, %p#1 : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }
  func.func @call_copy_for(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
      %p:2 = func.call @pass(%x, %a) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
      %n = linalg.add ins(%p#0, %p#1 : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  func.func @write(%a: tensor<8xf32>) -> tensor<8xf32> attributes {helia.unplanned} {
    %d = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
    return %d : tensor<8xf32>
  }
  func.func @call_copy_branch(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %first = tensor.extract %x[%c0] : tensor<8xf32>
    %p = arith.cmpf ogt, %first, %zero : f32
    %r = scf.if %p -> (tensor<8xf32>) {
      %n = func.call @write(%x) : (tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    } else {
      scf.yield %x : tensor<8xf32>
    }
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %r, %s : tensor<8xf32>, tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %w = call @call_copy_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    %f = call @call_copy_for(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    %b:2 = call @call_copy_branch(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%b#0) : (tensor<8xf32>) -> ()
    call @print(%b#1) : (tensor<8xf32>) -> ()
    return
  }
}

