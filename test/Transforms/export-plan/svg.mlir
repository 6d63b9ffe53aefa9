// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-export-plan=svg=- -o /dev/null | FileCheck %s
// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings "-helia-export-plan=svg=%t.svg json=%t.json" -o /dev/null
// RUN: python3 %helia_src/scripts/render-svg.py --svg %t.svg --json %t.json | FileCheck %s --check-prefix=MATCH
// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-svg=-" -o /dev/null | FileCheck %s

// The SVG timeline: one panel per arena, in the plan's arena order; in each
// panel a plot in step and byte units, so that a rectangle's y and height
// are the tensor's offset and size. Functions sit side by side on the x
// axis (f: steps 0-5 at x 0-5, g: steps 0-2 at x 6-8). Scratch tensors span
// their lifetime; constants hold their bytes for the whole run.

// MATCH: svg: 4 arenas, 8 rectangles match the plan (7 tensors, 1 stream slots)

// CHECK:      <svg xmlns="http://www.w3.org/2000/svg"
// CHECK:      helia memory plan: platform apollo510_evb, functions f, g

// CHECK:      <g class="arena" id="arena-0" data-region="0" data-name="scratch_dtcm">
// CHECK:      scratch in dtcm, read-write, 512 bytes, 5 tensors; peak 512 bytes at step 1 of g
// CHECK:      <svg class="plot" {{.*}} viewBox="0 0 9 512" preserveAspectRatio="none">
// x: 64 bytes at 0, steps [0, 3], read once (64 bytes moved per inference).
// Slots are shaded by bytes moved per byte held, on a log scale from 0.25
// to 1 (a&b, 128 per 64, is the plan's most used: 1.00).
// CHECK:      <rect class="tensor" data-function="f" data-tensor-id="0" x="0" y="0" width="4" height="64" fill="#4e79a7" fill-opacity="0.72" data-traffic="64"
// CHECK-SAME: <title>x (f): scratch, 64 bytes at offset 0, steps [0, 3], 64 bytes moved per inference</title>
// Names are escaped.
// CHECK:      data-tensor-id="3" x="3" y="64" width="2" height="64" fill="#4e79a7" fill-opacity="1.00" data-traffic="128"
// CHECK-SAME: <title>a&amp;b (f)
// An unnamed tensor is its id.
// CHECK:      data-tensor-id="4" x="4" y="0" width="2" height="64"
// CHECK-SAME: <title>#4 (f)
// g's tensors follow f's six steps.
// CHECK:      data-function="g" data-tensor-id="0" x="6" y="256" width="2" height="256"
// CHECK:      data-function="g" data-tensor-id="1" x="7" y="0" width="2" height="256"
// CHECK:      </svg>
// The peak: step 1 of g, the centre of column 7 (x 96 + 7.5 * 560 / 9).
// CHECK-NEXT: <line class="peak" data-step="1" x1="562.67"
// Labels where they fit.
// CHECK:      <text class="label" {{.*}}>x</text>
// CHECK:      <text class="label" {{.*}}>a&amp;b</text>
// CHECK:      step of f
// CHECK:      step of g
// CHECK:      </g>

// The stream pool holds v's slot for its one read, at step 4.
// CHECK:      data-name="stream_dtcm"
// CHECK:      scratch in dtcm, stream pool, 64 bytes, 1 tensor; peak 64 bytes at step 4 of f
// CHECK:      <rect class="tensor stream-slot" data-function="f" data-tensor-id="2" x="4" y="0" width="1" height="64" fill="#b07aa1"
// CHECK:      <line class="peak" data-step="4"

// CHECK:      data-name="constant_dtcm_from_mram"
// CHECK:      constant in dtcm from mram, staged, 64 bytes, 1 tensor, held for the whole run
// CHECK:      <rect class="tensor" data-function="f" data-tensor-id="1" x="0" y="0" width="9" height="64" fill="#59a14f"
// CHECK-SAME: <title>w (f): constant/pin,
// CHECK-NOT:  class="peak"
// CHECK:      data-name="constant_mram"
// CHECK:      constant in mram, cold, 64 bytes, 1 tensor, held for the whole run
// CHECK:      data-tensor-id="2" x="0" y="0" width="9" height="64" fill="#59a14f"
// CHECK-SAME: <title>v (f): constant/stream,
// CHECK-NOT:  class="peak"
// CHECK:      </svg>

module attributes {helia.rules = [
  #helia.rule<type = constant, id = ["w"], attributes = <constant_destination_memory = "dtcm">>,
  #helia.rule<type = constant, id = ["v"], attributes = <residency = stream>>]} {
  func.func @f(%x: tensor<16xf32> {helia.name = "x"}) -> tensor<16xf32> {
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<16xf32>
    %v = arith.constant {helia.name = "v"} dense<2.0> : tensor<16xf32>
    %a = arith.addf %x, %w {helia.name = "a&b"} : tensor<16xf32>
    %b = arith.addf %a, %v : tensor<16xf32>
    return %b : tensor<16xf32>
  }
  func.func @g(%y: tensor<64xf32> {helia.name = "y"}) -> tensor<64xf32> {
    %c = arith.addf %y, %y {helia.name = "c"} : tensor<64xf32>
    return %c : tensor<64xf32>
  }
}
