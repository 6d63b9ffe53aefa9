// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline=lower=false | FileCheck %s

// Empty tensors (a zero dimension) are planned: they take no bytes, sit at
// offset 0 of an arena that exists, and the plan verifies. Regression: an
// arena holding only empty constants was never created, so the constants'
// bindings named a missing @constant_mram and the module failed to verify.

// CHECK-DAG: helia.arena @constant_mram constant in "mram" size 16 align 16
// CHECK-DAG: helia.arena @scratch_dtcm scratch in "dtcm" size 16 align 16
// CHECK-LABEL: func.func @f
// CHECK-SAME: helia.binding = #helia.binding<@scratch_dtcm[0]>
func.func @f(%a: tensor<0xf32>) -> tensor<0x4xf32> {
  // CHECK: arith.constant {{.*}}helia.binding = [#helia.binding<@constant_mram[0]>]
  %c = arith.constant dense<1.0> : tensor<0x3xf32>
  // CHECK: "test.op"{{.*}}helia.binding = [#helia.binding<@scratch_dtcm[0]>]
  %b = "test.op"(%a, %c) : (tensor<0xf32>, tensor<0x3xf32>) -> tensor<0x4xf32>
  return %b : tensor<0x4xf32>
}
