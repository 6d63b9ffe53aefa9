// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -verify-diagnostics

// One case per error of helia-resolve-residency.

// expected-error @+1 {{rule #0 sets memory to unknown memory 'l2'; platform 'apollo510_evb' has: itcm, dtcm, sram, mram, psram}}
module attributes {helia.rules = [#helia.rule<attributes = <memory = "l2">>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #1 sets constant_destination_memory to unknown memory 'tcm'; platform 'apollo3p_evb' has: dtcm, sram, mram}}
module attributes {helia.platform = "apollo3p_evb", helia.rules = [
  #helia.rule<attributes = <>>,
  #helia.rule<type = constant, attributes = <constant_destination_memory = "tcm">>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #0 sets constant_destination_memory to 'mram', which is read-only at run time; a pinned constant is copied into a writable memory}}
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "mram">>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #0 sets residency on scratch tensors; only constants have a residency}}
module attributes {helia.rules = [#helia.rule<type = scratch, attributes = <residency = stream>>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #0 sets constant_destination_memory on persistent tensors; only constants have a residency}}
module attributes {helia.rules = [#helia.rule<type = persistent, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #0 places scratch tensors in 'mram', which is read-only at run time}}
module attributes {helia.rules = [#helia.rule<type = scratch, attributes = <memory = "mram">>]} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{rule #0 places constants in 'psram', which holds no initialised data at boot; use a memory with init (e.g. mram), and constant_destination_memory to copy it there}}
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <memory = "psram">>]} {
  func.func @f() { return }
}

// -----

module attributes {helia.rules = [#helia.rule<id = ["x"], attributes = <residency = direct>>]} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{rule #0 sets residency on scratch tensor 'x'; only constants have a residency (restrict the rule with "type": "constant")}}
    %x = arith.addf %a, %a {helia.name = "x"} : tensor<4xf32>
    return %x : tensor<4xf32>
  }
}

// -----

module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{the op's helia.attributes sets constant_destination_memory on scratch tensor 'x'; only constants have a residency}}
    %x = arith.addf %a, %a {helia.name = "x", helia.attributes = #helia.attributes<constant_destination_memory = "dtcm">} : tensor<4xf32>
    return %x : tensor<4xf32>
  }
}

// -----

module attributes {helia.rules = [#helia.rule<id = ["s*"], attributes = <memory = "mram">>]} {
  func.func @f() -> tensor<4xf32> {
    // expected-error @+1 {{rule #0 places persistent tensor 'state' in 'mram', which is read-only at run time; choose a writable memory}}
    %s = "tfl.variable"() {tflm.persistent, helia.name = "state"} : () -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
}

// -----

module {
  // expected-error @+1 {{the op's helia.attributes places scratch tensor 'in' in 'mram', which is read-only at run time; choose a writable memory}}
  func.func @f(%a: tensor<4xf32> {helia.name = "in", helia.attributes = #helia.attributes<memory = "mram">}) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

module attributes {helia.rules = [#helia.rule<id = ["w"], attributes = <memory = "psram">>]} {
  func.func @f() -> tensor<4xf32> {
    // expected-error @+1 {{rule #0 makes 'psram' the source memory of constant tensor 'w', but it holds no initialised data at boot; keep the bytes in a memory with init (e.g. mram) and copy them with constant_destination_memory}}
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<4xf32>
    return %w : tensor<4xf32>
  }
}

// -----

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <residency = pin>>]} {
  func.func @f() -> tensor<4xf32> {
    // expected-error @+1 {{rule #0 pins constant tensor 'w' but no rule gives it a constant_destination_memory; add one}}
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<4xf32>
    return %w : tensor<4xf32>
  }
}

// -----

module {
  func.func @f() -> tensor<4xf32> {
    // expected-error @+1 {{helia.attributes sets memory to unknown memory 'flash'; platform 'apollo510_evb' has: itcm, dtcm, sram, mram, psram}}
    %w = arith.constant {helia.attributes = #helia.attributes<memory = "flash">} dense<1.0> : tensor<4xf32>
    return %w : tensor<4xf32>
  }
}

// -----

module {
  // expected-error @+1 {{argument #0 has dynamic shape 'tensor<?xf32>'; helia plans only statically shaped tensors (give every dimension a size)}}
  func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
    return %a : tensor<?xf32>
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{result #0 has unranked type 'tensor<*xf32>'; helia plans only ranked, statically shaped tensors}}
    %u = "test.unranked"() : () -> tensor<*xf32>
    return
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{result #0 of type 'tensor<4x!test.opaque>' has no byte size (element type without a bit width, or more than 2^64 bytes)}}
    %u = "test.opaque"() : () -> tensor<4x!test.opaque>
    return
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{result #0 of type 'tensor<4294967296x4294967296x16xi8>' has no byte size (element type without a bit width, or more than 2^64 bytes)}}
    %u = "test.huge"() : () -> tensor<4294967296x4294967296x16xi8>
    return
  }
}

// -----

// Only values helia knows before the program runs are constants: constant
// arenas are read-only images. An argument marked helia.constant would be
// written there by its caller.
// expected-error @+1 {{argument #1 is marked helia.constant, but an argument's bytes are the caller's, written at run time, and constant arenas are read-only; drop helia.constant (the argument is then scratch), or make the weight an arith.constant or tosa.const inside the function}}
func.func @model(%x: tensor<4xf32>, %w: tensor<4xf32> {helia.constant}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// A compute op marked helia.constant does not fold: its result is written at
// run time.
func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{result #0 of 'linalg.mul' is marked helia.constant, but only constant-foldable values (ConstantLike ops such as arith.constant or tosa.const) are constants: this one is computed at run time and would be written into a read-only constant arena; drop helia.constant (the result is then scratch)}}
  %w = linalg.mul {helia.constant} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %a = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// So is an operand-free op that folds to nothing (tensor.empty), and an
// unregistered op that reads run-time values.
func.func @model(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{result #0 of 'tensor.empty' is marked helia.constant, but only constant-foldable values}}
  %e = tensor.empty() {helia.constant} : tensor<4xf32>
  // expected-error @+1 {{result #0 of 'tfl.dequantize' is marked helia.constant, but only constant-foldable values}}
  %d = "tfl.dequantize"(%x) {helia.constant} : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %d : tensor<4xf32>, tensor<4xf32>
}

// -----

// A harness that prints through an unranked cast is host code: planning it
// fails, and a note says how to keep such code away from the planner.
func.func private @printMemrefF32(tensor<*xf32>)
func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-note @+1 {{if @main is host code around the model (a test harness, an entry point), mark it `attributes {helia.unplanned}`: the planner leaves it alone}}
func.func @main() {
  %x = arith.constant dense<1.0> : tensor<4xf32>
  %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{result #0 has unranked type 'tensor<*xf32>'; helia plans only ranked, statically shaped tensors}}
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
