// RUN: helia-opt %s -split-input-file -allow-unregistered-dialect -helia-insert-tensor-copies | FileCheck %s

// Every copy One-Shot Bufferize would make is an explicit
// bufferization.alloc_tensor in planned functions, so that the planner
// counts it.

// A fill through a view of %x, which is read afterwards: the fill writes
// into a new tensor (no copy: the fill does not read it), not into %x.
// CHECK-LABEL: func.func @fill_through_view
// CHECK: %[[X:.*]] = linalg.add
// CHECK: tensor.expand_shape %[[X]]
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<2x4xf32>
// CHECK: linalg.fill {{.*}} outs(%[[NEW]] : tensor<2x4xf32>)
// CHECK: linalg.add {{.*}} outs(%[[X]] : tensor<8xf32>)
func.func @fill_through_view(%a: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %v = tensor.expand_shape %x [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %y = linalg.fill ins(%cst : f32) outs(%v : tensor<2x4xf32>) -> tensor<2x4xf32>
  %z = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %y, %z : tensor<2x4xf32>, tensor<8xf32>
}

// -----

// Arguments are the caller's data and constants are read-only: an op that
// accumulates into one accumulates into a copy. The analysis' marking of
// the arguments is not left behind.
// CHECK-LABEL: func.func @read_only(
// CHECK-NOT: bufferization.writable
// CHECK: %[[CST:.*]] = arith.constant dense<1.000000e+00>
// CHECK: %[[A:.*]] = bufferization.alloc_tensor() copy(%arg0)
// CHECK: %[[M:.*]] = linalg.matmul ins(%arg1, %arg1 : {{.*}}) outs(%[[A]] :
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[CST]])
// CHECK: linalg.matmul ins(%[[M]], %[[M]] : {{.*}}) outs(%[[C]] :
func.func @read_only(%acc: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<1.0> : tensor<2x2xf32>
  %m = linalg.matmul ins(%b, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  %n = linalg.matmul ins(%m, %m : tensor<2x2xf32>, tensor<2x2xf32>) outs(%cst : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %n : tensor<2x2xf32>
}

// -----

// Host code (helia.unplanned) is left alone; ops without bufferization
// (an imported tfl.* graph) are left as they are.
// CHECK-LABEL: func.func @host(
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: return
// CHECK-LABEL: func.func @imported(
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: return
func.func @host(%acc: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {helia.unplanned} {
  %m = linalg.matmul ins(%b, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
func.func @imported(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %w = "tfl.pseudo_const"() {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %y = "tfl.add"(%x, %w) {fused_activation_function = "NONE"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %z = "tfl.add"(%y, %x) {fused_activation_function = "NONE"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %z : tensor<1x4xf32>
}

// -----

// Storage created in an scf.if branch gets a tensor at the top level of the
// body, where the planner counts it: a tensor.empty moves before the
// scf.if, and a call's result is copied into a new tensor there.
// CHECK-LABEL: func.func @branches(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: scf.if
// CHECK: %[[N:.*]] = func.call @callee(%arg0)
// CHECK: linalg.copy ins(%[[N]] : tensor<4xf32>) outs(%[[R]] : tensor<4xf32>)
// CHECK: } else {
// CHECK: linalg.add {{.*}} outs(%[[E]] : tensor<4xf32>)
func.func private @callee(tensor<4xf32> {bufferization.access = "read"}) -> tensor<4xf32>
func.func @branches(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %n = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An op that writes into an scf.if result writes into a copy: the result
// may be either of two buffers and owns no storage of its own.
// CHECK-LABEL: func.func @write_into_branch_result(
// CHECK: %[[R:.*]] = scf.if
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK: linalg.add {{.*}} outs(%[[C]] : tensor<8xf32>)
// CHECK: %[[D:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<8xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[D]])
func.func @write_into_branch_result(%x: tensor<8xf32>, %c: i1, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %b = linalg.mul ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.if %c -> (tensor<8xf32>) {
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %b : tensor<8xf32>
  }
  %s = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%r : tensor<8xf32>) -> tensor<8xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> tensor<8xf32> {
    %t = linalg.add ins(%acc, %x : tensor<8xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %t : tensor<8xf32>
  }
  return %s, %l : tensor<8xf32>, tensor<8xf32>
}

// -----

// A loop carries a value that may be either of two buffers, and passes its
// iter_arg to a call: the loop writes into a copy, which it reads (the
// call's read is known through the module's function analysis).

// CHECK-LABEL: func.func @loop_init_read_by_call(
// CHECK: %[[S:.*]] = scf.if
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[S]]) : tensor<4xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[COPY]])
// CHECK: func.call @loop_callee
func.func @loop_callee(%t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @loop_init_read_by_call(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = scf.if %c -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%it = %s) -> (tensor<4xf32>) {
    %x = func.call @loop_callee(%it) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %it : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An scf.if result is one buffer when first asked (both branches carry %a
// through a loop), but the loops in the branches write into their inits,
// and the copies of %a they get move to a top-level tensor each: the
// result is then one of two buffers, and the loop that writes into it (while
// reading %a) writes into a copy. (Seed 460 of the differential fuzzer,
// --control-flow 2, reduced.)
// CHECK-LABEL: func.func @several_after_copies(
// CHECK: %[[A:.*]] = linalg.add
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = scf.if
// CHECK: linalg.copy ins(%[[A]] : tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK: scf.for
// CHECK: } else {
// CHECK: linalg.copy ins(%[[A]] : tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>)
// CHECK: scf.while
// CHECK: %[[D:.*]] = bufferization.alloc_tensor() copy(%[[R]]) : tensor<4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[D]])
// CHECK: linalg.add ins(%[[ACC]], %[[A]] : tensor<4xf32>, tensor<4xf32>) outs(%[[ACC]] : tensor<4xf32>)
func.func @several_after_copies(%x: tensor<4xf32>, %c: i1, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %c -> tensor<4xf32> {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<4xf32> {
      scf.yield %acc : tensor<4xf32>
    }
    scf.yield %l : tensor<4xf32>
  } else {
    %w:2 = scf.while (%j = %c0, %acc = %a) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
      %p = arith.cmpi slt, %j, %n : index
      scf.condition(%p) %j, %acc : index, tensor<4xf32>
    } do {
    ^bb0(%j: index, %acc: tensor<4xf32>):
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1, %acc : index, tensor<4xf32>
    }
    scf.yield %w#1 : tensor<4xf32>
  }
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> tensor<4xf32> {
    %t = linalg.add ins(%acc, %a : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  return %o : tensor<4xf32>
}
