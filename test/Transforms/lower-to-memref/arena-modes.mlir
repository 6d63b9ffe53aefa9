// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=global | FileCheck %s --check-prefixes=COMMON,GLOBAL
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=alloc | FileCheck %s --check-prefixes=COMMON,ARGS,ALLOC
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=arg | FileCheck %s --check-prefixes=COMMON,ARGS,ARG
// RUN: helia-opt %s --helia-lower-to-memref="arena-mode=arg prefix=net" | FileCheck %s --check-prefix=PREFIX

// The three arena modes on one plan: a scratch arena, a staged constant
// arena (pinned weight) and a cold one (bias). Cold constants and the source
// blobs of staged arenas hold data in the image, so they are globals in
// every mode; the writable arenas are globals (global), or trailing function
// arguments in declaration order that the caller supplies (arg) or gets from
// <prefix>_alloc_arenas (alloc).

// COMMON-NOT: helia.arena
// GLOBAL: memref.global "private" @scratch_dtcm : memref<32xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// ARGS-NOT: memref.global "private" @scratch_dtcm
// COMMON: memref.global "private" constant @constant_dtcm_from_mram_source : memref<16xi8, #helia.memory<"mram">> = dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64]> {alignment = 16 : i64}
// GLOBAL: memref.global "private" @constant_dtcm_from_mram : memref<16xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
// ARGS-NOT: memref.global "private" @constant_dtcm_from_mram :
// COMMON: memref.global "private" constant @constant_mram : memref<16xi8, #helia.memory<"mram">> = dense<[0, 0, 0, 63, 0, 0, 0, 63, 0, 0, 0, 63, 0, 0, 0, 63]> {alignment = 16 : i64}

// GLOBAL-LABEL: func.func @model(%{{.*}}: memref<4xf32>) -> memref<4xf32, #helia.memory<"dtcm">>
// GLOBAL-DAG: %[[SCRATCH:.*]] = memref.get_global @scratch_dtcm
// GLOBAL-DAG: %[[PINNED:.*]] = memref.get_global @constant_dtcm_from_mram :
// ARGS-LABEL: func.func @model(%{{.*}}: memref<4xf32>,
// ARGS-SAME: %[[SCRATCH:[^:]*]]: memref<32xi8, #helia.memory<"dtcm">>,
// ARGS-SAME: %[[PINNED:[^:]*]]: memref<16xi8, #helia.memory<"dtcm">>)
// ARGS-SAME: -> memref<4xf32, #helia.memory<"dtcm">>
// COMMON-DAG: %[[COLD:.*]] = memref.get_global @constant_mram :
// COMMON-DAG: %[[C0:.*]] = arith.constant 0 : index
// COMMON-DAG: %[[C16:.*]] = arith.constant 16 : index
// COMMON: %[[X:.*]] = memref.view %[[SCRATCH]][%[[C0]]][]
// COMMON: %[[W:.*]] = memref.view %[[PINNED]][%[[C0]]][] : memref<16xi8, #helia.memory<"dtcm">> to memref<4xf32, #helia.memory<"dtcm">>
// COMMON: %[[B:.*]] = memref.view %[[COLD]][%[[C0]]][] : memref<16xi8, #helia.memory<"mram">> to memref<4xf32, #helia.memory<"mram">>
// COMMON: %[[Y:.*]] = memref.view %[[SCRATCH]][%[[C16]]][]
// COMMON: linalg.mul ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Y]] :
// COMMON: %[[Z:.*]] = memref.view %[[SCRATCH]][%[[C0]]][]
// COMMON: linalg.add ins(%[[Y]], %[[B]] : {{.*}}) outs(%[[Z]] :
// COMMON: return %[[Z]]

// GLOBAL-LABEL: func.func @model_hydrate_constants() {
// ARGS-LABEL: func.func @model_hydrate_constants(
// ARGS-SAME: %{{[^:]*}}: memref<32xi8, #helia.memory<"dtcm">>, %[[RUNTIME:[^:]*]]: memref<16xi8, #helia.memory<"dtcm">>) {
// COMMON: %[[SRC:.*]] = memref.get_global @constant_dtcm_from_mram_source
// GLOBAL: %[[RUNTIME:.*]] = memref.get_global @constant_dtcm_from_mram :
// COMMON: helia.hydrate %[[SRC]], %[[RUNTIME]] : memref<16xi8, #helia.memory<"mram">>, memref<16xi8, #helia.memory<"dtcm">>

// GLOBAL-NOT: memref.alloc
// ARG-NOT: memref.alloc
// ALLOC-LABEL: func.func @model_alloc_arenas() -> (memref<32xi8, #helia.memory<"dtcm">>, memref<16xi8, #helia.memory<"dtcm">>) {
// ALLOC: %[[A0:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32xi8, #helia.memory<"dtcm">>
// ALLOC: %[[A1:.*]] = memref.alloc() {alignment = 16 : i64} : memref<16xi8, #helia.memory<"dtcm">>
// ALLOC: return %[[A0]], %[[A1]]
// ALLOC-LABEL: func.func @model_free_arenas(
// ALLOC-COUNT-2: memref.dealloc

// PREFIX: func.func @net_hydrate_constants(
// PREFIX-NOT: @model_

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 16 align 16
  helia.arena @constant_mram constant in "mram" size 16 align 16
  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %w = arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %b = arith.constant {helia.binding = [#helia.binding<@constant_mram[0]>]} dense<0.5> : tensor<4xf32>
    // y at 16: x is still read by the mul.
    %e = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : tensor<4xf32>
    %y = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // z reuses x's slot at 0: x is dead after the mul.
    %e2 = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : tensor<4xf32>
    %z = linalg.add {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} ins(%y, %b : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
}
