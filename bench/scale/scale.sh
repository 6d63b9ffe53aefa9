#!/usr/bin/env bash
# helia's scale benchmark: generated chains of 10^3 to 10^5 ops with skip
# connections (gen_graph.py), planned by the whole planning pipeline
# (--helia-memory-pipeline="lower=false"), against helia-opt merely parsing
# and printing the same file (the floor). Prints a Markdown table of wall
# time, CPU time and peak RSS (GNU time), each the median of --runs runs, and
# the pipeline's ratios to the floor.
#
# usage: bench/scale/scale.sh [--runs N] [--large] [--no-spill] [BUILD_DIR]
#                             [SIZES...]
#   --runs N    runs per measurement, the median is shown (default 3)
#   --large     adds 10^6 ops to the default sizes (slow: about a minute)
#   --no-spill  leaves out the spill column
set -euo pipefail
runs=3
large=0
spill_col=1
while [ $# -gt 0 ]; do
  case $1 in
  --runs) runs=$2; shift 2 ;;
  --large) large=1; shift ;;
  --no-spill) spill_col=0; shift ;;
  *) break ;;
  esac
done
build=${1:-build}
shift || true
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then
  sizes=(1000 10000 100000)
  if [ $large -eq 1 ]; then sizes+=(1000000); fi
fi
here=$(cd "$(dirname "$0")" && pwd)
opt="$build/bin/helia-opt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Constants are bump-allocated, never shared, so the large graphs need more
# MRAM than a real chip has; dtcm is large enough that nothing spills
# ("fit"), or 8 KiB so that most tensors spill to sram ("spill").
fit="lower=false memory-limit=mram=1073741824,dtcm=4294967296"
spill="lower=false memory-limit=mram=1073741824,dtcm=8192,sram=4294967296"

# The command, run $runs times; prints the medians "wall-s cpu-s MiB".
measure() {
  local r
  : > "$tmp/all"
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >/dev/null \
      2>"$tmp/err" || {
      cat "$tmp/err" >&2
      return 1
    }
    cat "$tmp/time" >> "$tmp/all"
  done
  awk '
    function median(col,   n, i, j, t, v) {
      n = 0
      for (i = 1; i <= NR; i++) v[++n] = row[i, col]
      for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
          t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
        }
      return v[int((n + 1) / 2)]
    }
    { row[NR, 1] = $1; row[NR, 2] = $2 + $3; row[NR, 3] = $4 / 1024 }
    END { printf "%.2f %.2f %.0f\n", median(1), median(2), median(3) }
  ' "$tmp/all"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "Median of $runs runs; wall s, CPU s (user + sys), peak RSS MiB."
echo
printf "| ops | tensors | parse+print s | CPU s | MiB | pipeline s | CPU s | MiB "
printf "| x time | x CPU | x memory |"
[ $spill_col -eq 1 ] && printf " spill s | MiB |"
echo
printf "|---|---|---|---|---|---|---|---|---|---|---|"
[ $spill_col -eq 1 ] && printf "%s" "---|---|"
echo
for n in "${sizes[@]}"; do
  model="$tmp/chain-$n.mlir"
  python3 "$here/gen_graph.py" "$n" > "$model"
  tensors=$(( n + (n + 3) / 4 + 1 ))
  read -r t0 c0 m0 < <(measure "$opt" --allow-unregistered-dialect "$model" \
    -o /dev/null)
  read -r t1 c1 m1 < <(measure "$opt" --allow-unregistered-dialect "$model" \
    --helia-memory-pipeline="$fit" -o /dev/null)
  line="| $n | $tensors | $t0 | $c0 | $m0 | $t1 | $c1 | $m1 | $(ratio "$t1" "$t0") | $(ratio "$c1" "$c0") | $(ratio "$m1" "$m0") |"
  if [ $spill_col -eq 1 ]; then
    read -r t2 c2 m2 < <(measure "$opt" --allow-unregistered-dialect "$model" \
      --helia-memory-pipeline="$spill" -o /dev/null)
    line="$line $t2 | $m2 |"
  fi
  echo "$line"
done
