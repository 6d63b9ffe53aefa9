// RUN: helia-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect --helia-verify-llvm

// After the conversion to the LLVM dialect, every op that is left outside
// it is an error at the op that names the pass that lowers it.

llvm.func @rescale(%a: i32, %m: i32, %s: i8) -> i32 {
  // expected-error @+1 {{'tosa.apply_scale' is left after the conversion to the LLVM dialect; it needs tosa-to-arith{include-apply-rescale=true} (after tosa-to-linalg)}}
  %0 = tosa.apply_scale %a, %m, %s {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
  llvm.return %0 : i32
}

// -----

llvm.func @cast(%a: i32) -> i32 {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' is left after the conversion to the LLVM dialect; it needs a conversion of the value's producer or user to LLVM (the cast is what reconcile-unrealized-casts could not remove)}}
  %0 = builtin.unrealized_conversion_cast %a : i32 to index
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' is left after the conversion to the LLVM dialect}}
  %1 = builtin.unrealized_conversion_cast %0 : index to i32
  llvm.return %1 : i32
}

// -----

llvm.func @tfl(%a: i32) -> i32 {
  // expected-error @+1 {{'tfl.relu' is left after the conversion to the LLVM dialect; it needs a lowering of this dialect to LLVM before helia-memory-pipeline (the pipeline converts func, arith, math, memref, scf, cf, linalg, affine and vector)}}
  %0 = "tfl.relu"(%a) : (i32) -> i32
  llvm.return %0 : i32
}

// -----

llvm.func @erf(%a: f32) -> f32 {
  // expected-error @+1 {{'math.erf' is left after the conversion to the LLVM dialect; it needs helia-approximate-math (the pipeline's approximate-math=true), or convert-math-to-libm and a libm for the board}}
  %0 = math.erf %a : f32
  llvm.return %0 : f32
}

// -----

// An op with regions is one error, not one per nested op.
// expected-error @+1 {{'func.func' is left after the conversion to the LLVM dialect}}
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

// Only LLVM-dialect ops: nothing to say.
llvm.func @ok(%a: i32) -> i32 {
  %0 = llvm.add %a, %a : i32
  llvm.return %0 : i32
}
