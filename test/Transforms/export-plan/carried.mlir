// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-report=- plan-json=%t.json" -o /dev/null | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: helia-opt %s --helia-memory-pipeline="lower=false carry-in-place=false plan-report=-" -o /dev/null | FileCheck %s --check-prefix=FORCED

// How each loop stores the tensors it carries, in the report and the JSON
// plan. @in_place updates its state as an LSTM cell does (the old state is
// read only before the new one is written, c' = c * f elementwise by the
// op that writes it): one slot. @read_after_write reads the old state after
// its successor is written: the successor gets a slot of its own and is
// copied back before the yield (two slots). carry-in-place=false forces
// the second form on @in_place too. @shift_for and @shift_while carry a
// value and its previous one: the old value is copied into the other
// iter_arg's one slot, no second slot. @fresh_while copies its successor
// back into the after region's argument (two slots).

// CHECK:      Loop-carried tensors (9; 32 in second slots)
// CHECK-NEXT:   in_place: iter_arg #0 of loc("{{.*}}carried.mlir":[[L1:[0-9]+]]:{{[0-9]+}}): {{.*}}#{{[0-9]+}} (16 bytes), one slot, updated in place: its old value is last read before its successor is first written by 'linalg.generic' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:   read_after_write: iter_arg #0 of loc("{{.*}}carried.mlir":[[L2:[0-9]+]]:{{[0-9]+}}): {{.*}}#{{[0-9]+}} (16 bytes), two slots: its successor in {{.*}}#{{[0-9]+}} (16 bytes), copied back every iteration: its old value is read by 'linalg.mul' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}}) after its successor is first written by 'linalg.add' at loc("{{.*}}carried.mlir":{{[0-9]+}}:{{[0-9]+}})
// The accumulator is written by an op whose destination is the iter_arg:
// CHECK-NEXT:   read_after_write: iter_arg #1 of {{.*}} (16 bytes), one slot, updated in place: the body writes its successor into the carried buffer
// CHECK-NEXT:   shift_for: iter_arg #0 of {{.*}} (16 bytes), one slot, updated in place: the body writes its successor into the carried buffer
// CHECK-NEXT:   shift_for: iter_arg #1 of {{.*}} (16 bytes), one slot, the old value of iter_arg #0 copied into it every iteration: it carries the old value of iter_arg #0, which is copied into its slot before the loop writes the successor of iter_arg #0 over it
// CHECK-NEXT:   shift_while: iter_arg #1 of {{.*}} (16 bytes), one slot, updated in place: the body writes its successor into the carried buffer
// CHECK-NEXT:   shift_while: iter_arg #2 of {{.*}} (16 bytes), one slot, the old value of iter_arg #1 copied into it every iteration: it carries the old value of iter_arg #1, {{.*}}
// CHECK-NEXT:   fresh_while: iter_arg #1 of {{.*}} (16 bytes), two slots: its successor in {{.*}}#{{[0-9]+}} (16 bytes), copied back every iteration: its old value is read by 'linalg.mul' at {{.*}} after its successor is first written by 'linalg.add' at {{.*}}
// CHECK-NEXT:   fresh_while: iter_arg #2 of {{.*}} (16 bytes), one slot, updated in place: the body writes its successor into the carried buffer
// CHECK-EMPTY:

