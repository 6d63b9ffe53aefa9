// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-memory-pipeline -verify-diagnostics

// Memories of size zero, and platforms where nothing fits: located errors
// that name the memory and the shortfall, or a plan in the memories that
// have room.

// expected-error @+2 {{memory 'm' has size 0; give it a positive size in bytes}}
// expected-error @+1 {{failed to parse Helia_PlatformAttr parameter 'memories'}}
module attributes {helia.platform = #helia.platform<name = "z", memories = [#helia.memory_desc<name = "m", size = 0>], preferred = ["m"], alignment = 16>} {
}


// -----

// Nothing fits: constants overflow the only memory that holds initialised
// data.
module attributes {helia.platform = #helia.platform<name = "tiny", memories = [#helia.memory_desc<name = "ram", size = 16>, #helia.memory_desc<name = "flash", size = 16, writable = false, init = true, nonvolatile = true>], preferred = ["ram"], alignment = 16>} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+2 {{memory 'flash' over capacity: it holds 16 bytes but its arenas need 32, short by 16 bytes: constant_flash (32 bytes); the tensors there, largest first: '#1' (32 bytes, constant read in place)}}
    // expected-note @+1 {{free 16 bytes of 'flash'}}
    %c = arith.constant dense<0.0> : tensor<8xf32>
    %e = "test.op"(%a, %c) : (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
    return %e : tensor<4xf32>
  }
}

// -----

// Nothing fits: two scratch tensors live together need 32 bytes of 16.
module attributes {helia.platform = #helia.platform<name = "tiny", memories = [#helia.memory_desc<name = "ram", size = 16>, #helia.memory_desc<name = "flash", size = 16, writable = false, init = true, nonvolatile = true>], preferred = ["ram"], alignment = 16>} {
  // expected-error @+2 {{memory 'ram' over capacity: it holds 16 bytes but needs 32, short by 16 bytes; live at the peak step: '#0' (16 bytes) '#1' (16 bytes)}}
  // expected-note @+1 {{no preferred memory has room}}
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    %e = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %e : tensor<4xf32>
  }
}

// -----

// Nothing fits: a persistent tensor larger than every preferred memory.
module attributes {helia.platform = #helia.platform<name = "tiny", memories = [#helia.memory_desc<name = "ram", size = 16>], preferred = ["ram"], alignment = 16>} {
  // expected-error @+1 {{no preferred memory of platform 'tiny' has room for persistent tensor '#0' (32 bytes); no other writable memory of platform 'tiny' has 32 bytes free for it}}
  func.func @f(%a: tensor<8xf32> {helia.persistent}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// No preferred memory at all: scratch tensors need a rule.
module attributes {helia.platform = #helia.platform<name = "none", memories = [#helia.memory_desc<name = "ram", size = 1024>], preferred = [], alignment = 16>} {
  // expected-error @+1 {{platform 'none' has no preferred memory for scratch tensor '#0'; give it a memory with a rule}}
  func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}
