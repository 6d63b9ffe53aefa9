// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa})" | helia-opt -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// Fuzzer seed 1484 of `run.py --control-flow 2`, reduced (its branch given
// a condition that is true): an scf.for in an scf.while carries two
// values; a branch yields, for the first, an inner scf.while's result or
// the first value itself, and the loop yields that result for the second.
// Both are copied back before the yield; One-Shot Analysis puts the first
// carried buffer and the inner while's result in one alias set (through
// the branch), so the copy back into the first would overwrite, for all it
// knows, the value the second copy reads. The copies back are ordered by
// what One-Shot may see in each carried buffer (copyYieldsIntoIterArgs,
// RegionCopies.cpp): the second goes first, and both are in place, where
// One-Shot would otherwise write the first into a buffer of every
// iteration.

// IR-LABEL: func.func @f2(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: scf.while
// IR: %[[P:[0-9]+]] = scf.if
// IR: linalg.copy ins(%{{[0-9]+}}#1 : memref<20xf32>)
// IR-NEXT: linalg.copy ins(%[[P]] : memref<20xf32>)
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return

// The argument and its view, the two values the outer while carries, the
// two the for carries, the inner while's, the condition's mask and the
// clamps: every one a slot, none per iteration.
// SLOTS-LABEL: function @f2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 80 bytes, steps [0, 14]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 80 bytes, steps [7, 15]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #9
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 80 bytes, steps [8, 15]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #10
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 80 bytes, steps [{{9|10}}, 14]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 20 bytes, steps [11, 14]
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 80 bytes, steps [{{12|13}}, 14]
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: arena @scratch_dtcm: 592 bytes

// The argument clamped to [-1, 1] (the branch takes the inner while's
// result while the first element is negative), then the argument.
// CHECK: [-1,  0.25,  1,  -0.5,  1,  -1,  0.75,  0.5,  -0.25,  1,  -1,  1,  0.1,  -0.1,  0.9,  -0.9,  1,  -1,  0.3,  -0.3]
// CHECK: [-1.5,  0.25,  2,  -0.5,  1,  -3,  0.75,  0.5,  -0.25,  1.5,  -2,  3,  0.1,  -0.1,  0.9,  -0.9,  4,  -4,  0.3,  -0.3]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @f2(%arg0: tensor<20xf32>) -> (tensor<20xf32>, tensor<5x2x2xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %expanded = tensor.expand_shape %arg0 [[0, 1, 2]] output_shape [5, 2, 2] : tensor<20xf32> into tensor<5x2x2xf32>
    %0:3 = scf.while (%arg1 = %c0, %arg2 = %expanded, %arg3 = %arg0) : (index, tensor<5x2x2xf32>, tensor<20xf32>) -> (index, tensor<5x2x2xf32>, tensor<20xf32>) {
      %1 = arith.cmpi slt, %arg1, %c2 : index
      scf.condition(%1) %arg1, %arg2, %arg3 : index, tensor<5x2x2xf32>, tensor<20xf32>
    } do {
    ^bb0(%arg1: index, %arg2: tensor<5x2x2xf32>, %arg3: tensor<20xf32>):
      %1:2 = scf.for %arg4 = %c0 to %c3 step %c1 iter_args(%arg5 = %arg3, %arg6 = %arg0) -> (tensor<20xf32>, tensor<20xf32>) {
        %3:2 = scf.while (%arg7 = %c0, %arg8 = %arg0) : (index, tensor<20xf32>) -> (index, tensor<20xf32>) {
          %6 = arith.cmpi slt, %arg7, %c2 : index
          scf.condition(%6) %arg7, %arg8 : index, tensor<20xf32>
        } do {
        ^bb0(%arg7: index, %arg8: tensor<20xf32>):
          %6 = tosa.clamp %arg8 {max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32} : (tensor<20xf32>) -> tensor<20xf32>
          %7 = arith.addi %arg7, %c1 : index
          scf.yield %7, %6 : index, tensor<20xf32>
        }
        %first = tensor.extract %arg5[%c0] : tensor<20xf32>
        %4 = arith.cmpf olt, %first, %cst : f32
        %5 = scf.if %4 -> (tensor<20xf32>) {
          scf.yield %3#1 : tensor<20xf32>
        } else {
          %6 = tosa.greater %arg3, %arg5 : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
          %7 = tosa.select %6, %arg5, %arg5 : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
          scf.yield %7 : tensor<20xf32>
        }
        scf.yield %5, %3#1 : tensor<20xf32>, tensor<20xf32>
      }
      %2 = arith.addi %arg1, %c1 : index
      scf.yield %2, %arg2, %1#0 : index, tensor<5x2x2xf32>, tensor<20xf32>
    }
    return %0#2, %0#1 : tensor<20xf32>, tensor<5x2x2xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[-1.5, 0.25, 2.0, -0.5, 1.0, -3.0, 0.75, 0.5, -0.25, 1.5, -2.0, 3.0, 0.1, -0.1, 0.9, -0.9, 4.0, -4.0, 0.3, -0.3]> : tensor<20xf32>
    %f:2 = call @f2(%x) : (tensor<20xf32>) -> (tensor<20xf32>, tensor<5x2x2xf32>)
    %u = tensor.cast %f#0 : tensor<20xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %c = tensor.collapse_shape %f#1 [[0, 1, 2]] : tensor<5x2x2xf32> into tensor<20xf32>
    %v = tensor.cast %c : tensor<20xf32> to tensor<*xf32>
    call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
    return
  }
}
