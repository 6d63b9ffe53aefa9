// RUN: helia-opt %s -split-input-file -helia-lower-to-memref -verify-diagnostics | FileCheck %s

// A module that never went through the planning passes (no helia.arena, no
// helia.binding) still bufferizes, with plain allocations, but no longer
// silently: a warning says to plan it first.

// CHECK-LABEL: func.func @model(
// CHECK: memref.alloc
// expected-warning @+1 {{function 'model' was never planned (the module has no helia.arena and no helia.binding), so its tensors get plain allocations; run helia-resolve-residency and helia-assign-bindings first (or helia-memory-pipeline), or mark it helia.unplanned}}
func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// One warning per module, at the first such function.
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Nothing to plan: functions marked helia.unplanned, declarations, and
// functions without tensors give no warning.
// CHECK-LABEL: func.func @harness(
func.func @harness(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
  return %x : tensor<4xf32>
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @scalar(
func.func @scalar(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}
