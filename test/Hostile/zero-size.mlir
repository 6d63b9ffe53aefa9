// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline=lower=false | FileCheck %s

// Empty tensors (a zero dimension) are planned: they take no bytes, sit at
// offset 0 of an arena that exists, and the plan verifies. Regression: an
// arena holding only empty constants was never created, so the constants'
// bindings named a missing @constant_mram and the module failed to verify.

// CHECK-DAG: helia.arena @constant_mram {alignment = 16 : i64, memory = "mram", role = #helia.role<constant>, size = 16 : i64}
// CHECK-DAG: helia.arena @scratch_dtcm {alignment = 16 : i64, memory = "dtcm", role = #helia.role<scratch>, size = 16 : i64}
// CHECK-LABEL: func.func @f
// CHECK-SAME: helia.binding = #helia.binding<arena = @scratch_dtcm, role = scratch, memory = "dtcm", source_memory = "dtcm", offset = 0>
func.func @f(%a: tensor<0xf32>) -> tensor<0x4xf32> {
  // CHECK: arith.constant {{.*}}helia.binding = [#helia.binding<arena = @constant_mram, role = constant, memory = "mram", source_memory = "mram", offset = 0>]
  %c = arith.constant dense<1.0> : tensor<0x3xf32>
  // CHECK: "test.op"{{.*}}helia.binding = [#helia.binding<arena = @scratch_dtcm, {{.*}}offset = 0>]
  %b = "test.op"(%a, %c) : (tensor<0xf32>, tensor<0x3xf32>) -> tensor<0x4xf32>
  return %b : tensor<0x4xf32>
}
