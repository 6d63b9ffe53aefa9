// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=arg -split-input-file -verify-diagnostics
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=alloc -split-input-file -verify-diagnostics

// With arena arguments, a planned function gains parameters. A planned
// caller forwards its own, an outermost caller allocates them (see
// harness-arenas.mlir); a caller that is itself called would free them
// after each of its calls, losing hydrated constants and persistent state.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @run(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    // expected-error @below {{calls @model, which takes its arenas as trailing arguments in arena-mode=}}
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    // expected-note @below {{@run is used here}}
    %r = call @run(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

// Only a direct call can be given the arena arguments.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @main() -> ((tensor<4xf32>) -> tensor<4xf32>) attributes {helia.unplanned} {
    // expected-error @below {{uses @model other than in a direct call; in arena-mode=}}
    %f = func.constant @model : (tensor<4xf32>) -> tensor<4xf32>
    return %f : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// The owner frees the arenas before it returns, but what it returns is its
// own copy of the model's result (made at the call), never a view of them;
// a copy of its own is fine too.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %c = linalg.copy ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %c : tensor<4xf32>
  }
}
