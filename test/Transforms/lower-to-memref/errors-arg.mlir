// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=arg -split-input-file -verify-diagnostics
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=alloc -split-input-file -verify-diagnostics

// With arena arguments, a planned function gains parameters that a call in
// the module cannot supply.

module {
  helia.arena @scratch_dtcm {alignment = 16 : i64, memory = "dtcm", role = #helia.role<scratch>, size = 32 : i64}
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<arena = @scratch_dtcm, role = scratch, memory = "dtcm", source_memory = "dtcm", offset = 0>}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @below {{calls @model, which takes its arenas as trailing arguments in arena-mode=}}
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
