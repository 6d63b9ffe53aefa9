#!/usr/bin/env python3
"""Benchmarks the helia packer (helia-plan) on ../shared/bench, in place.

Prints Markdown tables:
  1. MiniMalloc's challenging suite (A-K): peak / lower bound and time for
     the default algorithm and greedy-by-size, beside baseline.tsv
     (MiniMalloc, our reference greedy);
  2. the 24 TFLM models (via tflm_models.py): TFLM offsets reproduced, arena
     of the default algorithm against TFLM and the lower bound;
  3. idealloc's real ML-graph instances;
  4. synthetic scale, 10^3 to 10^6 buffers: solve time, parse time, peak RSS.

Usage: run.py [--tool build/bin/helia-plan] [--bench /work/shared/bench]
              [--skip SECTION ...]   (challenging, models, idealloc, scale)
Only the standard library; inputs are read where they are; generated inputs
go to a temporary directory.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def plan(tool, path, algorithm, extra=()):
    cmd = [tool, path, f"--algorithm={algorithm}", "--verify", "--resource-stats", *extra]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def challenging(args):
    base_dir = os.path.join(args.bench, "minimalloc")
    with open(os.path.join(base_dir, "baseline.tsv")) as f:
        baseline = {r["instance"]: r for r in csv.DictReader(f, delimiter="\t")}
    print("### MiniMalloc challenging suite\n")
    print("| instance | buffers | lower bound | best peak | best / LB | best s | effort | "
          "greedy-by-size / LB | greedy s | ref. greedy / LB | MiniMalloc / LB | MiniMalloc s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios, greedy_ratios, times = [], [], []
    for name in "ABCDEFGHIJK":
        inst = f"challenging/{name}.1048576.csv"
        path = os.path.join(base_dir, inst)
        best = plan(args.tool, path, "best")
        greedy = plan(args.tool, path, "greedy-by-size")
        b = baseline[inst]
        lb = int(best["lower-bound"])
        r = int(best["peak"]) / lb
        g = int(greedy["peak"]) / lb
        ratios.append(r)
        greedy_ratios.append(g)
        times.append(float(best["solve-seconds"]))
        print(f"| {name} | {best['buffers']} | {lb} | {best['peak']} | {r:.4f} | "
              f"{float(best['solve-seconds']):.2f} | {int(best['search-effort']):.2e} | {g:.4f} | "
              f"{float(greedy['solve-seconds']):.4f} | {float(b['greedy_over_lb']):.4f} | "
              f"{float(b['minimalloc_over_lb']):.4f} | {b['minimalloc_seconds']} |")
    mm = [float(baseline[f"challenging/{n}.1048576.csv"]["minimalloc_over_lb"]) for n in "ABCDEFGHIJK"]
    print(f"| **mean** | | | | **{statistics.mean(ratios):.4f}** | max {max(times):.2f} | | "
          f"{statistics.mean(greedy_ratios):.4f} | | | {statistics.mean(mm):.4f} | |")
    print(f"\nbest reaches the lower bound on {sum(r == 1.0 for r in ratios)} of 11.\n")


def models(args):
    print("### TFLM models (scratch arena, 16-byte aligned sizes, TFLM lifetimes)\n")
    out = subprocess.run([sys.executable, os.path.join(HERE, "tflm_models.py"),
                          "--bench", args.bench, "--tool", args.tool],
                         capture_output=True, text=True)
    print(out.stdout)


IDEALLOC = [
    ("somas_tensors/resnet50.csv", "minimalloc"),
    ("somas_tensors/tiny_bert.csv", "minimalloc"),
    ("somas_tensors/bert_base.csv", "minimalloc"),
    ("somas_tensors/bert_large.csv", "minimalloc"),
    ("somas_tensors/bert_nezha.csv", "minimalloc"),
    ("somas_tensors/pangu_13B.csv", "minimalloc"),
    ("somas_tensors/pangu_2.6B.csv", "minimalloc"),
    ("iree/iree_mobilenet.csv", "idealloc-iree"),
    ("iree/iree_mobilebert.csv", "idealloc-iree"),
    ("iopddl/G_1.csv", "minimalloc"),
    ("iopddl/S_1.csv", "minimalloc"),
    ("iopddl/Y_1.csv", "minimalloc"),
]


def idealloc(args):
    base_dir = os.path.join(args.bench, "idealloc")
    with open(os.path.join(base_dir, "baseline.tsv")) as f:
        baseline = {r["instance"]: r for r in csv.DictReader(f, delimiter="\t")}
    print("### idealloc real ML-graph instances\n")
    print("| instance | buffers | lower bound | greedy-by-size / LB | greedy s | best / LB | best s | "
          "best strategy | ref. greedy / LB | IREE plan / LB |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for inst, fmt in IDEALLOC:
        path = os.path.join(base_dir, inst)
        extra = [f"--format={fmt}"]
        greedy = plan(args.tool, path, "greedy-by-size", extra)
        best = plan(args.tool, path, "best", extra)
        lb = int(best["lower-bound"])
        b = baseline[inst]
        iree = f"{int(best['reference-peak']) / lb:.4f}" if "reference-peak" in best else ""
        print(f"| {inst} | {best['buffers']} | {lb} | {int(greedy['peak']) / lb:.4f} | "
              f"{float(greedy['solve-seconds']):.2f} | {int(best['peak']) / lb:.4f} | "
              f"{float(best['solve-seconds']):.2f} | {best['strategy']} | "
              f"{float(b['greedy_over_lb']):.4f} | {iree} |")
    print()


def scale(args):
    print("### Synthetic scale (gen_synthetic.py, seed 1)\n")
    print("| buffers | algorithm | peak / LB | solve s | parse s | peak RSS MiB |")
    print("|---:|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (1000, 10000, 100000, 1000000):
            path = os.path.join(tmp, f"synthetic{count}.csv")
            subprocess.run([sys.executable, os.path.join(HERE, "gen_synthetic.py"),
                            str(count), path], check=True)
            for algorithm in ("greedy-by-size", "heuristic", "best"):
                r = plan(args.tool, path, algorithm)
                print(f"| {count} | {algorithm} | {float(r['peak/lower-bound']):.4f} | "
                      f"{float(r['solve-seconds']):.3f} | {float(r['parse-seconds']):.3f} | "
                      f"{int(r['max-rss-kib']) / 1024:.0f} |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=os.path.join(HERE, "../../../shared/bench"))
    parser.add_argument("--tool", default=os.path.join(HERE, "../../build/bin/helia-plan"))
    parser.add_argument("--skip", nargs="*", default=[])
    args = parser.parse_args()
    args.tool = os.path.abspath(args.tool)
    for name, section in [("challenging", challenging), ("models", models),
                          ("idealloc", idealloc), ("scale", scale)]:
        if name not in args.skip:
            section(args)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
