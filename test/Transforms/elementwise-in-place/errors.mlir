// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -verify-diagnostics

// A helia.in_place mark the planner cannot follow (written by hand, or left
// behind by a transformation after helia-elementwise-in-place) is a located
// error.

func.func @read_later(%x: tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>) {
  %r = "tfl.relu"(%x) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // expected-error @+1 {{'helia.in_place' writes the result over operand #0, but its buffer is read later; drop the attribute (rerun helia-elementwise-in-place after changing the program)}}
  %t = "tfl.tanh"(%r) {helia.in_place = 0 : i64} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // expected-note @+1 {{read here}}
  return %r, %t : tensor<1x16xf32>, tensor<1x16xf32>
}

// -----

func.func @argument(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  // expected-error @+1 {{'helia.in_place' names operand #0, but only a scratch tensor computed in the function (not an argument, constant or persistent tensor) may be written over by a scratch result; drop the attribute}}
  %r = "tfl.relu"(%x) {helia.in_place = 0 : i64} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// -----

func.func @constant() -> tensor<1x16xf32> {
  %c = "tfl.pseudo_const"() {helia.constant} : () -> tensor<1x16xf32>
  // expected-error @+1 {{'helia.in_place' names operand #0, but only a scratch tensor}}
  %r = "tfl.relu"(%c) {helia.in_place = 0 : i64} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// -----

func.func @byte_size(%x: tensor<1x16xf32>) -> tensor<1x16xi8> {
  %r = "tfl.relu"(%x) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  // expected-error @+1 {{'helia.in_place' names operand #0 of type 'tensor<1x16xf32>', but the result has type 'tensor<1x16xi8>'; a result is written over an operand only with the same shape and element width; drop the attribute}}
  %q = "tfl.quantize"(%r) {helia.in_place = 0 : i64} : (tensor<1x16xf32>) -> tensor<1x16xi8>
  return %q : tensor<1x16xi8>
}

// -----

func.func @bufferizable(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'helia.in_place' is for ops without bufferization, but 'linalg.negf' has one (bufferization decides where its result is stored); drop the attribute and make the operand the op's destination instead (helia-elementwise-in-place does)}}
  %z = linalg.negf {helia.in_place = 0 : i64} ins(%y : tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %z : tensor<8xf32>
}

// -----

func.func @not_an_operand(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  // expected-error @+1 {{'tfl.relu' op 'helia.in_place' must be the index of an operand, on an op with one result (helia-elementwise-in-place writes it)}}
  %r = "tfl.relu"(%x) {helia.in_place = 1 : i64} : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
