#!/usr/bin/env python3
"""Scratch arena bytes of helia on the 24 TFLite Micro / MLPerf Tiny models,
beside TFLM's GreedyMemoryPlanner and the lifetime lower bound.

Reads ../shared/bench/models in place. Each model is planned by helia-opt
(resolve, then assign) with one scratch memory large enough for the whole
arena, so that the number compared is the packing alone, with TFLM's
lifetimes and 16-byte alignment.

Usage: bench/models.py BUILD_DIR [BENCH_DIR] [--algorithm=best]
"""
import csv
import os
import re
import subprocess
import sys
import time

from cli import make_parser, tool


def main():
    parser = make_parser(__doc__)
    parser.add_argument("--algorithm", default="best,greedy-by-size",
                        help="comma-separated packing algorithms")
    args = parser.parse_args()
    build, bench = args.build, args.bench
    algorithms = args.algorithm.split(",")
    helia_opt = tool(build)
    models = os.path.join(bench, "models")
    with open(os.path.join(models, "tflm_baseline.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))

    header = ["model", "TFLM", "LB"] + [f"helia {a}" for a in algorithms] + \
        ["best/TFLM", "best/LB", "ms"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    worse = 0
    at_bound = 0
    tflm_at_bound = 0
    ratios = []
    for row in rows:
        name = row["model"]
        tflm = int(row["tflm_greedy_arena_bytes"])
        lb = int(row["lower_bound_bytes"])
        sizes = []
        elapsed = 0.0
        for algo in algorithms:
            start = time.perf_counter()
            out = subprocess.run(
                [helia_opt, "--allow-unregistered-dialect",
                 "--helia-resolve-residency",
                 f"--helia-assign-bindings=algorithm={algo} memory-limit=dtcm=4294967296",
                 os.path.join(models, name + ".mlir")],
                check=True, capture_output=True, text=True).stdout
            elapsed = (time.perf_counter() - start) * 1000
            m = re.search(r'helia.arena @scratch_dtcm [^\n]*? size (\d+) align', out)
            sizes.append(int(m.group(1)) if m else 0)
        best = sizes[0]
        worse += best > tflm
        at_bound += best == lb
        tflm_at_bound += tflm == lb
        ratios.append(best / tflm)
        print(f"| `{name}` | {tflm} | {lb} | " + " | ".join(map(str, sizes)) +
              f" | {best / tflm:.3f} | {best / lb:.3f} | {elapsed:.0f} |")
    print()
    print(f"models: {len(rows)}; helia above TFLM on {worse}; "
          f"helia at the lower bound on {at_bound} (TFLM on {tflm_at_bound}); "
          f"mean helia/TFLM {sum(ratios) / len(ratios):.3f}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
