// A small keyword-spotting style CNN in TOSA: conv -> relu -> depthwise
// conv -> residual add -> average pool -> fully connected. Tensor names come
// from the locations, so rules can match them (see tiny_cnn.rules.json).
// @main is the host harness: it copies the pinned weights into DTCM once
// (@model_hydrate_constants), feeds an input, calls the model and prints the
// result; `helia.unplanned` keeps the planner away from both. The hydrate
// function is a stub here (the unplanned program has nothing to hydrate);
// helia-lower-to-memref fills in its body.
module attributes {helia.platform = "apollo510_evb"} {
  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }

  func.func @main() attributes {helia.unplanned} {
    func.call @model_hydrate_constants() : () -> ()
    %input = arith.constant dense<1.0> : tensor<1x8x8x2xf32>
    %logits = func.call @model(%input) : (tensor<1x8x8x2xf32>) -> tensor<1x4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %logits[%c0, %c0], %pad : tensor<1x4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }

  func.func @model(%input: tensor<1x8x8x2xf32> loc("input")) -> tensor<1x4xf32> {
    %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32> loc("zero_point")
    %w1 = "tosa.const"() {values = dense<0.125> : tensor<4x3x3x2xf32>} : () -> tensor<4x3x3x2xf32> loc("conv1/weights")
    %b1 = "tosa.const"() {values = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32> loc("conv1/bias")
    %c1 = tosa.conv2d %input, %w1, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32> loc("conv1")
    %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("relu1")
    %w2 = "tosa.const"() {values = dense<0.25> : tensor<3x3x4x1xf32>} : () -> tensor<3x3x4x1xf32> loc("dw/weights")
    %b2 = "tosa.const"() {values = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32> loc("dw/bias")
    %c2 = tosa.depthwise_conv2d %r1, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32> loc("dw")
    %s = tosa.add %c2, %r1 : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("residual")
    %p = tosa.avg_pool2d %s, %zp, %zp {acc_type = f32, kernel = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x4xf32> loc("pool")
    %shape = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3> loc("flat_shape")
    %f = tosa.reshape %p, %shape : (tensor<1x1x1x4xf32>, !tosa.shape<3>) -> tensor<1x1x4xf32> loc("flatten")
    %w3 = "tosa.const"() {values = dense<0.5> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32> loc("fc/weights")
    %fc = tosa.matmul %f, %w3, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32> loc("fc")
    %oshape = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2> loc("out_shape")
    %out = tosa.reshape %fc, %oshape : (tensor<1x1x4xf32>, !tosa.shape<2>) -> tensor<1x4xf32> loc("logits")
    return %out : tensor<1x4xf32>
  }
}
