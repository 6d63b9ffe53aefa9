// RUN: helia-opt %s --allow-unregistered-dialect --helia-lower-to-memref -split-input-file -verify-diagnostics

// An op without bufferization cannot write into an arena view.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-error @below {{'tfl.relu' has no bufferization, so its tensors cannot live in arena views; lower it first (e.g. --tosa-to-linalg for TOSA) or stop after helia-verify-plan}}
    %y = "tfl.relu"(%x) {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-error @below {{'tosa.abs' has no bufferization, so its tensors cannot live in arena views; lower it first (e.g. --tosa-to-linalg for TOSA) or stop after helia-verify-plan}}
    %y = tosa.abs %x {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// In a planned function every tensor needs a binding.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    // expected-error @below {{tensor 'y' of a planned function has no helia.binding; run helia-assign-bindings on the whole module}}
    %e = tensor.empty() {helia.name = "y"} : tensor<4xf32>
    return %e : tensor<4xf32>
  }
}

// -----

// The plan shares a buffer that One-Shot Analysis must copy: %f is read
// after the add overwrote it in place.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model() -> tensor<4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %f = linalg.fill {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // expected-error @below {{bufferization must write operand #2 out of place because its old value is read later; the plan shares that buffer, so the copy would need memory it did not count (give the result a slot of its own)}}
    %a = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%f, %f : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : tensor<4xf32>
    %b = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} ins(%a, %f : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %b : tensor<4xf32>
  }
}

// -----

// An op that bufferizes to an allocation and has no destination-passing
// form that the lowering knows.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  func.func @model(%v: f32) -> tensor<4xf32> {
    // expected-error @below {{bufferization allocated a buffer here that the plan does not count; this op needs a destination-passing form (or a slot) that helia-lower-to-memref can place}}
    %s = tensor.splat %v {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    return %s : tensor<4xf32>
  }
}

// -----

// Constant bytes helia cannot lay out.

module {
  helia.arena @constant_mram constant in "mram" size 16 align 16
  func.func @model() -> tensor<2xcomplex<f32>> {
    // expected-error @below {{constant of type 'tensor<2xcomplex<f32>>' has no byte layout helia knows; use integer or float elements in a dense or dense_resource attribute}}
    %c = arith.constant {helia.binding = [#helia.binding<@constant_mram[0]>]} dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
    return %c : tensor<2xcomplex<f32>>
  }
}

// -----

// The generated functions need their names.

module {
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 16 align 16
  func.func @model() -> tensor<4xf32> {
    %c = arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]} dense<1.0> : tensor<4xf32>
    return %c : tensor<4xf32>
  }
  // A declaration or a stub whose body is only a return is defined by the
  // pass; a function that does something is not replaced.
  // expected-error @below {{@model_hydrate_constants must be a declaration, or a function whose body is only a return, of type '() -> ()' for helia-lower-to-memref to define it (choose another prefix= or remove it)}}
  func.func @model_hydrate_constants() {
    %c = arith.constant 0 : index
    return
  }
}

// -----

module {
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 16 align 16
  func.func @model() -> tensor<4xf32> {
    %c = arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]} dense<1.0> : tensor<4xf32>
    return %c : tensor<4xf32>
  }
  // expected-error @below {{symbol @model_hydrate_constants is taken; helia-lower-to-memref generates a function of that name (choose another prefix=)}}
  memref.global "private" @model_hydrate_constants : memref<4xf32> = uninitialized
}

// -----

// Plans are made on the schedule of one block.

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  // expected-error @below {{planned function has 2 blocks; helia-lower-to-memref lowers single-block bodies (structure control flow with scf first)}}
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    cf.br ^bb1
  ^bb1:
    return %x : tensor<4xf32>
  }
}
