// RUN: helia-opt %s -split-input-file -helia-resolve-residency -helia-assign-bindings="stream-pool=mram" -verify-diagnostics

// The stream pool is written before each reader and read by it: stream-pool
// must name a readable, writable memory, and the error lists only those
// (it listed the read-only mram among the choices).

// expected-error @+1 {{stream-pool 'mram' is read-only on platform 'apollo510_evb'; the pool must be a readable, writable memory: itcm, dtcm, sram, psram}}
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<1.0> : tensor<4xf32>
    %y = arith.addf %x, %w : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{stream-pool 'mram' is not a memory of platform 'p'; the pool must be a readable, writable memory: dtcm}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 4096, init = true>,
    #helia.memory_desc<name = "flash", size = 4096, init = true, nonvolatile = true, writable = false>],
    preferred = ["dtcm"], alignment = 16>,
  helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<1.0> : tensor<4xf32>
    %y = arith.addf %x, %w : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{stream-pool 'mram' is not readable on platform 'p'; the pool must be a readable, writable memory: dtcm}}
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 4096, init = true>,
    #helia.memory_desc<name = "mram", size = 4096, init = true, readable = false>,
    #helia.memory_desc<name = "flash", size = 4096, init = true, nonvolatile = true, writable = false>],
    preferred = ["dtcm"], alignment = 16>,
  helia.rules = [#helia.rule<type = constant, attributes = <memory = "flash", residency = stream>>]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<1.0> : tensor<4xf32>
    %y = arith.addf %x, %w : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
