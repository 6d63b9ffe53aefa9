#!/usr/bin/env bash
# make demo: plan the bundled example model on the default platform, print
# the plan, write the JSON plan and the SVG picture, then lower the planned
# model to LLVM and run it.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
opt="$build/bin/helia-opt"
llvm=${LLVM_PREFIX:-/usr/lib/llvm-22}
out="$build/demo"
mkdir -p "$out"

model="$root/examples/tiny_cnn.mlir"
rules="$root/examples/tiny_cnn.rules.json"
tosa_to_linalg="func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor)"
to_llvm="convert-vector-to-scf, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-vector-to-llvm, finalize-memref-to-llvm, convert-to-llvm, reconcile-unrealized-casts"

echo "== helia demo: $model"
echo "   rules: $rules"
echo
# 1. Plan (TOSA is lowered to linalg first; tensor names survive).
"$opt" "$model" --pass-pipeline="builtin.module($tosa_to_linalg, helia-memory-pipeline{lower=false rules-file=$rules plan-json=$out/tiny_cnn.plan.json plan-svg=$out/tiny_cnn.plan.svg plan-report=-})" \
  -o "$out/tiny_cnn.planned.mlir"

# 2. Lower the plan to arenas, views and copies, then to LLVM, and run.
"$opt" "$model" --pass-pipeline="builtin.module($tosa_to_linalg, helia-memory-pipeline{rules-file=$rules lower=true lower-copies=true})" \
  -o "$out/tiny_cnn.lowered.mlir"
"$opt" "$out/tiny_cnn.lowered.mlir" --pass-pipeline="builtin.module($to_llvm)" -o "$out/tiny_cnn.llvm.mlir"
echo
echo "== Running the planned model (mlir-runner): logits"
"$llvm/bin/mlir-runner" "$out/tiny_cnn.llvm.mlir" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
echo
echo "Planned IR: $out/tiny_cnn.planned.mlir"
echo "Lowered IR: $out/tiny_cnn.lowered.mlir (arenas as memref.globals, tensors as views)"
echo "JSON plan:  $out/tiny_cnn.plan.json"
echo "Picture:    $out/tiny_cnn.plan.svg (open it in a browser)"
