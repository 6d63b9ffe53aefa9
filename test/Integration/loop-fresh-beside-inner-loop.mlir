// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A branch in a loop body that yields, for the value the loop carries, an
// inner loop's result (stored in the carried buffer) in one branch and a
// new value, computed into a tensor.empty of the branch, in the other
// (reduced from fuzzer seed 532 of `run.py --control-flow 2`). Moved out
// of the loop before One-Shot Analysis, the empty would be a value of the
// function body in the carried buffer's alias set, and One-Shot would copy
// whatever the loop yields, the copy back included, in every iteration.
// The empty is an alloc_tensor of the branch for the analysis instead
// (allocateFreshValuesYieldedBesideCarried, RegionCopies.cpp); the new
// value is copied back into the carried slot before the yield, and its
// buffer becomes a slot live at the loop's step once the analysis is done.

// IR-LABEL: func.func @fresh_beside_inner_loop(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: linalg.copy
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): the argument, the constant, the carried value
// (its init's copy, the iter_arg and the loop's result), then x + 1 and the
// branch's new value, live at the loop's step only.
// SLOTS-LABEL: function @fresh_beside_inner_loop
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 11]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [10, 11]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: arena @scratch_dtcm: 96 bytes

// it = 2 (it + 1) while it[0] < 3.5 (twice), then it kept by the inner loop.
// CHECK: [8,  14,  18,  22,  26,  30,  34,  38]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @fresh_beside_inner_loop(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %limit = arith.constant 3.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %e0 = tensor.empty() : tensor<8xf32>
    %init = linalg.copy ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %init) -> (tensor<8xf32>) {
      %e1 = tensor.empty() : tensor<8xf32>
      %d = linalg.add ins(%it, %one : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
      %v = tensor.extract %it[%c0] : tensor<8xf32>
      %p = arith.cmpf olt, %v, %limit : f32
      %b = scf.if %p -> (tensor<8xf32>) {
        %e2 = tensor.empty() : tensor<8xf32>
        %n = linalg.add ins(%d, %d : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      } else {
        %l = scf.for %j = %c0 to %c2 step %c1 iter_args(%jt = %it) -> (tensor<8xf32>) {
          scf.yield %jt : tensor<8xf32>
        }
        scf.yield %l : tensor<8xf32>
      }
      scf.yield %b : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[0.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %f = call @fresh_beside_inner_loop(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    return
  }
}
