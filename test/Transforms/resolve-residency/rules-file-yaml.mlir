// RUN: split-file %s %t
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/rules.yaml all-placements=true" | FileCheck %s
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/flow.yml all-placements=true" | FileCheck %s
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/rules.txt all-placements=true" | FileCheck %s
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/object.yaml all-placements=true" | FileCheck %s --check-prefix=OBJECT
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/json.rules all-placements=true" | FileCheck %s --check-prefix=OBJECT
// RUN: helia-opt %t/model.mlir -helia-resolve-residency="rules-file=%t/empty.yaml all-placements=true" | FileCheck %s --check-prefix=EMPTY

// Rules in YAML, as heliaAOT users write them: the fields and semantics of
// the JSON file (rules-file.mlir), here the same three rules in block style,
// in flow style, and in a file whose extension names neither format (YAML,
// since it is not JSON). A file of another extension that holds JSON is read
// as JSON.

// CHECK: helia.rules = [#helia.rule<type = constant, id = ["conv1*"], attributes = <memory = "mram", constant_destination_memory = "dtcm", residency = pin>>, #helia.rule<type = any, id = ["act"], attributes = <memory = "sram">>, #helia.rule<attributes = <>>]
// CHECK-LABEL: func.func @main
// CHECK-SAME: name = "act", kind = scratch, memory = "sram"
// CHECK: name = "conv1/w", kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin
// CHECK: name = "fc/w", kind = constant>

// OBJECT: name = "conv1/w", kind = constant, memory = "itcm">

// An empty list replaces the module's rules with none.
// EMPTY: helia.rules = []
// EMPTY: name = "conv1/w", kind = constant>

//--- model.mlir
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <memory = "mram">>]} {
  func.func @main(%act: tensor<4xf32> loc("act")) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = arith.constant dense<1.0> : tensor<4xf32> loc("conv1/w")
    %v = arith.constant dense<1.0> : tensor<4xf32> loc("fc/w")
    return %w, %v : tensor<4xf32>, tensor<4xf32>
  }
}

//--- rules.yaml
# Weights of conv1 are copied into DTCM at start-up.
- type: constant
  id: [conv1*]
  attributes:
    memory: mram
    constant_destination_memory: dtcm
    residency: pin
- type: "*"
  id: act
  attributes: {memory: sram, residency: null}
- attributes: {}

//--- flow.yml
[{type: constant, id: "conv1*", attributes: {memory: mram, constant_destination_memory: dtcm, residency: pin}},
 {type: '*', id: [act], attributes: {memory: sram, residency: ~}},
 {attributes: {}}]

//--- rules.txt
- {type: constant, id: conv1*, attributes: {memory: mram, constant_destination_memory: dtcm, residency: pin}}
- {type: "*", id: act, attributes: {memory: sram, residency: }}
- attributes:

//--- object.yaml
rules:
  - id: conv1/w
    attributes:
      memory: itcm

//--- json.rules
{"rules": [{"id": "conv1/w", "attributes": {"memory": "itcm"}}]}

//--- empty.yaml
rules: []
