// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline -verify-diagnostics

// Tensors helia cannot size are located errors that say what to change.

// expected-error @+1 {{argument #0 has dynamic shape 'tensor<?x4xf32>'; helia plans only statically shaped tensors (give every dimension a size)}}
func.func @dynamic_argument(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

// -----

func.func @dynamic_result(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 has dynamic shape 'tensor<?xf32>'; helia plans only statically shaped tensors (give every dimension a size)}}
  %e = tensor.empty(%n) : tensor<?xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @unranked(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 has unranked type 'tensor<*xf32>'; helia plans only ranked, statically shaped tensors}}
  %b = "test.op"(%a) : (tensor<4xf32>) -> tensor<*xf32>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #0 has unranked type 'tensor<*xi8>'; helia plans only ranked, statically shaped tensors}}
func.func @unranked_argument(%a: tensor<*xi8>) {
  return
}

// -----

func.func @no_bit_width(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<4x!test.opaque>' has no byte size (element type without a bit width, or more than 2^64 bytes)}}
  %b = "test.op"(%a) : (tensor<4xf32>) -> tensor<4x!test.opaque>
  return %a : tensor<4xf32>
}

// -----

// Every bad tensor of a function is reported, not only the first.
func.func @several(%a: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @-1 {{argument #0 has dynamic shape}}
  // expected-error @+1 {{result #0 has unranked type}}
  %b = "test.op"(%a) : (tensor<?xf32>) -> tensor<*xf32>
  // expected-error @+1 {{result #1 has dynamic shape}}
  %c:2 = "test.op"(%a) : (tensor<?xf32>) -> (tensor<4xf32>, tensor<2x?xf32>)
  return %c#0 : tensor<4xf32>
}

// -----

// index elements are planned as 8 bytes (ByteSize.h); a data layout that
// makes index narrower would read the planned bytes wrongly.
module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
  // expected-error @+1 {{argument #0 of type 'tensor<4xindex>' has index elements, which the data layout makes 32 bits wide; helia plans index as 64 bits (use a fixed-width integer element type, or the default index width)}}
  func.func @narrow_index(%a: tensor<4xindex>) -> tensor<4xindex> {
    return %a : tensor<4xindex>
  }
}
