// RUN: helia-opt %s --helia-lower-copies | FileCheck %s --check-prefixes=CHECK,COPY,ERASE --implicit-check-not=helia
// RUN: helia-opt %s --helia-lower-copies="mode=copy erase-memory-spaces=false" | FileCheck %s --check-prefixes=CHECK,COPY,KEEP
// RUN: helia-opt %s --helia-lower-copies=mode=dma | FileCheck %s --check-prefixes=CHECK,DMA,ERASE --implicit-check-not=helia.

// The copies of a lowered plan: one hydrate per staged arena and one stream
// per streamed constant. By default they become memref.copy and the helia
// memory spaces become the default memory space (a microcontroller's
// memories share one flat address space), so that --finalize-memref-to-llvm
// takes the module; with mode=dma each copy is a DMA start/wait pair on a
// module-level tag.

// Erasing the memory spaces also drops the helia attributes, so that tools
// without the helia dialect (mlir-runner) read the module. What
// helia-assign-sections needs after the conversion to LLVM stays, in builtin
// attributes: the platform, the memory of every arena global, and the
// host code (`helia.unplanned` functions) that it makes weak.
// KEEP: module attributes {helia.platform = "apollo510_evb"}
// ERASE: module attributes  {helia.firmware = {globals = [{global = @scratch_dtcm, memory = "dtcm"}, {global = @stream_dtcm, memory = "dtcm"}, {global = @constant_dtcm_from_mram_source, memory = "mram"}, {global = @constant_dtcm_from_mram, memory = "dtcm"}, {global = @constant_mram, memory = "mram"}], platform = "apollo510_evb"}}
// DMA: memref.global "private" @helia_dma_tag : memref<1xi32> = uninitialized
// ERASE: memref.global "private" constant @constant_dtcm_from_mram_source : memref<64xi8> = dense<0>
// KEEP: memref.global "private" constant @constant_dtcm_from_mram_source : memref<64xi8, #helia.memory<"mram">> = dense<0>

// CHECK-LABEL: func.func @model_hydrate_constants()
// CHECK: %[[SRC:.*]] = memref.get_global @constant_dtcm_from_mram_source
// CHECK: %[[DST:.*]] = memref.get_global @constant_dtcm_from_mram
// COPY: memref.copy %[[SRC]], %[[DST]] : memref<64xi8{{.*}}> to memref<64xi8{{.*}}>
// DMA-DAG: %[[C0:.*]] = arith.constant 0 : index
// DMA-DAG: %[[N:.*]] = arith.constant 64 : index
// DMA-DAG: %[[TAG:.*]] = memref.get_global @helia_dma_tag : memref<1xi32>
// DMA: memref.dma_start %[[SRC]][%[[C0]]], %[[DST]][%[[C0]]], %[[N]], %[[TAG]][%[[C0]]] : memref<64xi8>, memref<64xi8>, memref<1xi32>
// DMA-NEXT: memref.dma_wait %[[TAG]][%[[C0]]], %[[N]] : memref<1xi32>
// CHECK-NOT: helia.hydrate

// CHECK-LABEL: func.func @model(
// ERASE-SAME: %{{.*}}: memref<2x4xf32>) -> memref<2x4xf32>
// KEEP-SAME: %{{.*}}: memref<2x4xf32>) -> memref<2x4xf32, #helia.memory<"dtcm">>
// The argument's copy into its slot is a plain memref.copy in every mode.
// CHECK: memref.copy %arg0, %{{.*}}
// CHECK: %[[W:.*]] = memref.view
// CHECK: %[[SLOT:.*]] = memref.view
// COPY: memref.copy %[[W]], %[[SLOT]]
// DMA: memref.dma_start %[[W]][%{{.*}}, %{{.*}}], %[[SLOT]][%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}] : memref<2x4xf32>, memref<2x4xf32>, memref<1xi32>
// DMA-NEXT: memref.dma_wait
// CHECK-NOT: helia.stream
// CHECK: linalg.add ins(%{{.*}}, %[[SLOT]] :

