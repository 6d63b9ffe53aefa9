// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline=lower=false | FileCheck %s

// Degenerate modules get a correct (possibly empty) plan.

// No function, no tensor: nothing to plan, no arena.
// CHECK-LABEL: module attributes {helia.platform = "apollo510_evb"} {
// CHECK-NEXT: }
module {
}

// -----

// Functions without ops, without tensors, and external functions.
// CHECK-LABEL: module
// CHECK-NOT: helia.arena
// CHECK: func.func @no_ops() {
// CHECK: func.func @scalars(%arg0: i32) -> i32 {
// CHECK: func.func private @external(tensor<4xf32>) -> tensor<4xf32>
func.func @no_ops() {
  return
}
func.func @scalars(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// -----

// Tensors used by nothing still get bytes for the step that defines them,
// and do not share them with what is live there.
// CHECK-LABEL: func.func @unused
// CHECK-SAME: #helia.binding<@scratch_dtcm[64]>
func.func @unused(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "test.op"{{.*}}[0]>]
  %u = "test.op"(%a) : (tensor<4xf32>) -> tensor<16xf32>
  // CHECK: arith.constant {{.*}}<@constant_mram[
  %c = arith.constant dense<0.0> : tensor<8xf32>
  return %a : tensor<4xf32>
}

// -----

// The same name on several tensors: each is planned on its own, and a rule
// naming it applies to all of them.
module attributes {helia.rules = [#helia.rule<id = ["x"], attributes = <memory = "sram">>]} {
  // CHECK-LABEL: func.func @duplicates
  // CHECK-SAME: <@scratch_sram[0]>
  func.func @duplicates(%a: tensor<4xf32> {helia.name = "x"}) -> tensor<4xf32> {
    // CHECK: "test.op"{{.*}}<@scratch_sram[16]>]
    %b = "test.op"(%a) {helia.name = "x"} : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: "test.op"{{.*}}<@scratch_sram[0]>]
    %c = "test.op"(%b) {helia.name = "x"} : (tensor<4xf32>) -> tensor<4xf32>
    return %c : tensor<4xf32>
  }
}
