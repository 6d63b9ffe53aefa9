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
  // CHECK-DAG: helia.arena @constant_flash constant in "flash" size 240 align 16
  // CHECK-DAG: helia.arena @constant_dtcm_from_flash constant in "dtcm" from "flash" size 48 align 16
  // CHECK-DAG: helia.arena @persistent_sram persistent in "sram" size 32 align 16
  // CHECK-DAG: helia.arena @stream_dtcm scratch in "dtcm" stream size 128 align 16
  // CHECK-DAG: helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16

  // CHECK-LABEL: func.func @weights
  func.func @weights(%x: tensor<16xi8>) -> tensor<16xi8> {
    // Cold: offsets in program order, each rounded to 16 bytes.
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_flash[0]>]
    %w0 = arith.constant {helia.name = "w0"} dense<1> : tensor<10xi8>
    // Staged: a runtime copy in dtcm of bytes kept in flash.
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_flash[0]>]
    %p0 = arith.constant {helia.name = "pin0"} dense<2> : tensor<16xi8>
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_flash[16]>]
    %p1 = arith.constant {helia.name = "pin1"} dense<3> : tensor<32xi8>
    // Streamed: read at steps 6 and 7 (slots [6, 7] and [7, 7] overlap).
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_flash[16], stream = @stream_dtcm[64]>]
    %b0 = arith.constant {helia.name = "big0"} dense<4> : tensor<64xi8>
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_flash[80], stream = @stream_dtcm[0]>]
    %b1 = arith.constant {helia.name = "big1"} dense<5> : tensor<64xi8>
    // CHECK: "test.state"() {helia.binding = [#helia.binding<@persistent_sram[0]>]
    %s = "test.state"() {helia.persistent} : () -> tensor<32xi8>
    // CHECK: "test.op"{{.*}}[16]>]
    %y = "test.op"(%x, %w0, %p0, %p1, %b0, %s) : (tensor<16xi8>, tensor<10xi8>, tensor<16xi8>, tensor<32xi8>, tensor<64xi8>, tensor<32xi8>) -> tensor<16xi8>
    // CHECK: "test.op"{{.*}}[0]>]
    %z = "test.op"(%y, %b0, %b1) : (tensor<16xi8>, tensor<64xi8>, tensor<64xi8>) -> tensor<16xi8>
    // An unused streamed constant is never copied: it stays direct.
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_flash[144]>]
    %b2 = arith.constant {helia.name = "big2"} dense<6> : tensor<96xi8>
    return %z : tensor<16xi8>
  }
}
