// The passes of helia-lower-to-memref one at a time, on the input of
// arena-modes.mlir: each does its one job, and run in order they give
// exactly what the pipeline gives.

// RUN: helia-opt %S/arena-modes.mlir --helia-verify-lowerable=arena-mode=arg --helia-arena-calling-convention=arena-mode=arg | FileCheck %s --check-prefix=CONV
// RUN: helia-opt %S/arena-modes.mlir --helia-arena-calling-convention=arena-mode=arg --helia-materialize-slots=arena-mode=arg | FileCheck %s --check-prefix=SLOTS
// RUN: helia-opt %S/arena-modes.mlir --helia-verify-lowerable=arena-mode=alloc --helia-arena-calling-convention=arena-mode=alloc --helia-materialize-slots=arena-mode=alloc --helia-bufferize-in-place --helia-verify-no-allocations -o %t.passes.mlir
// RUN: helia-opt %S/arena-modes.mlir --helia-lower-to-memref=arena-mode=alloc -o %t.pipeline.mlir
// RUN: diff %t.passes.mlir %t.pipeline.mlir

// The calling convention: the module's API in #helia.firmware (with the
// arenas the caller supplies and the slot of each argument, for the model
// API), the writable arenas (scratch, staged constant; not the cold one) as
// trailing arguments of the model and of the hydrate stub; the plan itself
// is untouched.
// CONV: module attributes  {helia.firmware = #helia.firmware<prefix = "model", entries = [@model], slots = [#helia.firmware_slot<entry = @model, arg = 0, arena = @scratch_dtcm, offset = 0>], caller_arenas = [#helia.firmware_arena<name = @scratch_dtcm, memory = "dtcm", size = 32, alignment = 16>, #helia.firmware_arena<name = @constant_dtcm_from_mram, memory = "dtcm", size = 16, alignment = 16>]>}
// CONV-COUNT-3: helia.arena @
// CONV: func.func @model(%{{.*}}: tensor<4xf32> {helia.binding = {{.*}}}, %{{.*}}: memref<32xi8, #helia.memory<"dtcm">>, %{{.*}}: memref<16xi8, #helia.memory<"dtcm">>) -> tensor<4xf32>
// CONV: linalg.mul {helia.binding
// CONV: func.func @model_hydrate_constants(%{{.*}}: memref<32xi8, #helia.memory<"dtcm">>, %{{.*}}: memref<16xi8, #helia.memory<"dtcm">>) {
// CONV-NEXT: return
// CONV-NEXT: }

// Slots, still on tensors: globals for the blobs only (arg mode), views of
// the arena arguments wrapped in to_tensor, and no plan attribute left.
// SLOTS-NOT: helia.arena
// SLOTS-NOT: helia.binding
// SLOTS: memref.global "private" constant @constant_dtcm_from_mram_source
// SLOTS: memref.global "private" constant @constant_mram
// SLOTS-LABEL: func.func @model(
// SLOTS-SAME: %[[SCRATCH:[^:]*]]: memref<32xi8, #helia.memory<"dtcm">>, %[[PINNED:[^:]*]]: memref<16xi8, #helia.memory<"dtcm">>)
// SLOTS: memref.view %[[SCRATCH]]
// SLOTS: bufferization.to_tensor
// SLOTS: linalg.mul {{.*}} -> tensor<4xf32>
// SLOTS-LABEL: func.func @model_hydrate_constants(
// SLOTS: memref.get_global @constant_dtcm_from_mram_source
// SLOTS: helia.hydrate
