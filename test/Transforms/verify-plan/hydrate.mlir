// RUN: helia-opt %s -split-input-file --helia-memory-pipeline="lower=false" -verify-diagnostics -o /dev/null

// Host code that runs a plan with staged constants without hydrating them
// first would compute with uninitialised weights (NaN on the host).

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    // expected-warning @below {{@main runs @model, whose plan has staged constants, without calling @model_hydrate_constants first: the model would read uninitialised weights; call @model_hydrate_constants once before the first run (declare it, or define it as a stub that only returns; the lowering defines it), or lower with hydrate=first-call}}
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

// Hydrated first (here inside a branch before the call: any call before it
// counts): no warning.

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func private @model_hydrate_constants()
  func.func @main(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> attributes {helia.unplanned} {
    scf.if %c {
      func.call @model_hydrate_constants() : () -> ()
    }
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %r2 = call @model(%r) : (tensor<4xf32>) -> tensor<4xf32>
    return %r2 : tensor<4xf32>
  }
}

// -----

// Nothing staged (the weight is read in place from MRAM): nothing to
// hydrate, no warning.

module {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

// The first planned function holds no tensor, so the lowering names its
// entry points after @model, the first function it binds: so does the
// warning (@model_hydrate_constants, not @scale_hydrate_constants).

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @scale(%s: f32) -> f32 {
    %r = arith.mulf %s, %s : f32
    return %r : f32
  }
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<2.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    // expected-warning @below {{@main runs @model, whose plan has staged constants, without calling @model_hydrate_constants first}}
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
