// Calls between planned functions: the planned @model calls the planned
// @layer twice (inside the call's step, on the same arenas) and the
// unplanned @peek; the unplanned @main calls @model.
module attributes {helia.platform = "mps3_an547"} {
  func.func @peek(%t: tensor<4xf32>) attributes {helia.unplanned} {
    return
  }

  func.func @layer(%a: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.mul ins(%a, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %v = arith.constant dense<[0.5, -0.25, 0.125, 1.5]> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %z = call @layer(%y, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    call @peek(%z) : (tensor<4xf32>) -> ()
    %z2 = call @layer(%z, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %o = linalg.add ins(%z2, %y : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    return %o : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %r[%c0], %pad : tensor<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
