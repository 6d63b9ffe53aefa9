// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// Arena names derive from memory names, so two arenas may want the same
// symbol, or an arena a symbol the module already has. The symbol table
// renames the later one (in arena key order) with a suffix, and the bindings
// name the arena they mean.

// A memory named "dtcm_from_mram" and dtcm staged from mram both want
// @constant_dtcm_from_mram.
// CHECK-LABEL: module
// CHECK: helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 32 align
// CHECK: helia.arena @constant_dtcm_from_mram_0 constant in "dtcm_from_mram" size 16 align
// CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram_0[0]>]
// CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]
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
// CHECK: helia.arena @scratch_dtcm_0 scratch
// CHECK: func.func @scratch_dtcm(%{{.*}}: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm_0[
module {
  func.func @scratch_dtcm(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = "test.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
