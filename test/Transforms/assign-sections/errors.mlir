// RUN: helia-opt %s -split-input-file -verify-diagnostics --helia-assign-sections
// RUN: not helia-opt %s -split-input-file --helia-assign-sections=platform=nrf52 2>&1 | FileCheck %s --check-prefix=PRESET

// Every error of helia-assign-sections: located, and saying what to do.
// PRESET: error: unknown platform preset 'nrf52'; known presets: apollo510_evb, apollo4p_evb, apollo4l_evb, apollo3p_evb, mps3_an547

// expected-error @+1 {{module has no 'helia.firmware' record of its arenas; lower the plan with helia-lower-to-memref and helia-lower-copies (erase-memory-spaces=true) before the conversion to LLVM}}
module {
  llvm.mlir.global private @scratch_dtcm() : !llvm.array<64 x i8>
}

// -----

// expected-error @+1 {{'helia.firmware' needs a prefix and a platform; lower the plan with helia-lower-to-memref and helia-lower-copies (erase-memory-spaces=true)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net">} {
}

// -----

// expected-error @+1 {{firmware platform 'tiny' is not a preset (known presets: apollo510_evb, apollo4p_evb, apollo4l_evb, apollo3p_evb, mps3_an547)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "tiny">} {
}

// -----

module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547", globals = [#helia.firmware_global<global = @scratch_tcm, memory = "tcm">]>} {
  // expected-error @+1 {{arena global @scratch_tcm lives in memory 'tcm', which platform 'mps3_an547' does not have (it has: itcm, sram, dtcm, qspi); plan and place with the same platform}}
  llvm.mlir.global private @scratch_tcm() : !llvm.array<64 x i8>
}

// -----

module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547", globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">]>} {
  // expected-error @+1 {{arena global @scratch_dtcm has type '!llvm.array<16 x f32>'; expected an array of i8 as helia-lower-to-memref creates it}}
  llvm.mlir.global private @scratch_dtcm() : !llvm.array<16 x f32>
}

// -----

module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547", globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">]>} {
  // expected-error @+1 {{cannot rename arena global @scratch_dtcm to @net_arena_dtcm_scratch_dtcm: the module already has that symbol; choose another prefix=}}
  llvm.mlir.global private @scratch_dtcm() : !llvm.array<64 x i8>
  llvm.mlir.global private @net_arena_dtcm_scratch_dtcm() : !llvm.array<64 x i8>
}

// -----

// expected-error @+1 {{the module already has a symbol @net_arena_buffers; choose another prefix=}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547", globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">]>} {
  llvm.mlir.global private @scratch_dtcm() : !llvm.array<64 x i8>
  llvm.func @net_arena_buffers()
}

// -----

// expected-error @+2 {{expected a #helia.firmware_global, got {global = "scratch_dtcm", memory = "dtcm"}}}
// expected-error @+1 {{failed to parse Helia_FirmwareAttr parameter 'globals'}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547", globals = [{global = "scratch_dtcm", memory = "dtcm"}]>} {
}
