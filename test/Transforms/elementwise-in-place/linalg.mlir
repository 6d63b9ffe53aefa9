// RUN: helia-opt %s -split-input-file -helia-elementwise-in-place | FileCheck %s
// Idempotent: a second run finds nothing more to do.
// RUN: helia-opt %s -split-input-file -helia-elementwise-in-place -helia-elementwise-in-place | FileCheck %s
// Bufferization agrees: copy insertion after the pass copies nothing.
// RUN: helia-opt %s -split-input-file -helia-elementwise-in-place -helia-insert-tensor-copies | FileCheck %s --check-prefix=COPIES

// COPIES-NOT: bufferization.alloc_tensor() copy
// COPIES-NOT: linalg.copy

#id = affine_map<(d0, d1) -> (d0, d1)>

// A chain of elementwise generics: each result is written over its input,
// which dies there; the input is read through the init's block argument.
// CHECK-LABEL: func.func @chain
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x4xf32>) outs(%[[E]] : tensor<4x4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%[[X]] : tensor<4x4xf32>) {
// CHECK-NEXT: ^bb0(%[[OUT:.*]]: f32):
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[OUT]] : f32
// CHECK-NEXT: linalg.yield %[[N]] : f32
// CHECK: %[[Z:.*]] = linalg.generic {{.*}} ins(%[[C:.*]] : tensor<4x4xf32>) outs(%[[Y]] : tensor<4x4xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT2:.*]]: f32):
// CHECK-NEXT: arith.addf %[[OUT2]], %[[IN]] : f32
// The tensor.empty of each rewritten op is gone.
// CHECK-NOT: tensor.empty
// CHECK: return %[[Z]]
func.func @chain(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %0 = arith.addf %in, %in2 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// -----

// A named elementwise op keeps the input and takes it as init too
// (bufferization reads and writes it at the same index); the constant
// operand is never written over.
// CHECK-LABEL: func.func @named
// CHECK: %[[X:.*]] = linalg.exp ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[Y:.*]] = linalg.add ins(%[[C:.*]], %[[X]] : tensor<8xf32>, tensor<8xf32>) outs(%[[X]] : tensor<8xf32>)
// CHECK: %[[Z:.*]] = linalg.mul ins(%[[Y]], %[[Y]] : tensor<8xf32>, tensor<8xf32>) outs(%[[Y]] : tensor<8xf32>)
func.func @named(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %y = linalg.add ins(%c, %x : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %z = linalg.mul ins(%y, %y : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %z : tensor<8xf32>
}

// -----

// Negative: the input is read later (by the return, and by a later op).
// CHECK-LABEL: func.func @read_later
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[E1:.*]] = tensor.empty
// CHECK: linalg.negf ins(%[[X]] : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
// CHECK: %[[E2:.*]] = tensor.empty
// CHECK: linalg.abs ins(%[[X]] : tensor<8xf32>) outs(%[[E2]] : tensor<8xf32>)
func.func @read_later(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %y = linalg.negf ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %z = linalg.abs ins(%x : tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %x, %y, %z : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Negative: an input read at other indices than the one written: broadcast
// (column 0 for every column), transposed, or the same value once at the
// written index and once transposed. Same types throughout.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @other_indices
// CHECK: %[[X:.*]] = linalg.generic
// CHECK: %[[E1:.*]] = tensor.empty
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x4xf32>) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK: %[[E2:.*]] = tensor.empty
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<4x4xf32>) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK: %[[E3:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} ins(%[[T]], %[[T]] : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[E3]] : tensor<4x4xf32>)
func.func @other_indices(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %b = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %0 = arith.subf %in, %in2 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Negative: an input read inside the payload (at any index).
// CHECK-LABEL: func.func @read_in_payload
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: tensor.extract %[[X]]
func.func @read_in_payload(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<4xf32>
  %x = linalg.exp ins(%a : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %first = tensor.extract %x[%c0] : tensor<4xf32>
    %0 = arith.subf %in, %first : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Negative: different types (the input dies, but holds f32, the result i32;
// a narrower shape).
// CHECK-LABEL: func.func @different_types
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xi32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>) outs(%[[E]] : tensor<8xi32>)
func.func @different_types(%a: tensor<8xf32>) -> tensor<8xi32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xi32>) {
  ^bb0(%in: f32, %out: i32):
    %0 = arith.bitcast %in : f32 to i32
    linalg.yield %0 : i32
  } -> tensor<8xi32>
  return %y : tensor<8xi32>
}

// -----

// Negative: a function argument (the caller still owns it), a view of an
// argument, and a constant are never written over.
// CHECK-LABEL: func.func @not_owned
// CHECK: linalg.exp ins(%[[A:.*]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT: outs(%[[A]]
// CHECK: %[[V:.*]] = tensor.collapse_shape
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.negf ins(%[[V]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
// CHECK: linalg.abs ins(%[[C:.*]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT: outs(%[[C]]
func.func @not_owned(%a: tensor<8xf32>, %b: tensor<2x4xf32>) -> (tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>) {
  %c = arith.constant dense<3.0> : tensor<8xf32>
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %v = tensor.collapse_shape %b [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %y = linalg.negf ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %w = tensor.expand_shape %y [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %z = linalg.abs ins(%c : tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %x, %w, %z : tensor<8xf32>, tensor<2x4xf32>, tensor<8xf32>
}

// -----

// Negative: the init is read by the payload (an accumulation into a filled
// tensor), and a reduction is not elementwise.
// CHECK-LABEL: func.func @init_read
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[X]] : tensor<8xf32>, tensor<8xf32>) outs(%[[F]] : tensor<8xf32>)
// CHECK: %[[Y:.*]] = linalg.exp
// CHECK: linalg.reduce ins(%[[Y]] : tensor<8xf32>)
func.func @init_read(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %y = linalg.exp ins(%a : tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %e3 = tensor.empty() : tensor<f32>
  %r = linalg.reduce ins(%y : tensor<8xf32>) outs(%e3 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return %s, %r : tensor<8xf32>, tensor<f32>
}

// -----

// Negative: a persistent result keeps a buffer of its own.
// CHECK-LABEL: func.func @persistent_result
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.negf {helia.persistent} ins(%[[X]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
func.func @persistent_result(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %y = linalg.negf {helia.persistent} ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Two ops with one tensor.empty as init (bufferization would copy one of
// them): both write over their dying inputs, and the init goes once.
// CHECK-LABEL: func.func @shared_init
// CHECK: %[[X:.*]] = linalg.exp ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[U:.*]] = linalg.exp ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT: tensor.empty
// CHECK: linalg.negf ins(%[[X]] : tensor<8xf32>) outs(%[[X]] : tensor<8xf32>)
// CHECK: linalg.abs ins(%[[U]] : tensor<8xf32>) outs(%[[U]] : tensor<8xf32>)
func.func @shared_init(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %u = linalg.exp ins(%b : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.negf ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %v = linalg.abs ins(%u : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %v : tensor<8xf32>, tensor<8xf32>
}

// -----

// Host code marked helia.unplanned is left alone.
// CHECK-LABEL: func.func @host
// CHECK: %[[X:.*]] = linalg.exp
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.negf ins(%[[X]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
func.func @host(%a: tensor<8xf32>) -> tensor<8xf32> attributes {helia.unplanned} {
  %e0 = tensor.empty() : tensor<8xf32>
  %x = linalg.exp ins(%a : tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %y = linalg.negf ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
