// RUN: helia-opt %s -split-input-file -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s

// A loop that reads its state after computing the successor needs the state
// and the successor at once: two slots live across the loop, the successor
// copied back into the state's slot before the yield. The copy of the
// argument (the loop writes its state, the argument is the caller's) is the
// state's slot.
// Steps: %h0 at 0, the loop's constants at 1 to 3, the argument's copy at 4,
// the successor's and the product's empty tensors at 5 and 6 (hoisted, and
// sunk to right before the loop, after the init's copy), the loop at 7; so
// the product's slot reuses the bytes of %h0, dead after its copy.

// CHECK-LABEL: function @read_after_write
// CHECK: buffer 0: scratch, 16 bytes, steps [0, 4], @scratch_dtcm + 0
// CHECK-NEXT: tensor #0 "h0"
// The state: the argument's copy (named after the loop that needs it) and
// the loop's result.
// CHECK-NEXT: buffer 1: scratch, 16 bytes, steps [4, 8]
// CHECK-NEXT: tensor #1 "loop"
// CHECK-NEXT: tensor #4 "loop"
// The successor and the product: one slot each for the whole loop.
// CHECK-NEXT: buffer 2: scratch, 16 bytes, steps [5, 7]
// CHECK-NEXT: tensor #2 "next"
// CHECK-NEXT: buffer 3: scratch, 16 bytes, steps [6, 7], @scratch_dtcm + 0
// CHECK-NEXT: tensor #3 "product"
// CHECK-NEXT: arena @scratch_dtcm: 48 bytes
func.func @read_after_write(%h0: tensor<4xf32> loc("h0")) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32> loc("next")
    %n = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32> loc("product")
    %p = linalg.mul ins(%n, %h : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } loc("loop")
  return %r : tensor<4xf32>
}

// -----

// A state updated in place keeps one slot: no successor, no copy.

// CHECK-LABEL: function @in_place
// CHECK: buffer 0: scratch, 16 bytes, steps [0, 4]
// CHECK-NEXT: tensor #0 "h0"
// CHECK-NEXT: buffer 1: scratch, 16 bytes, steps [4, 6]
// CHECK-NEXT: tensor #1 "loop"
// CHECK-NEXT: tensor #2 "loop"
// CHECK-NEXT: arena @scratch_dtcm: 32 bytes
func.func @in_place(%h0: tensor<4xf32> loc("h0")) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } loc("loop")
  return %r : tensor<4xf32>
}
