// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -verify-diagnostics

// Over capacity: the memory, its capacity, the need, the shortfall and the
// tensors live at the peak step.

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 256, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%in: tensor<64xi8>) -> tensor<64xi8> {
    // expected-error @+2 {{memory 'dtcm' over capacity: it holds 256 bytes but needs 448, short by 192 bytes; live at the peak step: 'big' (256 bytes) 'mid' (128 bytes) '#0' (64 bytes)}}
    // expected-note @+1 {{no preferred memory has room; place tensors in another memory with a rule (e.g. memory = "psram") or raise its memory-limit}}
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
    // expected-error @+1 {{memory 'dtcm' over capacity: it holds 524288 bytes but needs 528384, short by 4096 bytes; live at the peak step: 'act' (524288 bytes) '#0' (4096 bytes)}}
    %a = "test.op"(%in) {helia.name = "act"} : (tensor<1024xf32>) -> tensor<128x1024xf32>
    return %a : tensor<128x1024xf32>
  }
}

// -----

// memory-limit lowers a memory's capacity, like heliaAOT's memory
// constraints; constants that do not fit their memory are reported by arena.
// expected-error @+1 {{memory 'mram' over capacity: it holds 4194304 bytes but its arenas need 4194320, short by 16 bytes: constant_mram (4194320 bytes)}}
module {
  func.func @f() -> tensor<4194305xi8> {
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
    // expected-error @+1 {{helia cannot plan recursive calls: 'even' is only reachable through a cycle of calls}}
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
