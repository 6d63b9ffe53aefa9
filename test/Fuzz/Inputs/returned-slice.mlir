// A function returns a slice of a concatenation. The reference inlines the
// call and prints a strided view (offset 16, strides [64, 8, 1]); the planned
// call copies the slice into a result slot of its own (offset 0). Only the
// layout in the header differs; the harness compares shapes and elements.
module attributes {helia.platform = "apollo510_evb"} {
  func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})
  func.func @f0(%a: tensor<1x4x8xf32>, %b: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
    %start = tosa.const_shape {values = dense<[0, 2, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %size = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %c = tosa.concat %a, %b {axis = 1 : i32} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x8x8xf32>
    %s = tosa.slice %c, %start, %size : (tensor<1x8x8xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x4x8xf32>
    return %s : tensor<1x4x8xf32>
  }
  func.func @main() attributes {helia.unplanned} {
    %a = arith.constant dense<1.5> : tensor<1x4x8xf32>
    %b = arith.constant dense<-2.0> : tensor<1x4x8xf32>
    %r = call @f0(%a, %b) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %p = tensor.cast %r : tensor<1x4x8xf32> to tensor<*xf32>
    call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
    return
  }
}
