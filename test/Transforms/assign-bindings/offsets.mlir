// RUN: helia-opt %s -allow-unregistered-dialect -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// Scratch tensors share the scratch arena by lifetime. Steps: arguments at
// 0, the i-th op at i + 1, returned values to the last step; lifetimes are
// closed, so an op's operands and results never share bytes. Sizes round up
// to the platform's 16-byte alignment.

module attributes {helia.platform = #helia.platform<name = "tiny",
    memories = [#helia.memory_desc<name = "dtcm", size = 1024, init = true>,
                #helia.memory_desc<name = "sram", size = 4096, init = true>,
                #helia.memory_desc<name = "flash", size = 8192, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>} {
  // The peak is at steps 1 and 2 (64 + 128 and 128 + 64 bytes): the arena
  // is exactly that lower bound.
  // CHECK: helia.arena @scratch_dtcm scratch in "dtcm" size 192 align 16

  // CHECK-LABEL: func.func @chain
  // %in [0, 1]: beside %a.
  // CHECK-SAME: #helia.binding<@scratch_dtcm[128]>
  func.func @chain(%in: tensor<64xi8>) -> tensor<32xi8> {
    // %a [1, 2]: the largest, at the bottom.
    // CHECK: "test.op"{{.*}}[0]>
    %a = "test.op"(%in) : (tensor<64xi8>) -> tensor<128xi8>
    // %b [2, 3]: above %a, reusing %in's bytes (dead after step 1).
    // CHECK: "test.op"{{.*}}[128]>
    %b = "test.op"(%a) : (tensor<128xi8>) -> tensor<64xi8>
    // %c [3, 4]: 30 bytes take 32; below %b, in %a's old bytes.
    // CHECK: "test.op"{{.*}}[32]>
    %c = "test.op"(%b) : (tensor<64xi8>) -> tensor<30xi8>
    // %d [4, 5]: returned, so live to the end; beside %c.
    // CHECK: "test.op"{{.*}}[0]>
    %d = "test.op"(%c) : (tensor<30xi8>) -> tensor<32xi8>
    return %d : tensor<32xi8>
  }
}
