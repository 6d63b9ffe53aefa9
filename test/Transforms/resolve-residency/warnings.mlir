// RUN: helia-opt %s -split-input-file -helia-resolve-residency -verify-diagnostics

// Warnings where users are most often surprised.

// expected-warning @+1 {{rule #1 #helia.rule<id = ["nothing*"], attributes = <memory = "sram">> matches no tensor}}
module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <memory = "mram">>,
  #helia.rule<id = ["nothing*"], attributes = <memory = "sram">>]} {
  func.func @f() -> tensor<4xf32> {
    %w = arith.constant dense<1.0> : tensor<4xf32>
    return %w : tensor<4xf32>
  }
}

// -----

// An id-only rule loses to a type-only rule, whatever their order.
module attributes {helia.rules = [
  #helia.rule<id = ["conv1/w"], attributes = <memory = "itcm">>,
  #helia.rule<type = constant, attributes = <memory = "mram">>]} {
  func.func @f() -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-warning @+1 {{rule #0 (id only) sets memory for tensor 'conv1/w' but rule #1 (type only) outranks it; add "type" to rule #0 to make it win}}
    %w = arith.constant {helia.name = "conv1/w"} dense<1.0> : tensor<4xf32>
    // Said once per pair of rules.
    %v = arith.constant {helia.name = "conv1/w"} dense<2.0> : tensor<4xf32>
    return %w, %v : tensor<4xf32>, tensor<4xf32>
  }
}