// JSON:      "carried": [
// JSON-NEXT:   {
// JSON-NEXT:     "function": "in_place",
// JSON-NEXT:     "loop": "loc(\"{{.*}}carried.mlir\":{{[0-9]+}}:{{[0-9]+}})",
// JSON-NEXT:     "iter_arg": 0,
// JSON-NEXT:     "tensor_id": {{[0-9]+}},
// JSON-NEXT:     "size": 16,
// JSON-NEXT:     "choice": "in-place",
// JSON-NEXT:     "copied_from_iter_arg": null,
// JSON-NEXT:     "successor_tensor_id": null,
// JSON-NEXT:     "successor_size": 0,
// JSON-NEXT:     "reason": "its old value is last read before its successor is first written by 'linalg.generic' at {{.*}}"
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "function": "read_after_write",
// JSON:          "choice": "slot-and-copy",
// JSON-NEXT:     "copied_from_iter_arg": null,
// JSON-NEXT:     "successor_tensor_id": {{[0-9]+}},
// JSON-NEXT:     "successor_size": 16,
// JSON-NEXT:     "reason": "its old value is read by 'linalg.mul' at {{.*}} after its successor is first written by 'linalg.add' at {{.*}}"
// JSON:          "function": "shift_for",
// JSON:          "iter_arg": 1,
// JSON-NEXT:     "tensor_id": {{[0-9]+}},
// JSON-NEXT:     "size": 16,
// JSON-NEXT:     "choice": "copy-from-iter-arg",
// JSON-NEXT:     "copied_from_iter_arg": 0,
// JSON-NEXT:     "successor_tensor_id": null,
// JSON-NEXT:     "successor_size": 0,
// JSON:          "function": "shift_while",
// JSON:          "iter_arg": 2,
// JSON-NEXT:     "tensor_id": {{[0-9]+}},
// JSON-NEXT:     "size": 16,
// JSON-NEXT:     "choice": "copy-from-iter-arg",
// JSON-NEXT:     "copied_from_iter_arg": 1,
// JSON-NEXT:     "successor_tensor_id": null,
// JSON-NEXT:     "successor_size": 0,
// JSON:          "function": "fresh_while",
// JSON-NEXT:     "loop": {{.*}},
// JSON-NEXT:     "iter_arg": 1,
// JSON-NEXT:     "tensor_id": {{[0-9]+}},
// JSON-NEXT:     "size": 16,
// JSON-NEXT:     "choice": "slot-and-copy",
// JSON-NEXT:     "copied_from_iter_arg": null,
// JSON-NEXT:     "successor_tensor_id": {{[0-9]+}},
// JSON-NEXT:     "successor_size": 16,

// FORCED:      Loop-carried tensors (9; 48 in second slots)
// FORCED-NEXT:   in_place: {{.*}}, two slots: its successor in {{.*}}#{{[0-9]+}} (16 bytes), copied back every iteration: carry-in-place=false
// FORCED-NEXT:   read_after_write: {{.*}}, two slots: {{.*}}: carry-in-place=false
// FORCED:        shift_for: iter_arg #1 of {{.*}}, one slot, the old value of iter_arg #0 copied into it every iteration
// FORCED:        fresh_while: iter_arg #1 of {{.*}}, two slots: {{.*}}: carry-in-place=false

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

  // (a, b) -> (2 a + b, a): the old a is copied into b's slot before the
  // loop writes over a (copyCarriedIntoOtherIterArgs): one slot each.
  func.func @shift_for(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %y) -> (tensor<4xf32>, tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %t = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %n = linalg.add ins(%t, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n, %a : tensor<4xf32>, tensor<4xf32>
    }
    return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
  }

  // The same in an scf.while: the copy writes the after region's argument.
  func.func @shift_while(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:3 = scf.while (%k = %c0, %a = %x, %b = %y) : (index, tensor<4xf32>, tensor<4xf32>) -> (index, tensor<4xf32>, tensor<4xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a, %b : index, tensor<4xf32>, tensor<4xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<4xf32>, %b1: tensor<4xf32>):
      %e = tensor.empty() : tensor<4xf32>
      %t = linalg.add ins(%a1, %b1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %n = linalg.add ins(%t, %a1 : tensor<4xf32>, tensor<4xf32>) outs(%a1 : tensor<4xf32>) -> tensor<4xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n, %a1 : index, tensor<4xf32>, tensor<4xf32>
    }
    return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
  }

  // @read_after_write as an scf.while: h' in a slot of its own, copied
  // back into the after region's argument before the yield (two slots).
  func.func @fresh_while(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:3 = scf.while (%k = %c0, %h = %x, %acc = %x) : (index, tensor<4xf32>, tensor<4xf32>) -> (index, tensor<4xf32>, tensor<4xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %h, %acc : index, tensor<4xf32>, tensor<4xf32>
    } do {
    ^bb0(%k1: index, %h1: tensor<4xf32>, %acc1: tensor<4xf32>):
      %e = tensor.empty() : tensor<4xf32>
      %n = linalg.add ins(%h1, %h1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %e2 = tensor.empty() : tensor<4xf32>
      %p = linalg.mul ins(%n, %h1 : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
      %a = linalg.add ins(%acc1, %p : tensor<4xf32>, tensor<4xf32>) outs(%acc1 : tensor<4xf32>) -> tensor<4xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %n, %a : index, tensor<4xf32>, tensor<4xf32>
    }
    return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
  }
}
