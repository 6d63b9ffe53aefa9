// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// Constants: cold in the first non-volatile memory by default (read in
// place); pinned ones staged into their destination (same layout as a
// source blob, one bulk hydrate); streamed ones stay in their cold arena and
// get a slot in the stream pool from their first to their last reader.
// Persistent tensors are bump-allocated and never reused.

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1024, init = true>,
                #helia.memory_desc<name = "sram", size = 4096, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [
    #helia.rule<type = constant, id = ["pin*"], attributes = <constant_destination_memory = "dtcm">>,
    #helia.rule<type = constant, id = ["big*"], attributes = <residency = stream>>,
    #helia.rule<type = persistent, attributes = <memory = "sram">>]} {
  // CHECK-DAG: helia.arena @constant_flash {alignment = 16 : i64, memory = "flash", role = #helia.role<constant>, size = 240 : i64}
  // CHECK-DAG: helia.arena @constant_dtcm_from_flash {alignment = 16 : i64, memory = "dtcm", role = #helia.role<constant>, size = 48 : i64, source_memory = "flash"}
  // CHECK-DAG: helia.arena @persistent_sram {alignment = 16 : i64, memory = "sram", role = #helia.role<persistent>, size = 32 : i64}
  // CHECK-DAG: helia.arena @stream_dtcm {alignment = 16 : i64, memory = "dtcm", role = #helia.role<scratch>, size = 128 : i64, stream}
  // CHECK-DAG: helia.arena @scratch_dtcm {alignment = 16 : i64, memory = "dtcm", role = #helia.role<scratch>, size = 32 : i64}

  // CHECK-LABEL: func.func @weights
  func.func @weights(%x: tensor<16xi8>) -> tensor<16xi8> {
    // Cold: offsets in program order, each rounded to 16 bytes.
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_flash, role = constant, memory = "flash", source_memory = "flash", offset = 0>]
    %w0 = arith.constant {helia.name = "w0"} dense<1> : tensor<10xi8>
    // Staged: a runtime copy in dtcm of bytes kept in flash.
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_dtcm_from_flash, role = constant, memory = "dtcm", source_memory = "flash", offset = 0>]
    %p0 = arith.constant {helia.name = "pin0"} dense<2> : tensor<16xi8>
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_dtcm_from_flash, role = constant, memory = "dtcm", source_memory = "flash", offset = 16>]
    %p1 = arith.constant {helia.name = "pin1"} dense<3> : tensor<32xi8>
    // Streamed: read at steps 6 and 7 (slots [6, 7] and [7, 7] overlap).
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_flash, role = constant, memory = "flash", source_memory = "flash", offset = 16, stream_arena = @stream_dtcm, stream_offset = 64>]
    %b0 = arith.constant {helia.name = "big0"} dense<4> : tensor<64xi8>
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_flash, role = constant, memory = "flash", source_memory = "flash", offset = 80, stream_arena = @stream_dtcm, stream_offset = 0>]
    %b1 = arith.constant {helia.name = "big1"} dense<5> : tensor<64xi8>
    // CHECK: "test.state"() {helia.binding = [#helia.binding<arena = @persistent_sram, role = persistent, memory = "sram", source_memory = "sram", offset = 0>]
    %s = "test.state"() {helia.persistent} : () -> tensor<32xi8>
    // CHECK: "test.op"{{.*}}offset = 16>]
    %y = "test.op"(%x, %w0, %p0, %p1, %b0, %s) : (tensor<16xi8>, tensor<10xi8>, tensor<16xi8>, tensor<32xi8>, tensor<64xi8>, tensor<32xi8>) -> tensor<16xi8>
    // CHECK: "test.op"{{.*}}offset = 0>]
    %z = "test.op"(%y, %b0, %b1) : (tensor<16xi8>, tensor<64xi8>, tensor<64xi8>) -> tensor<16xi8>
    // An unused streamed constant is never copied: it stays direct.
    // CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_flash, role = constant, memory = "flash", source_memory = "flash", offset = 144>]
    %b2 = arith.constant {helia.name = "big2"} dense<6> : tensor<96xi8>
    return %z : tensor<16xi8>
  }
}
