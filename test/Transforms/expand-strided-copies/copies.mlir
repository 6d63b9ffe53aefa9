// RUN: helia-opt %s --helia-expand-strided-copies | FileCheck %s
// RUN: helia-opt %s --helia-expand-strided-copies --convert-linalg-to-loops --lower-affine --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// A copy between non-contiguous memrefs would be a call of memrefCopy, which
// a firmware image does not have: it becomes a linalg.copy (loops). Copies
// that finalize-memref-to-llvm turns into memcpy stay.

// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %[[A:.*]]: memref<2x2xf32, strided<[4, 1]>>, %[[B:.*]]: memref<2x2xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<2x2xf32, strided<[4, 1]>>) outs(%[[B]] : memref<2x2xf32>)
// CHECK-NEXT: return
func.func @strided(%a: memref<2x2xf32, strided<[4, 1]>>, %b: memref<2x2xf32>) {
  memref.copy %a, %b : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32>
  return
}

// CHECK-LABEL: func.func @contiguous(
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
func.func @contiguous(%a: memref<2x2xf32>, %b: memref<2x2xf32>, %c: memref<2x2xf32, strided<[2, 1], offset: 4>>) {
  memref.copy %a, %b : memref<2x2xf32> to memref<2x2xf32>
  memref.copy %c, %b : memref<2x2xf32, strided<[2, 1], offset: 4>> to memref<2x2xf32>
  return
}

// LLVM-NOT: memrefCopy
// LLVM-LABEL: llvm.func @strided(
// LLVM-NOT: llvm.intr.memcpy
// LLVM: llvm.load
// LLVM: llvm.store
// LLVM-LABEL: llvm.func @contiguous(
// LLVM-COUNT-2: "llvm.intr.memcpy"
// LLVM-NOT: memrefCopy

