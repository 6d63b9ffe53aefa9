// RUN: helia-opt %s --helia-lower-to-memref | FileCheck %s
// RUN: helia-opt %s --helia-lower-to-memref | helia-opt | FileCheck %s

// arena-mode=global (the default): every arena is a memref.global of bytes
// in its memory space; every tensor a memref.view into it; the compute ops
// write in place into the views. The input is what helia-assign-bindings
// writes for a matmul with a pinned weight (staged arena), a streamed weight,
// a cold bias and a persistent argument.

// CHECK-NOT: helia.arena
// CHECK: memref.global "private" @scratch_dtcm : memref<64xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// CHECK: memref.global "private" @stream_dtcm : memref<32xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// CHECK: memref.global "private" @persistent_dtcm : memref<32xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// The staged arena: a read-only blob in MRAM and its runtime copy in DTCM.
// 1.0f is 0x3F800000: bytes 0, 0, 128, 63 (little-endian, printed signed).
// CHECK: memref.global "private" constant @constant_dtcm_from_mram_source : memref<64xi8, #helia.memory<"mram">> = dense<[0, 0, -128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, {{.*}}, 0, 0, -128, 64]> {alignment = 16 : i64}
// CHECK: memref.global "private" @constant_dtcm_from_mram : memref<64xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// The cold arena holds the streamed weight at 0 (0.5f, 1.5f) and the bias
// at 32 (10.0f = 0x41200000).
// CHECK: memref.global "private" constant @constant_mram : memref<64xi8, #helia.memory<"mram">> = dense<[0, 0, 0, 63, {{.*}}, 0, 0, -64, 63, 0, 0, 32, 65, {{.*}}]> {alignment = 16 : i64}

// CHECK-LABEL: func.func @model(
// CHECK-SAME: %[[X:.*]]: memref<2x4xf32>, %[[S:.*]]: memref<2x4xf32> {helia.persistent})
// CHECK-SAME: -> (memref<2x4xf32, #helia.memory<"dtcm">>, memref<8xf32, #helia.memory<"dtcm">>)
// CHECK-DAG: %[[SCRATCH:.*]] = memref.get_global @scratch_dtcm
// CHECK-DAG: %[[POOL:.*]] = memref.get_global @stream_dtcm
// CHECK-DAG: %[[PERSIST:.*]] = memref.get_global @persistent_dtcm
// CHECK-DAG: %[[PINNED:.*]] = memref.get_global @constant_dtcm_from_mram :
// CHECK-DAG: %[[COLD:.*]] = memref.get_global @constant_mram
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// Arguments are copied into their slots on entry.
// CHECK: %[[XV:.*]] = memref.view %[[SCRATCH]][%[[C0]]][] : memref<64xi8, #helia.memory<"dtcm">> to memref<2x4xf32, #helia.memory<"dtcm">>
// CHECK: memref.copy %[[X]], %[[XV]]
// CHECK: %[[SV:.*]] = memref.view %[[PERSIST]][%[[C0]]][]
// CHECK: memref.copy %[[S]], %[[SV]]
// The pinned weight is read from its runtime copy, the bias in place.
// CHECK: %[[W:.*]] = memref.view %[[PINNED]][%[[C0]]][] : memref<64xi8, #helia.memory<"dtcm">> to memref<4x4xf32, #helia.memory<"dtcm">>
// CHECK: %[[B:.*]] = memref.view %[[COLD]][%[[C32]]][] : memref<64xi8, #helia.memory<"mram">> to memref<2x4xf32, #helia.memory<"mram">>
// tensor.empty -> linalg.fill -> linalg.matmul is one buffer at offset 32.
// CHECK: %[[M:.*]] = memref.view %[[SCRATCH]][%[[C32]]][]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[M]] :
// CHECK: linalg.matmul ins(%[[XV]], %[[W]] : {{.*}}) outs(%[[M]] :
// The streamed weight is copied into its pool slot right before its reader.
// CHECK: %[[VSRC:.*]] = memref.view %[[COLD]][%[[C0]]][] : memref<64xi8, #helia.memory<"mram">> to memref<2x4xf32, #helia.memory<"mram">>
// CHECK: %[[VDST:.*]] = memref.view %[[POOL]][%[[C0]]][] : memref<32xi8, #helia.memory<"dtcm">> to memref<2x4xf32, #helia.memory<"dtcm">>
// CHECK: helia.stream %[[VSRC]], %[[VDST]]
// CHECK: %[[A:.*]] = memref.view %[[SCRATCH]][%[[C0]]][]
// CHECK: linalg.add ins(%[[M]], %[[VDST]] : {{.*}}) outs(%[[A]] :
// CHECK: %[[N:.*]] = memref.view %[[SCRATCH]][%[[C32]]][]
// CHECK: linalg.add ins(%[[A]], %[[SV]] : {{.*}}) outs(%[[N]] :
// CHECK: %[[O:.*]] = memref.view %[[SCRATCH]][%[[C0]]][]
// CHECK: linalg.add ins(%[[N]], %[[B]] : {{.*}}) outs(%[[O]] :
// Reshapes stay views of their source; results are returned in place.
// CHECK: %[[C:.*]] = memref.collapse_shape %[[O]] {{\[\[}}0, 1]]
// CHECK: return %[[N]], %[[C]]
// CHECK-NOT: memref.alloc

