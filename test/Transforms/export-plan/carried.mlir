// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-report=- plan-json=%t.json" -o /dev/null | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: helia-opt %s --helia-memory-pipeline="lower=false carry-in-place=false plan-report=-" -o /dev/null | FileCheck %s --check-prefix=FORCED

// How each loop stores the tensors it carries, in the report and the JSON
// plan. @in_place updates its state as an LSTM cell does (the old state is
// read only before the new one is written, c' = c * f elementwise by the
// op that writes it): one slot. @read_after_write reads the old state after
// its successor is written: the successor gets a slot of its own and is
// copied back before the yield (two slots). carry-in-place=false forces
// the second form on @in_place too.

// CHECK:      Loop-carried tensors (3; 16 in second slots)
// CHECK-NEXT:   in_place: iter_arg #0 of loc("{{.*}}carried.mlir":[[L1:[0-9]+]]:{{[0-9]+}}): {{.*}}#{{[0-9]+}} (16 bytes), one slot, updated in place: its old value is last read before its successor is first written by 'linalg.generic' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:   read_after_write: iter_arg #0 of loc("{{.*}}carried.mlir":[[L2:[0-9]+]]:{{[0-9]+}}): {{.*}}#{{[0-9]+}} (16 bytes), two slots: its successor in {{.*}}#{{[0-9]+}} (16 bytes), copied back every iteration: its old value is read by 'linalg.mul' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}}) after its successor is first written by 'linalg.add' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}})
// The accumulator is written by an op whose destination is the iter_arg:
// CHECK-NEXT:   read_after_write: iter_arg #1 of {{.*}} (16 bytes), one slot, updated in place: the body writes its successor into the carried buffer

// JSON:      "carried": [
// JSON-NEXT:   {
// JSON-NEXT:     "function": "in_place",
// JSON-NEXT:     "loop": "loc(\"{{.*}}carried.mlir\":{{[0-9]+}}:{{[0-9]+}})",
// JSON-NEXT:     "iter_arg": 0,
// JSON-NEXT:     "tensor_id": {{[0-9]+}},
// JSON-NEXT:     "size": 16,
// JSON-NEXT:     "choice": "in-place",
// JSON-NEXT:     "successor_tensor_id": null,
// JSON-NEXT:     "successor_size": 0,
// JSON-NEXT:     "reason": "its old value is last read before its successor is first written by 'linalg.generic' at {{.*}}"
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "function": "read_after_write",
// JSON:          "choice": "slot-and-copy",
// JSON-NEXT:     "successor_tensor_id": {{[0-9]+}},
// JSON-NEXT:     "successor_size": 16,
// JSON-NEXT:     "reason": "its old value is read by 'linalg.mul' at {{.*}} after its successor is first written by 'linalg.add' at {{.*}}"

// FORCED:      Loop-carried tensors (3; 32 in second slots)
// FORCED-NEXT:   in_place: {{.*}}, two slots: its successor in {{.*}}#{{[0-9]+}} (16 bytes), copied back every iteration: carry-in-place=false
// FORCED-NEXT:   read_after_write: {{.*}}, two slots: {{.*}}: carry-in-place=false

module {
  // c' = c * f + x, written by one elementwise op over the carried c.
  func.func @in_place(%x: tensor<4xf32>, %f: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%c = %x) -> (tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %f, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %b: f32, %d: f32, %o: f32):
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %m, %d : f32
        linalg.yield %s : f32
      } -> tensor<4xf32>
      scf.yield %n : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }

  // h' = h + h; p = h' * h reads the old h after h' is written.
  func.func @read_after_write(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x, %acc = %x) -> (tensor<4xf32>, tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %n = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %e2 = tensor.empty() : tensor<4xf32>
      %p = linalg.mul ins(%n, %h : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
      %a = linalg.add ins(%acc, %p : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n, %a : tensor<4xf32>, tensor<4xf32>
    }
    return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
  }
}
