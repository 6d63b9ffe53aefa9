// A CNN whose activations do not all fit in the 2 KiB of DTCM the test
// allows (memory-limit=dtcm=2048): the planner spills scratch to SRAM, so
// the image has a scratch arena in each memory. Conv, relu, depthwise conv,
// residual add, pooling, fully connected; weights cold in QSPI flash.
module attributes {helia.platform = "mps3_an547",
                   helia.rules = [#helia.rule<type = constant, attributes = <memory = "qspi">>]} {
  func.func @model(%input: tensor<1x8x8x2xf32> loc("input")) -> tensor<1x4xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32> loc("zero_point")
    %w1t = "tosa.const"() {values = dense<0.0625> : tensor<8x3x3x2xf32>} : () -> tensor<8x3x3x2xf32> loc("conv1/weights")
    %b1 = "tosa.const"() {values = dense<[0.5, -0.5, 0.25, 0.0, 1.0, -1.0, 0.125, 0.75]> : tensor<8xf32>} : () -> tensor<8xf32> loc("conv1/bias")
    %c1 = tosa.conv2d %input, %w1t, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x2xf32>, tensor<8x3x3x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32> loc("conv1")
    %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> loc("relu1")
    %w2 = "tosa.const"() {values = dense<0.125> : tensor<3x3x8x1xf32>} : () -> tensor<3x3x8x1xf32> loc("dw/weights")
    %b2 = "tosa.const"() {values = dense<0.25> : tensor<8xf32>} : () -> tensor<8xf32> loc("dw/bias")
    %c2 = tosa.depthwise_conv2d %r1, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32> loc("dw")
    %s = tosa.add %c2, %r1 : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> loc("residual")
    %p = tosa.avg_pool2d %s, %zp, %zp {acc_type = f32, kernel = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x8xf32> loc("pool")
    %shape = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3> loc("flat_shape")
    %f = tosa.reshape %p, %shape : (tensor<1x1x1x8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32> loc("flatten")
    %w3 = "tosa.const"() {values = dense<[[[0.5, -0.5, 0.25, 1.0], [0.125, 0.25, -0.75, 0.5], [1.0, 0.0, 0.5, -0.25], [0.0, 1.0, 0.25, 0.5], [-0.5, 0.5, 0.0, 0.125], [0.25, -0.125, 1.0, 0.0], [0.75, 0.5, -0.5, 0.25], [0.0, 0.25, 0.5, 1.0]]]> : tensor<1x8x4xf32>} : () -> tensor<1x8x4xf32> loc("fc/weights")
    %fc = tosa.matmul %f, %w3, %zp, %zp : (tensor<1x1x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("fc")
    %oshape = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2> loc("out_shape")
    %out = tosa.reshape %fc, %oshape : (tensor<1x1x4xf32>, !tosa.shape<2>) -> tensor<1x4xf32> loc("logits")
    return %out : tensor<1x4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %input = "tosa.const"() {values = dense<[[[[1.0, -0.5], [0.25, 2.0], [0.5, 0.5], [-1.0, 1.5], [0.0, 0.75], [1.25, -0.25], [2.0, 0.0], [0.5, 1.0]]]]> : tensor<1x1x8x2xf32>} : () -> tensor<1x1x8x2xf32>
    %ms = tosa.const_shape {values = dense<[1, 8, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %row = tosa.reshape %input, %ms : (tensor<1x1x8x2xf32>, !tosa.shape<4>) -> tensor<1x8x1x2xf32>
    %mul = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %x = tosa.tile %row, %mul : (tensor<1x8x1x2xf32>, !tosa.shape<4>) -> tensor<1x8x8x2xf32>
    %logits = func.call @model(%x) : (tensor<1x8x8x2xf32>) -> tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %logits[%c0, %c0], %pad : tensor<1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
