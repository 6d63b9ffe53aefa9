// RUN: helia-opt --allow-unregistered-dialect %s | helia-opt --allow-unregistered-dialect | FileCheck %s
// RUN: helia-opt --allow-unregistered-dialect %s --mlir-print-op-generic | helia-opt --allow-unregistered-dialect | FileCheck %s

// Every attribute and op of the dialect, printed and parsed back. The module
// uses a full platform description; preset.mlir uses the preset form.

// CHECK: module attributes
// CHECK-SAME: helia.platform = #helia.platform<name = "tiny", memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true>, #helia.memory_desc<name = "flash", size = 262144, writable = false, executable = true, init = true, nonvolatile = true, base = 134217728, reserved = 16384>, #helia.memory_desc<name = "ext", size = 1048576, base = 268435456, section = ".shared", region = "SHARED_SRAM">], preferred = ["dtcm"], alignment = 16>
// CHECK-SAME: helia.rules = [#helia.rule<type = constant, id = ["conv1*", "fc/w"], attributes = <memory = "flash", constant_destination_memory = "dtcm">>, #helia.rule<id = ["x"], attributes = <residency = stream>>, #helia.rule<type = any, attributes = <memory = "dtcm", residency = direct>>, #helia.rule<attributes = <>>]
module attributes {
  helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true>,
                #helia.memory_desc<name = "flash", size = 262144, writable = false,
                                   executable = true, init = true, nonvolatile = true,
                                   base = 0x8000000, reserved = 16384>,
                #helia.memory_desc<name = "ext", size = 1048576, readable = true, writable = true,
                                   base = 0x10000000, section = ".shared", region = "SHARED_SRAM">],
    preferred = ["dtcm"], alignment = 16>,
  helia.rules = [
    #helia.rule<type = constant, id = ["conv1*", "fc/w"],
                attributes = <memory = "flash", constant_destination_memory = "dtcm">>,
    #helia.rule<id = ["x"], attributes = <residency = stream>>,
    #helia.rule<type = any, attributes = <memory = "dtcm", residency = direct>>,
    #helia.rule<attributes = <>>
  ]
} {
  // CHECK: helia.arena @scratch_dtcm scratch in "dtcm" size 4096 align 16
  helia.arena @scratch_dtcm scratch in "dtcm" size 4096 align 16
  // CHECK: helia.arena @persistent_dtcm persistent in "dtcm" size 64 align 16
  helia.arena @persistent_dtcm persistent in "dtcm" size 64 align 16
  // CHECK: helia.arena @constant_dtcm_from_flash constant in "dtcm" from "flash" size 1024 align 16
  helia.arena @constant_dtcm_from_flash constant in "dtcm" from "flash" size 1024 align 16
  // CHECK: helia.arena @constant_flash constant in "flash" size 1024 align 16
  helia.arena @constant_flash constant in "flash" size 1024 align 16
  // CHECK: helia.arena @stream_dtcm scratch in "dtcm" stream size 256 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 256 align 16

  // CHECK-LABEL: func.func @copies
  // CHECK-SAME: memref<16xi8, #helia.memory<"flash">>
  func.func @copies(%src: memref<16xi8, #helia.memory<"flash">>,
                    %dst: memref<4xf32, #helia.memory<"dtcm">>) {
    // CHECK: helia.hydrate %{{.*}}, %{{.*}} : memref<16xi8, #helia.memory<"flash">>, memref<4xf32, #helia.memory<"dtcm">>
    helia.hydrate %src, %dst : memref<16xi8, #helia.memory<"flash">>, memref<4xf32, #helia.memory<"dtcm">>
    // CHECK: helia.stream %{{.*}}, %{{.*}} : memref<16xi8, #helia.memory<"flash">>, memref<4xf32, #helia.memory<"dtcm">>
    helia.stream %src, %dst : memref<16xi8, #helia.memory<"flash">>, memref<4xf32, #helia.memory<"dtcm">>
    return
  }

  // CHECK-LABEL: func.func @tensors
  // CHECK-SAME: helia.attributes = #helia.attributes<memory = "ext">
  // CHECK-SAME: helia.binding = #helia.binding<@scratch_dtcm[16]>
  // CHECK-SAME: helia.name = "input"
  // CHECK-SAME: helia.placement = #helia.placement<id = 0, name = "input", kind = scratch, memory = "dtcm">
  func.func @tensors(%x: tensor<4xf32> {helia.attributes = #helia.attributes<memory = "ext">,
                                        helia.binding = #helia.binding<@scratch_dtcm[16]>,
                                        helia.name = "input",
                                        helia.placement = #helia.placement<id = 0, name = "input", kind = scratch, memory = "dtcm">},
                     %s: tensor<4xf32> {helia.persistent}) -> tensor<4xf32> {
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_flash[32]>], helia.placement = [#helia.placement<id = 2, name = "w", kind = constant, memory = "flash", constant_destination_memory = "dtcm", residency = pin>]}
    %w = arith.constant {helia.placement = [#helia.placement<id = 2, name = "w", kind = constant, memory = "flash", constant_destination_memory = "dtcm", residency = pin>],
                         helia.binding = [#helia.binding<@constant_dtcm_from_flash[32]>]} dense<1.0> : tensor<4xf32>
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_flash[0], stream = @stream_dtcm[32]>], helia.constant, helia.name = "v"}
    %v = arith.constant {helia.constant, helia.name = "v",
                         helia.binding = [#helia.binding<@constant_flash[0], stream = @stream_dtcm[32]>]} dense<2.0> : tensor<4xf32>
    // CHECK: "test.two"() {helia.attributes = #helia.attributes<residency = stream>, helia.name = ["a", "b"], helia.placement = [#helia.placement<id = 4, kind = persistent>, unit]}
    %a, %b = "test.two"() {helia.name = ["a", "b"], helia.attributes = #helia.attributes<residency = stream>,
                           helia.placement = [#helia.placement<id = 4, kind = persistent>, unit]} : () -> (tensor<4xf32>, i32)
    return %w : tensor<4xf32>
  }
}
