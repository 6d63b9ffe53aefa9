// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// Values a loop carries, passed to a call inside a loop body: an scf.while
// after-region argument and the result of a loop nested in the body. Each
// is stored in the slot its loop carries; the call gets that slot cast to
// the default memory space, as it gets any other planned operand (reduced
// from seed 8 of `run.py --control-flow 2`, where bufferization allocated a
// copy in another memory space for each, in every iteration).
//
// - @while_call: an scf.while passes its after-region argument and an inner
//   scf.while's result to @step;
// - @for_call: the same with scf.for loops (the inner loop's result).

// IR-LABEL: func.func @while_call(
// IR-NOT: memref.alloc
// IR: } do {
// IR-NEXT: ^bb0(%{{.*}}: index, %[[T:[a-z0-9]+]]: memref<8xf32>):
// IR: %[[IN:[a-z0-9]+]]:2 = scf.while
// IR: call @step(%[[T]], %[[IN]]#1)
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @for_call(
// IR-NOT: memref.alloc
// IR: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]+]] =
// IR: %[[IN2:[a-z0-9]+]] = scf.for
// IR: call @step(%[[ACC]], %[[IN2]])
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): the argument, the inner loop's state (a copy
// of the argument, written in place in the inner loop), the outer loop's
// carried value and the copy of @step's result, which the loop yields.
// SLOTS-LABEL: function @while_call
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @for_call
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0,
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @step

// x = [1, ..., 8]; @while_call: t = t + 4 x twice from x: 9 x;
// @for_call: acc = 3 acc + x twice from x: 13 x.
// CHECK: [9,  18,  27,  36,  45,  54,  63,  72]
// CHECK: [13,  26,  39,  52,  65,  78,  91,  104]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @while_call(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %in:2 = scf.while (%j = %c0, %y = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
        %go2 = arith.cmpi slt, %j, %c2 : index
        scf.condition(%go2) %j, %y : index, tensor<8xf32>
      } do {
      ^bb0(%j1: index, %y1: tensor<8xf32>):
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.add ins(%y1, %y1 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        %j2 = arith.addi %j1, %c1 : index
        scf.yield %j2, %s : index, tensor<8xf32>
      }
      %n = func.call @step(%t1, %in#1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  func.func @for_call(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> tensor<8xf32> {
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%y = %x) -> tensor<8xf32> {
        %s = linalg.add ins(%y, %acc : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %n = func.call @step(%acc, %in) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  func.func @step(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %a = call @while_call(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%a) : (tensor<8xf32>) -> ()
    %b = call @for_call(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%b) : (tensor<8xf32>) -> ()
    return
  }
}
