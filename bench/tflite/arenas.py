#!/usr/bin/env python3
"""The arenas of TFLite networks imported and lowered by helia, beside
TFLite Micro's arena and the lifetime lower bound.

Each network of ../shared/bench/tflite (read in place) is imported with
helia-translate, taken from TOSA to linalg with the TFLite recipe
(tosa-to-linalg, helia-fuse-accumulators) and planned on the default
platform; the scratch arena is everything the lowered firmware needs for
activations, accumulators and kernel temporaries. The table compares it
with TFLM's GreedyMemoryPlanner arena and the bound of
../shared/bench/models/tflm_baseline.tsv (which count activations only:
TFLM's kernels keep their accumulators in registers) and, for reference,
with the plan of the same network without helia-fuse-accumulators.

With --qemu, each network is also built as a Cortex-M55 image for QEMU's
mps3-an547 board (bench/tflite/run.py networks --qemu, one input) and the
table gains the image's run time on QEMU: the median of 3 runs, wall
clock, QEMU start-up included (QEMU is not cycle-accurate: compare these
with each other, not with hardware).

usage: bench/tflite/arenas.py [--build build] [--bench ../shared/bench]
                              [--models kws_ref_model,...] [--qemu]
"""
import argparse
import csv
import json
import os
import subprocess
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench"))
TOSA = ("tosa-to-linalg-named, tosa-to-linalg, "
        "tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor")
# heliaAOT's published Apollo510 scratch arenas (kernel scratch included).
HELIA_AOT = {"kws_ref_model": 20960, "vww_96_int8": 55296,
             "pretrainedResnet_quant": 52224, "ad01_int8": 896}
DEFAULT_MODELS = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant",
                  "ad01_int8", "vww_96_float", "ad01_fp32", "hello_world_int8",
                  "micro_speech_quantized", "simple_add_model"]


def plan(opt, mlir, fuse, tmp, name):
    passes = TOSA + (", helia-fuse-accumulators" if fuse else "")
    path = os.path.join(tmp, name + (".fused" if fuse else "") + ".json")
    t0 = time.time()
    p = subprocess.run([opt, mlir, "--pass-pipeline=builtin.module(func.func(%s), "
                        "helia-memory-pipeline{lower=false plan-json=%s})"
                        % (passes, path), "-o", os.devnull],
                       capture_output=True, text=True)
    seconds = time.time() - t0
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip().splitlines()[0] if p.stderr else "failed")
    arenas = json.load(open(path))["arenas"]
    total = {}
    for a in arenas:
        kind = "stream" if a.get("stream_pool") or "stream" in a["name"] else a["role"]
        total[kind] = total.get(kind, 0) + a["size"]
    return total, seconds


QEMU = ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55",
        "-nographic", "-semihosting-config", "enable=on,target=native",
        "-kernel"]


def qemu_seconds(build, bench, models, tmp):
    """Builds one image per network with run.py and times it on QEMU."""
    keep = os.path.join(tmp, "images")
    subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "networks",
                    "--build", build, "--bench", bench, "--models",
                    ",".join(models), "--count", "1", "--qemu", "--no-host",
                    "--keep", keep], capture_output=True, text=True)
    times = {}
    for name in models:
        image = os.path.join(keep, name, "fw0", "image.elf")
        if not os.path.exists(image):
            continue
        runs = []
        for _ in range(3):
            t0 = time.time()
            subprocess.run(QEMU + [image], capture_output=True, timeout=600)
            runs.append(time.time() - t0)
        times[name] = statistics.median(runs)
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--bench", default=BENCH)
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--qemu", action="store_true")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    translate = os.path.join(args.build, "bin", "helia-translate")
    with open(os.path.join(args.bench, "models", "tflm_baseline.tsv")) as f:
        baseline = {r["model"]: r for r in csv.DictReader(f, delimiter="\t")}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        qemu = qemu_seconds(args.build, args.bench, args.models.split(","),
                            tmp) if args.qemu else {}
        print("| network | helia scratch | stream | constant | TFLM arena | lower bound "
              "| scratch/TFLM | heliaAOT (Apollo510) | unfused scratch | plan s"
              + (" | QEMU s |" if args.qemu else " |"))
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
              + ("---:|" if args.qemu else ""))
        for name in args.models.split(","):
            model = os.path.join(args.bench, "tflite", name + ".tflite")
            mlir = os.path.join(tmp, name + ".mlir")
            try:
                p = subprocess.run([translate, "--import-tflite", model, "-o", mlir],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    raise RuntimeError(p.stderr.strip().splitlines()[0])
                fused, seconds = plan(opt, mlir, True, tmp, name)
                unfused, _ = plan(opt, mlir, False, tmp, name)
            except Exception as e:  # reported in the row, counted
                failures += 1
                print(f"| {name} | failed: {str(e)[:160]} |||||||||")
                continue
            row = baseline.get(name, {})
            tflm = int(row["tflm_greedy_arena_bytes"]) if row else None
            bound = int(row["lower_bound_bytes"]) if row else None
            scratch = fused.get("scratch", 0)
            ratio = f"{scratch / tflm:.3f}" if tflm else ""
            aot = HELIA_AOT.get(name, "")
            print(f"| {name} | {scratch} | {fused.get('stream', 0)} | "
                  f"{fused.get('constant', 0)} | {tflm or ''} | {bound or ''} | "
                  f"{ratio} | {aot} | {unfused.get('scratch', 0)} | {seconds:.2f} |"
                  + (f" {qemu[name]:.2f} |" if name in qemu else (" |" if args.qemu else "")),
                  flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
