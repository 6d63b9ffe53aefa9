// RUN: helia-opt %s --helia-assign-sections="ld=%t.ld header=%t.h triple=thumbv8.1m.main-none-unknown-eabihf" | FileCheck %s
// RUN: FileCheck %s --check-prefix=LD --input-file=%t.ld
// RUN: FileCheck %s --check-prefix=H --input-file=%t.h
// RUN: helia-opt %s --helia-assign-sections | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// A module as the conversion to LLVM leaves it, with the record
// helia-lower-copies wrote: the prefix, the platform (inline here: DTCM with
// 4 KiB reserved, SRAM whose arenas go to Ambiq's .shared, flash), the
// memory of every arena global and the planned entry point.
module attributes {helia.firmware = {
    prefix = "net",
    platform = "#helia.platform<name = \"tiny\", memories = [#helia.memory_desc<name = \"dtcm\", size = 65536, init = true, base = 0x20000000, reserved = 4096>, #helia.memory_desc<name = \"sram\", size = 262144, init = true, base = 0x10000000, section = \".shared\">, #helia.memory_desc<name = \"flash\", size = 1048576, writable = false, init = true, nonvolatile = true, base = 0x8000000>], preferred = [\"dtcm\"], alignment = 32>",
    arenas = [{global = "scratch_dtcm", memory = "dtcm"},
              {global = "scratch_sram", memory = "sram"},
              {global = "constant_dtcm_from_flash_source", memory = "flash"},
              {global = "constant_dtcm_from_flash", memory = "dtcm"}],
    entries = [{name = "net", type = (memref<4xf32>, f32) -> memref<2x2xf32>}]}} {
  llvm.mlir.global private @scratch_dtcm() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<64 x i8> {
    %0 = llvm.mlir.undef : !llvm.array<64 x i8>
    llvm.return %0 : !llvm.array<64 x i8>
  }
  llvm.mlir.global private @scratch_sram() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<128 x i8> {
    %0 = llvm.mlir.undef : !llvm.array<128 x i8>
    llvm.return %0 : !llvm.array<128 x i8>
  }
  llvm.mlir.global private constant @constant_dtcm_from_flash_source(dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global private @constant_dtcm_from_flash() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<8 x i8> {
    %0 = llvm.mlir.undef : !llvm.array<8 x i8>
    llvm.return %0 : !llvm.array<8 x i8>
  }
  // Not an arena: left alone.
  llvm.mlir.global private constant @__constant_4xf32(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>

  llvm.func @net_hydrate_constants() {
    %0 = llvm.mlir.addressof @constant_dtcm_from_flash_source : !llvm.ptr
    %1 = llvm.mlir.addressof @constant_dtcm_from_flash : !llvm.ptr
    %2 = llvm.mlir.constant(8 : i64) : i64
    "llvm.intr.memcpy"(%1, %0, %2) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> () loc("helia.copy"("model.mlir":3:4))
    llvm.return
  }
  llvm.func @net(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
    %0 = llvm.mlir.addressof @scratch_dtcm : !llvm.ptr
    %1 = llvm.mlir.addressof @scratch_sram : !llvm.ptr
    %2 = llvm.mlir.constant(16 : i64) : i64
    // The caller's input into its slot: not a plan copy, stays a memcpy.
    "llvm.intr.memcpy"(%0, %arg0, %2) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memcpy"(%1, %0, %2) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    llvm.return
  }
}

// CHECK: module attributes {llvm.target_triple = "thumbv8.1m.main-none-unknown-eabihf"} {
// CHECK-NOT: helia.firmware
// Public, prefixed names; the memory's section (each arena its own, or the
// platform's .shared for SRAM); at least the platform's alignment; constant
// arenas externally initialised.
// CHECK: llvm.mlir.global external @net_arena_dtcm_scratch_dtcm() {addr_space = 0 : i32, alignment = 32 : i64, section = ".bss.helia.dtcm.scratch_dtcm"} : !llvm.array<64 x i8>
// CHECK: llvm.mlir.global external @net_arena_sram_scratch_sram() {addr_space = 0 : i32, alignment = 64 : i64, section = ".shared"} : !llvm.array<128 x i8>
// CHECK: llvm.mlir.global external constant @net_arena_flash_constant_dtcm_from_flash_source(dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>) {addr_space = 0 : i32, alignment = 32 : i64, externally_initialized, section = ".rodata.helia.flash.constant_dtcm_from_flash_source"} : !llvm.array<8 x i8>
// CHECK: llvm.mlir.global external @net_arena_dtcm_constant_dtcm_from_flash() {addr_space = 0 : i32, alignment = 32 : i64, section = ".bss.helia.dtcm.constant_dtcm_from_flash"} : !llvm.array<8 x i8>
// CHECK: llvm.mlir.global private constant @__constant_4xf32(dense<1.000000e+00> : tensor<4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>
// The hydrate function is weak, its copy a call of the weak hook.
// CHECK-LABEL: llvm.func weak @net_hydrate_constants() attributes {no_unwind}
// CHECK: %[[SRC:.*]] = llvm.mlir.addressof @net_arena_flash_constant_dtcm_from_flash_source
// CHECK: %[[DST:.*]] = llvm.mlir.addressof @net_arena_dtcm_constant_dtcm_from_flash
// CHECK: llvm.call @net_copy(%[[DST]], %[[SRC]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @net(
// CHECK-SAME: attributes {no_unwind}
// CHECK: llvm.mlir.addressof @net_arena_dtcm_scratch_dtcm
// CHECK: llvm.mlir.addressof @net_arena_sram_scratch_sram
// CHECK-COUNT-2: "llvm.intr.memcpy"
// CHECK-NOT: llvm.call @net_copy
// The arena table: address and size of every arena, by region id.
// CHECK-LABEL: llvm.mlir.global external constant @net_arena_buffers() {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<4 x struct<(ptr, i32)>>
// CHECK: llvm.mlir.addressof @net_arena_dtcm_scratch_dtcm
// CHECK: llvm.mlir.constant(64 : i32)
// CHECK: llvm.mlir.addressof @net_arena_sram_scratch_sram
// CHECK: llvm.mlir.constant(128 : i32)
// CHECK: llvm.mlir.addressof @net_arena_flash_constant_dtcm_from_flash_source
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK: llvm.mlir.addressof @net_arena_dtcm_constant_dtcm_from_flash
// CHECK-LABEL: llvm.func weak @net_copy(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64) attributes {no_unwind}
// CHECK-NEXT: "llvm.intr.memcpy"(%arg0, %arg1, %arg2) <{isVolatile = false}>

// The fragment: each memory's region (DTCM without its reserved 4 KiB), one
// NOLOAD section for writable arenas and one for constants, .shared as is.
// LD:      MEMORY
// LD-NEXT: {
// LD-NEXT:   DTCM         (rw) : ORIGIN = 0x20000000, LENGTH = 0x0000f000
// LD-NEXT:   SRAM         (rw) : ORIGIN = 0x10000000, LENGTH = 0x00040000
// LD-NEXT:   FLASH        (r) : ORIGIN = 0x08000000, LENGTH = 0x00100000
// LD-NEXT: }
// LD:      SECTIONS
// LD-NEXT: {
// LD-NEXT:   .helia.dtcm.bss (NOLOAD) : ALIGN(32)
// LD-NEXT:   {
// LD-NEXT:     __helia_dtcm_start = .;
// LD-NEXT:     __helia_dtcm_bss_start = .;
// LD-NEXT:     KEEP(*(.bss.helia.dtcm.scratch_dtcm))
// LD-NEXT:     KEEP(*(.bss.helia.dtcm.constant_dtcm_from_flash))
// LD-NEXT:     __helia_dtcm_bss_end = .;
// LD-NEXT:     __helia_dtcm_end = .;
// LD-NEXT:   } > DTCM
// LD-NEXT:   .helia.sram : ALIGN(64)
// LD-NEXT:   {
// LD-NEXT:     __helia_sram_start = .;
// LD-NEXT:     KEEP(*(.shared))
// LD-NEXT:     __helia_sram_end = .;
// LD-NEXT:   } > SRAM
// LD-NEXT:   .helia.flash.rodata : ALIGN(32)
// LD-NEXT:   {
// LD-NEXT:     __helia_flash_start = .;
// LD-NEXT:     KEEP(*(.rodata.helia.flash.constant_dtcm_from_flash_source))
// LD-NEXT:     __helia_flash_end = .;
// LD-NEXT:   } > FLASH
// LD-NEXT: }

// The header: region ids and sizes, the arenas, the table, the weak hooks,
// and the entry point through its C interface.
// H:      #define NET_ARENA_COUNT 4
// H-NEXT: #define NET_ARENA_DTCM_SCRATCH_DTCM 0
// H-NEXT: #define NET_ARENA_DTCM_SCRATCH_DTCM_SIZE 64u
// H-NEXT: #define NET_ARENA_SRAM_SCRATCH_SRAM 1
// H-NEXT: #define NET_ARENA_SRAM_SCRATCH_SRAM_SIZE 128u
// H-NEXT: #define NET_ARENA_FLASH_CONSTANT_DTCM_FROM_FLASH_SOURCE 2
// H-NEXT: #define NET_ARENA_FLASH_CONSTANT_DTCM_FROM_FLASH_SOURCE_SIZE 8u
// H-NEXT: #define NET_ARENA_DTCM_CONSTANT_DTCM_FROM_FLASH 3
// H-NEXT: #define NET_ARENA_DTCM_CONSTANT_DTCM_FROM_FLASH_SIZE 8u
// H:      extern uint8_t net_arena_dtcm_scratch_dtcm[64];
// H:      extern uint8_t net_arena_sram_scratch_sram[128];
// H:      extern const uint8_t net_arena_flash_constant_dtcm_from_flash_source[8];
// H:      extern uint8_t net_arena_dtcm_constant_dtcm_from_flash[8];
// H:      extern const net_arena_t net_arena_buffers[4];
// H:      void net_hydrate_constants(void);
// H:      void net_copy(void *dst, const void *src, int64_t bytes);
// The descriptors in the order the entry point uses them.
// H:      typedef struct {
// H-NEXT:   float *allocated;
// H-NEXT:   float *aligned;
// H-NEXT:   int64_t offset;
// H-NEXT:   int64_t sizes[2];
// H-NEXT:   int64_t strides[2];
// H-NEXT: } net_memref_2d_f32_t;
// H:      } net_memref_1d_f32_t;
// H:      void _mlir_ciface_net(net_memref_2d_f32_t *result, net_memref_1d_f32_t *arg0, float arg1);

// In LLVM IR: the sections, the weak linkage, nounwind.
// LLVM: @net_arena_dtcm_scratch_dtcm = global [64 x i8] undef, section ".bss.helia.dtcm.scratch_dtcm", align 32
// LLVM: @net_arena_flash_constant_dtcm_from_flash_source = externally_initialized constant [8 x i8] c"\00\00\80?\00\00\00@", section ".rodata.helia.flash.constant_dtcm_from_flash_source", align 32
// LLVM: define weak void @net_hydrate_constants() #[[ATTRS:[0-9]+]]
// LLVM: attributes #[[ATTRS]] = { nounwind }
