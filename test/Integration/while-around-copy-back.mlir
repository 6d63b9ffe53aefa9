// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// An scf.while whose body yields the result of an inner scf.for that
// computes each value beside its iter_arg, and so copies it back (reduced
// from fuzzer seeds 837 and 1433 of `run.py --control-flow 2`). One-Shot
// Analysis first sees the inner loop yield a new buffer, so the while's
// yield is not its after-region argument's, and it copies the argument in
// the condition, a buffer per iteration; once the inner loop copies back
// into its carried buffer (copyYieldsIntoIterArgs, RegionCopies.cpp), that
// copy goes, and the analysis that follows decides again: the while keeps
// one slot, which the inner loop writes back into.

// IR-LABEL: func.func @while_around_copy_back(
// IR-NOT: memref.alloc
// IR: scf.condition(%{{.*}}) %{{.*}}, %[[A:[a-z0-9_]+]] : index, memref<8xf32>
// IR: scf.for
// IR: linalg.copy
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): the argument, the carried value (the init's
// copy, the while's and the for's iter_args, the for's result), and the
// for's new value, live at the inner loop's step only.
// SLOTS-LABEL: function @while_around_copy_back
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 9]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 8]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: arena @scratch_dtcm: 64 bytes

// x reversed plus 1, six times: x + 6.
// CHECK: [7,  8,  9,  10,  11,  12,  13,  14]

#id = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (-d0 + 7)>
module attributes {helia.platform = "apollo510_evb"} {
  func.func @while_around_copy_back(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %e0 = tensor.empty() : tensor<8xf32>
    %init = linalg.copy ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
    %r:2 = scf.while (%k = %c0, %a = %init) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>):
      %l = scf.for %j = %c0 to %c2 step %c1 iter_args(%t = %a1) -> (tensor<8xf32>) {
        %e = tensor.empty() : tensor<8xf32>
        %n = linalg.generic {indexing_maps = [#rev, #id], iterator_types = ["parallel"]} ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) {
        ^bb0(%v: f32, %o: f32):
          %one = arith.constant 1.0 : f32
          %s = arith.addf %v, %one : f32
          linalg.yield %s : f32
        } -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      }
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %l : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<8xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %f = call @while_around_copy_back(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%f) : (tensor<8xf32>) -> ()
    return
  }
}
