#!/usr/bin/env python3
"""What the planning passes cost against the parser, on a generated graph.

usage: bench/scale/passes.py [--build build] [--ops 100000] [--runs 3]

Generates the chain of --ops ops (gen_graph.py, seed 1), then runs helia-opt
twice: parsing and printing the file (the floor), and the planning pipeline
(--helia-memory-pipeline="lower=false ...", the limits of scale.sh's "fit"
column) with --mlir-timing. Prints, each the median of --runs runs:

- every pass's own wall time (--mlir-timing), the parser's and the output's,
  and the passes' own time (total minus parser and output) against the
  parser's;
- the bytes of the printed plan against those of the input;
- the peak RSS of the pipeline against that of parsing and printing the
  printed plan (the same module without planning work), from GNU time.

The targets of issue 22 (docs/benchmarks.md): passes <= parser, printed plan
<= 1.5x the input, peak memory <= 1.3x.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PIPELINE = ("--helia-memory-pipeline=lower=false "
            "memory-limit=mram=1073741824,dtcm=4294967296")
TIMING_ROW = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*)$")


def run(opt, args, out_path):
    """Runs helia-opt with --mlir-timing; returns ({name: s}, peak KiB)."""
    time_path = out_path + ".time"
    cmd = ["/usr/bin/time", "-f", "%M", "-o", time_path, opt,
           "--allow-unregistered-dialect", "--mlir-timing",
           "-o", out_path] + args
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    timings = {}
    for line in proc.stderr.splitlines():
        match = TIMING_ROW.match(line)
        # Nested rows ("(A) analysis") are inside their pass's time.
        if match and not match.group(2).startswith("("):
            timings[match.group(2).strip()] = float(match.group(1))
    with open(time_path) as f:
        peak = int(f.read().split()[-1])
    return timings, peak


def median_run(opt, args, out_path, runs):
    results = [run(opt, args, out_path) for _ in range(runs)]
    names = results[0][0].keys()
    timings = {n: statistics.median(r[0].get(n, 0.0) for r in results)
               for n in names}
    return timings, statistics.median(r[1] for r in results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build",
                        help="build directory with bin/helia-opt")
    parser.add_argument("--ops", type=int, default=100000,
                        help="ops of the generated graph")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs per measurement; the median is shown")
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    with tempfile.TemporaryDirectory() as tmp:
        graph = os.path.join(tmp, "graph.mlir")
        with open(graph, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_graph.py"),
                            str(args.ops)], stdout=f, check=True)
        plan = os.path.join(tmp, "plan.mlir")
        passes, plan_peak = median_run(opt, [graph, PIPELINE], plan, args.runs)
        _, floor_peak = median_run(opt, [plan], os.path.join(tmp, "reprint"),
                                   args.runs)
        input_bytes = os.path.getsize(graph)
        plan_bytes = os.path.getsize(plan)

    own = {n: t for n, t in passes.items()
           if n not in ("Parser", "Output", "Rest", "Total")}
    parse = passes.get("Parser", 0.0)
    output = passes.get("Output", 0.0)
    total = passes.get("Total", 0.0)
    print(f"{args.ops} ops, helia-opt {opt}, median of {args.runs} runs\n")
    print("| phase | wall s |\n|---|---|")
    for name in ["Parser"] + list(own) + ["Output", "Rest", "Total"]:
        if name in passes:
            print(f"| {name} | {passes[name]:.3f} |")
    own_time = total - parse - output
    print()
    print(f"passes' own time (total - parser - output): {own_time:.3f} s, "
          f"{own_time / parse:.2f}x the parser's {parse:.3f} s "
          f"(target <= 1)")
    print(f"printed plan: {plan_bytes} bytes, {plan_bytes / input_bytes:.2f}x "
          f"the input's {input_bytes} (target <= 1.5)")
    print(f"peak memory: {plan_peak / 1024:.0f} MiB, "
          f"{plan_peak / floor_peak:.2f}x parsing and printing the plan "
          f"({floor_peak / 1024:.0f} MiB; target <= 1.3)")


if __name__ == "__main__":
    main()