// One bulk copy per staged arena, before the first run.
// CHECK-LABEL: func.func @model_hydrate_constants()
// CHECK: %[[SRC:.*]] = memref.get_global @constant_dtcm_from_mram_source : memref<64xi8, #helia.memory<"mram">>
// CHECK: %[[DST:.*]] = memref.get_global @constant_dtcm_from_mram : memref<64xi8, #helia.memory<"dtcm">>
// CHECK: helia.hydrate %[[SRC]], %[[DST]] : memref<64xi8, #helia.memory<"mram">>, memref<64xi8, #helia.memory<"dtcm">>
// CHECK: return

module attributes {helia.platform = "apollo510_evb"} {
  helia.arena @scratch_dtcm scratch in "dtcm" size 64 align 16
  helia.arena @stream_dtcm scratch in "dtcm" stream size 32 align 16
  helia.arena @persistent_dtcm persistent in "dtcm" size 32 align 16
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 64 align 16
  helia.arena @constant_mram constant in "mram" size 64 align 16
  func.func @model(
      // offset 0 of scratch
      %x: tensor<2x4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>},
      // offset 0 of persistent
      %s: tensor<2x4xf32> {helia.binding = #helia.binding<@persistent_dtcm[0]>, helia.persistent})
      -> (tensor<2x4xf32>, tensor<8xf32>) {
    // pinned: offset 0 of the staged arena
    %w = arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]} dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 4.0]]> : tensor<4x4xf32>
    // streamed: bytes at 0 of the cold arena, copied to 0 of the pool
    %v = arith.constant {helia.binding = [#helia.binding<@constant_mram[0], stream = @stream_dtcm[0]>]} dense<[[0.5, 0.5, 0.5, 0.5], [1.5, 1.5, 1.5, 1.5]]> : tensor<2x4xf32>
    // cold: offset 32 of the cold arena, read in place
    %b = arith.constant {helia.binding = [#helia.binding<@constant_mram[32]>]} dense<10.0> : tensor<2x4xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<2x4xf32>
    %f = linalg.fill {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    %e2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<2x4xf32>
    %a = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%m, %v : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %e3 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} : tensor<2x4xf32>
    %n = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[32]>]} ins(%a, %s : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %e4 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<2x4xf32>
    %o = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%n, %b : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e4 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %c = tensor.collapse_shape %o [[0, 1]] {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<2x4xf32> into tensor<8xf32>
    return %n, %c : tensor<2x4xf32>, tensor<8xf32>
  }
}
