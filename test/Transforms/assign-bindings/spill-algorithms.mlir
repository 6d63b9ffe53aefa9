// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false algorithm=greedy-by-size memory-limit=dtcm=576" | FileCheck %s --check-prefix=GREEDY576
// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false algorithm=greedy-by-size memory-limit=dtcm=560" | FileCheck %s --check-prefix=GREEDY560
// RUN: helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false algorithm=best memory-limit=dtcm=576" | FileCheck %s --check-prefix=BEST576

// Monotonicity: with every algorithm, every dtcm limit from 0 to 704 bytes
// gives a verified plan (the pipeline runs helia-verify-plan); none fails
// where a smaller one succeeds.
// RUN: for a in greedy-by-size heuristic best; do for l in 0 16 64 128 192 256 320 384 448 512 528 544 560 576 592 608 624 640 656 704; do helia-opt %s -allow-unregistered-dialect -helia-memory-pipeline="lower=false algorithm=$a memory-limit=dtcm=$l" -o /dev/null 2>&1 || echo "FAILED $a dtcm=$l"; done; done | FileCheck %s --check-prefix=MONOTONE --allow-empty
// MONOTONE-NOT: {{.}}

// Spilling went by the fast heuristic packing, and the final packing with the
// chosen algorithm then had to fit. TFLite Micro's greedy by size packs these
// five buffers into 640 bytes where the heuristic needs 576, so at
// dtcm=576 the plan failed "short by 64" with SRAM free, while dtcm=560
// spilled and succeeded. The spill loop now goes on with the chosen
// algorithm until its packing fits.

// greedy-by-size at 576: its packing reaches highest with t2 (64 bytes),
// which spills; the rest packs into 576 bytes.
// GREEDY576: helia.arena @scratch_dtcm {{.*}}size 576 align
// GREEDY576: helia.arena @scratch_sram {{.*}}size 64 align
// GREEDY576: "test.op"() {helia.binding = [#helia.binding<@scratch_sram[0]>]{{.*}} -> tensor<16xf32>

// greedy-by-size at 560: by live bytes, t2 (64 bytes) is the one to spill,
// but greedy by size packs the rest into 576 bytes; chosen again for a
// smaller budget, t3 (128 bytes) and t2 spill: 192 bytes of sram, as many as
// when t0 spilled before.
// GREEDY560: helia.arena @scratch_dtcm {{.*}}size 448 align
// GREEDY560: helia.arena @scratch_sram {{.*}}size 192 align
// GREEDY560: "test.op"() {helia.binding = [#helia.binding<@scratch_dtcm{{.*}}>, #helia.binding<@scratch_dtcm{{.*}}>, #helia.binding<@scratch_sram[0]>]
// GREEDY560-NEXT: "test.op"() {helia.binding = [#helia.binding<@scratch_sram[128]>]

// best packs into 576 without spilling.
// BEST576: helia.arena @scratch_dtcm {{.*}}size 576 align
// BEST576-NOT: @scratch_sram

func.func @f() {
  %t0, %t1, %t3 = "test.op"() : () -> (tensor<48xf32>, tensor<48xf32>, tensor<32xf32>)
  %t2 = "test.op"() : () -> tensor<16xf32>
  "test.op"(%t3) : (tensor<32xf32>) -> ()
  "test.op"(%t1) : (tensor<48xf32>) -> ()
  %t4 = "test.op"(%t2) : (tensor<16xf32>) -> tensor<64xf32>
  "test.op"(%t0, %t4) : (tensor<48xf32>, tensor<64xf32>) -> ()
  return
}
