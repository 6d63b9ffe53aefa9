// RUN: helia-opt %s -split-input-file -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -helia-verify-plan -test-print-allocation -o /dev/null | FileCheck %s

// A streamed constant whose only reader is the return shares its pool slot
// with a streamed constant read earlier (inside a loop): their windows do
// not overlap. Its copy into the slot comes right before the return, which
// helia-verify-plan replays (it once missed that copy and reported the slot
// as overwritten by the loop's constant; fuzzer seeds 339, 808 and 1754 of
// `run.py --control-flow 2`).
// Steps: %x at 0, the loop bounds at 1 to 3, loop/w at 4, the argument's
// copy at 5, the loop at 6, out/b at 7, the return at 8.

// CHECK-LABEL: function @loop_then_return
// CHECK: buffer 1: constant, 16 bytes, steps [4, 6], @constant_mram + 0, streamed to @stream_dtcm + 0 over steps [6, 6]
// CHECK-NEXT: tensor #1 "loop/w"
// CHECK: buffer 3: constant, 16 bytes, steps [7, 8], @constant_mram + 16, streamed to @stream_dtcm + 0 over steps [8, 8]
// CHECK-NEXT: tensor #4 "out/b"
// CHECK: arena @stream_dtcm: 16 bytes
module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
func.func @loop_then_return(%x: tensor<4xf32> loc("x")) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("loop/w")
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %n = linalg.add ins(%h, %w : tensor<4xf32>, tensor<4xf32>) outs(%h : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } loc("loop")
  %b = arith.constant dense<[0.5, -0.5, 0.25, -0.25]> : tensor<4xf32> loc("out/b")
  return %r, %b : tensor<4xf32>, tensor<4xf32>
}
}

// -----

// A callee that returns a streamed constant, called inside a loop whose
// body reads another streamed constant: the loop's constant is in the pool
// for the whole loop step, which covers the callee's steps, so the two get
// different slots; the caller's constant read after the loop reuses one.

// CHECK-LABEL: function @bias
// CHECK: buffer 0: constant, 16 bytes, steps [1, 2], @constant_mram + 0, streamed to @stream_dtcm + 0 over steps [2, 2]
// CHECK-NEXT: tensor #0 "bias/b"
// CHECK-LABEL: function @calls_in_loop
// CHECK: buffer 2: constant, 16 bytes, steps [4, 7], @constant_mram + 16, streamed to @stream_dtcm + 16 over steps [7, 7]
// CHECK-NEXT: tensor #1 "loop/w"
// CHECK: buffer 5: constant, 16 bytes, steps [8, 9], @constant_mram + 32, streamed to @stream_dtcm + 0 over steps [9, 9]
// CHECK-NEXT: tensor #5 "out/q"
// CHECK: arena @stream_dtcm: 32 bytes
module attributes {helia.platform = "apollo510_evb",
                   helia.rules = [#helia.rule<type = constant, attributes = <residency = stream>>]} {
func.func @bias() -> tensor<4xf32> {
  %b = arith.constant dense<[0.5, -0.5, 0.25, -0.25]> : tensor<4xf32> loc("bias/b")
  return %b : tensor<4xf32>
}
func.func @calls_in_loop(%x: tensor<4xf32> loc("x")) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("loop/w")
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %b = func.call @bias() : () -> tensor<4xf32>
    %n = linalg.add ins(%h, %w : tensor<4xf32>, tensor<4xf32>) outs(%h : tensor<4xf32>) -> tensor<4xf32>
    %m = linalg.add ins(%n, %b : tensor<4xf32>, tensor<4xf32>) outs(%n : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  } loc("loop")
  %q = arith.constant dense<[9.0, 8.0, 7.0, 6.0]> : tensor<4xf32> loc("out/q")
  return %r, %q : tensor<4xf32>, tensor<4xf32>
}
}
