// RUN: helia-opt %s --helia-mark-slot-alias-scopes --mlir-print-debuginfo | FileCheck %s

// Which accesses helia-mark-slot-alias-scopes marks, and with what: a scope
// per byte range of a root, noalias with the disjoint ranges of the same
// root only.

memref.global "private" @arena : memref<64xi8> = uninitialized
memref.global "private" @other : memref<64xi8> = uninitialized

// Two slots of one arena, [0, 16) and [16, 20), and a loop over the first
// carried as a block argument: each access is noalias with the other slot.
// CHECK-LABEL: func.func @disjoint
// CHECK: memref.load {{.*}} loc(#[[LOAD_ACC:loc[0-9]+]])
// CHECK: memref.load {{.*}} loc(#[[LOAD_IN:loc[0-9]+]])
// CHECK: memref.store {{.*}} loc(#[[STORE_ACC:loc[0-9]+]])
func.func @disjoint() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.get_global @arena : memref<64xi8>
  %in = memref.view %a[%c0][] : memref<64xi8> to memref<16xi8>
  %acc = memref.view %a[%c16][] : memref<64xi8> to memref<i32>
  cf.br ^loop(%c0, %in : index, memref<16xi8>)
^loop(%i: index, %buf: memref<16xi8>):
  %done = arith.cmpi sge, %i, %c16 : index
  cf.cond_br %done, ^exit, ^body
^body:
  %sub = memref.subview %buf[%i] [1] [1] : memref<16xi8> to memref<1xi8, strided<[1], offset: ?>>
  %s = memref.load %acc[] : memref<i32> loc("acc/load")
  %x = memref.load %sub[%c0] : memref<1xi8, strided<[1], offset: ?>> loc("in/load")
  %w = arith.extsi %x : i8 to i32
  %sum = arith.addi %s, %w : i32
  memref.store %sum, %acc[] : memref<i32> loc("acc/store")
  %next = arith.addi %i, %c1 : index
  cf.br ^loop(%next, %buf : index, memref<16xi8>)
^exit:
  return
}

// Nothing is claimed for ranges that overlap (one slot shared by two
// tensors in time, [0, 8) and [4, 12)), across roots (two globals, a global
// and an argument), for a dynamic byte shift, or through a reinterpret
// cast with a dynamic layout.
// CHECK-LABEL: func.func @unclaimed
// CHECK: memref.load {{.*}} loc(#[[PLAIN:loc[0-9]+]])
// CHECK-COUNT-6: memref.store {{.*}} loc(#[[PLAIN]])
func.func @unclaimed(%arg: memref<64xi8>, %n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = memref.get_global @arena : memref<64xi8>
  %b = memref.get_global @other : memref<64xi8>
  %first = memref.view %a[%c0][] : memref<64xi8> to memref<8xi8>
  %second = memref.view %a[%c4][] : memref<64xi8> to memref<8xi8>
  %x = memref.load %first[%c0] : memref<8xi8> loc(#plain)
  memref.store %x, %second[%c0] : memref<8xi8> loc(#plain)
  %y = memref.view %b[%c0][] : memref<64xi8> to memref<8xi8>
  memref.store %x, %y[%c0] : memref<8xi8> loc(#plain)
  %z = memref.view %arg[%c0][] : memref<64xi8> to memref<8xi8>
  memref.store %x, %z[%c0] : memref<8xi8> loc(#plain)
  %d = memref.view %a[%n][] : memref<64xi8> to memref<4xi8>
  memref.store %x, %d[%c0] : memref<4xi8> loc(#plain)
  %r = memref.reinterpret_cast %first to offset: [%n], sizes: [4], strides: [1] : memref<8xi8> to memref<4xi8, strided<[1], offset: ?>>
  memref.store %x, %r[%c0] : memref<4xi8, strided<[1], offset: ?>> loc(#plain)
  %e = memref.view %a[%c4][] : memref<64xi8> to memref<4xi8>
  memref.store %x, %e[%c0] : memref<4xi8> loc(#plain)
  return
}
#plain = loc("plain")

// The scopes and the marked locations are printed last.
// CHECK-DAG: #[[LOAD_ACC]] = loc(fused<{helia.alias_scopes = [#[[ACC:alias_scope[0-9]*]]], helia.noalias_scopes = [#[[IN:alias_scope[0-9]*]]]}>[#[[ACC_LOAD:loc[0-9]+]]])
// CHECK-DAG: #[[LOAD_IN]] = loc(fused<{helia.alias_scopes = [#[[IN]]], helia.noalias_scopes = [#[[ACC]]]}>[#[[IN_LOAD:loc[0-9]+]]])
// CHECK-DAG: #[[STORE_ACC]] = loc(fused<{helia.alias_scopes = [#[[ACC]]], helia.noalias_scopes = [#[[IN]]]}>[#[[ACC_STORE:loc[0-9]+]]])
// CHECK-DAG: #[[ACC_LOAD]] = loc("acc/load")
// CHECK-DAG: #[[IN_LOAD]] = loc("in/load")
// CHECK-DAG: #[[ACC_STORE]] = loc("acc/store")
// CHECK-DAG: #[[PLAIN]] = loc("plain")
// CHECK-DAG: #[[DOMAIN:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "helia slots of @disjoint">
// CHECK-DAG: #[[IN]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "bytes [0, 16)">
// CHECK-DAG: #[[ACC]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "bytes [16, 20)">
