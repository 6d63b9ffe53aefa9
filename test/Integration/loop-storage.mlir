// Storage that bufferization creates inside loop bodies, planned as slots of
// the function's arena: a concatenation in a loop body (written into a
// top-level buffer that the loop carries, or filled first where a branch
// lies between them); a loop that reads its carried
// value after computing its successor (one slot for the value, one for the
// successor, copied back before the yield); copies and undefined tensors
// that live for one iteration (one top-level slot each); a call in a loop
// body (its result copied into a top-level slot); an scf.while updating its
// state in place (one slot). Every arena mode
// prints what plain bufferization (which allocates in every iteration)
// prints.

// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=arg" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true arena-mode=alloc" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" | helia-opt --helia-lower-copies %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --helia-memory-pipeline="lower=true lower-copies=true" | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @concat_in_loop(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @concat_in_branch_in_loop(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @read_after_write(
// IR-NOT: memref.alloc
// The successor is copied back into the carried slot right before the yield.
// IR: scf.for
// IR: linalg.copy
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @copies_in_loop(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call_in_loop(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @while_loop(
// IR-NOT: memref.alloc
// IR: return

// s = [1, 2, 3, 4]; s' = concat(s, s)[2:6] + s = [3, 4, 1, 2] + s:
// [4, 6, 4, 6], [8, 12, 8, 12], [16, 24, 16, 24].
// CHECK: {{\[\[}}16, {{ *}}24, {{ *}}16, {{ *}}24]]
// The same with the concatenation in a branch (taken: s[0] > 0).
// CHECK: {{\[\[}}16, {{ *}}24, {{ *}}16, {{ *}}24]]

// h' = h + h, p = h' * h (the old h read after h' is written), acc += p:
// h = [8, 16, 24, 32] and acc = [42, 168, 378, 672] after three steps.
// CHECK: {{\[\[}}8, {{ *}}16, {{ *}}24, {{ *}}32]]
// CHECK: {{\[\[}}42, {{ *}}168, {{ *}}378, {{ *}}672]]

// h' = (fill(2) + h with h[0] = 10) + h: [13, 6, 8, 10], [25, 14, 18, 22],
// [37, 30, 38, 46].
// CHECK: {{\[\[}}37, {{ *}}30, {{ *}}38, {{ *}}46]]

// h' = step(h) + h = 3h: [27, 54, 81, 108] after three steps.
// CHECK: {{\[\[}}27, {{ *}}54, {{ *}}81, {{ *}}108]]

// h' = 2h while h[0] < 20: [32, 64, 96, 128].
// CHECK: [32, {{ *}}64, {{ *}}96, {{ *}}128]

module {
  func.func @concat_in_loop(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %x) -> (tensor<1x4xf32>) {
      %cat = tensor.concat dim(1) %s, %s : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
      %half = tensor.extract_slice %cat[0, 2] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
      %e = tensor.empty() : tensor<1x4xf32>
      %n = linalg.add ins(%half, %s : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n : tensor<1x4xf32>
    }
    return %r : tensor<1x4xf32>
  }

  func.func @concat_in_branch_in_loop(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %x) -> (tensor<1x4xf32>) {
      %first = tensor.extract %s[%c0, %c0] : tensor<1x4xf32>
      %positive = arith.cmpf ogt, %first, %zero : f32
      %y = scf.if %positive -> (tensor<1x4xf32>) {
        %cat = tensor.concat dim(1) %s, %s : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
        %half = tensor.extract_slice %cat[0, 2] [1, 4] [1, 1] : tensor<1x8xf32> to tensor<1x4xf32>
        scf.yield %half : tensor<1x4xf32>
      } else {
        scf.yield %s : tensor<1x4xf32>
      }
      %e = tensor.empty() : tensor<1x4xf32>
      %n = linalg.add ins(%y, %s : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n : tensor<1x4xf32>
    }
    return %r : tensor<1x4xf32>
  }

  func.func @read_after_write(%h0: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %acc0 = arith.constant dense<0.0> : tensor<1x4xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0, %acc = %acc0) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
      %e = tensor.empty() : tensor<1x4xf32>
      %n = linalg.add ins(%h, %h : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      %e2 = tensor.empty() : tensor<1x4xf32>
      %p = linalg.mul ins(%n, %h : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e2 : tensor<1x4xf32>) -> tensor<1x4xf32>
      %a = linalg.add ins(%acc, %p : tensor<1x4xf32>, tensor<1x4xf32>) outs(%acc : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n, %a : tensor<1x4xf32>, tensor<1x4xf32>
    }
    return %r#0, %r#1 : tensor<1x4xf32>, tensor<1x4xf32>
  }

  func.func @copies_in_loop(%x: tensor<1x4xf32>, %c: tensor<1x1xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %two = arith.constant 2.0 : f32
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<1x4xf32>) {
      %f = linalg.fill ins(%two : f32) outs(%h : tensor<1x4xf32>) -> tensor<1x4xf32>
      %t = tensor.insert_slice %c into %h[0, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x4xf32>
      %e = tensor.empty() : tensor<1x4xf32>
      %s = linalg.add ins(%f, %t : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      %n = linalg.add ins(%s, %h : tensor<1x4xf32>, tensor<1x4xf32>) outs(%h : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n : tensor<1x4xf32>
    }
    return %r : tensor<1x4xf32>
  }

  func.func @step(%h: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %e = tensor.empty() : tensor<1x4xf32>
    %d = linalg.add ins(%h, %h : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    return %d : tensor<1x4xf32>
  }

  func.func @call_in_loop(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<1x4xf32>) {
      %d = func.call @step(%h) : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %e = tensor.empty() : tensor<1x4xf32>
      %n = linalg.add ins(%d, %h : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
      scf.yield %n : tensor<1x4xf32>
    }
    return %r : tensor<1x4xf32>
  }

  func.func @while_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %limit = arith.constant 20.0 : f32
    %r = scf.while (%h = %x) : (tensor<4xf32>) -> tensor<4xf32> {
      %first = tensor.extract %h[%c0] : tensor<4xf32>
      %go = arith.cmpf olt, %first, %limit : f32
      scf.condition(%go) %h : tensor<4xf32>
    } do {
    ^bb0(%h: tensor<4xf32>):
      %n = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%h : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }

  func.func @main() attributes {helia.unplanned} {
    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
    %r = call @concat_in_loop(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %u = tensor.cast %r : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %b = call @concat_in_branch_in_loop(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %ub = tensor.cast %b : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%ub) : (tensor<*xf32>) -> ()
    %h, %acc = call @read_after_write(%x) : (tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
    %uh = tensor.cast %h : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%uh) : (tensor<*xf32>) -> ()
    %ua = tensor.cast %acc : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
    %c = arith.constant dense<[[10.0]]> : tensor<1x1xf32>
    %y = call @copies_in_loop(%x, %c) : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
    %uy = tensor.cast %y : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%uy) : (tensor<*xf32>) -> ()
    %z = call @call_in_loop(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %uz = tensor.cast %z : tensor<1x4xf32> to tensor<*xf32>
    call @printMemrefF32(%uz) : (tensor<*xf32>) -> ()
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %w = call @while_loop(%v) : (tensor<4xf32>) -> tensor<4xf32>
    %uw = tensor.cast %w : tensor<4xf32> to tensor<*xf32>
    call @printMemrefF32(%uw) : (tensor<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(tensor<*xf32>)
}
