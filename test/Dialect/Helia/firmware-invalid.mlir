// RUN: helia-opt %s -split-input-file -verify-diagnostics

// One case per verifier message of #helia.firmware and its parts.

// expected-error @+1 {{firmware record needs a non-empty prefix (the name of the generated helpers)}}
module attributes {helia.firmware = #helia.firmware<prefix = "">} {
}

// -----

// expected-error @+1 {{firmware record lists entry @model twice}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", entries = [@model, @model]>} {
}

// -----

// expected-error @+1 {{firmware slot of @other, which is not among the record's entries}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", entries = [@model],
    slots = [#helia.firmware_slot<entry = @other, arg = 0, arena = @scratch_dtcm, offset = 0>]>} {
}

// -----

// expected-error @+1 {{firmware record gives argument 1 of @model two slots}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", entries = [@model],
    slots = [#helia.firmware_slot<entry = @model, arg = 1, arena = @scratch_dtcm, offset = 0>,
             #helia.firmware_slot<entry = @model, arg = 1, arena = @scratch_dtcm, offset = 16>]>} {
}

// -----

// expected-error @+1 {{firmware record lists caller arena @scratch_dtcm twice}}
module attributes {helia.firmware = #helia.firmware<prefix = "model",
    caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>,
                     #helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>]>} {
}

// -----

// expected-error @+2 {{firmware arena @scratch_dtcm alignment 24 is not a positive power of two}}
// expected-error @+1 {{failed to parse Helia_FirmwareAttr parameter 'caller_arenas'}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 24>]>} {
}

// -----

// expected-error @+2 {{firmware arena @scratch_dtcm has size 0; record only arenas that hold bytes}}
// expected-error @+1 {{failed to parse Helia_FirmwareAttr parameter 'caller_arenas'}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 0, alignment = 16>]>} {
}

// -----

// expected-error @+2 {{firmware arena needs a name and a memory}}
// expected-error @+1 {{failed to parse Helia_FirmwareAttr parameter 'caller_arenas'}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "", size = 32, alignment = 16>]>} {
}

// -----

// expected-error @+2 {{expected a #helia.firmware_arena, got {name = "scratch_dtcm"}}}
// expected-error @+1 {{failed to parse Helia_FirmwareAttr parameter 'caller_arenas'}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", caller_arenas = [{name = "scratch_dtcm"}]>} {
}

// -----

// expected-error @+1 {{firmware platform must be a preset's name or a #helia.platform, got 3 : i64}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", platform = 3>} {
}

// -----

// expected-error @+1 {{firmware record lists the memories of globals but no platform that has them}}
module attributes {helia.firmware = #helia.firmware<prefix = "model",
    globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">]>} {
}

// -----

// expected-error @+1 {{firmware record gives global @scratch_dtcm two memories}}
module attributes {helia.firmware = #helia.firmware<prefix = "model", platform = "mps3_an547",
    globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">,
               #helia.firmware_global<global = @scratch_dtcm, memory = "sram">]>} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'helia.firmware' must be a #helia.firmware (or its builtin form, a dictionary) on a builtin.module}}
module attributes {helia.firmware = "model"} {
}

// -----

// The builtin form (after helia-lower-copies) is checked field by field,
// then by the same verifier.

// expected-error @+1 {{'builtin.module' op firmware record has an unknown field 'arenas'}}
module attributes {helia.firmware = {prefix = "model", arenas = []}} {
}

// -----

// expected-error @+1 {{'builtin.module' op firmware record {entry = @model} needs 'arg' (an integer)}}
module attributes {helia.firmware = {prefix = "model", entries = [@model], slots = [{entry = @model}]}} {
}

// -----

// expected-error @+1 {{'builtin.module' op firmware record: expected a symbol reference, got "model"}}
module attributes {helia.firmware = {prefix = "model", entries = ["model"]}} {
}

// -----

// expected-error @+1 {{'builtin.module' op firmware platform 'tiny' is neither a preset nor a #helia.platform}}
module attributes {helia.firmware = {prefix = "model", platform = "tiny"}} {
}

// -----

// expected-error @+1 {{'builtin.module' op firmware interface @model has type 'i32', not a function type}}
module attributes {helia.firmware = {prefix = "model", interfaces = [{name = @model, type = i32}]}} {
}

// -----

// expected-error @+1 {{'builtin.module' op firmware record lists entry @model twice}}
module attributes {helia.firmware = {prefix = "model", entries = [@model, @model]}} {
}

// -----

module {
  // expected-error @+1 {{'func.func' op 'helia.firmware' must be a #helia.firmware (or its builtin form, a dictionary) on a builtin.module}}
  func.func @f() attributes {helia.firmware = #helia.firmware<prefix = "f">} {
    return
  }
}
