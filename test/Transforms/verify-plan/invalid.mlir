// RUN: helia-opt %s -split-input-file -helia-verify-plan -verify-diagnostics

// helia-verify-plan trusts nothing the planner wrote: each case corrupts one
// property of a valid plan.

// Two tensors live at the same step share bytes.
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 128 align 16
  // expected-note @+1 {{'x' is here}}
  func.func @f(%x: tensor<16xf32> {helia.name = "x", helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<16xf32> {
    // expected-error @+1 {{tensors 'x' and 'y' are live together but overlap in arena @scratch_dtcm: bytes [0, 64) and [32, 96)}}
    %y = arith.addf %x, %x {helia.name = "y", helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<16xf32>
    return %y : tensor<16xf32>
  }
}

// -----

// Reusing bytes is fine once the first tensor is dead.
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 128 align 16
  func.func @f(%x: tensor<16xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<16xf32> {
    %y = arith.addf %x, %x {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} : tensor<16xf32>
    %z = arith.addf %y, %y {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<16xf32>
    return %z : tensor<16xf32>
  }
}

// -----

// Constants live for the whole program: two may never share bytes.
module {
  helia.arena @constant_mram constant in "mram" size 128 align 16
  func.func @f() -> tensor<16xf32> {
    // expected-note @+1 {{'a' is here}}
    %a = arith.constant {helia.name = "a", helia.binding = [#helia.binding<@constant_mram[0]>]} dense<1.0> : tensor<16xf32>
    // expected-error @+1 {{tensors 'a' and 'b' are live together but overlap in arena @constant_mram: bytes [0, 64) and [0, 64)}}
    %b = arith.constant {helia.name = "b", helia.binding = [#helia.binding<@constant_mram[0]>]} dense<2.0> : tensor<16xf32>
    return %b : tensor<16xf32>
  }
}

// -----

module {
  func.func @f() -> tensor<16xf32> {
    // expected-error @+1 {{tensor 'a' of 'f' has no binding; run helia-assign-bindings}}
    %a = arith.constant {helia.name = "a"} dense<1.0> : tensor<16xf32>
    return %a : tensor<16xf32>
  }
}

// -----

// Storage shared by a reshape must be bound alike.
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 256 align 16
  func.func @f(%x: tensor<4x4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<16xf32> {
    %y = arith.addf %x, %x {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} : tensor<4x4xf32>
    // expected-error @+1 {{tensor 'c' shares storage with the value at}}
    %c = tensor.collapse_shape %y [[0, 1]] {helia.name = "c", helia.binding = [#helia.binding<@scratch_dtcm[128]>]} : tensor<4x4xf32> into tensor<16xf32>
    return %c : tensor<16xf32>
  }
}

// -----

// A stream slot overlapping another one live at the same step.
module {
  helia.arena @constant_mram constant in "mram" size 128 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 64 align 16
  helia.arena @scratch_dtcm scratch in "dtcm" size 64 align 16
  func.func @f() -> tensor<16xf32> {
    // expected-note @+1 {{'a' is here}}
    %a = arith.constant {helia.name = "a", helia.binding = [#helia.binding<@constant_mram[0], stream = @stream_dtcm[0]>]} dense<1.0> : tensor<16xf32>
    // expected-error @+1 {{tensors 'a' and 'b' are live together but overlap in arena @stream_dtcm: bytes [0, 64) and [0, 64)}}
    %b = arith.constant {helia.name = "b", helia.binding = [#helia.binding<@constant_mram[64], stream = @stream_dtcm[0]>]} dense<2.0> : tensor<16xf32>
    %s = arith.addf %a, %b {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<16xf32>
    return %s : tensor<16xf32>
  }
}

// -----

// Memories must hold their arenas.
// expected-error @+1 {{memory 'dtcm' holds 507904 bytes but its arenas take 524800, 16896 bytes too many}}
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 524288 align 16
  helia.arena @persistent_dtcm persistent in "dtcm" size 512 align 16
}

// -----

// The arenas of a memory are summed without wrapping: 2^63 - 1 bytes beside
// more arenas saturates instead of turning negative and fitting.
// expected-error @+1 {{memory 'dtcm' holds 507904 bytes but its arenas take at least 9223372036854775807, at least 9223372036854267903 bytes too many}}
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 9223372036854775807 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 64 align 16
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 128 align 16
}

// -----

module {
  // expected-error @+1 {{arena is in a memory that platform 'apollo510_evb' does not have: itcm, dtcm, sram, mram, psram}}
  helia.arena @scratch_l2 scratch in "l2" size 64 align 16
  func.func @f(%x: tensor<16xf32> {helia.binding = #helia.binding<@scratch_l2[0]>}) -> tensor<16xf32> {
    return %x : tensor<16xf32>
  }
}

// -----

// A caller's tensor live across a call may not share bytes with the callee's.
module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 256 align 16
  func.func @callee(%x: tensor<16xf32> {helia.binding = #helia.binding<@scratch_dtcm[64]>}) -> tensor<16xf32> {
    // expected-error @+1 {{tensors 'keep' and 'y' are live together but overlap in arena @scratch_dtcm: bytes [0, 64) and [0, 64)}}
    %y = arith.addf %x, %x {helia.name = "y", helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<16xf32>
    return %y : tensor<16xf32>
  }
  func.func @caller(%in: tensor<16xf32> {helia.binding = #helia.binding<@scratch_dtcm[128]>}) -> tensor<16xf32> {
    // expected-note @+1 {{'keep' is here}}
    %keep = arith.addf %in, %in {helia.name = "keep", helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<16xf32>
    %r = func.call @callee(%in) {helia.binding = [#helia.binding<@scratch_dtcm[192]>]} : (tensor<16xf32>) -> tensor<16xf32>
    %s = arith.addf %r, %keep {helia.binding = [#helia.binding<@scratch_dtcm[64]>]} : tensor<16xf32>
    return %s : tensor<16xf32>
  }
}
