// RUN: helia-opt %s --helia-assign-sections="ld=%t.ld header=%t.h triple=thumbv8.1m.main-none-unknown-eabihf" | FileCheck %s
// RUN: FileCheck %s --check-prefix=LD --input-file=%t.ld
// RUN: FileCheck %s --check-prefix=H --input-file=%t.h
// RUN: helia-opt %s --helia-assign-sections | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: helia-opt %s --helia-assign-sections=model-api=false | FileCheck %s --check-prefix=NOAPI

// A module as the conversion to LLVM leaves it, with the record
// helia-lower-copies wrote: the prefix, the platform (inline here: DTCM with
// 4 KiB reserved, SRAM whose arenas go to Ambiq's .shared, flash), the
// memory of every arena global and the planned entry point.
module attributes {helia.firmware = #helia.firmware<
    prefix = "net",
    entries = [@net],
    platform = #helia.platform<name = "tiny", memories = [#helia.memory_desc<name = "dtcm", size = 65536, init = true, base = 0x20000000, reserved = 4096>, #helia.memory_desc<name = "sram", size = 262144, init = true, base = 0x10000000, section = ".shared">, #helia.memory_desc<name = "flash", size = 1048576, writable = false, init = true, nonvolatile = true, base = 0x8000000>], preferred = ["dtcm"], alignment = 32>,
    globals = [#helia.firmware_global<global = @scratch_dtcm, memory = "dtcm">,
               #helia.firmware_global<global = @scratch_sram, memory = "sram">,
               #helia.firmware_global<global = @constant_dtcm_from_flash_source, memory = "flash">,
               #helia.firmware_global<global = @constant_dtcm_from_flash, memory = "dtcm">],
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>, f32) -> memref<2x2xf32>>],
    slots = [#helia.firmware_slot<entry = @net, arg = 0, arena = @scratch_dtcm, offset = 16>]>} {
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
  // The entry point as finalize-memref-to-llvm makes it: the expanded
  // descriptor of the memref, the scalar, a descriptor returned.
  llvm.func @net(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: f32) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> {
    %0 = llvm.mlir.addressof @scratch_dtcm : !llvm.ptr
    %1 = llvm.mlir.addressof @scratch_sram : !llvm.ptr
    %2 = llvm.mlir.constant(16 : i64) : i64
    // The caller's input into its slot: not a plan copy, stays a memcpy.
    "llvm.intr.memcpy"(%0, %arg1, %2) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memcpy"(%1, %0, %2) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %3 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %4 = llvm.insertvalue %1, %3[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    llvm.return %4 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
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
// The model API over @net: the plan hash in the object, twice (a fixed name
// and one a header of this plan refers to), then bind, init and run.
// CHECK: llvm.mlir.global external constant @net_plan_hash([[HASH:[0-9]+]] : i32)
// CHECK: llvm.mlir.global external constant @net_plan_{{[0-9a-f]+}}([[HASH]] : i32)
// CHECK: llvm.mlir.global internal @net_bound_arenas()
// CHECK-LABEL: llvm.func @net_bind_arena(%arg0: i32, %arg1: !llvm.ptr, %arg2: i32) -> i32
// Every region of this plan is a global of the image, not bindable (5); any
// other id is unknown (4).
// CHECK-COUNT-4: llvm.mlir.constant(5 : i32)
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK-LABEL: llvm.func @net_model_init_plan(%arg0: !llvm.ptr, %arg1: i32) -> i32
// CHECK: %[[EXPECTED:.*]] = llvm.mlir.constant([[HASH]] : i32)
// CHECK: llvm.icmp "ne" %arg1, %[[EXPECTED]]
// CHECK: llvm.call @net_hydrate_constants()
// The context points x at its slot: offset 16 of the DTCM scratch arena.
// CHECK: %[[A:.*]] = llvm.mlir.addressof @net_arena_dtcm_scratch_dtcm
// CHECK: %[[S:.*]] = llvm.getelementptr %[[A]][16]
// CHECK: %[[F:.*]] = llvm.getelementptr %arg0[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, ptr, f32, ptr)>
// CHECK: llvm.store %[[S]], %[[F]]
// CHECK-LABEL: llvm.func @net_model_run(%arg0: !llvm.ptr) -> i32
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[R:.*]] = llvm.call @net(%[[X]], %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %[[V]])
// CHECK: %[[P:.*]] = llvm.extractvalue %[[R]][1]
// CHECK: %[[O:.*]] = llvm.extractvalue %[[R]][2]
// CHECK: llvm.getelementptr %[[P]][%[[O]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32

// model-api=false: the arenas, the table and the hooks, no model API.
// NOAPI: llvm.func weak @net_copy
// NOAPI-NOT: @net_plan_hash
// NOAPI-NOT: @net_model_run

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
// The model API: the plan hash, the regions, the tensors' shapes, the
// context (a pointer per memref, a value per scalar) and the functions.
// H:      #define NET_PLAN_HASH 0x[[HEX:[0-9a-f]+]]u
// H:      #define NET_REGION_SIZES {64, 128, 8, 8}
// H-NEXT: #define NET_REGION_ALIGNS {32, 64, 32, 32}
// H-NEXT: #define NET_REGION_CALLERS {0, 0, 0, 0}
// H:      #define NET_INPUT_0_SIZE 4u
// H:      #define NET_INPUT_1_RANK 0
// H:      #define NET_OUTPUT_0_DIM_1 2
// H:      typedef struct {
// H-NEXT:   uint32_t plan_hash;
// H-NEXT:   uint32_t state;
// H-NEXT:   net_input_0_t *input_0;
// H-NEXT:   net_input_1_t input_1;
// H-NEXT:   net_output_0_t *output_0;
// H-NEXT: } net_model_context_t;
// H:      int32_t net_bind_arena(int32_t region, void *buffer, uint32_t bytes);
// H:      static inline int32_t net_model_init(net_model_context_t *ctx) {
// H-NEXT:   return net_model_init_plan(ctx, net_plan_[[HEX]]);
// H:      int32_t net_model_run(net_model_context_t *ctx);

// In LLVM IR: the sections, the weak linkage, nounwind.
// LLVM: @net_arena_dtcm_scratch_dtcm = global [64 x i8] undef, section ".bss.helia.dtcm.scratch_dtcm", align 32
// LLVM: @net_arena_flash_constant_dtcm_from_flash_source = externally_initialized constant [8 x i8] c"\00\00\80?\00\00\00@", section ".rodata.helia.flash.constant_dtcm_from_flash_source", align 32
// LLVM: define weak void @net_hydrate_constants() #[[ATTRS:[0-9]+]]
// LLVM: attributes #[[ATTRS]] = { nounwind }
