// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline -verify-diagnostics

// Sizes near and beyond 64 bits are located errors, never wrapped-around
// arithmetic. Regression: a tensor of 2^63 to 2^64 bytes became a negative
// int64 size ("packing failed: negative size" at the module), two constants
// of 2^62 bytes summed to a negative arena that was never created, and a
// memory of 2^64 - 1 bytes had a capacity of -1.

func.func @overflows_64_bits(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<4611686018427387904x4xf32>' has no byte size (element type without a bit width, or more than 2^64 bytes)}}
  %b = "test.op"(%a) : (tensor<4xf32>) -> tensor<4611686018427387904x4xf32>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #0 of type 'tensor<9223372036854775800xi8>' takes 9223372036854775800 bytes; helia plans tensors of up to 2^40 bytes}}
func.func @beyond_int64(%a: tensor<9223372036854775800xi8>) -> tensor<9223372036854775800xi8> {
  return %a : tensor<9223372036854775800xi8>
}

// -----

func.func @two_huge_constants(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<4611686018427387904xi8>' takes 4611686018427387904 bytes; helia plans tensors of up to 2^40 bytes}}
  %c = arith.constant dense<0> : tensor<4611686018427387904xi8>
  // expected-error @+1 {{result #0 of type 'tensor<4611686018427387904xi8>' takes 4611686018427387904 bytes; helia plans tensors of up to 2^40 bytes}}
  %d = arith.constant dense<0> : tensor<4611686018427387904xi8>
  %e = "test.op"(%a, %c, %d) : (tensor<4xf32>, tensor<4611686018427387904xi8>, tensor<4611686018427387904xi8>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// The largest tensor helia plans (2^40 bytes) is planned, and does not fit
// the default platform: an over-capacity error, not an overflow.
func.func @largest(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{memory 'sram' over capacity: it holds 3145728 bytes but needs 1099511627776, short by 1099508482048 bytes; live at the peak step: '#1' (1099511627776 bytes)}}
  // expected-note @+1 {{no preferred memory has room}}
  %b = "test.op"(%a) : (tensor<4xf32>) -> tensor<1099511627776xi8>
  %c = "test.op"(%b) : (tensor<1099511627776xi8>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// expected-error @+2 {{memory 'm' has size 18446744073709551615; helia supports memories of up to 2^62 bytes}}
// expected-error @+1 {{failed to parse Helia_PlatformAttr parameter 'memories'}}
module attributes {helia.platform = #helia.platform<name = "z", memories = [#helia.memory_desc<name = "m", size = 18446744073709551615>], preferred = ["m"], alignment = 16>} {
}

// -----

// expected-error @+1 {{platform 'z' alignment 9223372036854775808 is larger than 2^40 bytes}}
module attributes {helia.platform = #helia.platform<name = "z", memories = [#helia.memory_desc<name = "m", size = 1024>], preferred = ["m"], alignment = 9223372036854775808>} {
}
