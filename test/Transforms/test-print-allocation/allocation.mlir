// RUN: helia-opt %s -split-input-file -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s

// The planner's view of a function, as test-print-allocation prints it: one
// line per buffer (kind, size, closed lifetime on the schedule, arena and
// offset), then the tensors the buffer holds. Schedule: the arguments are
// defined at step 0, the i-th op of the body runs at step i + 1; a buffer is
// live from its definition to its last use, a returned one to the return.

// A chain: each buffer dies when the next op has read it, so two slots of
// 64 bytes alternate and the arena holds two buffers, never more.

// CHECK-LABEL: function @chain
// CHECK-NEXT:    buffer [[X:[0-9]+]]: scratch, 64 bytes, steps [0, 2], @scratch_dtcm + [[SLOT1:64]]
// CHECK-NEXT:      tensor #0 "x"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [1, 4], @scratch_dtcm + [[SLOT0:0]]
// CHECK-NEXT:      tensor #1
// CHECK-NEXT:      tensor #2 "a"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [3, 6], @scratch_dtcm + [[SLOT1]]
// CHECK-NEXT:      tensor #3
// CHECK-NEXT:      tensor #4 "b"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [5, 7], @scratch_dtcm + [[SLOT0]]
// CHECK-NEXT:      tensor #5
// CHECK-NEXT:      tensor #6 "c"
// CHECK-NEXT:  arena @scratch_dtcm: 128 bytes
func.func @chain(%x: tensor<16xf32> {helia.name = "x"}) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %a = linalg.add {helia.name = "a"} ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %b = linalg.mul {helia.name = "b"} ins(%a, %a : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %c = linalg.sub {helia.name = "c"} ins(%b, %b : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// A diamond with a skip connection: the input is read by both branches and
// again after the join, so it stays live across the whole diamond; the
// join and the skip add write in place into the right branch's buffer. The
// three buffers overlap at steps 3 to 5: the arena needs three slots.

// CHECK-LABEL: function @diamond
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [0, 6], @scratch_dtcm + 128
// CHECK-NEXT:      tensor #0 "in"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [1, 5], @scratch_dtcm + 64
// CHECK-NEXT:      tensor #1
// CHECK-NEXT:      tensor #2 "left"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [3, 7], @scratch_dtcm + 0
// CHECK-NEXT:      tensor #3
// CHECK-NEXT:      tensor #4 "right"
// CHECK-NEXT:      tensor #5 "join"
// CHECK-NEXT:      tensor #6 "skip"
// CHECK-NEXT:  arena @scratch_dtcm: 192 bytes
func.func @diamond(%in: tensor<16xf32> {helia.name = "in"}) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %left = linalg.exp {helia.name = "left"} ins(%in : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %right = linalg.negf {helia.name = "right"} ins(%in : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %join = linalg.add {helia.name = "join"} ins(%left, %right : tensor<16xf32>, tensor<16xf32>) outs(%right : tensor<16xf32>) -> tensor<16xf32>
  %skip = linalg.add {helia.name = "skip"} ins(%join, %in : tensor<16xf32>, tensor<16xf32>) outs(%join : tensor<16xf32>) -> tensor<16xf32>
  return %skip : tensor<16xf32>
}

// -----

// In-place aliasing through a reshape: the collapse_shape is a view of the
// sum, so the sum, its init and the view are one buffer at one offset, live
// until the view is returned.

// CHECK-LABEL: function @reshape
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [0, 2], @scratch_dtcm + 64
// CHECK-NEXT:      tensor #0 "x"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 64 bytes, steps [1, 4], @scratch_dtcm + 0
// CHECK-NEXT:      tensor #1
// CHECK-NEXT:      tensor #2 "sum"
// CHECK-NEXT:      tensor #3 "flat"
// CHECK-NEXT:  arena @scratch_dtcm: 128 bytes
func.func @reshape(%x: tensor<4x4xf32> {helia.name = "x"}) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %sum = linalg.add {helia.name = "sum"} ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %flat = tensor.collapse_shape %sum [[0, 1]] {helia.name = "flat"} : tensor<4x4xf32> into tensor<16xf32>
  return %flat : tensor<16xf32>
}

// -----

// A constant lives in a constant arena for the whole program, whatever its
// lifetime on the schedule (the step of its definition to its last reader);
// a persistent tensor (state kept across invocations) in a persistent arena
// that is never reused. Neither shares the scratch arena.

// CHECK-LABEL: function @kinds
// CHECK-NEXT:    buffer {{[0-9]+}}: persistent, 16 bytes, steps [0, 4], @persistent_dtcm + 0
// CHECK-NEXT:      tensor #0 "state"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 16 bytes, steps [0, 3], @scratch_dtcm + 16
// CHECK-NEXT:      tensor #1 "x"
// CHECK-NEXT:    buffer {{[0-9]+}}: constant, 16 bytes, steps [1, 3], @constant_mram + 0
// CHECK-NEXT:      tensor #2 "bias"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 16 bytes, steps [2, 5], @scratch_dtcm + 0
// CHECK-NEXT:      tensor #3
// CHECK-NEXT:      tensor #4 "y"
// CHECK-NEXT:      tensor #5 "z"
// CHECK-DAG:   arena @scratch_dtcm: 32 bytes
// CHECK-DAG:   arena @persistent_dtcm: 16 bytes
// CHECK-DAG:   arena @constant_mram: 16 bytes
func.func @kinds(%state: tensor<4xf32> {helia.persistent, helia.name = "state"},
                 %x: tensor<4xf32> {helia.name = "x"}) -> tensor<4xf32> {
  %bias = arith.constant {helia.name = "bias"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add {helia.name = "y"} ins(%x, %bias : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %z = linalg.add {helia.name = "z"} ins(%y, %state : tensor<4xf32>, tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// A streamed constant stays in its constant arena and is copied into a slot
// of the stream pool for the steps that read it (here the multiply alone),
// so the pool holds it only over [4, 4].

// CHECK-LABEL: function @stream
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 16 bytes, steps [0, 3], @scratch_dtcm + 16
// CHECK-NEXT:      tensor #0 "x"
// CHECK-NEXT:    buffer {{[0-9]+}}: constant, 16 bytes, steps [1, 4], @constant_mram + 0, streamed to @stream_dtcm + 0 over steps [4, 4]
// CHECK-NEXT:      tensor #1 "w"
// CHECK-NEXT:    buffer {{[0-9]+}}: scratch, 16 bytes, steps [2, 5], @scratch_dtcm + 0
// CHECK-NEXT:      tensor #2
// CHECK-NEXT:      tensor #3 "y"
// CHECK-NEXT:      tensor #4 "z"
// CHECK-DAG:   arena @scratch_dtcm: 32 bytes
// CHECK-DAG:   arena @stream_dtcm: 16 bytes
// CHECK-DAG:   arena @constant_mram: 16 bytes
module attributes {helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
  func.func @stream(%x: tensor<4xf32> {helia.name = "x"}) -> tensor<4xf32> {
    %w = arith.constant {helia.name = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add {helia.name = "y"} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %z = linalg.mul {helia.name = "z"} ins(%y, %w : tensor<4xf32>, tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
}
