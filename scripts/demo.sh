#!/usr/bin/env bash
# make demo: plan the bundled example model on the default platform, print
# the plan, write the JSON plan and the SVG picture, then lower the planned
# model to LLVM and run it, on the host and as firmware on QEMU.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
opt="$build/bin/helia-opt"
. "$root/scripts/llvm-prefix.sh"
llvm=$LLVM_PREFIX
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

# 3. The same model as firmware: planned for QEMU's mps3-an547 board
#    (Cortex-M55), lowered to LLVM with every arena in its memory's section,
#    cross-compiled, linked with the generated linker-script fragment, and
#    run on QEMU beside the host (docs/Firmware.md).
fw="$out/firmware"
mkdir -p "$fw"
"$opt" "$model" --pass-pipeline="builtin.module($tosa_to_linalg, helia-memory-pipeline{platform=mps3_an547 rules-file=$root/examples/firmware/tiny_cnn.mps3_an547.rules.json plan-ld=$fw/plan.ld plan-header=$fw/model.h})" \
  -o "$fw/tiny_cnn.llvm.mlir"
"$llvm/bin/mlir-runner" "$fw/tiny_cnn.llvm.mlir" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so" > "$fw/host.txt"
"$root/scripts/firmware-image.sh" "$fw/tiny_cnn.llvm.mlir" "$fw" "$root/examples/firmware/mps3_an547.ld" "$fw/image.elf"
start=$(date +%s%N)
# QEMU writes the semihosting output to its stderr.
timeout 60 qemu-system-arm -M mps3-an547 -cpu cortex-m55 -nographic \
  -semihosting-config enable=on,target=native -kernel "$fw/image.elf" 2> "$fw/qemu.txt"
end=$(date +%s%N)
echo
echo "== Firmware for mps3_an547: the arenas in the image ($fw/image.elf)"
"$llvm/bin/llvm-readelf" -S -W "$fw/image.elf" | sed -n 's/^ *\[ *[0-9]*\] //p' |
  while read -r name type addr off size rest; do
    case $name in .helia.*) printf "   %-24s at 0x%s %7d bytes\n" "$name" "$addr" "$((16#$size))" ;; esac
  done
echo
printf "== %-38s %s\n" "host (mlir-runner)" "QEMU mps3-an547, Cortex-M55 ($(( (end - start) / 1000000 )) ms)"
paste -d'|' "$fw/host.txt" "$fw/qemu.txt" | awk -F'|' '{printf "   %-38s %s\n", $1, $2}'
if cmp -s "$fw/host.txt" "$fw/qemu.txt"; then
  echo "   match: QEMU printed the host's output byte for byte"
else
  echo "   MISMATCH between host and QEMU output" >&2
  exit 1
fi
# 4. A trained network from its .tflite: MLPerf Tiny keyword spotting,
#    imported, planned with the TFLite recipe, built for QEMU and run on one
#    seeded random input beside Arm NN's CpuRef (bench/tflite/run.py; the
#    shared bench directory is read in place, and Arm NN is installed by
#    scripts/install-deps.sh).
kws="$root/../shared/bench/tflite/kws_ref_model.tflite"
if [ -f "$kws" ]; then
  echo
  echo "== From a .tflite file: $kws"
  "$build/bin/helia-translate" --import-tflite "$kws" -o "$out/kws_ref_model.mlir"
  "$opt" "$out/kws_ref_model.mlir" --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor), helia-memory-pipeline{lower=false fuse-accumulators=true plan-report=$out/kws_ref_model.report.txt})" -o /dev/null
  sed -n '/^Arenas/,/^$/p' "$out/kws_ref_model.report.txt" | sed 's/^/   /'
  echo "   (TFLite Micro's arena for this network: 16000 bytes)"
  rm -rf "$out/kws"
  mkdir -p "$out/kws"
  # One input, run as firmware; run.py also fetches (and caches) Arm NN's
  # output for it. Its verdict is not the point here: Arm NN computes
  # quantized layers in float, helia TFLite's integer kernels, so the two
  # may differ by a few LSB at the logits (docs/TFLite.md).
  python3 "$root/bench/tflite/run.py" networks --build "$build" --models kws_ref_model \
    --count 1 --qemu --no-host --keep "$out/kws" > "$out/kws/run.txt" 2>&1 || true
  image="$out/kws/kws_ref_model/fw0/image.elf"
  # run.py caches Arm NN's outputs by the model's sha256, seed and count.
  reference="$build/tflite/reference/$(sha256sum "$kws" | cut -d' ' -f1)-seed0-n1.json"
  if [ -f "$image" ] && [ -f "$reference" ]; then
    timeout 60 qemu-system-arm -M mps3-an547 -cpu cortex-m55 -nographic \
      -semihosting-config enable=on,target=native -kernel "$image" 2> "$out/kws/qemu.txt" || true
    echo "   QEMU (Cortex-M55):  ( $(head -1 "$out/kws/qemu.txt") )"
    echo "   Arm NN (CpuRef):    ( $(python3 -c "import json,sys; print(', '.join(str(v) for v in json.load(open(sys.argv[1]))['outputs'][0][0]))" "$reference") )"
  fi
fi

echo
echo "Planned IR: $out/tiny_cnn.planned.mlir"
echo "Lowered IR: $out/tiny_cnn.lowered.mlir (arenas as memref.globals, tensors as views)"
echo "JSON plan:  $out/tiny_cnn.plan.json"
echo "Picture:    $out/tiny_cnn.plan.svg (open it in a browser)"
echo "Firmware:   $fw/image.elf, linker fragment $fw/plan.ld, C header $fw/model.h"
