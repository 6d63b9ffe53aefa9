// RUN: helia-opt %s --helia-mark-slot-alias-scopes --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-attach-slot-alias-scopes --mlir-print-debuginfo | FileCheck %s
// RUN: helia-opt %s --helia-mark-slot-alias-scopes --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-attach-slot-alias-scopes | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// After the conversion the marks are the alias scopes of the llvm.load and
// llvm.store the conversion made, and no location keeps them. The store
// to [4, 12) overlaps the input [0, 16) (a slot shared in time): the two
// are not claimed apart, but both are from the accumulator [16, 20).

memref.global "private" @arena : memref<64xi8> = uninitialized

// CHECK-LABEL: llvm.func @accumulate
// CHECK: llvm.load {{.*}} {alias_scopes = [#[[ACC:alias_scope[0-9]*]]], noalias_scopes = [#[[IN:alias_scope[0-9]*]], #[[SHARED:alias_scope[0-9]*]]]} : !llvm.ptr -> i32 loc(#[[ACC_LOAD:loc[0-9]+]])
// CHECK: llvm.load {{.*}} {alias_scopes = [#[[IN]]], noalias_scopes = [#[[ACC]]]} : !llvm.ptr -> i8 loc(#[[IN_LOAD:loc[0-9]+]])
// CHECK: llvm.store {{.*}} {alias_scopes = [#[[ACC]]], noalias_scopes = [#[[IN]], #[[SHARED]]]} : i32, !llvm.ptr loc(#[[ACC_STORE:loc[0-9]+]])
// CHECK: llvm.store {{.*}} {alias_scopes = [#[[SHARED]]], noalias_scopes = [#[[ACC]]]} : i8, !llvm.ptr loc(
// CHECK-NOT: helia.alias_scopes
// CHECK-DAG: #[[ACC_LOAD]] = loc("acc/load")
// CHECK-DAG: #[[IN_LOAD]] = loc("in/load")
// CHECK-DAG: #[[ACC_STORE]] = loc("acc/store")

// IR-LABEL: define void @accumulate
// IR: load i32, ptr {{.*}}, !alias.scope ![[ACC:[0-9]+]], !noalias ![[NOT_ACC:[0-9]+]]
// IR: load i8, ptr {{.*}}, !alias.scope ![[IN:[0-9]+]], !noalias ![[ACC]]
// IR: store i32 {{.*}}, !alias.scope ![[ACC]], !noalias ![[NOT_ACC]]
// IR: store i8 {{.*}}, !alias.scope ![[SHARED:[0-9]+]], !noalias ![[ACC]]
// IR-DAG: ![[ACC]] = !{![[ACC_SCOPE:[0-9]+]]}
// IR-DAG: ![[ACC_SCOPE]] = distinct !{![[ACC_SCOPE]], ![[DOMAIN:[0-9]+]], !"bytes [16, 20)"}
// IR-DAG: ![[NOT_ACC]] = !{![[IN_SCOPE:[0-9]+]], ![[SHARED_SCOPE:[0-9]+]]}
// IR-DAG: ![[SHARED]] = !{![[SHARED_SCOPE]]}
// IR-DAG: ![[SHARED_SCOPE]] = distinct !{![[SHARED_SCOPE]], ![[DOMAIN]], !"bytes [4, 12)"}
// IR-DAG: ![[IN]] = !{![[IN_SCOPE]]}
// IR-DAG: ![[IN_SCOPE]] = distinct !{![[IN_SCOPE]], ![[DOMAIN]], !"bytes [0, 16)"}
// IR-DAG: ![[DOMAIN]] = distinct !{![[DOMAIN]], !"helia slots of @accumulate"}
func.func @accumulate(%i: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = memref.get_global @arena : memref<64xi8>
  %in = memref.view %a[%c0][] : memref<64xi8> to memref<16xi8>
  %acc = memref.view %a[%c16][] : memref<64xi8> to memref<i32>
  %sub = memref.subview %in[%i] [1] [1] : memref<16xi8> to memref<1xi8, strided<[1], offset: ?>>
  %s = memref.load %acc[] : memref<i32> loc("acc/load")
  %x = memref.load %sub[%c0] : memref<1xi8, strided<[1], offset: ?>> loc("in/load")
  %w = arith.extsi %x : i8 to i32
  %sum = arith.addi %s, %w : i32
  memref.store %sum, %acc[] : memref<i32> loc("acc/store")
  %shared = memref.view %a[%c4][] : memref<64xi8> to memref<8xi8>
  memref.store %x, %shared[%c0] : memref<8xi8>
  return
}
