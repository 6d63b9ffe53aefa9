// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency=all-placements=true 2>/dev/null | FileCheck %s

// heliaAOT precedence: type+id > type only > id only > neither; ties go to
// the later rule; fields merge one by one; helia.attributes beats all.

// CHECK-LABEL: func.func @levels
module attributes {helia.rules = [
  #helia.rule<attributes = <memory = "sram">>,                            // #0 neither
  #helia.rule<id = ["w1", "s1"], attributes = <memory = "dtcm">>,           // #1 id only
  #helia.rule<type = constant, attributes = <memory = "mram">>,           // #2 type only
  #helia.rule<type = constant, id = ["w2"], attributes = <memory = "itcm">> // #3 type and id
]} {
  func.func @levels(%in: tensor<4xf32> loc("in")) -> tensor<4xf32> {
    // Type only (#2) beats id only (#1), whatever their order.
    // CHECK: name = "w1", kind = constant, memory = "mram"
    %w1 = arith.constant dense<1.0> : tensor<4xf32> loc("w1")
    // Type and id (#3) beats type only (#2).
    // CHECK: name = "w2", kind = constant, memory = "itcm"
    %w2 = arith.constant dense<2.0> : tensor<4xf32> loc("w2")
    // Id only (#1) beats neither (#0).
    // CHECK: name = "s1", kind = scratch, memory = "dtcm"
    %s1 = arith.addf %in, %w1 : tensor<4xf32> loc("s1")
    // Only #0 matches a scratch tensor with another name.
    // CHECK: name = "s2", kind = scratch, memory = "sram"
    %s2 = arith.addf %s1, %w2 : tensor<4xf32> loc("s2")
    return %s2 : tensor<4xf32>
  }
}

// -----

// Ties go to the later rule.
// CHECK-LABEL: func.func @ties
// CHECK-SAME: name = "a", kind = scratch, memory = "sram"
module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <memory = "itcm">>,
  #helia.rule<type = constant, attributes = <memory = "mram">>,
  #helia.rule<id = ["a"], attributes = <memory = "dtcm">>,
  #helia.rule<id = ["a*"], attributes = <memory = "sram">>
]} {
  func.func @ties(%a: tensor<4xf32> loc("a")) -> tensor<4xf32> {
    // CHECK: name = "w", kind = constant, memory = "mram"
    %w = arith.constant dense<1.0> : tensor<4xf32> loc("w")
    return %w : tensor<4xf32>
  }
}

// -----

// Fields merge one by one: each field comes from the best rule that sets
// it. A destination implies pin at its rule's precedence.
// CHECK-LABEL: func.func @merge
module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <memory = "mram">>,
  #helia.rule<id = ["w"], attributes = <memory = "itcm", constant_destination_memory = "dtcm">>
]} {
  func.func @merge() -> tensor<4xf32> {
    // CHECK: name = "w", kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin
    %w = arith.constant dense<1.0> : tensor<4xf32> loc("w")
    return %w : tensor<4xf32>
  }
}

// -----

// A winning residency of direct or stream drops a destination that a
// lower-precedence rule set: the constant is read from its source.
// CHECK-LABEL: func.func @residency_decides
module attributes {helia.rules = [
  #helia.rule<type = constant, attributes = <memory = "mram", constant_destination_memory = "dtcm">>,
  #helia.rule<type = constant, id = ["big*"], attributes = <residency = stream>>
]} {
  func.func @residency_decides() -> (tensor<4xf32>, tensor<4xf32>) {
    // CHECK: name = "big0", kind = constant, memory = "mram", residency = stream>
    %a = arith.constant dense<1.0> : tensor<4xf32> loc("big0")
    // CHECK: name = "small", kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin>
    %b = arith.constant dense<1.0> : tensor<4xf32> loc("small")
    return %a, %b : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// The op's helia.attributes beats every rule, field by field.
// CHECK-LABEL: func.func @override
module attributes {helia.rules = [
  #helia.rule<type = constant, id = ["w"], attributes = <memory = "mram", constant_destination_memory = "sram">>
]} {
  func.func @override() -> tensor<4xf32> {
    // CHECK: name = "w", kind = constant, memory = "mram", constant_destination_memory = "dtcm", residency = pin
    %w = arith.constant {helia.attributes = #helia.attributes<constant_destination_memory = "dtcm">} dense<1.0> : tensor<4xf32> loc("w")
    return %w : tensor<4xf32>
  }
}

// -----

// Globs and exact ids; type any matches every kind and ranks as no type.
// CHECK-LABEL: func.func @globs
module attributes {helia.rules = [
  #helia.rule<id = ["conv?/w"], attributes = <memory = "sram">>,
  #helia.rule<type = any, attributes = <memory = "dtcm">>,
  #helia.rule<id = ["conv1/w"], attributes = <memory = "itcm">>
]} {
  func.func @globs() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    // Exact id, later among id-only rules.
    // CHECK: name = "conv1/w", kind = constant, memory = "itcm"
    %a = arith.constant dense<1.0> : tensor<4xf32> loc("conv1/w")
    // Glob (id only) beats `type = any` (no type, no id).
    // CHECK: name = "conv2/w", kind = constant, memory = "sram"
    %b = arith.constant dense<1.0> : tensor<4xf32> loc("conv2/w")
    // Only `type = any` matches.
    // CHECK: name = "conv10/w", kind = constant, memory = "dtcm"
    %c = arith.constant dense<1.0> : tensor<4xf32> loc("conv10/w")
    return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Kinds restrict rules: a type = scratch rule leaves constants alone, and a
// tensor without a name matches no id rule.
// CHECK-LABEL: func.func @kinds
module attributes {helia.rules = [
  #helia.rule<type = scratch, attributes = <memory = "sram">>,
  #helia.rule<type = persistent, attributes = <memory = "dtcm">>,
  #helia.rule<id = ["*"], attributes = <memory = "itcm">>
]} {
  func.func @kinds(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: #helia.placement<id = 1, kind = constant>
    %w = arith.constant dense<1.0> : tensor<4xf32>
    // CHECK: #helia.placement<id = 2, name = "state", kind = persistent, memory = "dtcm">
    %s = "tfl.variable"() {tflm.persistent} : () -> tensor<4xf32> loc("state")
    // CHECK: #helia.placement<id = 3, name = "y", kind = scratch, memory = "sram">
    %y = arith.addf %x, %w : tensor<4xf32> loc("y")
    return %y : tensor<4xf32>
  }
}
