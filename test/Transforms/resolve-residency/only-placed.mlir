// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency | FileCheck %s

// By default only the tensors a rule or helia.attributes places get a
// #helia.placement: the others would only repeat their id, name and kind.
// An op whose results nothing places gets no helia.placement at all; one
// with a placed result keeps `unit` for the others.

module attributes {helia.rules = [#helia.rule<id = ["b"], attributes = <memory = "sram">>]} {
  // CHECK-LABEL: func.func @f
  // CHECK-NOT: helia.placement
  // CHECK-SAME: {
  func.func @f(%in: tensor<4xf32> loc("in")) -> tensor<4xf32> {
    // CHECK-NEXT: "test.a"
    // CHECK-NOT: helia.placement
    // CHECK-SAME: -> tensor<4xf32>
    %a = "test.a"(%in) : (tensor<4xf32>) -> tensor<4xf32> loc("a")
    // CHECK-NEXT: "test.two"{{.*}}helia.placement = [unit, #helia.placement<id = 3, name = "b", kind = scratch, memory = "sram">]
    %x:2 = "test.two"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) loc(fused["x", "b"])
    // CHECK-NEXT: "test.c"{{.*}}helia.attributes{{.*}}helia.placement = [#helia.placement<id = 4, name = "c", kind = scratch, memory = "dtcm">]
    %c = "test.c"(%x#0, %x#1) {helia.attributes = #helia.attributes<memory = "dtcm">} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("c")
    return %c : tensor<4xf32>
  }
}
