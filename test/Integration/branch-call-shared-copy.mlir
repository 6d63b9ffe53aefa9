// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// One copy, made in a branch, that a call and another op both use
// (reduced from fuzzer seeds 199 and 890): the loop after the call writes
// the padded value's buffer (it copies its successor back into it), so
// copy insertion copies the reshape of that value, and every use of the
// reshape (the call and the loop's second init) reads the copy.
//
// - @shared_copy_planned: the callee is planned, so it never writes into
//   its arguments; the copy is a copy into a top-level slot live at the
//   branch's step, which the call reads (one copy, as One-Shot makes);
// - @shared_copy_unplanned: the callee is not planned and may write into
//   its argument; the call gets a copy of its own, made at the same point
//   from the same source and handed over writable, and the loop reads the
//   other (hoistRegionStorage, RegionCopies.cpp).

// IR-LABEL: func.func @shared_copy_planned(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: linalg.copy ins(%{{.*}} : memref<3x4xf32>) outs(%[[C:.*]] : memref<3x4xf32>)
// IR-NEXT: call @twice(%[[C]])
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @shared_copy_unplanned(
// IR-NOT: memref.alloc
// IR: scf.if
// IR: linalg.copy ins(%[[V:.*]] : memref<3x4xf32>) outs(%[[C1:.*]] : memref<3x4xf32>)
// IR-NEXT: linalg.copy ins(%[[V]] : memref<3x4xf32>) outs(%{{.*}} : memref<3x4xf32>)
// IR-NEXT: call @twice_unplanned(%[[C1]])
// IR-NOT: memref.alloc
// IR: return

// The argument, then five buffers of 48 bytes (the padded value, the one
// copy, the loop's successor, the results); @shared_copy_unplanned has one
// more, the call's own copy.
// SLOTS-LABEL: function @shared_copy_planned
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #0
// SLOTS-COUNT-5: buffer {{[0-9]+}}: scratch, 48 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @shared_copy_unplanned
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #0
// SLOTS-COUNT-6: buffer {{[0-9]+}}: scratch, 48 bytes
// SLOTS-NOT: buffer

// x = 1..8 (then branch): twice the padded x, twice, the padded x.
// CHECK: [0,  0,  2,  4,  6,  8,  10,  12,  14,  16,  0,  0]
// CHECK: [0,  0,  2,  4,  6,  8,  10,  12,  14,  16,  0,  0]
// CHECK: {{\[}}[0,   0,   1,   2],
// CHECK-NEXT: [3,   4,   5,   6],
// CHECK-NEXT: [7,   8,   0,   0]]
// -x (else branch): -x padded at the end, three times.
// CHECK: [-1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  0,  0,  0,  0]
// CHECK: [-1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  0,  0,  0,  0]
// CHECK: {{\[}}[-1,   -2,   -3,   -4],
// The same from @shared_copy_unplanned.
// CHECK: [0,  0,  2,  4,  6,  8,  10,  12,  14,  16,  0,  0]
// CHECK: [0,  0,  2,  4,  6,  8,  10,  12,  14,  16,  0,  0]
// CHECK: {{\[}}[0,   0,   1,   2],
// CHECK: [-1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  0,  0,  0,  0]
// CHECK: [-1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  0,  0,  0,  0]
// CHECK: {{\[}}[-1,   -2,   -3,   -4],

module attributes {helia.platform = "apollo510_evb"} {
  func.func @twice(%b: tensor<3x4xf32>) -> tensor<12xf32> {
    %c = tensor.collapse_shape %b [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
    %e = tensor.empty() : tensor<12xf32>
    %s = linalg.add ins(%c, %c : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) -> tensor<12xf32>
    return %s : tensor<12xf32>
  }
  func.func @twice_unplanned(%b: tensor<3x4xf32>) -> tensor<12xf32> attributes {helia.unplanned} {
    %c = tensor.collapse_shape %b [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
    %e = tensor.empty() : tensor<12xf32>
    %s = linalg.add ins(%c, %c : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) -> tensor<12xf32>
    return %s : tensor<12xf32>
  }
  // The loop's results are unused: it only writes the padded value's buffer.
  func.func @shared_copy_planned(%x: tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %first = tensor.extract %x[%c0] : tensor<8xf32>
    %p = arith.cmpf ogt, %first, %zero : f32
    %r:3 = scf.if %p -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>) {
      %pad = tensor.pad %x low[2] high[2] {
      ^bb0(%i: index):
        tensor.yield %zero : f32
      } : tensor<8xf32> to tensor<12xf32>
      %v = tensor.expand_shape %pad [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
      %w = func.call @twice(%v) : (tensor<3x4xf32>) -> tensor<12xf32>
      %l:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %pad, %b = %v) -> (tensor<12xf32>, tensor<3x4xf32>) {
        %e = tensor.empty() : tensor<12xf32>
        %n = linalg.add ins(%a, %a : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) -> tensor<12xf32>
        scf.yield %n, %b : tensor<12xf32>, tensor<3x4xf32>
      }
      scf.yield %w, %w, %v : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
    } else {
      %pad = tensor.pad %x low[0] high[4] {
      ^bb0(%i: index):
        tensor.yield %zero : f32
      } : tensor<8xf32> to tensor<12xf32>
      %v = tensor.expand_shape %pad [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
      scf.yield %pad, %pad, %v : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
    }
    return %r#0, %r#1, %r#2 : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
  }
  func.func @shared_copy_unplanned(%x: tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %first = tensor.extract %x[%c0] : tensor<8xf32>
    %p = arith.cmpf ogt, %first, %zero : f32
    %r:3 = scf.if %p -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>) {
      %pad = tensor.pad %x low[2] high[2] {
      ^bb0(%i: index):
        tensor.yield %zero : f32
      } : tensor<8xf32> to tensor<12xf32>
      %v = tensor.expand_shape %pad [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
      %w = func.call @twice_unplanned(%v) : (tensor<3x4xf32>) -> tensor<12xf32>
      %l:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %pad, %b = %v) -> (tensor<12xf32>, tensor<3x4xf32>) {
        %e = tensor.empty() : tensor<12xf32>
        %n = linalg.add ins(%a, %a : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) -> tensor<12xf32>
        scf.yield %n, %b : tensor<12xf32>, tensor<3x4xf32>
      }
      scf.yield %w, %w, %v : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
    } else {
      %pad = tensor.pad %x low[0] high[4] {
      ^bb0(%i: index):
        tensor.yield %zero : f32
      } : tensor<8xf32> to tensor<12xf32>
      %v = tensor.expand_shape %pad [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
      scf.yield %pad, %pad, %v : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
    }
    return %r#0, %r#1, %r#2 : tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @print(%t: tensor<12xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<12xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @print2(%t: tensor<3x4xf32>) attributes {helia.unplanned} {
    %u = tensor.cast %t : tensor<3x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %n = arith.constant dense<[-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0]> : tensor<8xf32>
    %a:3 = call @shared_copy_planned(%x) : (tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>)
    call @print(%a#0) : (tensor<12xf32>) -> ()
    call @print(%a#1) : (tensor<12xf32>) -> ()
    call @print2(%a#2) : (tensor<3x4xf32>) -> ()
    %b:3 = call @shared_copy_planned(%n) : (tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>)
    call @print(%b#0) : (tensor<12xf32>) -> ()
    call @print(%b#1) : (tensor<12xf32>) -> ()
    call @print2(%b#2) : (tensor<3x4xf32>) -> ()
    %c:3 = call @shared_copy_unplanned(%x) : (tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>)
    call @print(%c#0) : (tensor<12xf32>) -> ()
    call @print(%c#1) : (tensor<12xf32>) -> ()
    call @print2(%c#2) : (tensor<3x4xf32>) -> ()
    %d:3 = call @shared_copy_unplanned(%n) : (tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<3x4xf32>)
    call @print(%d#0) : (tensor<12xf32>) -> ()
    call @print(%d#1) : (tensor<12xf32>) -> ()
    call @print2(%d#2) : (tensor<3x4xf32>) -> ()
    return
  }
}
