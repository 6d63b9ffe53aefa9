#!/usr/bin/env python3
"""Lowering time of a deep call chain (docs/Hardening.md, "Deep call
chains"): f0 -> f1 -> ... -> f(n-1), each function calling the next on a
tensor<4xf32> (the module of ../shared/findings/11-deep-call-chain.py),
planned and lowered with helia-memory-pipeline{lower=true}, beside the
time helia-opt takes to parse and print the same module. Prints, per size,
the wall time and peak RSS of both and the lowering's time per function.

--check fails when the time per function at the largest size is more than
4 times that at the smallest (a quadratic step would make it grow with n:
10x from 1,000 to 10,000 functions).

With --arena-modes global,arg,alloc, one table row per size and mode.

usage: bench/scale/call-chain.py BUILD_DIR [--sizes 1000,3000,10000]
           [--arena-modes global,arg,alloc] [--check]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def chain(n):
    lines = []
    for i in range(n):
        if i < n - 1:
            lines.append(f"func.func @f{i}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n"
                         f"  %r = call @f{i + 1}(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                         "  return %r : tensor<4xf32>\n}")
        else:
            lines.append(f"func.func @f{i}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n"
                         "  return %a : tensor<4xf32>\n}")
    return "\n".join(lines) + "\n"


def timed(cmd):
    """Wall seconds and peak RSS (MiB) of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(before, after) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--sizes", default="1000,3000,10000")
    ap.add_argument("--arena-modes", default="global",
                    help="comma-separated arena modes to lower in")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.arena_modes.split(",")
    print("| functions | arena mode | parse + print s | lower s | lower ms per function | peak RSS MiB |")
    print("|---:|---|---:|---:|---:|---:|")
    per = {mode: [] for mode in modes}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = os.path.join(tmp, f"chain{n}.mlir")
            with open(path, "w") as f:
                f.write(chain(n))
            base, _ = timed([opt, path, "-o", os.devnull])
            for mode in modes:
                lower, rss = timed([opt, path, "--helia-memory-pipeline=lower=true "
                                    f"arena-mode={mode}", "-o", os.devnull])
                per[mode].append(lower / n)
                print(f"| {n} | {mode} | {base:.2f} | {lower:.2f} | "
                      f"{1000 * lower / n:.3f} | {rss:.0f} |", flush=True)
    failed = False
    for mode in modes:
        if args.check and per[mode][-1] > 4 * per[mode][0]:
            print(f"arena-mode={mode}: lowering time per function grew "
                  f"{per[mode][-1] / per[mode][0]:.1f}x from {sizes[0]} to "
                  f"{sizes[-1]} functions", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
