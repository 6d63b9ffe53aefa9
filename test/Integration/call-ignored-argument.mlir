// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A call in an inner loop handed the outer loop's carried value as an
// argument the callee never uses, while the inner loop, whose init is that
// value, updates it in place (reduced from fuzzer seeds 544, 1164 and 1396,
// 7078's class). The plan gives both one slot: nothing reads the old value.
// Handed over as a read of the value (to_buffer), the argument made
// One-Shot Analysis see the old value read after the inner loop wrote its
// buffer, and copy the init out of place ("bufferization must write operand
// #3 out of place"). A call now hands an argument its callee never uses
// over as a view of the operand's slot, which reads nothing of the value.
//
// - @nested_for: an scf.for in an scf.for;
// - @nested_while: an scf.for in an scf.while, handed the after-region
//   argument.

// IR-LABEL: func.func @nested_for(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: scf.for
// IR: %[[S:.*]] = memref.view
// IR-NEXT: call @ignore_first(%[[S]],
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @nested_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR: scf.for
// IR: memref.view
// IR-NEXT: call @ignore_first(
// IR-NOT: memref.alloc
// IR: return

// One slot for the argument, one for the carried value of both loops (the
// inner loop updates it in place), one for the copy of the call's result.
// SLOTS-LABEL: function @nested_for
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @nested_while
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer

// b -> 2 b + x twice in each of two outer iterations, from x: 31 x.
// CHECK: [31,  62,  93,  124,  155,  186,  217,  248]
// CHECK: [31,  62,  93,  124,  155,  186,  217,  248]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @ignore_first(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%b, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }
  func.func @nested_for(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (tensor<8xf32>) {
        %s = func.call @ignore_first(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
        %n = linalg.add ins(%s, %x : tensor<8xf32>, tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      }
      scf.yield %in : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  func.func @nested_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a1) -> (tensor<8xf32>) {
        %s = func.call @ignore_first(%a1, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
        %n = linalg.add ins(%s, %x : tensor<8xf32>, tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      }
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %in : index, tensor<8xf32>
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
    %f = call @nested_for(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    %w = call @nested_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    return
  }
}
