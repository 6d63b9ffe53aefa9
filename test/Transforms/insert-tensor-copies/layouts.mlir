// RUN: helia-opt %s -split-input-file -helia-insert-tensor-copies | FileCheck %s

// Bufferization would copy the source of a collapse whose layout does not
// guarantee contiguous rows (a 2x2 block of a 4x4 tensor) into an
// allocation of its own: the copy is made explicit, so the plan counts it.
// A collapse of whole rows stays a view.

// CHECK-LABEL: func.func @block
// CHECK: %[[B:.*]] = tensor.extract_slice %{{.*}}[1, 1] [2, 2] [1, 1]
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[B]])
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0, 1]]
// CHECK: %[[R:.*]] = tensor.extract_slice %{{.*}}[1, 0] [2, 4] [1, 1]
// CHECK-NOT: alloc_tensor
// CHECK: tensor.collapse_shape %[[R]] {{\[\[}}0, 1]]
func.func @block(%x: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %b = tensor.extract_slice %x[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %c = tensor.collapse_shape %b [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %d = linalg.add ins(%c, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.extract_slice %x[1, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %f = tensor.collapse_shape %r [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %g = linalg.add ins(%f, %f : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %d, %g : tensor<4xf32>, tensor<8xf32>
}

// -----

// An scf.if whose branches yield a slice and an argument has a dynamic
// layout: returned, it would be copied into an allocation with the identity
// layout a function result has. The copy is made explicit.

// CHECK-LABEL: func.func @branches
// CHECK: %[[IF:.*]] = scf.if
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[IF]])
// CHECK: return %[[COPY]]
func.func @branches(%x: tensor<2x4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %s = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
