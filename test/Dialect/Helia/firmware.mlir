// RUN: helia-opt %s -split-input-file | helia-opt -split-input-file | FileCheck %s

// The firmware record round-trips: every part, in declaration order, lists
// left out when empty, a preset platform as its name.

// CHECK: module attributes {helia.firmware = #helia.firmware<prefix = "model", entries = [@model], slots = [#helia.firmware_slot<entry = @model, arg = 0, arena = @scratch_dtcm, offset = 16>], caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>], platform = "mps3_an547", globals = [#helia.firmware_global<global = @constant_dtcm, memory = "dtcm">], interfaces = [#helia.firmware_interface<name = @model, type = (memref<4xf32>, memref<32xi8>) -> memref<4xf32>>], unplanned = [@main]>}
module attributes {helia.firmware = #helia.firmware<
    unplanned = [@main],
    prefix = "model",
    platform = "mps3_an547",
    entries = [@model],
    slots = [#helia.firmware_slot<entry = @model, arg = 0, arena = @scratch_dtcm, offset = 16>],
    caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>],
    globals = [#helia.firmware_global<global = @constant_dtcm, memory = "dtcm">],
    interfaces = [#helia.firmware_interface<name = @model, type = (memref<4xf32>, memref<32xi8>) -> memref<4xf32>>]>} {
}

// -----

// CHECK: module attributes {helia.firmware = #helia.firmware<prefix = "f", platform = #helia.platform<name = "board", memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true>], preferred = ["dtcm"], alignment = 16>>}
module attributes {helia.firmware = #helia.firmware<prefix = "f",
    platform = #helia.platform<name = "board", memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true>], preferred = ["dtcm"], alignment = 16>>} {
}

// -----

// The builtin form helia-lower-copies leaves reads back as the same record.

// CHECK: module attributes {helia.firmware = {entries = [@model], prefix = "model", slots = [{arena = @scratch_dtcm, arg = 0 : i64, entry = @model, offset = 16 : i64}]}}
module attributes {helia.firmware = {prefix = "model", entries = [@model],
    slots = [{entry = @model, arg = 0, arena = @scratch_dtcm, offset = 16}]}} {
}
