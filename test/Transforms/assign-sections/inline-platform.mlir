// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower-copies=true memory-limit=dtcm=16})" | FileCheck %s --check-prefix=RECORD
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{plan-ld=%t.ld memory-limit=dtcm=16})" | FileCheck %s
// RUN: FileCheck %s --check-prefix=LD --input-file=%t.ld

// A platform written in the module (not a preset) travels through the
// conversion to LLVM as its printed form (in the builtin form of the
// firmware record), and its memories' bases, reserved
// bytes and sections reach the fragment: SRAM arenas go into Ambiq's
// .shared. With 16 bytes of DTCM, the planner spills x and y to SRAM.

// RECORD: helia.firmware = {entries = [@f], globals = [{global = @scratch_dtcm, memory = "dtcm"}, {global = @scratch_sram, memory = "sram"}], interfaces = [{name = @f, type = (memref<4xf32>) -> memref<4xf32>}], platform = "#helia.platform<name = \22board\22, memories = [#helia.memory_desc<name = \22dtcm\22, size = 65536, init = true, base = 536870912, reserved = 8192>, #helia.memory_desc<name = \22sram\22, size = 262144, init = true, base = 268435456, section = \22.shared\22>], preferred = [\22dtcm\22, \22sram\22], alignment = 16>", prefix = "f", slots = [{arena = @scratch_dtcm, arg = 0 : i64, entry = @f, offset = 0 : i64}]}

// CHECK: llvm.mlir.global external @f_arena_dtcm_scratch_dtcm() {{{.*}}section = ".bss.helia.dtcm.scratch_dtcm"}
// CHECK: llvm.mlir.global external @f_arena_sram_scratch_sram() {{{.*}}section = ".shared"}

// LD:      DTCM         (rw) : ORIGIN = 0x20000000, LENGTH = 0x0000e000
// LD-NEXT: SRAM         (rw) : ORIGIN = 0x10000000, LENGTH = 0x00040000
// LD:      .helia.dtcm.bss (NOLOAD) : ALIGN(16)
// LD:      .helia.sram : ALIGN(16)
// LD-NEXT: {
// LD-NEXT:   __helia_sram_start = .;
// LD-NEXT:   KEEP(*(.shared))
// LD-NEXT:   __helia_sram_end = .;
// LD-NEXT: } > SRAM

module attributes {helia.platform = #helia.platform<name = "board",
    memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true,
                                   base = 0x20000000, reserved = 8192>,
                #helia.memory_desc<name = "sram", size = 262144, init = true,
                                   base = 0x10000000, section = ".shared">],
    preferred = ["dtcm", "sram"], alignment = 16>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %z = linalg.mul ins(%y, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
}
