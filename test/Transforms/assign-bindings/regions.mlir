// RUN: helia-opt %s -helia-resolve-residency -helia-assign-bindings -helia-verify-plan | FileCheck %s

// The result of an scf.if owns no storage: it is the buffer of whichever
// value the taken branch yields. It has no binding, and each of those
// buffers stays live through its last use: here %x and %a are both read by
// the add (through %r), so the add's result cannot take the bytes of
// either (three buffers of 64 bytes; without %r, %x would be dead after the
// mul and the add could reuse its bytes).

// CHECK: helia.arena @scratch_dtcm {{.*}}size 192 align
// CHECK-LABEL: func.func @select
// CHECK: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }{{$}}
func.func @select(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
  %w = arith.constant dense<3.0> : tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.mul ins(%x, %w : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.if %c -> tensor<16xf32> {
    scf.yield %a : tensor<16xf32>
  } else {
    scf.yield %x : tensor<16xf32>
  }
  %e2 = tensor.empty() : tensor<16xf32>
  %o = linalg.add ins(%r, %w : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %o : tensor<16xf32>
}
