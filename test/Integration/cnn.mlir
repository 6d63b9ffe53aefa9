// Planned: TOSA to linalg, plan, lower to arenas and views, lower the
// copies, in one invocation; then to LLVM and run. @main, the harness, is
// `helia.unplanned`: the planner leaves it alone and the lowering bufferizes
// it like any caller.
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.lowered.mlir
// RUN: helia-opt %t.lowered.mlir %{to_llvm} | %{run} | FileCheck %s

// Reference: the same module with plain One-Shot Bufferize.
// RUN: helia-opt %s %{plain} | helia-opt %{to_llvm} | %{run} | FileCheck %s

// A small CNN: conv 3x3 + relu6, depthwise conv 3x3, residual add, 2x2 max
// pool, fully connected (reshape + matmul) and bias.

// The planned module allocates nothing: arenas are globals, tensors views.
// IR-NOT: memref.alloc
// IR: memref.global "private" @scratch_dtcm : memref<{{[0-9]+}}xi8> = uninitialized {alignment = 16 : i64}
// IR: memref.global "private" constant @constant_mram : memref<{{[0-9]+}}xi8> = dense<
// IR-LABEL: func.func @model(
// IR: linalg.conv_2d_nhwc_fhwc
// IR: linalg.depthwise_conv_2d_nhwc_hwcm
// IR: linalg.pooling_nhwc_max
// IR: linalg.batch_matmul
// IR-NOT: memref.alloc
// IR-LABEL: func.func @main()
// The harness keeps a copy of each result: the next call reuses the arena.
// IR: call @model(
// IR-NEXT: memref.alloc
// IR-NEXT: memref.copy

// CHECK: ( 56.25, 96.375, 5.4375 )

module attributes {helia.platform = "apollo510_evb"} {
  func.func @model(%x: tensor<1x4x4x1xf32>) -> tensor<1x1x3xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %cw = "tosa.const"() {values = dense<[[[[1.0], [0.0], [-1.0]], [[2.0], [0.0], [-2.0]], [[1.0], [0.0], [-1.0]]],
                                           [[[0.5], [0.5], [0.5]], [[0.5], [1.0], [0.5]], [[0.5], [0.5], [0.5]]]]> : tensor<2x3x3x1xf32>} : () -> tensor<2x3x3x1xf32>
    %cb = "tosa.const"() {values = dense<[0.25, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %c = tosa.conv2d %x, %cw, %cb, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<2x3x3x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
    %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
    %dw = "tosa.const"() {values = dense<[[[[1.0], [0.5]], [[0.0], [0.5]], [[-1.0], [0.5]]],
                                           [[[1.0], [0.5]], [[2.0], [1.0]], [[-1.0], [0.5]]],
                                           [[[1.0], [0.5]], [[0.0], [0.5]], [[-1.0], [0.5]]]]> : tensor<3x3x2x1xf32>} : () -> tensor<3x3x2x1xf32>
    %db = "tosa.const"() {values = dense<[0.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
    %d = tosa.depthwise_conv2d %r, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
    %s = tosa.add %d, %r : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
    %p = tosa.max_pool2d %s {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
    %shape = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %f = tosa.reshape %p, %shape : (tensor<1x2x2x2xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
    %fw = "tosa.const"() {values = dense<[[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [1.0, 0.0, 0.5], [0.0, 1.0, 0.5],
                                            [1.0, 0.0, -0.5], [0.0, 1.0, -0.5], [1.0, 0.0, -0.5], [0.0, 1.0, -0.5]]]> : tensor<1x8x3xf32>} : () -> tensor<1x8x3xf32>
    %m = tosa.matmul %f, %fw, %zp, %zp : (tensor<1x1x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
    %fb = "tosa.const"() {values = dense<[[[0.5, -0.5, 1.0]]]> : tensor<1x1x3xf32>} : () -> tensor<1x1x3xf32>
    %o = tosa.add %m, %fb : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    return %o : tensor<1x1x3xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[[1.0], [2.0], [0.0], [-1.0]], [[0.5], [3.0], [1.0], [2.0]], [[-2.0], [1.0], [4.0], [0.0]], [[1.0], [1.0], [-1.0], [2.5]]]]> : tensor<1x4x4x1xf32>
    %r = call @model(%x) : (tensor<1x4x4x1xf32>) -> tensor<1x1x3xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0, %c0, %c0], %pad : tensor<1x1x3xf32>, vector<3xf32>
    vector.print %v : vector<3xf32>
    return
  }
}
