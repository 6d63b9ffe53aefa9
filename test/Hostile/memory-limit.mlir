// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false memory-limit=dtcm=0" | FileCheck %s --check-prefix=ZERO
// RUN: not helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false memory-limit=dtcm=0,sram=0" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false memory-limit=dtcm=4611686018427387905" 2>&1 | FileCheck %s --check-prefix=TOOBIG

// A memory-limit of 0 empties dtcm: every scratch tensor goes to sram.
// ZERO-NOT: @scratch_dtcm
// ZERO: helia.arena @scratch_sram scratch in "sram" size 32 align 16
// ZERO-NOT: @scratch_dtcm

// With both preferred memories at 0 bytes nothing fits: the error names the
// last memory tried, the shortfall and the tensors live at the peak.
// NONE: error: memory 'sram' over capacity: it holds 0 bytes but needs 32, short by 32 bytes; live at the peak step: '#0' (16 bytes) '#1' (16 bytes)

// A limit beyond what helia represents is refused, not wrapped around.
// TOOBIG: error: memory-limit 'dtcm=4611686018427387905' is larger than the 2^62 bytes helia supports

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
