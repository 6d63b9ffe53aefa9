// RUN: helia-opt %s -split-input-file -helia-insert-tensor-copies | FileCheck %s

// A recurrent state computed anew in every iteration: the new state is
// written into the buffer the loop carries (the old one is read before), and
// each temporary of the body gets its own empty tensor and fill, hoisted
// before the loop. No copy is left inside the loop.

// CHECK-LABEL: func.func @recurrence(
// CHECK-COUNT-2: tensor.empty() : tensor<1x4xf32>
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}})
// CHECK: %[[FILL1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1:.*]] : tensor<1x4xf32>)
// CHECK: %[[FILL2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2:.*]] : tensor<1x4xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[H]], %{{.*}} : {{.*}}) outs(%[[FILL1]] : tensor<1x4xf32>)
// CHECK: %[[N:.*]] = linalg.matmul ins(%[[H]], %{{.*}} : {{.*}}) outs(%[[FILL2]] : tensor<1x4xf32>)
// The new cell state is computed into the old one's buffer (read by this
// very op, element for element) ...
// CHECK: %[[C2:.*]] = linalg.add ins(%[[C]], %[[M]] : {{.*}}) outs(%[[C]] : tensor<1x4xf32>)
// ... and the new hidden state into the hidden state's.
// CHECK: %[[H2:.*]] = linalg.add ins(%[[N]], %[[C2]] : {{.*}}) outs(%[[H]] : tensor<1x4xf32>)
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: scf.yield %[[H2]], %[[C2]]
func.func @recurrence(%h0: tensor<1x4xf32>, %w: tensor<4x4xf32>, %u: tensor<4x4xf32>) -> tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %c0t = arith.constant dense<0.5> : tensor<1x4xf32>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0, %c = %c0t) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
    %e = tensor.empty() : tensor<1x4xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    %m = linalg.matmul ins(%h, %w : tensor<1x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<1x4xf32>) -> tensor<1x4xf32>
    %n = linalg.matmul ins(%h, %u : tensor<1x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<1x4xf32>) -> tensor<1x4xf32>
    %c2 = linalg.add ins(%c, %m : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    %h2 = linalg.add ins(%n, %c2 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    scf.yield %h2, %c2 : tensor<1x4xf32>, tensor<1x4xf32>
  }
  return %r#0 : tensor<1x4xf32>
}

// -----

// The old state is read after the new one is written: the new one keeps its
// own destination, hoisted before the loop, and bufferization would copy it
// into a fresh buffer to yield it. Instead it is copied back into the buffer
// the loop carries, right before the yield: one slot for the state, one for
// its successor, and no buffer per iteration.

// CHECK-LABEL: func.func @read_after_write(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}})
// CHECK: %[[N:.*]] = linalg.add ins(%[[H]], %[[H]] : {{.*}}) outs(%[[E]] : tensor<4xf32>)
// CHECK-NOT: outs(%[[H]]
// CHECK: linalg.mul ins(%[[N]], %[[H]] :
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: %[[BACK:.*]] = linalg.copy ins(%[[N]] : tensor<4xf32>) outs(%[[H]] : tensor<4xf32>)
// CHECK-NEXT: scf.yield %[[BACK]]
func.func @read_after_write(%h0: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %h0) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.add ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %p = linalg.mul ins(%n, %h : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A concatenation in a loop body is written in destination-passing style
// into a tensor.empty hoisted before the loop. Its first insert reads that
// buffer (the slot holds defined bytes once planned), so the loop carries it
// as an iter_arg and bufferization updates it in place in every iteration.

// CHECK-LABEL: func.func @concat_in_loop(
// CHECK: %[[CAT:.*]] = tensor.empty() : tensor<1x8xf32>
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[BUF:.*]] = %[[CAT]])
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[S]] into %[[BUF]][0, 0]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[S]] into %[[I0]][0, 4]
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: scf.yield %{{.*}}, %[[I1]] : tensor<1x4xf32>, tensor<1x8xf32>
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

// -----

// Copies that live for one iteration: a fill into the carried value while
// it is read afterwards (an undefined tensor) and an insert into it (a
// copy). Neither is yielded, so each gets one buffer before the loop, which
// every iteration reuses.

// CHECK-LABEL: func.func @copies_in_loop(
// CHECK: %[[FILLED:.*]] = bufferization.alloc_tensor() : tensor<1x4xf32>
// CHECK: %[[COPY:.*]] = tensor.empty() : tensor<1x4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[FILLED]] : tensor<1x4xf32>)
// CHECK: %[[C:.*]] = linalg.copy ins(%[[H]] : tensor<1x4xf32>) outs(%[[COPY]] : tensor<1x4xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[C]]
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: scf.yield
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

// -----

// The same with a trip count known only at run time and a second state
// computed into the buffer it carries: the successor of %acc is copied back
// into it before the yield, %last is written in place.

// CHECK-LABEL: func.func @loop_fresh(
// CHECK: tensor.empty() : tensor<4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[LAST:.*]] = %{{.*}})
// CHECK: %[[S:.*]] = linalg.add ins(%[[ACC]], %[[ACC]] : {{.*}}) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[P:.*]] = linalg.mul ins(%[[S]], %[[ACC]] : {{.*}}) outs(%[[LAST]] : tensor<4xf32>)
// CHECK: %[[BACK:.*]] = linalg.copy ins(%[[S]] : tensor<4xf32>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK-NEXT: scf.yield %[[BACK]], %[[P]]
func.func @loop_fresh(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e0 = tensor.empty() : tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %last = %e0) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%acc, %acc : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %p = linalg.mul ins(%s, %acc : tensor<4xf32>, tensor<4xf32>) outs(%last : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s, %p : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A call's results are the callee's slots, live only during its call: in a
// loop body they are copied into a tensor of the caller's top level, one
// slot that every iteration reuses (as in a branch). The iter_arg passed to
// the call is the loop's own slot.

// CHECK-LABEL: func.func @call_in_loop(
// CHECK: %[[DEST:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}})
// CHECK: %[[D:.*]] = func.call @step(%[[H]])
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[D]] : tensor<4xf32>) outs(%[[DEST]] : tensor<4xf32>)
// The iter_arg is read by the call before the new state is written: the
// state goes to a slot of its own and is copied back before the yield.
// CHECK: %[[N:.*]] = linalg.add ins(%[[COPY]], %[[H]] : {{.*}})
// CHECK: %[[BACK:.*]] = linalg.copy ins(%[[N]] : tensor<4xf32>) outs(%[[H]] : tensor<4xf32>)
// CHECK-NEXT: scf.yield %[[BACK]]
func.func private @step(tensor<4xf32> {bufferization.access = "read"}) -> tensor<4xf32>
func.func @call_in_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %d = func.call @step(%h) : (tensor<4xf32>) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.add ins(%d, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A concatenation in a branch of a loop body: nothing carries its hoisted
// buffer through the branch, so its first insert reads a zero fill of the
// buffer, made in the branch (every byte written, none read).

// The hoisted buffers sit right before the loop; the fill's is the second.
// CHECK-LABEL: func.func @concat_in_branch_in_loop(
// CHECK: tensor.empty() : tensor<1x8xf32>
// CHECK-NEXT: %[[CAT:.*]] = tensor.empty() : tensor<1x8xf32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[CAT]] : tensor<1x8xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %[[FILL]][0, 0]
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: scf.yield
func.func @concat_in_branch_in_loop(%x: tensor<1x4xf32>, %b: i1) -> tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %x) -> (tensor<1x4xf32>) {
    %y = scf.if %b -> (tensor<1x4xf32>) {
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
