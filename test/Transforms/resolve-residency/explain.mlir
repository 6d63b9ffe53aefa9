// RUN: helia-opt %s -helia-resolve-residency=explain -verify-diagnostics

// explain=true says, per tensor, which rule set each field.

module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <memory = "mram", constant_destination_memory = "dtcm">>,
  #helia.rule<type = constant, id = ["big"], attributes = <residency = stream>>]} {
  // expected-remark @+1 {{tensor 'in' (#0, scratch): memory unset; constant_destination_memory unset; residency unset}}
  func.func @f(%in: tensor<4xf32> {helia.name = "in"}) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-remark @+1 {{tensor 'w' (#1, constant): memory from rule #0; constant_destination_memory from rule #0; residency from rule #0}}
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<4xf32>
    // expected-remark @+1 {{tensor 'big' (#2, constant): memory from rule #0; constant_destination_memory unset; residency from rule #1 (constant_destination_memory dropped: residency is stream)}}
    %b = arith.constant {helia.name = "big"} dense<1.0> : tensor<4xf32>
    // expected-remark @+1 {{tensor 'o' (#3, constant): memory from the op's helia.attributes; constant_destination_memory from rule #0; residency from rule #0}}
    %o = arith.constant {helia.name = "o", helia.attributes = #helia.attributes<memory = "itcm">} dense<1.0> : tensor<4xf32>
    return %w, %b : tensor<4xf32>, tensor<4xf32>
  }
}
