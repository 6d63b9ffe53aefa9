// Scratch computed from constants alone (a weight broadcast at run time, as
// the linalg path of torch-mlir emits) costs RAM that folding it at compile
// time would move to flash: the report counts it, at each peak and in
// total, and the JSON marks it.
// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-report=%t.txt plan-json=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.txt
// RUN: python3 -c "import json; [print(t['tensor_id'], t['constant_only']) for t in json.load(open('%t.json'))['tensors']]" | FileCheck %s --check-prefix=JSON

// CHECK: scratch_dtcm: 96 live at step 4 (arena 96 bytes): x (32) #2 (32) #4 (32)
// CHECK-NEXT: of which computed from constants alone: 32
// CHECK: Computed from constants alone
// CHECK-NEXT: 1 scratch buffers, 32, are computed from constants only

// The broadcast (#2, #3: one buffer) is constant-only; x and the sum are not.
// JSON: 0 False
// JSON-NEXT: 1 False
// JSON-NEXT: 2 True
// JSON-NEXT: 3 True
// JSON-NEXT: 4 False
// JSON-NEXT: 5 False

#id = affine_map<(d0, d1) -> (d1)>
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @f(%x: tensor<2x4xf32> loc("x")) -> tensor<2x4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<2x4xf32>
    %b = linalg.generic {indexing_maps = [#id, #map], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<2x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4xf32>
    %e1 = tensor.empty() : tensor<2x4xf32>
    %y = linalg.add ins(%x, %b : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e1 : tensor<2x4xf32>) -> tensor<2x4xf32>
    return %y : tensor<2x4xf32>
  }
}
