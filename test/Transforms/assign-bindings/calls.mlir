// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-verify-plan -helia-export-plan=json=- -o /dev/null | FileCheck %s

// Functions share the arenas on one timeline. @model is called from one
// site, so its steps run inside @run's call step: @run's 'keep' (live across
// the call) never shares bytes with @model's tensors, while @run's 'dead'
// (gone before the call) may. @helper is called from two sites, so its
// tensors stay live for the whole program. helia-verify-plan checks the
// same timeline.

// CHECK-LABEL: "tensors"
// CHECK: "function": "model",
// CHECK: "name": "x",
// CHECK: "first_step": 0,
// CHECK: "last_step": 1,
// CHECK: "function": "run",
// CHECK: "name": "keep",
// CHECK: "first_step": 1,
// CHECK: "last_step": 5,
module {
  func.func @model(%x: tensor<16xf32> {helia.name = "x"}) -> tensor<16xf32> {
    %a = arith.addf %x, %x {helia.name = "a"} : tensor<16xf32>
    %b = func.call @helper(%a) : (tensor<16xf32>) -> tensor<16xf32>
    return %b : tensor<16xf32>
  }
  func.func @helper(%h: tensor<16xf32> {helia.name = "h"}) -> tensor<16xf32> {
    %t = arith.mulf %h, %h {helia.name = "t"} : tensor<16xf32>
    return %t : tensor<16xf32>
  }
  func.func @run(%in: tensor<16xf32> {helia.name = "in"}) -> tensor<16xf32> {
    %keep = arith.addf %in, %in {helia.name = "keep"} : tensor<16xf32>
    %dead = arith.subf %in, %in {helia.name = "dead"} : tensor<16xf32>
    %d2 = arith.addf %dead, %keep {helia.name = "d2"} : tensor<16xf32>
    %r = func.call @model(%d2) : (tensor<16xf32>) -> tensor<16xf32>
    %s = arith.addf %r, %keep : tensor<16xf32>
    %u = func.call @helper(%s) : (tensor<16xf32>) -> tensor<16xf32>
    return %u : tensor<16xf32>
  }
}
