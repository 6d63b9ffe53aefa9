// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -verify-diagnostics

// Over capacity: the memory, its capacity, the need, the shortfall and the
// tensors live at the peak step.

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 256, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%in: tensor<64xi8>) -> tensor<64xi8> {
    // expected-error @+2 {{memory 'dtcm' over capacity: it holds 256 bytes but needs 448, short by 192 bytes; live at the peak step: 'big' (256 bytes) 'mid' (128 bytes) '#0' (64 bytes)}}
    // expected-note @+1 {{no preferred memory has room; no other writable memory of platform 'tiny' has 192 bytes free for tensors; or raise its memory-limit}}
    %big = "test.op"(%in) {helia.name = "big"} : (tensor<64xi8>) -> tensor<256xi8>
    %mid = "test.op"(%in) {helia.name = "mid"} : (tensor<64xi8>) -> tensor<128xi8>
    %out = "test.op"(%big, %mid) : (tensor<256xi8>, tensor<128xi8>) -> tensor<64xi8>
    return %out : tensor<64xi8>
  }
}

// -----

// The fix names a memory of the platform with room (here sram, which the
// platform does not prefer for scratch).

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 256, init = true>,
                #helia.memory_desc<name = "sram", size = 1024>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%in: tensor<64xi8>) -> tensor<64xi8> {
    // expected-error @+2 {{memory 'dtcm' over capacity: it holds 256 bytes but needs 448, short by 192 bytes}}
    // expected-note @+1 {{no preferred memory has room; place tensors with a rule in a memory with room (e.g. memory = "sram", 1024 bytes free); or raise its memory-limit}}
    %big = "test.op"(%in) {helia.name = "big"} : (tensor<64xi8>) -> tensor<256xi8>
    %mid = "test.op"(%in) {helia.name = "mid"} : (tensor<64xi8>) -> tensor<128xi8>
    %out = "test.op"(%big, %mid) : (tensor<256xi8>, tensor<128xi8>) -> tensor<64xi8>
    return %out : tensor<64xi8>
  }
}

// -----

// A rule that pins tensors to a memory is honoured, and so is its overflow.
module attributes {helia.rules = [#helia.rule<type = scratch, attributes = <memory = "dtcm">>]} {
  func.func @f(%in: tensor<1024xf32>) -> tensor<128x1024xf32> {
    // expected-error @+1 {{memory 'dtcm' over capacity: it holds 507904 bytes but needs 528384, short by 20480 bytes; live at the peak step: 'act' (524288 bytes) '#0' (4096 bytes)}}
    %a = "test.op"(%in) {helia.name = "act"} : (tensor<1024xf32>) -> tensor<128x1024xf32>
    return %a : tensor<128x1024xf32>
  }
}

// -----

// memory-limit lowers a memory's capacity, like heliaAOT's memory
// constraints; constants that do not fit their memory are reported by arena.
// The error points at the largest of them.
module {
  func.func @f() -> tensor<4194305xi8> {
    // expected-error @+2 {{memory 'mram' over capacity: it holds 4128768 bytes but its arenas need 4194320, short by 65552 bytes: constant_mram (4194320 bytes); the tensors there, largest first: '#0' (4194320 bytes, constant read in place)}}
    // expected-note @+1 {{free 65552 bytes of 'mram'; keep some constants' bytes in another memory that holds initialised data (a rule's memory = ...); or raise its memory-limit}}
    %w = arith.constant dense<0> : tensor<4194305xi8>
    return %w : tensor<4194305xi8>
  }
}

// -----

module {
  func.func @even(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = func.call @odd(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @odd(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{helia cannot plan recursive calls: 'even' is already running when this call is made}}
    %y = func.call @even(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = func.call @self(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %z = func.call @self(%y) : (tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
  func.func @self(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{helia cannot plan recursive calls: 'self' is already running when this call is made}}
    %y = func.call @self(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// Pinned constants that overflow their destination: the error points at the
// largest, names them all with their bytes, and the note says how to free
// the shortfall (it pointed at the module and named only the arena).
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 256, init = true>,
    #helia.memory_desc<name = "sram", size = 4096, init = true>,
    #helia.memory_desc<name = "mram", size = 4096, init = true, nonvolatile = true, writable = false>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [#helia.rule<type = constant, id = ["w*"], attributes = <constant_destination_memory = "dtcm">>]} {
  func.func @f(%x: tensor<32xf32>) -> tensor<32xf32> {
    %w1 = arith.constant {helia.name = "w1"} dense<1.0> : tensor<16xf32>
    // expected-error @+2 {{memory 'dtcm' over capacity: it holds 256 bytes but its arenas need 320, short by 64 bytes: constant_dtcm_from_mram (320 bytes); the tensors there, largest first: 'w2' (128 bytes, pinned from 'mram') 'w3' (128 bytes, pinned from 'mram') 'w1' (64 bytes, pinned from 'mram')}}
    // expected-note @+1 {{free 64 bytes of 'dtcm'; pin fewer constants there (drop constant_destination_memory from their rule, or stream them with residency = stream); or raise its memory-limit}}
    %w2 = arith.constant {helia.name = "w2"} dense<2.0> : tensor<32xf32>
    %w3 = arith.constant {helia.name = "w3"} dense<3.0> : tensor<32xf32>
    %b = arith.constant {helia.name = "b"} dense<4.0> : tensor<32xf32>
    %y = "test.op"(%x, %w1, %w2, %w3, %b) : (tensor<32xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    return %y : tensor<32xf32>
  }
}

// -----

// Persistent tensors a rule put in a memory too small for them.
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 64, init = true>,
    #helia.memory_desc<name = "sram", size = 4096, init = true>,
    #helia.memory_desc<name = "mram", size = 4096, init = true, nonvolatile = true, writable = false>],
    preferred = ["dtcm", "sram"], alignment = 16>,
  helia.rules = [#helia.rule<type = persistent, attributes = <memory = "dtcm">>]} {
  func.func @f(%x: tensor<32xf32>) -> tensor<32xf32> {
    // expected-error @+2 {{memory 'dtcm' over capacity: it holds 64 bytes but its arenas need 128, short by 64 bytes: persistent_dtcm (128 bytes); the tensors there, largest first: 'state' (128 bytes, persistent)}}
    // expected-note @+1 {{free 64 bytes of 'dtcm'; place persistent tensors with a rule in a memory with room (e.g. memory = "sram", 4096 bytes free); or raise its memory-limit}}
    %s = "test.op"() {helia.persistent, helia.name = "state"} : () -> tensor<32xf32>
    %y = "test.op"(%x, %s) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    return %y : tensor<32xf32>
  }
}

// -----

// Storage the plan cannot hold: the result of a call inside an scf.if
// branch is the callee's buffer. (helia-memory-pipeline copies it into a
// buffer of the caller's first: test/Transforms/insert-tensor-copies.)

func.func private @callee(tensor<4xf32> {bufferization.access = "read"}) -> tensor<4xf32>
func.func @call_in_branch(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-note @below {{in this op of 'call_in_branch'}}
  %r = scf.if %c -> tensor<4xf32> {
    // expected-error @below {{the results of this call inside 'scf.if' are the callee's buffers, which the caller cannot keep; helia plans the buffers of the tensors at the top level of a function body, so call it before the 'scf.if' (or inline the callee)}}
    %n = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
