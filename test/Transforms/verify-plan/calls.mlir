// RUN: helia-opt %s --helia-verify-plan=replay-only -split-input-file -verify-diagnostics
// RUN: not helia-opt %s --helia-verify-plan -split-input-file -o /dev/null

// Plans that are wrong only across calls, made by hand from helia's own plans
// of the same modules, each rejected by the replay, which does not use the
// module timeline the planner packs on (replay-only), and by the whole
// verifier. Valid plans of the same modules pass (last case).

// The caller's slot of @g's result #0 lies on @g's returned result #1 (%1,
// bytes [64, 80)): copying result #0 out overwrites result #1 before it is
// copied out.
module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 80 align 16
  func.func @g(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-note @below {{'#1' is defined here}}
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} : tensor<4xf32>
    %3 = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
    return %3, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-error @below {{tensor '#1' of @g is read here, but its bytes [64, 80) in arena @scratch_dtcm were overwritten first by tensor '#1' of @model}}
    // expected-note @below {{'#1' is defined here}}
    %0:2 = call @g(%arg0) {helia.binding = [#helia.binding<@scratch_dtcm[64]>, #helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %2 = linalg.sub {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%0#0, %0#1 : tensor<4xf32>, tensor<4xf32>) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

// The caller's streamed constant shares its stream slot with the callee's:
// the callee's stream copy overwrites it while the caller still reads it.
module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 32 align 16
  helia.arena @constant_mram constant in "mram" size 32 align 16
  func.func @g(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> tensor<4xf32> {
    // expected-note @below {{'#1' is defined here}}
    %cst = arith.constant {helia.binding = [#helia.binding<@constant_mram[0], stream = @stream_dtcm[0]>]} dense<[1.000000e+02, 2.000000e+02, 3.000000e+02, 4.000000e+02]> : tensor<4xf32>
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%arg0, %cst : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-note @below {{'#1' is defined here}}
    %cst = arith.constant {helia.binding = [#helia.binding<@constant_mram[16], stream = @stream_dtcm[0]>]} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
    %0 = call @g(%cst) {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    // expected-error @below {{tensor '#1' of @model is read here, but its bytes [0, 16) in arena @stream_dtcm were overwritten first by tensor '#1' of @g}}
    %2 = linalg.sub {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%0, %cst : tensor<4xf32>, tensor<4xf32>) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

// The planned @layer runs inside @model's call of the unplanned @helper;
// its result lies on @model's %1, which is live across the call.
module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 64 align 16
  func.func @layer(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> tensor<4xf32> {
    // expected-note @below {{'#1' is defined here}}
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %0 = call @layer(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-note @below {{'#1' is defined here}}
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<4xf32>
    %1 = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %2 = call @helper(%arg0) {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    // expected-error @below {{tensor '#1' of @model is read here, but its bytes [32, 48) in arena @scratch_dtcm were overwritten first by tensor '#1' of @layer}}
    %4 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%2, %1 : tensor<4xf32>, tensor<4xf32>) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}

// -----

// The plans as helia-assign-bindings makes them pass.
module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 80 align 16
  func.func @g(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} : tensor<4xf32>
    %3 = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
    return %3, %1 : tensor<4xf32>, tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %0:2 = call @g(%arg0) {helia.binding = [#helia.binding<@scratch_dtcm[32]>, #helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %2 = linalg.sub {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%0#0, %0#1 : tensor<4xf32>, tensor<4xf32>) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 32 align 16
  helia.arena @constant_mram constant in "mram" size 32 align 16
  func.func @g(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> tensor<4xf32> {
    %cst = arith.constant {helia.binding = [#helia.binding<@constant_mram[0], stream = @stream_dtcm[0]>]} dense<[1.000000e+02, 2.000000e+02, 3.000000e+02, 4.000000e+02]> : tensor<4xf32>
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%arg0, %cst : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %cst = arith.constant {helia.binding = [#helia.binding<@constant_mram[16], stream = @stream_dtcm[16]>]} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
    %0 = call @g(%cst) {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %2 = linalg.sub {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%0, %cst : tensor<4xf32>, tensor<4xf32>) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 64 align 16
  func.func @layer(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[16]>}) -> tensor<4xf32> {
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} : tensor<4xf32>
    %1 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[48]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {helia.unplanned} {
    %0 = call @layer(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @model(%arg0: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %0 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<4xf32>
    %1 = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%arg0, %arg0 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %2 = call @helper(%arg0) {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %4 = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%2, %1 : tensor<4xf32>, tensor<4xf32>) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}
