// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// @branch_yield_for: an scf.for carries an scf.if result that is, in one
// branch, an inner loop's result (whose init is One-Shot's copy of an
// argument, made in the body) and, in the other, a fresh value (reduced
// from fuzzer seed 231's class). Each is a buffer created in the
// iteration; the loop writes the branch's result back into its carried
// slot before the yield (copyYieldsIntoIterArgs follows the branches of an
// scf.if to that buffer, RegionCopies.cpp), and both buffers become slots
// live at the loop's step.

// IR-LABEL: func.func @branch_yield_for(
// IR-NOT: memref.alloc
// IR: scf.for
// IR: scf.if
// IR: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[B:.*]] : memref<8xf32>)
// IR-NEXT: scf.yield %{{.*}}, %[[B]]
// IR-NOT: memref.alloc
// IR: return

// The two arguments, the constant, the two carried values, the copy of %y
// for the inner loop and the fresh value of the branch, live at the loop's
// step (the latter over %x's bytes, which the loop's init copied already).
// SLOTS-LABEL: function @branch_yield_for
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 8], @scratch_dtcm + [[X:[0-9]+]]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 11]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 12]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [8, 12]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #8
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [9, 11]
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [10, 11], @scratch_dtcm + [[X]]
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: arena @scratch_dtcm: 160 bytes

// (a, b) from (x, x): (12 x, 11 x) with y + a picked, then (21 x, 10 x)
// and (20 x, 10 x) with y picked.
// CHECK: [20,  40,  60,  80,  100,  120,  140,  160]
// CHECK: [10,  20,  30,  40,  50,  60,  70,  80]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @branch_yield_for(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %limit = arith.constant 2.5 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %x) -> (tensor<8xf32>, tensor<8xf32>) {
      %w:2 = scf.while (%k = %c0, %t = %y) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
        %go = arith.cmpi slt, %k, %c2 : index
        scf.condition(%go) %k, %t : index, tensor<8xf32>
      } do {
      ^bb0(%k1: index, %t1: tensor<8xf32>):
        %k2 = arith.addi %k1, %c1 : index
        scf.yield %k2, %t1 : index, tensor<8xf32>
      }
      %first = tensor.extract %a[%c0] : tensor<8xf32>
      %p = arith.cmpf ogt, %first, %limit : f32
      %c = scf.if %p -> (tensor<8xf32>) {
        scf.yield %w#1 : tensor<8xf32>
      } else {
        %e = tensor.empty() : tensor<8xf32>
        %s = linalg.add ins(%w#1, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %n = linalg.add ins(%c, %b : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %n, %c : tensor<8xf32>, tensor<8xf32>
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
    %y = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]> : tensor<8xf32>
    %f:2 = call @branch_yield_for(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%f#0) : (tensor<8xf32>) -> ()
    call @print(%f#1) : (tensor<8xf32>) -> ()
    return
  }
}
