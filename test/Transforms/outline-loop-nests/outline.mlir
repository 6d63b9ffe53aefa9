// RUN: helia-opt %s --helia-outline-loop-nests | FileCheck %s
// RUN: helia-opt %s --helia-outline-loop-nests --lower-affine --convert-scf-to-cf --helia-mark-slot-alias-scopes --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-attach-slot-alias-scopes | FileCheck %s --check-prefix=LLVM

// Every top-level loop nest of a function becomes a private noinline
// function of its own, called in its place; what it uses from outside is
// cloned in when it has no memory effects (the arena's get_global, its
// views, constants), else passed as an argument.

memref.global "private" @arena : memref<64xi8> = uninitialized

// The two nests of @model, in order: the first fills slot [0, 16) of the
// arena from the argument %x (a function argument: passed); the second, a
// nest of two loops, adds it into slot [16, 32). The scalar loaded between
// them is passed to the second; the loop with a result stays in @model.

// CHECK-LABEL: func.func private @model_op0(
// CHECK-SAME: %[[X:.*]]: memref<16xi8>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[A:.*]] = memref.get_global @arena : memref<64xi8>
// CHECK-DAG: %[[IN:.*]] = memref.view %[[A]][%[[C0]]][] : memref<64xi8> to memref<16xi8>
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C1]] {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[IN]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }

// CHECK-LABEL: func.func private @model_op1(
// CHECK-SAME: %[[S:.*]]: i8)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: memref.get_global @arena
// CHECK-DAG: memref.view
// CHECK-DAG: memref.view
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %[[S]] : i8
// CHECK: return

// CHECK-LABEL: func.func @model(
// CHECK-SAME: %[[MX:.*]]: memref<16xi8>)
// CHECK: call @model_op0(%[[MX]]) : (memref<16xi8>) -> ()
// CHECK-NEXT: %[[MS:.*]] = memref.load
// CHECK-NEXT: call @model_op1(%[[MS]]) : (i8) -> ()
// CHECK: %{{.*}} = scf.for {{.*}} iter_args
// CHECK: return
func.func @model(%x: memref<16xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = memref.get_global @arena : memref<64xi8>
  %in = memref.view %a[%c0][] : memref<64xi8> to memref<16xi8>
  %out = memref.view %a[%c16][] : memref<64xi8> to memref<4x4xi8>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %x[%i] : memref<16xi8>
    memref.store %v, %in[%i] : memref<16xi8>
  }
  %s = memref.load %x[%c0] : memref<16xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      %v = memref.load %in[%k] : memref<16xi8>
      %w = arith.addi %v, %s : i8
      memref.store %w, %out[%i, %j] : memref<4x4xi8>
    }
  }
  %zero = arith.constant 0 : i8
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> i8 {
    %v = memref.load %in[%i] : memref<16xi8>
    %n = arith.addi %acc, %v : i8
    scf.yield %n : i8
  }
  return %sum : i8
}

// A name already taken is skipped; a declaration is left alone.
// CHECK-LABEL: func.func @taken_op0()
// CHECK-LABEL: func.func private @taken_op1()
// CHECK-LABEL: func.func @taken()
// CHECK: call @taken_op1() : () -> ()
func.func @taken_op0() {
  return
}
func.func @taken() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i8
  %a = memref.get_global @arena : memref<64xi8>
  scf.for %i = %c0 to %c1 step %c1 {
    memref.store %one, %a[%i] : memref<64xi8>
  }
  return
}
// A nest that carries its output buffer through its loops (as bufferized
// convolutions do) yields the buffer it was given: outlined, and its
// result's uses take the buffer itself. A loop that yields another value
// stays.
// CHECK-LABEL: func.func private @carried_op0()
// CHECK: %[[V:.*]] = memref.view
// CHECK: scf.for {{.*}} iter_args(%[[B:.*]] = %[[V]]) -> (memref<16xi8>)
// CHECK: scf.for {{.*}} iter_args(%[[C:.*]] = %[[B]]) -> (memref<16xi8>)
// CHECK: memref.store {{.*}}, %[[C]]
// CHECK: return
// CHECK-LABEL: func.func @carried()
// CHECK: %[[OUT:.*]] = memref.view
// CHECK: %[[OTHER:.*]] = memref.view
// CHECK: call @carried_op0() : () -> ()
// CHECK-NEXT: %[[SWAP:.*]] = scf.for
// CHECK: memref.load %[[OUT]]
// CHECK: memref.load %[[SWAP]]
func.func @carried() -> (i8, i8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i8
  %a = memref.get_global @arena : memref<64xi8>
  %out = memref.view %a[%c0][] : memref<64xi8> to memref<16xi8>
  %other = memref.view %a[%c16][] : memref<64xi8> to memref<16xi8>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %out) -> (memref<16xi8>) {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%c = %b) -> (memref<16xi8>) {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)
      memref.store %one, %c[%k] : memref<16xi8>
      scf.yield %c : memref<16xi8>
    }
    scf.yield %s : memref<16xi8>
  }
  %swap = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %out) -> (memref<16xi8>) {
    scf.yield %other : memref<16xi8>
  }
  %x = memref.load %r[%c0] : memref<16xi8>
  %y = memref.load %swap[%c0] : memref<16xi8>
  return %x, %y : i8, i8
}

// CHECK-LABEL: func.func private @external(memref<16xi8>)
func.func private @external(memref<16xi8>)

// Lowered to LLVM, the outlined functions are internal and noinline, and
// the accesses of each still carry the alias scopes of their slots (they
// trace to the arena): in @model_op1 the two slots of the arena are
// noalias. @model_op0 accesses one slot of the arena and its argument, of
// another root: no scopes.
// LLVM-LABEL: llvm.func internal @model_op0(
// LLVM-SAME: passthrough = ["noinline"]
// LLVM-NOT: alias_scopes
// LLVM-LABEL: llvm.func internal @model_op1(
// LLVM-SAME: passthrough = ["noinline"]
// LLVM: llvm.load {{.*}}alias_scopes = [{{.*}}], noalias_scopes = [{{.*}}]
// LLVM: llvm.store {{.*}}alias_scopes = [{{.*}}], noalias_scopes = [{{.*}}]
// LLVM-LABEL: llvm.func @model(
// LLVM: llvm.call @model_op0(
// LLVM: llvm.call @model_op1(
