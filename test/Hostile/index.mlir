// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s
// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-export-plan=json=- -o /dev/null | FileCheck %s --check-prefix=JSON

// index elements take 8 bytes in every computation of a byte size: the
// planner, the binding verifier (this crashed on tensor<4xindex>), the
// verifier and the exports agree on 32 bytes per tensor<4xindex>.

// CHECK: helia.arena @scratch_dtcm {{.*}}size 64 align
// CHECK-LABEL: func.func @f(
// Both tensors are live at step 1: 32 bytes each.
// CHECK-SAME: tensor<4xindex> {helia.binding = #helia.binding<@scratch_dtcm[32]>
// CHECK: "test.op"(%{{.*}}) {helia.binding = [#helia.binding<@scratch_dtcm[0]>]
func.func @f(%a: tensor<4xindex>) -> tensor<4xindex> {
  %b = "test.op"(%a) : (tensor<4xindex>) -> tensor<4xindex>
  return %b : tensor<4xindex>
}

// JSON-LABEL: "tensors": [
// JSON: "tensor_id": 0,
// JSON: "size": 32,
// JSON: "tensor_id": 1,
// JSON: "size": 32,
