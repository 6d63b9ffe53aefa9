#!/usr/bin/env bash
# Builds a Cortex-M55 image from a module in the LLVM dialect (the output of
# helia-memory-pipeline{to-llvm=true plan-ld=<dir>/plan.ld ...}):
#
#   scripts/firmware-image.sh <model.llvm.mlir> <dir of plan.ld> <board.ld> <image.elf> [clang flags...]
#
# The module is translated to LLVM IR, compiled with clang-22 for
# thumbv8.1m.main (Cortex-M55, hard float; -O2 unless flags are given), and
# linked with ld.lld-22, the start-up and runtime of examples/firmware and
# the board's linker script, which includes the generated plan.ld. C files
# listed in HELIA_FIRMWARE_SOURCES (e.g. a firmware main that calls the model
# through the generated header) are compiled with -I<dir of plan.ld> and
# linked too. HELIA_RUNTIME_CFLAGS adds flags to the start-up and runtime
# (e.g. -DHELIA_HEAP_BYTES=20480 for a larger heap for host code's results).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 <model.llvm.mlir> <dir of plan.ld> <board.ld> <image.elf> [clang flags...]" >&2
  exit 2
fi
model=$1 plan_dir=$2 board=$3 out=$4
shift 4
opt=("$@")
[ ${#opt[@]} -eq 0 ] && opt=(-O2)
llvm=${LLVM_PREFIX:-/usr/lib/llvm-22}
root=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-clang-22}
lld=${LLD:-ld.lld-22}
work="$out.d"
mkdir -p "$work"

target=(--target=thumbv8.1m.main-none-eabi -mcpu=cortex-m55 -mfloat-abi=hard)
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$model" -o "$work/model.ll"
"$clang" "${target[@]}" "${opt[@]}" -c "$work/model.ll" -o "$work/model.o" \
  -Wno-override-module
# The C library stand-ins must not be turned back into calls of themselves.
for src in startup runtime; do
  "$clang" "${target[@]}" -O2 -ffreestanding -fno-builtin -nostdlib \
    -Wall -Wno-main-return-type ${HELIA_RUNTIME_CFLAGS:-} \
    -c "$root/examples/firmware/$src.c" \
    -o "$work/$src.o"
done
extra=()
for src in ${HELIA_FIRMWARE_SOURCES:-}; do
  obj="$work/$(basename "${src%.c}").o"
  "$clang" "${target[@]}" -O2 -ffreestanding -nostdlib -Wall -Werror \
    -Wno-main-return-type -I "$plan_dir" -c "$src" -o "$obj"
  extra+=("$obj")
done
"$lld" -L "$plan_dir" -T "$board" -Map "$work/image.map" \
  "$work/startup.o" "$work/runtime.o" "$work/model.o" "${extra[@]}" -o "$out"
