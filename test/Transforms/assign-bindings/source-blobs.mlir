// RUN: helia-opt %s -split-input-file -helia-resolve-residency -helia-assign-bindings -helia-verify-plan -verify-diagnostics | FileCheck %s

// A staged arena keeps its source blob in its source memory. Constants of
// one source memory pinned into two memories keep two blobs there, which
// add up: 64 + 64 bytes of a 96-byte flash do not fit.

module attributes {helia.platform = #helia.platform<name = "p",
    memories = [#helia.memory_desc<name = "dtcm", size = 1024, init = true>,
                #helia.memory_desc<name = "sram", size = 1024, init = true>,
                #helia.memory_desc<name = "flash", size = 96, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [
    #helia.rule<type = constant, id = ["a"], attributes = <constant_destination_memory = "dtcm">>,
    #helia.rule<type = constant, id = ["b"], attributes = <constant_destination_memory = "sram">>]} {
  func.func @f(%x: tensor<64xi8>) -> tensor<64xi8> {
    // expected-error @+2 {{memory 'flash' over capacity: it holds 96 bytes but its arenas need 128, short by 32 bytes: source blobs of staged constants (128 bytes); the tensors there, largest first: 'a' (64 bytes, source of a constant pinned to 'dtcm') 'b' (64 bytes, source of a constant pinned to 'sram')}}
    // expected-note @+1 {{free 32 bytes of 'flash'; keep some constants' bytes in another memory that holds initialised data (a rule's memory = ...); or raise its memory-limit}}
    %a = arith.constant {helia.name = "a"} dense<1> : tensor<64xi8>
    %b = arith.constant {helia.name = "b"} dense<2> : tensor<64xi8>
    %s = arith.addi %a, %b : tensor<64xi8>
    %y = arith.addi %s, %x : tensor<64xi8>
    return %y : tensor<64xi8>
  }
}

// -----

// With 128 bytes of flash both blobs fit; each staged arena has its own
// destination.

// CHECK-DAG: helia.arena @constant_dtcm_from_flash constant in "dtcm" from "flash" size 64 align
// CHECK-DAG: helia.arena @constant_sram_from_flash constant in "sram" from "flash" size 64 align
// CHECK-NOT: helia.arena {{.*}}blob
module attributes {helia.platform = #helia.platform<name = "p",
    memories = [#helia.memory_desc<name = "dtcm", size = 1024, init = true>,
                #helia.memory_desc<name = "sram", size = 1024, init = true>,
                #helia.memory_desc<name = "flash", size = 128, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [
    #helia.rule<type = constant, id = ["a"], attributes = <constant_destination_memory = "dtcm">>,
    #helia.rule<type = constant, id = ["b"], attributes = <constant_destination_memory = "sram">>]} {
  func.func @f(%x: tensor<64xi8>) -> tensor<64xi8> {
    %a = arith.constant {helia.name = "a"} dense<1> : tensor<64xi8>
    %b = arith.constant {helia.name = "b"} dense<2> : tensor<64xi8>
    %s = arith.addi %a, %b : tensor<64xi8>
    %y = arith.addi %s, %x : tensor<64xi8>
    return %y : tensor<64xi8>
  }
}
