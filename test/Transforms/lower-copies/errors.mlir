// RUN: helia-opt %s --helia-lower-copies -split-input-file -verify-diagnostics

// The verifier lets a copy reinterpret bytes; memref.copy cannot.

func.func @reinterpret(%src: memref<16xi8, #helia.memory<"mram">>, %dst: memref<4xf32, #helia.memory<"dtcm">>) {
  // expected-error @below {{cannot lower a copy from 'memref<16xi8, #helia.memory<"mram">>' to 'memref<4xf32, #helia.memory<"dtcm">>'; give source and target the same shape and element type}}
  helia.stream %src, %dst : memref<16xi8, #helia.memory<"mram">>, memref<4xf32, #helia.memory<"dtcm">>
  return
}

// -----

// The pattern walk skips unreachable blocks: a copy there is refused, not
// left in the module.

func.func @unreachable(%src: memref<4xf32, #helia.memory<"mram">>, %dst: memref<4xf32, #helia.memory<"dtcm">>) {
  return
^dead:
  // expected-error @below {{cannot lower a copy in an unreachable block (the pattern walk skips them); remove the block}}
  helia.stream %src, %dst : memref<4xf32, #helia.memory<"mram">>, memref<4xf32, #helia.memory<"dtcm">>
  return
}
