// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A loop whose init is a slice carries a strided view of the sliced
// buffer: its iter_arg, its scf.while arguments and its results have that
// layout. A function boundary takes identity-layout buffers, so a call
// handed such a value and a return of one need a copy (reduced from fuzzer
// seeds 433, 1463 and 1480). The copy was made explicit for slices and
// scf.for results only; for scf.while results, after-region arguments and
// scf.for iter_args, bufferization made it into an allocation ("bufferization
// allocated a buffer here that the plan does not count"). It is now a copy
// into a slot of the plan (copyStridedAtBoundaries, LayoutCopies.cpp): at a
// return, live from the return on; in a loop body, a top-level slot live at
// the loop's step.
//
// - @while_returned: an scf.while result returned;
// - @while_call: an scf.while after-region argument passed to a call;
// - @for_call: an scf.for iter_arg passed to a call.

// IR-LABEL: func.func @while_returned(
// IR-NOT: memref.alloc
// IR: scf.while
// IR: memref.copy %{{.*}}#1, %{{.*}} : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32>
// IR-NEXT: return
// IR-LABEL: func.func @while_call(
// IR-NOT: memref.alloc
// IR: } do {
// IR: linalg.copy ins(%{{.*}} : memref<4xf32, strided<[1], offset: 4>>) outs(%[[C:.*]] : memref<4xf32>)
// IR-NEXT: call @twice(%[[C]])
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @for_call(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: linalg.copy ins(%{{.*}} : memref<4xf32, strided<[1], offset: 1>>) outs(%[[C:.*]] : memref<4xf32>)
// IR-NEXT: call @twice(%[[C]])
// IR-NOT: memref.alloc
// IR: return

// The argument, 2 x (which the loop updates in place through the slice) and
// the copy of the loop's result for the return; with a call, the copy for
// the call and the copy of its result, live at the loop's step, then the
// sum after the loop.
// SLOTS-LABEL: function @while_returned
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-COUNT-4: tensor #
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 16 bytes, steps [8, 9]
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @while_call
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 16 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @for_call
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 16 bytes
// SLOTS-NOT: buffer

// @while_returned: (2 x)[2:6] doubled twice.
// CHECK: [24,  32,  40,  48]
// @while_call: a -> 3 a twice from (2 x)[4:8], then doubled: 18 (2 x)[4:8].
// CHECK: [180,  216,  252,  288]
// @for_call: the same from (2 x)[1:5].
// CHECK: [72,  108,  144,  180]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
  func.func @while_returned(%x: tensor<8xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %part = tensor.extract_slice %y[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %r:2 = scf.while (%k = %c0, %a = %part) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %a : index, tensor<4xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<4xf32>):
      %n = linalg.add ins(%a1, %a1 : tensor<4xf32>, tensor<4xf32>) outs(%a1 : tensor<4xf32>) -> tensor<4xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<4xf32>
    }
    return %r#1 : tensor<4xf32>
  }
  func.func @while_call(%x: tensor<8xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %part = tensor.extract_slice %y[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %r:2 = scf.while (%k = %c0, %a = %part) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %a : index, tensor<4xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<4xf32>):
      %t = func.call @twice(%a1) : (tensor<4xf32>) -> tensor<4xf32>
      %n = linalg.add ins(%t, %a1 : tensor<4xf32>, tensor<4xf32>) outs(%a1 : tensor<4xf32>) -> tensor<4xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n : index, tensor<4xf32>
    }
    %e2 = tensor.empty() : tensor<4xf32>
    %z = linalg.add ins(%r#1, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
  func.func @for_call(%x: tensor<8xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %part = tensor.extract_slice %y[1] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %part) -> (tensor<4xf32>) {
      %t = func.call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
      %n = linalg.add ins(%t, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n : tensor<4xf32>
    }
    %e2 = tensor.empty() : tensor<4xf32>
    %z = linalg.add ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<4xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %a = call @while_returned(%x) : (tensor<8xf32>) -> tensor<4xf32>
    call @print(%a) : (tensor<4xf32>) -> ()
    %b = call @while_call(%x) : (tensor<8xf32>) -> tensor<4xf32>
    call @print(%b) : (tensor<4xf32>) -> ()
    %c = call @for_call(%x) : (tensor<8xf32>) -> tensor<4xf32>
    call @print(%c) : (tensor<4xf32>) -> ()
    return
  }
}
