// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true})" -o %t.global.mlir
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.global.mlir
// RUN: helia-opt %t.global.mlir %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=arg})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, helia-memory-pipeline{lower=true lower-copies=true arena-mode=alloc})" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s --pass-pipeline="builtin.module(%{tosa}, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" | helia-opt %{to_llvm} | %{run} | FileCheck %s
// RUN: helia-opt %s -helia-insert-tensor-copies -helia-resolve-residency -helia-assign-bindings -test-print-allocation -o /dev/null | FileCheck %s --check-prefix=SLOTS

// Storage that One-Shot Bufferize creates inside scf.while and scf.if
// regions, planned as top-level slots (never a buffer per iteration):
//
// - @swap_while: an scf.while whose body yields its two carried values
//   swapped (the second one incremented in its own buffer first). Each is
//   copied into the other's carried slot before the yield, in the order
//   orderCopyBacks gives (the one of every loop kind): the copies read each
//   other's slots, so the first one's value is copied first into a slot of
//   its own, live for the loop's step, and from there last (One-Shot would
//   copy both in the condition, a buffer per iteration).
// - @shift_while: a shift register, (a, b) -> (b, 2 b) with 2 b computed
//   over b: b is copied into a's carried slot at the start of the body,
//   before it is overwritten (nothing in the body reads a);
// - @fib_while: (a, b) -> (b, a + b) with a + b computed over b: b is read
//   after a's slot would take it, so it is copied first into a slot of its
//   own, and from there into a's slot before the yield;
// - @call_in_branch: an scf.while inside an scf.if branch hands its result
//   to a call: the result is the loop's carried slot (its init's copy),
//   handed over cast to the default memory space like a top-level operand,
//   not copied by bufferization into an allocation of its own;
// - @shift_for: an scf.for shift register, (a, b) -> (a + 1, a) with a + 1
//   computed over a: a is copied into b's carried slot at the start of the
//   body (b is not read there), so a + 1 is computed in place; and the
//   copies back of a loop in a branch (reduced from fuzzer seed 222) run
//   in that order too;
// - @for_in_while: an scf.while's body runs an scf.for that updates a copy
//   of the carried value while reading the old one (seed 35 reduced): the
//   copy is a slot for the step, copied back into the carried slot, and the
//   condition passes the carried slot itself (no copy per iteration there);
// - @call_in_while: an scf.while's body hands its after-region argument to
//   a call, in the carried slot (reduced from seed 237);
// - @swap_for: an scf.for in a branch swapping its carried values (seed 336
//   reduced), planned as @swap_while.

