// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// A function marked helia.unplanned (host code, a test harness) is left
// alone by every planning pass: no placements, no bindings, and its tensors
// (even an unranked one) are not planned. Its calls into planned functions
// do not matter to the plan.

// CHECK-LABEL: func.func @model
// CHECK-SAME: helia.binding
func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: arith.addf {{.*}}helia.binding
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @main() attributes {helia.unplanned} {
// CHECK-NOT: helia.placement
// CHECK-NOT: helia.binding
// CHECK: return
func.func @main() attributes {helia.unplanned} {
  %x = arith.constant dense<1.0> : tensor<4xf32>
  %y = func.call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %y : tensor<4xf32> to tensor<*xf32>
  return
}
