// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa})" | helia-opt -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A copy that One-Shot Analysis makes in a loop body for a value that a
// call reads and an inner loop carries at once (fuzzer seed 1589 of
// `run.py --control-flow 2`, reduced; the outer loop's result is printed).
// A copy made for a call alone stays the call's (the lowering hands its
// slot to the callee writable); one that other ops use too moves to a
// top-level slot live at the loop's step like any other copy
// (hoistRegionStorage, RegionCopies.cpp), instead of staying in the loop as
// a buffer of every iteration.

// IR-LABEL: func.func @f1(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: linalg.copy
// IR: call @f2(
// IR: scf.for
// IR-NOT: memref.alloc
// IR: return

// @f1's slots: the argument (and the loop's init), the constants, the
// carried value, the inner loop's, the pad, its copy for the call and the
// inner loop (68 bytes, live at the loop's step), the convolution's, and
// the value computed after the loop.
// SLOTS-LABEL: function @f1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 23]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT:   tensor #11
// SLOTS-COUNT-3: buffer {{[0-9]+}}: constant,
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 26]
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 13]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 68 bytes, steps [9, 13]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 68 bytes, steps [10, 13]
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 204 bytes, steps [11, 13]
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 144 bytes, steps [12, 13]
// SLOTS-NEXT:   tensor #9
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 68 bytes, steps [23, 26]
// SLOTS-LABEL: function @f2

// The padded argument, then the argument (@f2 returns its second one).
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  -2,  3,  -4,  5,  -6,  7,  -8]
// CHECK: [1,    -2,    3,    -4,    5,    -6,    7,    -8]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @f1(%arg0: tensor<1x1x8xf32>) -> (tensor<17xf32>, tensor<1x1x8xf32>) {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %1 = scf.for %arg1 = %c0 to %c3 step %c1 iter_args(%arg2 = %arg0) -> (tensor<1x1x8xf32>) {
      %8 = tosa.const_shape  {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %9 = tosa.reshape %arg0, %8 : (tensor<1x1x8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
      %10 = tosa.const_shape  {values = dense<[0, 0, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
      %11 = tosa.pad %9, %10, %0 : (tensor<1x8xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<1x17xf32>
      %collapsed = tensor.collapse_shape %11 [[0, 1]] : tensor<1x17xf32> into tensor<17xf32>
      %12 = func.call @f2(%arg0, %arg0, %collapsed) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<17xf32>) -> tensor<1x1x8xf32>
      %13:2 = scf.for %arg3 = %c0 to %c1 step %c1 iter_args(%arg4 = %12, %arg5 = %collapsed) -> (tensor<1x1x8xf32>, tensor<17xf32>) {
        %14 = tosa.reduce_min %12 {axis = 0 : i32} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
        %15 = tosa.const_shape  {values = dense<[1, 17, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
        %16 = tosa.reshape %11, %15 : (tensor<1x17xf32>, !tosa.shape<4>) -> tensor<1x17x1x1xf32>
        %17 = "tosa.const"() <{values = dense<[[[[-3.119000e-01], [3.013000e-01], [-1.752000e-01]]], [[[3.673000e-01], [1.138000e-01], [-4.715000e-01]]], [[[1.582000e-01], [-3.928000e-01], [-4.603000e-01]]], [[[3.636000e-01], [-2.744000e-01], [4.703000e-01]]]]> : tensor<4x1x3x1xf32>}> : () -> tensor<4x1x3x1xf32>
        %18 = "tosa.const"() <{values = dense<[3.218000e-01, 1.444000e-01, -3.353000e-01, -2.580000e-01]> : tensor<4xf32>}> : () -> tensor<4xf32>
        %19 = tosa.conv2d %16, %17, %18, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 2, 1>} : (tensor<1x17x1x1xf32>, tensor<4x1x3x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x1x4xf32>
        scf.yield %14, %arg5 : tensor<1x1x8xf32>, tensor<17xf32>
      }
      scf.yield %12 : tensor<1x1x8xf32>
    }
    %2 = tosa.const_shape  {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.reshape %arg0, %2 : (tensor<1x1x8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
    %4 = tosa.const_shape  {values = dense<[0, 0, 9, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %5 = tosa.pad %3, %4, %0 : (tensor<1x8xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<1x17xf32>
    %6 = tosa.const_shape  {values = dense<17> : tensor<1xindex>} : () -> !tosa.shape<1>
    %7 = tosa.reshape %5, %6 : (tensor<1x17xf32>, !tosa.shape<1>) -> tensor<17xf32>
    return %7, %1 : tensor<17xf32>, tensor<1x1x8xf32>
  }
  func.func @f2(%arg0: tensor<1x1x8xf32>, %arg1: tensor<1x1x8xf32>, %arg2: tensor<17xf32>) -> tensor<1x1x8xf32> {
    return %arg1 : tensor<1x1x8xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0]]]> : tensor<1x1x8xf32>
    %f:2 = call @f1(%x) : (tensor<1x1x8xf32>) -> (tensor<17xf32>, tensor<1x1x8xf32>)
    %u = tensor.cast %f#0 : tensor<17xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %v = tensor.cast %f#1 : tensor<1x1x8xf32> to tensor<*xf32>
    call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
    return
  }
}
