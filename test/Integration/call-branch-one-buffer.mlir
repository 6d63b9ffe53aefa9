// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A call in a loop body handed the result of an scf.if whose branches all
// yield the same buffer (reduced from fuzzer seeds 445, 638 and 1761). The
// result owns no slot, but it is that buffer whichever branch runs, so the
// call gets that slot cast to the default memory space, like any planned
// operand; before, the result had no slot to cast and bufferization copied
// it into an allocation in every iteration.
//
// - @same_for: an scf.for whose branch yields the function argument for
//   both results, both passed to the call;
// - @same_while: an scf.while whose branch yields a value of the function
//   body, passed to the call beside the after-region argument.

// IR-LABEL: func.func @same_for(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: %[[Y:.*]]:2 = scf.if
// IR: call @scale(%[[Y]]#0, %[[Y]]#1)
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @same_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR: ^bb0(%{{.*}}: index, %[[A:.*]]: memref<8xf32>):
// IR: %[[Y:.*]] = scf.if
// IR: call @scale(%[[Y]], %[[A]])
// IR-NOT: memref.alloc
// IR: return

// The branch results take no slot: @same_for has the argument's, the
// carried value's and the copy of the call's result; @same_while the
// argument's, 2 x's, the carried value's and the copy of the call's result.
// SLOTS-LABEL: function @same_for
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @same_while
// SLOTS-COUNT-4: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer

// @same_for: a -> 2 x + a three times from x: 7 x.
// CHECK: [7,  14,  21,  28,  35,  42,  49,  56]
// @same_while: a -> a + 4 x three times from x: 13 x.
// CHECK: [13,  26,  39,  52,  65,  78,  91,  104]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @scale(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }
  func.func @same_for(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
      %first = tensor.extract %a[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %zero : f32
      %y:2 = scf.if %p -> (tensor<8xf32>, tensor<8xf32>) {
        scf.yield %x, %x : tensor<8xf32>, tensor<8xf32>
      } else {
        scf.yield %x, %x : tensor<8xf32>, tensor<8xf32>
      }
      %s = func.call @scale(%y#0, %y#1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %n = linalg.add ins(%s, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  func.func @same_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %x2 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %a = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %first = tensor.extract %a1[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %zero : f32
      %y = scf.if %p -> (tensor<8xf32>) {
        scf.yield %x2 : tensor<8xf32>
      } else {
        scf.yield %x2 : tensor<8xf32>
      }
      %s = func.call @scale(%y, %a1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %n = linalg.add ins(%s, %y : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
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
    %f = call @same_for(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    %w = call @same_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    return
  }
}
