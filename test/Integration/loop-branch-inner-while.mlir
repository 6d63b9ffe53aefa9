// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa})" | helia-opt -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// Fuzzer seed 923 of `run.py --control-flow 2`, reduced (and given
// conditions that run every region): an scf.for carrying two values whose
// body holds a branch that yields, for one result, a new value in one
// region and, in the other, the result of an inner scf.while that carries
// the loop's second value (and copies back into it). The new value's
// tensor.empty, moved out of the loop before the analysis, would join the
// carried buffer's alias set through the branch, and One-Shot would copy
// the loop's yield in every iteration. collectStorageRoots follows an
// scf.while's result to its init as it does an scf.for's, so the branch
// counts as yielding the carried value and the empty stays a buffer of the
// iteration for the analysis (allocateFreshValuesYieldedBesideCarried).

// IR-LABEL: func.func @f0(
// IR-NOT: memref.alloc
// IR: return

// The argument, the constants, the two carried values (each its init's
// copy and the loop's result), and every other buffer of the loop body in
// a slot live at the loop's step.
// SLOTS-LABEL: function @f0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 96 bytes, steps [0, 21]
// SLOTS-NEXT:   tensor #0
// SLOTS-COUNT-4: buffer {{[0-9]+}}: constant,
// SLOTS: buffer {{[0-9]+}}: scratch, 96 bytes, steps [9, 22]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT:   tensor #17
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 96 bytes, steps [10, 22]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT:   tensor #18
// SLOTS-COUNT-10: buffer {{[0-9]+}}: scratch, 96 bytes, steps [{{1[1-9]|20}}, 21]
// SLOTS-NOT: buffer
// SLOTS: arena @scratch_dtcm: 1248 bytes

// CHECK:      [0.0673,     3.5567,     8.6703,     16.43],
// CHECK-NEXT: [24.5112,     36.5786,     48.3338,     63.7716]],
// CHECK-NEXT: [-0.6827,     1.8067,     5.9203,     12.68],
// CHECK-NEXT: [19.7612,     30.8286,     41.5838,     56.0216]],
// CHECK-NEXT: [3.0673,     0.5567,     -0.3297,     1.43],
// CHECK-NEXT: [3.5112,     9.5786,     15.3338,     24.7716]]]]
// CHECK:      [0.0673,     3.5567,     8.6703,     16.43],
// CHECK-NEXT: [24.5112,     36.5786,     48.3338,     63.7716]],
// CHECK-NEXT: [-0.6827,     1.8067,     5.9203,     12.68],
// CHECK-NEXT: [19.7612,     30.8286,     41.5838,     56.0216]],
// CHECK-NEXT: [3.0673,     0.5567,     -0.3297,     1.43],
// CHECK-NEXT: [3.5112,     9.5786,     15.3338,     24.7716]]]]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @f0(%arg0: tensor<1x3x2x4xf32>) -> (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %2:2 = scf.for %arg1 = %c0 to %c3 step %c1 iter_args(%arg2 = %arg0, %arg3 = %arg0) -> (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) {
      %3 = tosa.mul %arg3, %arg0, %1 : (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1xi8>) -> tensor<1x3x2x4xf32>
      %4 = arith.cmpf ogt, %cst, %cst : f32
      %first = tensor.extract %arg3[%c0, %c0, %c0, %c0] : tensor<1x3x2x4xf32>
      %p = arith.cmpf olt, %first, %cst : f32
      %5 = scf.if %p -> (tensor<1x3x2x4xf32>) {
        %7:2 = scf.if %p -> (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) {
          scf.yield %3, %3 : tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
        } else {
          %9 = tosa.clamp %arg3 {max_val = 2.000000e+00 : f32, min_val = -2.000000e+00 : f32} : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf32>
          scf.yield %9, %9 : tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
        }
        %8 = tosa.sub %7#0, %7#1 : (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf32>
        scf.yield %8 : tensor<1x3x2x4xf32>
      } else {
        %7 = tosa.negate %arg3, %0, %0 : (tensor<1x3x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2x4xf32>
        %8:3 = scf.while (%arg4 = %c0, %arg5 = %3, %arg6 = %arg3) : (index, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) -> (index, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) {
          %go = arith.cmpi slt, %arg4, %c1 : index
          scf.condition(%go) %arg4, %arg5, %arg6 : index, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
        } do {
        ^bb0(%arg4: index, %arg5: tensor<1x3x2x4xf32>, %arg6: tensor<1x3x2x4xf32>):
          %9 = tosa.cast %7 : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xi32>
          %10 = tosa.cast %9 : (tensor<1x3x2x4xi32>) -> tensor<1x3x2x4xf32>
          %11 = arith.addi %arg4, %c1 : index
          scf.yield %11, %10, %10 : index, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
        }
        scf.yield %8#2 : tensor<1x3x2x4xf32>
      }
      %6:2 = scf.while (%arg4 = %c0, %arg5 = %arg2) : (index, tensor<1x3x2x4xf32>) -> (index, tensor<1x3x2x4xf32>) {
        %go = arith.cmpi slt, %arg4, %c1 : index
        scf.condition(%go) %arg4, %arg5 : index, tensor<1x3x2x4xf32>
      } do {
      ^bb0(%arg4: index, %arg5: tensor<1x3x2x4xf32>):
        %7 = scf.if %p -> (tensor<1x3x2x4xf32>) {
          %9 = "tosa.const"() <{values = dense<[[[[-0.932699978, -4.433000e-01, -3.297000e-01, 4.300000e-01], [-4.888000e-01, 5.786000e-01, -0.666199982, -2.284000e-01]]]]> : tensor<1x1x2x4xf32>}> : () -> tensor<1x1x2x4xf32>
          %10 = tosa.add %9, %3 : (tensor<1x1x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf32>
          scf.yield %10 : tensor<1x3x2x4xf32>
        } else {
          %9 = "tosa.const"() <{values = dense<[[[[-0.89319998, -4.715000e-01, -6.170000e-01, -3.253000e-01], [-0.762899994, 0.913999974, -0.842999994, 5.120000e-01]]]]> : tensor<1x1x2x4xf32>}> : () -> tensor<1x1x2x4xf32>
          %10 = tosa.maximum %9, %arg2 : (tensor<1x1x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf32>
          scf.yield %10 : tensor<1x3x2x4xf32>
        }
        %8 = arith.addi %arg4, %c1 : index
        scf.yield %8, %7 : index, tensor<1x3x2x4xf32>
      }
      scf.yield %6#1, %6#1 : tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
    }
    return %2#0, %2#1 : tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<1x3x2x4xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<1x3x2x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[[[-1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], [[0.5, 1.5, 2.5, 3.5], [4.5, 5.5, 6.5, 7.5]], [[-2.0, 1.0, 0.0, 1.0], [2.0, 3.0, 4.0, 5.0]]]]> : tensor<1x3x2x4xf32>
    %f:2 = call @f0(%x) : (tensor<1x3x2x4xf32>) -> (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>)
    call @print(%f#0) : (tensor<1x3x2x4xf32>) -> ()
    call @print(%f#1) : (tensor<1x3x2x4xf32>) -> ()
    return
  }
}
