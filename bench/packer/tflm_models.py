#!/usr/bin/env python3
"""Checks helia-plan against TFLite Micro on the 24 bench models.

For each /work/shared/bench/models/plans/<model>.tflm_plan.tsv (the exact
problem TFLM's GreedyMemoryPlanner solved: aligned sizes, closed scopes, in
tensor-index order) this writes a temporary MiniMalloc CSV (with an inclusive
`end` column), runs `helia-plan --algorithm=greedy-by-size` and checks that
every offset equals TFLM's, then runs the default algorithm and reports its
arena beside tflm_greedy_arena_bytes and lower_bound_bytes.

Usage: tflm_models.py [--bench DIR] [--tool PATH]
Reads the bench directory in place; writes only to a temporary directory.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile


def run(tool, path, algorithm, out=None):
    cmd = [tool, path, f"--algorithm={algorithm}", "--verify"]
    if out:
        cmd += ["-o", out]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=os.path.join(here, "../../../shared/bench"))
    parser.add_argument("--tool", default=os.path.join(here, "../../build/bin/helia-plan"))
    args = parser.parse_args()
    models_dir = os.path.join(args.bench, "models")
    with open(os.path.join(models_dir, "tflm_baseline.tsv")) as f:
        baseline = {row["model"]: row for row in csv.DictReader(f, delimiter="\t")}

    failures = 0
    print("| model | buffers | TFLM greedy | lower bound | greedy-by-size | offsets = TFLM | best | best / LB |")
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in baseline:
            with open(os.path.join(models_dir, "plans", f"{model}.tflm_plan.tsv")) as f:
                rows = list(csv.DictReader(f, delimiter="\t"))
            path = os.path.join(tmp, f"{model}.csv")
            with open(path, "w") as f:
                f.write("id,begin,end,size\n")
                for r in rows:
                    f.write(f"{r['tensor_index']},{r['first_scope']},{r['last_scope']},{r['aligned_bytes']}\n")
            out = os.path.join(tmp, f"{model}.greedy.csv")
            greedy = run(args.tool, path, "greedy-by-size", out)
            with open(out) as f:
                ours = {r["id"]: int(r["offset"]) for r in csv.DictReader(f)}
            same = all(ours[r["tensor_index"]] == int(r["tflm_greedy_offset"]) for r in rows)
            best = run(args.tool, path, "best")
            b = baseline[model]
            ok = same and int(greedy["peak"]) == int(b["tflm_greedy_arena_bytes"]) \
                and int(best["peak"]) <= int(b["tflm_greedy_arena_bytes"])
            failures += not ok
            lb = int(b["lower_bound_bytes"])
            print(f"| `{model}` | {len(rows)} | {b['tflm_greedy_arena_bytes']} | {lb} | "
                  f"{greedy['peak']} | {'yes' if same else '**NO**'} | {best['peak']} | "
                  f"{int(best['peak']) / lb:.3f} |")
    print(f"\n{len(baseline) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
