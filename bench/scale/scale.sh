#!/usr/bin/env bash
# helia's scale benchmark: generated chains of 10^3 to 10^5 ops with skip
# connections (gen_graph.py), planned by resolve-residency + assign-bindings,
# against helia-opt merely parsing and printing the same file (the floor).
# Prints a Markdown table of wall time and peak RSS (GNU time).
#
# usage: bench/scale/scale.sh [BUILD_DIR] [SIZES...]
set -euo pipefail
build=${1:-build}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000 100000)
here=$(cd "$(dirname "$0")" && pwd)
opt="$build/bin/helia-opt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Constants are bump-allocated, never shared, so the large graphs need more
# MRAM than a real chip has; dtcm is large enough that nothing spills
# ("fit"), or 8 KiB so that most tensors spill to sram ("spill").
fit="memory-limit=mram=1073741824,dtcm=4294967296"
spill="memory-limit=mram=1073741824,dtcm=8192,sram=4294967296"

measure() { # label, then the command; prints "seconds MiB"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
    cat "$tmp/err" >&2
    return 1
  }
  awk '{ printf "%.2f %.0f\n", $1, $2 / 1024 }' "$tmp/time"
}

echo "| ops | tensors | parse+print s | MiB | resolve+assign s | MiB | x floor | spill s | MiB |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
  model="$tmp/chain-$n.mlir"
  python3 "$here/gen_graph.py" "$n" > "$model"
  tensors=$(( n + (n + 3) / 4 + 1 ))
  read -r t0 m0 < <(measure "$opt" --allow-unregistered-dialect "$model" -o /dev/null)
  read -r t1 m1 < <(measure "$opt" --allow-unregistered-dialect "$model" \
    --helia-resolve-residency --helia-assign-bindings="$fit" -o /dev/null)
  read -r t2 m2 < <(measure "$opt" --allow-unregistered-dialect "$model" \
    --helia-resolve-residency --helia-assign-bindings="$spill" -o /dev/null)
  ratio=$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  echo "| $n | $tensors | $t0 | $m0 | $t1 | $m1 | $ratio | $t2 | $m2 |"
done
