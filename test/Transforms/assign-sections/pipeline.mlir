// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{to-llvm=true triple=thumbv8.1m.main-none-unknown-eabihf})" | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{platform=apollo510_evb plan-ld=-})" -o /dev/null | FileCheck %s --check-prefix=LD
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{platform=apollo510_evb plan-ld=- plan-ld-memory=false})" -o /dev/null | FileCheck %s --check-prefix=NOMEM

// to-llvm=true goes from the planned module to the LLVM dialect: the copies
// lowered, the conversion, the arenas placed; triple= sets the target. The
// platform comes from the module (mps3_an547) unless platform= names one
// (the fragment's regions are then Apollo510's, named as in Ambiq's
// linker script).

// CHECK: module attributes {llvm.target_triple = "thumbv8.1m.main-none-unknown-eabihf"}
// CHECK-NOT: memref.
// CHECK: llvm.mlir.global external @f_arena_dtcm_scratch_dtcm() {{{.*}}section = ".bss.helia.dtcm.scratch_dtcm"}
// CHECK: llvm.mlir.global external constant @f_arena_qspi_constant_qspi({{.*}}externally_initialized, section = ".rodata.helia.qspi.constant_qspi"}
// CHECK: llvm.func @f(
// CHECK: llvm.func @_mlir_ciface_f(
// CHECK: llvm.mlir.global external constant @f_arena_buffers()

// LD:      MCU_TCM      (rw) : ORIGIN = 0x20000000, LENGTH = 0x0007c000
// LD:      MCU_MRAM     (rx) : ORIGIN = 0x00410000, LENGTH = 0x003f0000
// LD:      .helia.dtcm.bss (NOLOAD) : ALIGN(16)
// LD:      } > MCU_TCM
// LD:      .helia.mram.rodata : ALIGN(16)
// LD:      } > MCU_MRAM

// With plan-ld-memory=false the fragment has no MEMORY block: it goes into
// the vendor's script, whose regions the Apollo510 preset names.
// NOMEM-NOT: MEMORY{{$}}
// NOMEM:     SECTIONS
// NOMEM:     } > MCU_TCM
// NOMEM:     } > MCU_MRAM

module attributes {helia.platform = "mps3_an547"} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