// A call site casts a result out of its memory space; once the spaces are
// erased the cast is from the default memory space to itself and goes.
// CHECK-LABEL: func.func @main(
// CHECK: %[[R:.*]] = call @model(
// ERASE-NEXT: return %[[R]] : memref<2x4xf32>
// KEEP-NEXT: %[[PLAIN:.*]] = memref.memory_space_cast %[[R]] : memref<2x4xf32, #helia.memory<"dtcm">> to memref<2x4xf32>
// KEEP-NEXT: return %[[PLAIN]] : memref<2x4xf32>

module attributes {helia.platform = "apollo510_evb"} {
  memref.global "private" @scratch_dtcm : memref<64xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
  memref.global "private" @stream_dtcm : memref<32xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
  memref.global "private" constant @constant_dtcm_from_mram_source : memref<64xi8, #helia.memory<"mram">> = dense<0> {alignment = 16 : i64}
  memref.global "private" @constant_dtcm_from_mram : memref<64xi8, #helia.memory<"dtcm">> = uninitialized {alignment = 16 : i64}
  memref.global "private" constant @constant_mram : memref<32xi8, #helia.memory<"mram">> = dense<0> {alignment = 16 : i64}
  func.func @model_hydrate_constants() {
    %src = memref.get_global @constant_dtcm_from_mram_source : memref<64xi8, #helia.memory<"mram">>
    %dst = memref.get_global @constant_dtcm_from_mram : memref<64xi8, #helia.memory<"dtcm">>
    helia.hydrate %src, %dst : memref<64xi8, #helia.memory<"mram">>, memref<64xi8, #helia.memory<"dtcm">>
    return
  }
  func.func @model(%x: memref<2x4xf32>) -> memref<2x4xf32, #helia.memory<"dtcm">> {
    %scratch = memref.get_global @scratch_dtcm : memref<64xi8, #helia.memory<"dtcm">>
    %pool = memref.get_global @stream_dtcm : memref<32xi8, #helia.memory<"dtcm">>
    %cold = memref.get_global @constant_mram : memref<32xi8, #helia.memory<"mram">>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %xv = memref.view %scratch[%c0][] : memref<64xi8, #helia.memory<"dtcm">> to memref<2x4xf32, #helia.memory<"dtcm">>
    memref.copy %x, %xv : memref<2x4xf32> to memref<2x4xf32, #helia.memory<"dtcm">>
    %w = memref.view %cold[%c0][] : memref<32xi8, #helia.memory<"mram">> to memref<2x4xf32, #helia.memory<"mram">>
    %slot = memref.view %pool[%c0][] : memref<32xi8, #helia.memory<"dtcm">> to memref<2x4xf32, #helia.memory<"dtcm">>
    helia.stream %w, %slot : memref<2x4xf32, #helia.memory<"mram">>, memref<2x4xf32, #helia.memory<"dtcm">>
    %y = memref.view %scratch[%c32][] : memref<64xi8, #helia.memory<"dtcm">> to memref<2x4xf32, #helia.memory<"dtcm">>
    linalg.add ins(%xv, %slot : memref<2x4xf32, #helia.memory<"dtcm">>, memref<2x4xf32, #helia.memory<"dtcm">>) outs(%y : memref<2x4xf32, #helia.memory<"dtcm">>)
    return %y : memref<2x4xf32, #helia.memory<"dtcm">>
  }
  func.func @main(%x: memref<2x4xf32>) -> memref<2x4xf32> {
    %r = call @model(%x) : (memref<2x4xf32>) -> memref<2x4xf32, #helia.memory<"dtcm">>
    %plain = memref.memory_space_cast %r : memref<2x4xf32, #helia.memory<"dtcm">> to memref<2x4xf32>
    return %plain : memref<2x4xf32>
  }
}
