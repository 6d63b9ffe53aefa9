// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings="stream-budget=64 stream-pool=sram remarks" -helia-verify-plan -verify-diagnostics | FileCheck %s

// The stream pool (here in sram, with a 64-byte budget) takes streamed
// constants in the order of their first reader; one that the budget cannot
// hold falls back to direct (read in place), and a remark says so.

module attributes {helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  // CHECK: helia.arena @stream_sram {{.*}} stream size 64 align
  // CHECK-LABEL: func.func @f
  func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_mram{{.*}}, stream = @stream_sram[0]>]
    %a = arith.constant {helia.name = "a"} dense<1.0> : tensor<16xf32>
    // expected-remark @+2 {{streamed constant 'b' (64 bytes) falls back to direct: the stream pool in 'sram' has 64 bytes and needs 128 with it}}
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_mram[64]>]
    %b = arith.constant {helia.name = "b"} dense<2.0> : tensor<16xf32>
    // CHECK: arith.constant {helia.binding = [#helia.binding<@constant_mram{{.*}}, stream = @stream_sram[0]>]
    %c = arith.constant {helia.name = "c"} dense<3.0> : tensor<16xf32>
    // 'a' and 'b' are both read at step 4; 'c' reuses 'a''s slot at step 5.
    // Sums of constants alone cost RAM a fold would save (remarks say so).
    // expected-remark @below {{scratch tensor '#4' is computed from constants alone and costs 64 bytes of RAM; fold-constants=true moves it to flash when its ops only move elements (helia-fold-constant-subgraphs)}}
    %s = arith.addf %a, %b : tensor<16xf32>
    // expected-remark @below {{scratch tensor '#5' is computed from constants alone and costs 64 bytes of RAM; fold-constants=true moves it to flash when its ops only move elements (helia-fold-constant-subgraphs)}}
    %t = arith.addf %s, %c : tensor<16xf32>
    %u = arith.addf %t, %x : tensor<16xf32>
    return %u : tensor<16xf32>
  }
}

// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings="stream-budget=64 stream-pool=sram" -helia-export-plan="json=- report=-" -o /dev/null | FileCheck %s --check-prefix=PLAN
// The plan says which constants fell back.
// PLAN: "name": "a",
// PLAN: "residency": "stream",
// PLAN-NEXT: "stream_fallback": false,
// PLAN: "name": "b",
// PLAN: "residency": "direct",
// PLAN-NEXT: "stream_fallback": true,
// PLAN: streamed per run: 128 in 2 copies
// PLAN-NEXT: read in place instead of streamed (the pool could not hold them): b
