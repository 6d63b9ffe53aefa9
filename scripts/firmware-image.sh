#!/usr/bin/env bash
# Builds a Cortex-M55 image from a module in the LLVM dialect (the output of
# helia-memory-pipeline{to-llvm=true plan-ld=<dir>/plan.ld ...}):
#
#   scripts/firmware-image.sh <model.llvm.mlir> <dir of plan.ld> <board.ld> <image.elf> [clang flags...]
#
# The module is translated to LLVM IR, compiled with clang-22 for
# thumbv8.1m.main (Cortex-M55, hard float; -O2 unless flags are given), and
# linked with ld.lld-22, the start-up and runtime of examples/firmware and
# the board's linker script, which includes the generated plan.ld.
#
# Environment (docs/Firmware.md):
#   HELIA_FIRMWARE_SOURCES  C files of the application (e.g. a main that calls
#                           the model through the generated header), compiled
#                           with -O2 -Wall -I<dir of plan.ld> and linked too
#   HELIA_FIRMWARE_CFLAGS   more flags for those files (-Werror, -DNAME, -I...)
#   HELIA_RUNTIME_CFLAGS    more flags for the start-up and runtime (e.g.
#                           -DHELIA_HEAP_BYTES=20480: a larger heap for the
#                           results host code keeps)
#
# A board script names its platform in a line `helia-platform: <name>`; a
# plan.ld written for another platform is refused before the link.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 <model.llvm.mlir> <dir of plan.ld> <board.ld> <image.elf> [clang flags...]" >&2
  exit 2
fi
model=$1 plan_dir=$2 board=$3 out=$4
shift 4
opt=("$@")
[ ${#opt[@]} -eq 0 ] && opt=(-O2)
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/llvm-prefix.sh"
llvm=$LLVM_PREFIX
clang=${CLANG:-clang-22}
lld=${LLD:-ld.lld-22}
work="$out.d"
mkdir -p "$work" "$(dirname "$out")"

# A plan for another board fails the link with "memory region ... not
# declared": say which platforms disagree instead.
board_platform=$(sed -n 's/.*helia-platform: *\([A-Za-z0-9_]*\).*/\1/p' "$board" | head -n1)
plan_platform=$(sed -n "s/.*for platform '\([^']*\)'.*/\1/p" "$plan_dir/plan.ld" 2>/dev/null | head -n1)
if [ -n "$board_platform" ] && [ -n "$plan_platform" ] &&
   [ "$board_platform" != "$plan_platform" ]; then
  echo "error: $plan_dir/plan.ld is a plan for platform '$plan_platform', but $board is the script of '$board_platform'; plan with platform=$board_platform (or link with the script of $plan_platform)" >&2
  exit 1
fi

target=(--target=thumbv8.1m.main-none-eabi -mcpu=cortex-m55 -mfloat-abi=hard)
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$model" -o "$work/model.ll"
"$clang" "${target[@]}" "${opt[@]}" -c "$work/model.ll" -o "$work/model.o" \
  -Wno-override-module
# The C library stand-ins must not be turned back into calls of themselves.
for src in startup runtime aeabi; do
  "$clang" "${target[@]}" -O2 -ffreestanding -fno-builtin -nostdlib \
    -Wall -Wno-main-return-type ${HELIA_RUNTIME_CFLAGS:-} \
    -c "$root/examples/firmware/$src.c" \
    -o "$work/$src.o"
done
extra=()
for src in ${HELIA_FIRMWARE_SOURCES:-}; do
  obj="$work/$(basename "${src%.c}").o"
  # shellcheck disable=SC2086 # HELIA_FIRMWARE_CFLAGS is a list of flags
  "$clang" "${target[@]}" -O2 -ffreestanding -nostdlib -Wall \
    -Wno-main-return-type -I "$plan_dir" ${HELIA_FIRMWARE_CFLAGS:-} \
    -c "$src" -o "$obj"
  extra+=("$obj")
done
"$lld" -L "$plan_dir" -T "$board" -Map "$work/image.map" \
  "$work/startup.o" "$work/runtime.o" "$work/aeabi.o" "$work/model.o" "${extra[@]}" -o "$out"
