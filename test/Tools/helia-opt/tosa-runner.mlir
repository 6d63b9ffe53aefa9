// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor), one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, finalize-memref-to-llvm, convert-to-llvm, reconcile-unrealized-casts)" \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// helia-opt alone takes a TOSA model to the LLVM dialect: it registers TOSA,
// linalg, bufferization (with the external models), the conversions to LLVM
// and their interfaces. The model: relu(x * w + b) on a 2x3 input.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @model(%x: tensor<1x2x3xf32>) -> tensor<1x2x2xf32> {
  %w = "tosa.const"() {values = dense<[[[1.0, -1.0], [2.0, 0.5], [0.0, 1.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %b = "tosa.const"() {values = dense<[[[0.5, -10.0]]]> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %s = tosa.add %m, %b : (tensor<1x2x2xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 100.0 : f32} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %r : tensor<1x2x2xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]]]> : tensor<1x2x3xf32>
  %r = func.call @model(%x) : (tensor<1x2x3xf32>) -> tensor<1x2x2xf32>
  %u = tensor.cast %r : tensor<1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// x * w = [[1+4+0, -1+1+3], [-1+0+0, 1+0+4]] = [[5, 3], [-1, 5]]
// + b   = [[5.5, -7], [-0.5, -5]]; relu: [[5.5, 0], [0, 0]]
// CHECK: Unranked Memref
// CHECK-SAME: rank = 3 offset = 0 sizes = [1, 2, 2]
// CHECK: {{\[}}{{\[}}{{\[}}5.5,   0],
// CHECK-NEXT: [0,   0]]]
