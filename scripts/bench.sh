#!/usr/bin/env bash
# make bench: helia against its baselines, reading ../shared/bench in place.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${HELIA_BENCH_DIR:-$root/../shared/bench}
echo "== Models: scratch arena bytes vs TFLite Micro (bench/models.py)"
python3 "$root/bench/models.py" "$build" "$bench"
echo
echo "== Spilling: slow arena vs its bound, fast share (bench/spill.py)"
python3 "$root/bench/spill.py" "$build" "$bench"
echo
echo "== Packing library: MiniMalloc, TFLM models, idealloc, scale (bench/packer/run.py)"
python3 "$root/bench/packer/run.py" --bench "$bench" --tool "$build/bin/helia-plan"
echo
echo "== Firmware: image sections and the QEMU run (bench/firmware.py)"
python3 "$root/bench/firmware.py" "$build"
echo
echo "== Elementwise results in place: bound and arena without and with helia-elementwise-in-place (bench/inplace.py)"
python3 "$root/bench/inplace.py" "$build" "$bench"
echo
echo "== Frontend networks: planned vs plain, bit for bit (bench/frontend/run.py)"
python3 "$root/bench/frontend/run.py" --build "$build" --frontend "$bench/frontend"
echo
echo "== Memory traffic of one inference on QEMU, helia-traffic plugin (bench/traffic.py)"
python3 "$root/bench/traffic.py" --build "$build" --markdown \
  "$bench/tflite/kws_ref_model.tflite" "$bench/tflite/vww_96_int8.tflite" \
  "$bench/tflite/pretrainedResnet_quant.tflite" "$bench/tflite/ad01_int8.tflite" \
  "$bench/frontend/transformer_block.tosa.mlir"
echo
echo "== Placement objectives, predicted memory cycles per inference (bench/strategies.py)"
python3 "$root/bench/strategies.py" --build "$build" --bench "$bench" --check
echo
echo "== Placement objectives, measured under the helia-traffic plugin (bench/measured_strategies.py)"
python3 "$root/bench/measured_strategies.py" --build "$build" \
  "$bench/tflite/kws_ref_model.tflite=32768" "$bench/tflite/kws_ref_model.tflite=24576" \
  "$bench/tflite/vww_96_int8.tflite=131072" "$bench/tflite/pretrainedResnet_quant.tflite=98304" \
  "$bench/tflite/ad01_int8.tflite=131072"