// IR-LABEL: func.func @swap_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR: linalg.copy ins(%[[OLD:.*]] : memref<8xf32>) outs(%[[SNAP:.*]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[OLD]] : memref<8xf32>)
// IR-NEXT: linalg.copy ins(%[[SNAP]] : memref<8xf32>) outs(%{{.*}} : memref<8xf32>)
// IR-NEXT: scf.yield
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @shift_while(
// IR-NOT: memref.alloc
// IR: } do {
// IR-NEXT: ^bb0(%{{.*}}: index, %[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>):
// IR-NEXT: linalg.copy ins(%[[B]] : memref<8xf32>) outs(%[[A]] : memref<8xf32>)
// IR-NEXT: linalg.add ins(%[[B]], %[[B]] : {{.*}}) outs(%[[B]] : memref<8xf32>)
// IR-NOT: linalg.copy
// IR: scf.yield
// IR-LABEL: func.func @fib_while(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @call_in_branch(
// IR-NOT: memref.alloc
// IR: %[[W:.*]]:2 = scf.while
// IR-NOT: memref.alloc
// IR: call @twice(%[[W]]#1)
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @shift_for(
// IR-NOT: memref.alloc
// IR: scf.for %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// IR-NEXT: linalg.copy ins(%[[A]] : memref<8xf32>) outs(%[[B]] : memref<8xf32>)
// IR-NEXT: linalg.add ins(%[[A]], %{{.*}} : {{.*}}) outs(%[[A]] : memref<8xf32>)
// IR-NEXT: scf.yield %[[A]], %[[B]]
// IR-LABEL: func.func @for_in_branch(
// IR-NOT: memref.alloc
// IR: return
// IR-LABEL: func.func @for_in_while(
// IR-NOT: memref.alloc
// IR: scf.condition(%{{.*}}) %{{.*}}, %{{[^ ]*}} : index, memref<8xf32>
// IR-NEXT: } do {
// IR-NEXT: ^bb0(%{{.*}}: index, %[[T:.*]]: memref<8xf32>):
// IR: scf.for
// IR: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// IR-NEXT: scf.yield %{{.*}}, %[[T]]
// IR-NOT: memref.alloc
// IR: return

// The slots (32 bytes each): the two arguments, the two carried values
// (their init copies and the loop's results) and the snapshot, live only
// at the loop's step, over the bytes of %y (copied into its carried slot
// by then): 96 bytes at the peak, three values at the loop's step.
// SLOTS-LABEL: function @swap_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 5]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 6], @scratch_dtcm + [[Y:[0-9]+]]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 9]
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 9]
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #7
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [7, 8], @scratch_dtcm + [[Y]]
// SLOTS-NEXT:   tensor #5
// @shift_while: the arguments and the two carried values, no fifth slot;
// @fib_while: a fifth, the copy of b, live at the loop's step only.
// SLOTS-LABEL: function @shift_while
// SLOTS-COUNT-4: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS-LABEL: function @fib_while
// SLOTS-COUNT-4: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS: buffer {{[0-9]+}}: scratch, 32 bytes, steps [6, 7]
// SLOTS-NEXT:   tensor #{{[0-9]+}}
// SLOTS-NEXT: function @twice
// @call_in_branch: its argument, the loop's carried slot and the copy of
// the call's result; @twice's slots lie above them.
// SLOTS-LABEL: function @call_in_branch
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #3
// @shift_for: the arguments, the constant and the two carried values
// (a + 1 computed in a's slot, no slot of its own).
// SLOTS-NEXT: function @shift_for
// SLOTS-COUNT-2: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS: buffer {{[0-9]+}}: constant, 32 bytes
// SLOTS-NEXT:   tensor #2
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT:   tensor #5
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NEXT:   tensor #4
// SLOTS-NEXT:   tensor #6
// SLOTS-NEXT: function @for_in_branch
// @for_in_while: the argument, the carried value and the inner loop's copy
// of it, live at the loop's step only (over the argument's bytes).
// SLOTS-LABEL: function @for_in_while
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [0, 4], @scratch_dtcm + [[X:[0-9]+]]
// SLOTS-NEXT:   tensor #0
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [4, 7]
// SLOTS-NEXT:   tensor #1
// SLOTS-NEXT:   tensor #3
// SLOTS-NEXT: buffer {{[0-9]+}}: scratch, 32 bytes, steps [5, 6], @scratch_dtcm + [[X]]
// SLOTS-NEXT:   tensor #2
// @call_in_while: the argument, the carried value and the copy of the
// call's result, nothing for the call's operand.
// SLOTS-NEXT: function @call_in_while
// SLOTS-COUNT-3: buffer {{[0-9]+}}: scratch, 32 bytes
// @swap_for: seven slots: the arguments, the loop's two carried values and
// the snapshot, and two copies of the arguments in the branch that the
// loop's inits copy again (two slots more than the loop needs, not yet
// merged).
// SLOTS-LABEL: function @swap_for
// SLOTS-COUNT-7: buffer {{[0-9]+}}: scratch, 32 bytes
// SLOTS-NOT: buffer
// SLOTS: arena @scratch_dtcm: 288 bytes

// (x, y) -> (y, x + 1) three times: (y + 1, x + 2).
// CHECK: [11,  21,  31,  41,  51,  61,  71,  81]
// CHECK: [3,  4,  5,  6,  7,  8,  9,  10]
// @shift_while: (4 y, 8 y).
// CHECK: [40,  80,  120,  160,  200,  240,  280,  320]
// CHECK: [80,  160,  240,  320,  400,  480,  560,  640]
// @fib_while: (x + 2 y, 2 x + 3 y).
// CHECK: [21,  42,  63,  84,  105,  126,  147,  168]
// CHECK: [32,  64,  96,  128,  160,  192,  224,  256]
// @call_in_branch: 2 (x + 3).
// CHECK: [8,  10,  12,  14,  16,  18,  20,  22]
// @shift_for: (x + 3, x + 2).
// CHECK: [4,  5,  6,  7,  8,  9,  10,  11]
// CHECK: [3,  4,  5,  6,  7,  8,  9,  10]
// @for_in_branch: (max(a, x) twice from a = x: x + 1 when x > 0, the
// first iter_arg; the second is the first's old value.
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// CHECK: [2,  3,  4,  5,  6,  7,  8,  9]
// @for_in_while: 9 x.
// CHECK: [9,  18,  27,  36,  45,  54,  63,  72]
// @call_in_while: 8 x.
// CHECK: [8,  16,  24,  32,  40,  48,  56,  64]
// @swap_for: three swaps, (y, x).
// CHECK: [10,  20,  30,  40,  50,  60,  70,  80]
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8]

