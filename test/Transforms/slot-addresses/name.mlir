// RUN: helia-opt %s --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-name-slot-addresses | FileCheck %s
// RUN: helia-opt %s --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-name-slot-addresses=arenas=constant | FileCheck %s --check-prefix=CONST
// RUN: helia-opt %s --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-name-slot-addresses=arenas=writable | FileCheck %s --check-prefix=WRITABLE
// RUN: helia-opt %s --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts --helia-name-slot-addresses | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// Every slot (a view at a constant byte shift of an arena) gets a private
// alias of the arena at that shift, one per arena and shift, and its
// accesses address it; a view at a dynamic shift, and a global that is not
// an array of bytes, keep their addresses.

memref.global "private" @arena : memref<64xi8> = uninitialized
memref.global "private" constant @weights : memref<32xi8> = dense<1>
memref.global "private" @flag : memref<i32> = dense<0>

// CHECK-DAG: llvm.mlir.alias private @arena.16 : i8 {
// CHECK-DAG: llvm.mlir.alias private @arena.48 : i8 {
// CHECK-DAG: llvm.mlir.alias private @weights.8 : i8 {
// CHECK-NOT: llvm.mlir.alias
// CHECK-LABEL: llvm.func @slots
// CHECK-DAG: llvm.mlir.addressof @weights.8 : !llvm.ptr
// CHECK-DAG: llvm.mlir.addressof @arena.16 : !llvm.ptr
// CHECK-DAG: llvm.mlir.addressof @arena.48 : !llvm.ptr
// CHECK-DAG: llvm.mlir.addressof @flag : !llvm.ptr
// The dynamic shift stays a GEP of the arena's address.
// CHECK: llvm.getelementptr %{{.*}}[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, i8

// CONST: llvm.mlir.alias private @weights.8
// CONST-NOT: llvm.mlir.alias private @arena
// WRITABLE-NOT: llvm.mlir.alias private @weights
// WRITABLE-DAG: llvm.mlir.alias private @arena.16
// WRITABLE-DAG: llvm.mlir.alias private @arena.48

// IR-DAG: @arena.16 = private alias i8, getelementptr inbounds nuw (i8, ptr @arena, i64 16)
// IR-DAG: @arena.48 = private alias i8, getelementptr inbounds nuw (i8, ptr @arena, i64 48)
// IR-DAG: @weights.8 = private alias i8, getelementptr inbounds nuw (i8, ptr @weights, i64 8)
// IR-LABEL: define void @slots
// IR: getelementptr i8, ptr @arena, i64 %1
// IR: getelementptr inbounds nuw i8, ptr @weights.8, i64 %0
// IR: getelementptr inbounds nuw i8, ptr @arena.16, i64 %0
// IR: getelementptr inbounds nuw i8, ptr @arena.48, i64 %0
// IR: getelementptr inbounds nuw i32, ptr @arena.48, i64 %0
func.func @slots(%i: index, %shift: index) {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %arena = memref.get_global @arena : memref<64xi8>
  %weights = memref.get_global @weights : memref<32xi8>
  %flag = memref.get_global @flag : memref<i32>
  %w = memref.view %weights[%c8][] : memref<32xi8> to memref<16xi8>
  %in = memref.view %arena[%c16][] : memref<64xi8> to memref<16xi8>
  %out = memref.view %arena[%c48][] : memref<64xi8> to memref<16xi8>
  %out2 = memref.view %arena[%c48][] : memref<64xi8> to memref<4xi32>
  %dyn = memref.view %arena[%shift][] : memref<64xi8> to memref<4xi8>
  %a = memref.load %w[%i] : memref<16xi8>
  %b = memref.load %in[%i] : memref<16xi8>
  %s = arith.addi %a, %b : i8
  memref.store %s, %out[%i] : memref<16xi8>
  %f = memref.load %flag[] : memref<i32>
  memref.store %f, %out2[%i] : memref<4xi32>
  memref.store %s, %dyn[%i] : memref<4xi8>
  return
}
