// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// A loop whose copies back read each other's carried buffers: each of two
// branches yields, for one carried value, the other carried value or a new
// one, so the values may trade places (a swap that only the branches show;
// reduced from fuzzer seeds 1436 and 1683 of `run.py --control-flow 2`).
// The copies back are ordered by the carried buffers their values may be
// stored in (collectStorageRoots: through branches, views, destinations and
// inner loops), and where they form a cycle, the value of the first is
// copied into a slot of its own, live at the loop's step, and copied back
// from there last (copyYieldsIntoIterArgs, RegionCopies.cpp). One-Shot
// Analysis alone would write the first copy back out of place, into a
// buffer of every iteration.

// IR-LABEL: func.func @swap_in_branches(
// IR-NOT: memref.alloc
// IR: scf.for {{.*}} iter_args(%[[A:[a-z0-9_]+]] = %{{.*}}, %[[B:[a-z0-9_]+]] = %
// IR: %[[C:[0-9]+]] = scf.if
// IR: %[[D:[0-9]+]] = scf.if
// IR: linalg.copy ins(%[[C]] : memref<8xf32>) outs(%[[T:[a-z0-9_]+]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[D]] : memref<8xf32>) outs(%[[B]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[T]] : memref<8xf32>) outs(%[[A]] : memref<8xf32>)
// IR-NEXT: scf.yield %[[A]], %[[B]]
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): the two arguments, the two carried values
// (each its init's copy and the loop's result), then the two new values
// and the saved one, live at the loop's step only.
// SLOTS-LABEL: function @swap_in_branches
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 5]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 11]
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 11]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 10]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 10]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 10]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: arena @scratch_dtcm: 160 bytes

// (x, y) swapped while a[0] < 10 (once), then (2 a, b - a) twice: (4 y,
// x - 3 y).
// CHECK: [80,  120,  160,  200,  240,  280,  320,  360]
// CHECK: [-59,  -88,  -117,  -146,  -175,  -204,  -233,  -262]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @swap_in_branches(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 10.0 : f32
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %y) -> (tensor<8xf32>, tensor<8xf32>) {
      %v = tensor.extract %a[%c0] : tensor<8xf32>
      %p = arith.cmpf olt, %v, %limit : f32
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %b : tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %d = scf.if %p -> (tensor<8xf32>) {
        scf.yield %a : tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.sub ins(%b, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      scf.yield %c, %d : tensor<8xf32>, tensor<8xf32>
    }
    return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %y = arith.constant dense<[20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]> : tensor<8xf32>
    %f:2 = call @swap_in_branches(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%f#0) : (tensor<8xf32>) -> ()
    call @print(%f#1) : (tensor<8xf32>) -> ()
    return
  }
}
