#!/usr/bin/env bash
# Runs every helia fuzzer for a bounded time: first its saved regression
# inputs (fuzz/regressions/<target>/, each must pass), then fuzzing from the
# seed corpus for SECONDS seconds. A crash leaves its input in
# BUILD_DIR/fuzz-artifacts/<target>/ and fails the run.
#
# usage: fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
set -euo pipefail
build=$(cd "$1" && pwd)
seconds=${2:-60}
shift $(( $# > 1 ? 2 : 1 ))
src=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(planner rules profile pipeline tflite npz)

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:allow_user_poisoning=0:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

python3 "$src/make-corpus.py" "$build/fuzz-corpus" >/dev/null
status=0
for t in "${targets[@]}"; do
  bin="$build/bin/helia-$t-fuzzer"
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  args=(-timeout=20 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "$src/$t.dict" ] && args+=(-dict="$src/$t.dict")
  if [ -d "$src/regressions/$t" ]; then
    echo "== $t: regression inputs"
    "$bin" "${args[@]}" "$src/regressions/$t"/* 2>&1 | tail -n 3 || status=1
  fi
  echo "== $t: fuzzing for ${seconds}s"
  if ! "$bin" "${args[@]}" -max_total_time="$seconds" -max_len=32768 \
      "$corpus" > "$build/fuzz-$t.log" 2>&1; then
    status=1
    echo "helia-$t-fuzzer FAILED; see $build/fuzz-$t.log and $artifacts/"
    grep -m1 -A30 "ERROR\|helia .* fuzzer:" "$build/fuzz-$t.log" || true
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" \
    "$build/fuzz-$t.log" || true
done
exit $status
