// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A loop body's scf.if yields one value for both of its results in one
// branch and the loop's iter_arg for one of them in the other (seed 33 of
// `run.py --control-flow 2`, also 7101). One-Shot Analysis would put the
// iter_arg and the value the other result yields (%v, read again in the
// next iteration) in one alias set, so the update of the iter_arg could not
// be in place, nor a copy back into it: a buffer per iteration. The branch
// yields a copy for its second result instead (one top-level slot), and the
// loop updates its carried slot in place.

// IR-LABEL: func.func @yielded_twice(
// IR-NOT: memref.alloc
// IR: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]+]] =
// IR: scf.if
// IR: linalg.add
// IR-NEXT: linalg.copy
// IR: } else {
// IR: linalg.add
// IR: linalg.add {{.*}} outs(%[[ACC]] :
// IR-NEXT: scf.yield %[[ACC]]
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): %x, %v, the sum %a, the carried value (its
// init and the loop's result), the branch's %m and the copy of %m it
// yields for its second result.
// SLOTS-LABEL: function @yielded_twice
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 11]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 11]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 11]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [10, 11]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: arena @scratch_dtcm: 160 bytes

// x = [1, ..., 8], v = 2 x; first iteration (acc = 2 x, small): m = 4 x,
// a = 8 x, acc = 16 x; second (not small): a = v + acc = 18 x, acc = 36 x.
// CHECK: [36,  72,  108,  144,  180,  216,  252,  288]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @yielded_twice(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ten = arith.constant 10.0 : f32
    %e0 = tensor.empty() : tensor<8xf32>
    %v = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %v) -> tensor<8xf32> {
      %first = tensor.extract %acc[%c0] : tensor<8xf32>
      %small = arith.cmpf olt, %first, %ten : f32
      %y:2 = scf.if %small -> (tensor<8xf32>, tensor<8xf32>) {
        %e = tensor.empty() : tensor<8xf32>
        %m = linalg.add ins(%acc, %v : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %m, %m : tensor<8xf32>, tensor<8xf32>
      } else {
        scf.yield %v, %acc : tensor<8xf32>, tensor<8xf32>
      }
      %e2 = tensor.empty() : tensor<8xf32>
      %a = linalg.add ins(%y#1, %y#0 : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
      %n = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n : tensor<8xf32>
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
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %r = call @yielded_twice(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%r) : (tensor<8xf32>) -> ()
    return
  }
}
