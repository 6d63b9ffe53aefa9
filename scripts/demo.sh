#!/usr/bin/env bash
# make demo: plan the bundled example model on the default platform and
# print the plan; write the JSON plan and the SVG picture next to it.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
opt="$build/bin/helia-opt"
out="$build/demo"
mkdir -p "$out"

model="$root/examples/tiny_cnn.mlir"
rules="$root/examples/tiny_cnn.rules.json"
echo "== helia demo: $model"
echo "   rules: $rules"
echo
"$opt" "$model" \
  --helia-memory-pipeline="rules-file=$rules plan-json=$out/tiny_cnn.plan.json plan-svg=$out/tiny_cnn.plan.svg plan-report=-" \
  -o "$out/tiny_cnn.planned.mlir"
echo
echo "Planned IR: $out/tiny_cnn.planned.mlir"
echo "JSON plan:  $out/tiny_cnn.plan.json"
echo "Picture:    $out/tiny_cnn.plan.svg (open it in a browser)"
