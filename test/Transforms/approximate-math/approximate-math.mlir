// RUN: helia-opt %s --pass-pipeline="builtin.module(func.func(helia-approximate-math))" | FileCheck %s

// The math functions a TOSA model lowers to become arithmetic: no libm call
// is left for the conversion to LLVM to make (expf, tanhf, logf, powf), and
// no math.erf that it cannot convert. What remains (arith, math.floor) maps
// to instructions of the Cortex-M55's FPU.

// CHECK-LABEL: func.func @activations
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.log
// CHECK-NOT: math.erf
// CHECK-NOT: math.powf
// CHECK: arith.mulf
// CHECK: return
func.func @activations(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %x : f32
  %l = math.log %y : f32
  %r = math.erf %x : f32
  %p = math.powf %y, %x : f32
  return %e, %t, %l, %r, %p : f32, f32, f32, f32, f32
}

// Vectors too (vectorized loops).
// CHECK-LABEL: func.func @vector
// CHECK-NOT: math.exp
// CHECK: arith.mulf {{.*}} : vector<4xf32>
func.func @vector(%x: vector<4xf32>) -> vector<4xf32> {
  %e = math.exp %x : vector<4xf32>
  return %e : vector<4xf32>
}

// Arithmetic it leaves alone.
// CHECK-LABEL: func.func @other
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @other(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  return %a : f32
}
