// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// Arena names derive from memory names, so two arenas may want the same
// symbol, or an arena a symbol the module already has. The symbol table
// renames the later one (in arena key order) with a suffix, and the bindings
// name the arena they mean.

// A memory named "dtcm_from_mram" and dtcm staged from mram both want
// @constant_dtcm_from_mram.
// CHECK-LABEL: module
// CHECK: helia.arena @constant_dtcm_from_mram {{{.*}}memory = "dtcm", role = #helia.role<constant>, size = 32 : i64, source_memory = "mram"}
// CHECK: helia.arena @constant_dtcm_from_mram_0 {{{.*}}memory = "dtcm_from_mram", role = #helia.role<constant>, size = 16 : i64}
// CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_dtcm_from_mram_0, role = constant, memory = "dtcm_from_mram", source_memory = "dtcm_from_mram", offset = 0>]
// CHECK: arith.constant {helia.binding = [#helia.binding<arena = @constant_dtcm_from_mram, role = constant, memory = "dtcm", source_memory = "mram", offset = 0>]
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 4096>,
    #helia.memory_desc<name = "mram", size = 4096, init = true, nonvolatile = true, writable = false>,
    #helia.memory_desc<name = "dtcm_from_mram", size = 4096, init = true, nonvolatile = true, writable = false>],
    preferred = ["dtcm"], alignment = 16>,
  helia.rules = [#helia.rule<type = constant, id = ["a"], attributes = <memory = "dtcm_from_mram">>,
                 #helia.rule<type = constant, id = ["b"], attributes = <memory = "mram", constant_destination_memory = "dtcm">>]} {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = arith.constant dense<1.0> : tensor<4xf32> loc("a")
    %b = arith.constant dense<2.0> : tensor<8xf32> loc("b")
    %s = "test.op"(%x, %a, %b) : (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
}

// -----

// A function already named like the scratch arena keeps its name.
// CHECK-LABEL: module
// CHECK: helia.arena @scratch_dtcm_0 {
// CHECK: func.func @scratch_dtcm(%{{.*}}: tensor<4xf32> {helia.binding = #helia.binding<arena = @scratch_dtcm_0,
module {
  func.func @scratch_dtcm(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = "test.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
