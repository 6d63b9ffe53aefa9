// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/rules.json all-placements=true" | FileCheck %s
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/object.json all-placements=true" | FileCheck %s --check-prefix=OBJECT
// RUN: helia-opt %t/model.mlir -helia-resolve-residency=all-placements=true | FileCheck %s --check-prefix=MODULE

// A rules file (heliaAOT's JSON field names) replaces the module's
// helia.rules; without the option the module's rules apply.

// CHECK: helia.rules = [#helia.rule<type = constant, id = ["conv1*"], attributes = <memory = "mram", constant_destination_memory = "dtcm", residency = pin>>, #helia.rule<type = any, id = ["act"], attributes = <memory = "sram">>, #helia.rule<attributes = <>>]
// CHECK-LABEL: func.func @main
// CHECK-SAME: name = "act", kind = scratch, memory = "sram"
// CHECK: name = "conv1/w", kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin
// CHECK: name = "fc/w", kind = constant>

// OBJECT: name = "conv1/w", kind = constant, memory = "itcm">

// MODULE: name = "conv1/w", kind = constant, memory = "mram">
// MODULE: name = "fc/w", kind = constant, memory = "mram">

//--- model.mlir
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <memory = "mram">>]} {
  func.func @main(%act: tensor<4xf32> loc("act")) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = arith.constant dense<1.0> : tensor<4xf32> loc("conv1/w")
    %v = arith.constant dense<1.0> : tensor<4xf32> loc("fc/w")
    return %w, %v : tensor<4xf32>, tensor<4xf32>
  }
}

//--- rules.json
[
  {"type": "constant", "id": ["conv1*"],
   "attributes": {"memory": "mram", "constant_destination_memory": "dtcm", "residency": "pin"}},
  {"type": "*", "id": "act", "attributes": {"memory": "sram", "residency": null}},
  {"attributes": {}}
]

//--- object.json
{"rules": [{"id": "conv1/w", "attributes": {"memory": "itcm"}}]}