module attributes {helia.platform = "apollo510_evb"} {
  func.func @swap_while(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:3 = scf.while (%k = %c0, %a = %x, %b = %y) : (index, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a, %b : index, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>):
      %a2 = linalg.add ins(%a1, %one : tensor<8xf32>, tensor<8xf32>) outs(%a1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %b1, %a2 : index, tensor<8xf32>, tensor<8xf32>
    }
    return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @shift_while(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:3 = scf.while (%k = %c0, %a = %x, %b = %y) : (index, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a, %b : index, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>):
      %b2 = linalg.add ins(%b1, %b1 : tensor<8xf32>, tensor<8xf32>) outs(%b1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %b1, %b2 : index, tensor<8xf32>, tensor<8xf32>
    }
    return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @fib_while(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:3 = scf.while (%k = %c0, %a = %x, %b = %y) : (index, tensor<8xf32>, tensor<8xf32>) -> (index, tensor<8xf32>, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %a, %b : index, tensor<8xf32>, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %a1: tensor<8xf32>, %b1: tensor<8xf32>):
      %b2 = linalg.add ins(%b1, %a1 : tensor<8xf32>, tensor<8xf32>) outs(%b1 : tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %b1, %b2 : index, tensor<8xf32>, tensor<8xf32>
    }
    return %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @twice(%t: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%t, %t : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %s : tensor<8xf32>
  }

  func.func @call_in_branch(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %i0 = arith.constant 0 : index
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %first = tensor.extract %x[%i0] : tensor<8xf32>
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %first, %zero : f32
    %r = scf.if %positive -> (tensor<8xf32>) {
      %w:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
        %go = arith.cmpi slt, %k, %c3 : index
        scf.condition(%go) %k, %t : index, tensor<8xf32>
      } do {
      ^bb0(%k1: index, %t1: tensor<8xf32>):
        %t2 = linalg.add ins(%t1, %one : tensor<8xf32>, tensor<8xf32>) outs(%t1 : tensor<8xf32>) -> tensor<8xf32>
        %k2 = arith.addi %k1, %c1 : index
        scf.yield %k2, %t2 : index, tensor<8xf32>
      }
      %d = func.call @twice(%w#1) : (tensor<8xf32>) -> tensor<8xf32>
      scf.yield %d : tensor<8xf32>
    } else {
      scf.yield %x : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }

  func.func @shift_for(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %y) -> (tensor<8xf32>, tensor<8xf32>) {
      %a2 = linalg.add ins(%a, %one : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
      scf.yield %a2, %a : tensor<8xf32>, tensor<8xf32>
    }
    return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
  }

  // Seed 222 reduced: a loop in a branch carries two values from one
  // constant; the first is updated from a branch's value while the second
  // takes the first's old value.
  func.func @for_in_branch(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %i0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant dense<1.0> : tensor<8xf32>
    %first = tensor.extract %x[%i0] : tensor<8xf32>
    %positive = arith.cmpf ogt, %first, %zero : f32
    %r:2 = scf.if %positive -> (tensor<8xf32>, tensor<8xf32>) {
      %l:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x, %b = %x) -> (tensor<8xf32>, tensor<8xf32>) {
        %v = scf.if %positive -> (tensor<8xf32>) {
          %e = tensor.empty() : tensor<8xf32>
          %s = linalg.add ins(%x, %one : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
          scf.yield %s : tensor<8xf32>
        } else {
          scf.yield %x : tensor<8xf32>
        }
        %m = linalg.max ins(%v, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %m, %a : tensor<8xf32>, tensor<8xf32>
      }
      scf.yield %l#0, %l#1 : tensor<8xf32>, tensor<8xf32>
    } else {
      scf.yield %x, %x : tensor<8xf32>, tensor<8xf32>
    }
    return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
  }

  func.func @for_in_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c2 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%y = %t1) -> tensor<8xf32> {
        %s = linalg.add ins(%y, %t1 : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %s : tensor<8xf32>
      }
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %in : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  func.func @call_in_while(%x: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r:2 = scf.while (%k = %c0, %t = %x) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
      %go = arith.cmpi slt, %k, %c3 : index
      scf.condition(%go) %k, %t : index, tensor<8xf32>
    } do {
    ^bb0(%k1: index, %t1: tensor<8xf32>):
      %d = func.call @twice(%t1) : (tensor<8xf32>) -> tensor<8xf32>
      %k2 = arith.addi %k1, %c1 : index
      scf.yield %k2, %d : index, tensor<8xf32>
    }
    return %r#1 : tensor<8xf32>
  }

  func.func @swap_for(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %i0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %first = tensor.extract %x[%i0] : tensor<8xf32>
    %positive = arith.cmpf ogt, %first, %zero : f32
    %r:2 = scf.if %positive -> (tensor<8xf32>, tensor<8xf32>) {
      %l:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %y) -> (tensor<8xf32>, tensor<8xf32>) {
        scf.yield %b, %a : tensor<8xf32>, tensor<8xf32>
      }
      scf.yield %l#0, %l#1 : tensor<8xf32>, tensor<8xf32>
    } else {
      scf.yield %x, %y : tensor<8xf32>, tensor<8xf32>
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
    %s:2 = call @swap_while(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%s#0) : (tensor<8xf32>) -> ()
    call @print(%s#1) : (tensor<8xf32>) -> ()
    %h:2 = call @shift_while(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%h#0) : (tensor<8xf32>) -> ()
    call @print(%h#1) : (tensor<8xf32>) -> ()
    %f:2 = call @fib_while(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%f#0) : (tensor<8xf32>) -> ()
    call @print(%f#1) : (tensor<8xf32>) -> ()
    %c = call @call_in_branch(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%c) : (tensor<8xf32>) -> ()
    %g:2 = call @shift_for(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%g#0) : (tensor<8xf32>) -> ()
    call @print(%g#1) : (tensor<8xf32>) -> ()
    %b:2 = call @for_in_branch(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%b#0) : (tensor<8xf32>) -> ()
    call @print(%b#1) : (tensor<8xf32>) -> ()
    %w = call @for_in_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%w) : (tensor<8xf32>) -> ()
    %cw = call @call_in_while(%x) : (tensor<8xf32>) -> tensor<8xf32>
    call @print(%cw) : (tensor<8xf32>) -> ()
    %sf:2 = call @swap_for(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    call @print(%sf#0) : (tensor<8xf32>) -> ()
    call @print(%sf#1) : (tensor<8xf32>) -> ()
    return
  }
}
