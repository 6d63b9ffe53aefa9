#!/usr/bin/env python3
"""Checks helia on real TFLite models (../shared/bench/tflite) against
TFLite's golden data and Arm NN's reference runtime.

Every model is imported with `helia-translate --import-tflite`, wrapped at
run time in a harness (an `helia.unplanned` @main that builds each input as
an `arith.constant dense<"0x...">` of its little-endian bytes, calls the
model, and prints every element of every output as an i32: int8/int16
sign-extended, float32 as its bit pattern, with vector.print, which the
firmware runtime prints too), lowered and run with mlir-runner. Nothing in the shared directory is written.

Parts (positional, default both):

  seanet    every seanet/<op>/<op>N.tflite with its input CSVs, run planned
            (helia-memory-pipeline with fuse-accumulators=true) and plain
            (One-Shot Bufferize of the unfused module), both
            compared with <op>N_golden_<type>.csv bit for bit; with --qemu
            also planned for mps3-an547 as a Cortex-M55 image on QEMU.
  networks  every whole network, COUNT seeded random inputs; the reference
            is Arm NN's TfLite parser on CpuRef (bench/tflite/reference.py
            under /usr/bin/python3, one model per process, cached in
            BUILD/tflite/reference); helia planned on the host, and with
            --qemu the same harness as a Cortex-M55 image for mps3-an547 on
            qemu-system-arm. Tolerance: 1 LSB for quantized outputs, 1e-4
            relative for float outputs (max |a - b| / max |b| over each
            output and input). With --layers, every operator is also cut
            out of the network into a model of its own and checked alone,
            on its own random inputs, and the verdict takes the tolerance
            per operator: Arm NN rounds up to 1 LSB away from TFLite in
            each operator, and later operators amplify that end to end
            (a classifier must still agree on 75% of the top-1 classes).

usage: run.py [seanet] [networks] [--build build] [--bench ../shared/bench]
              [--models kws_ref_model,add0,conv] [--count 20] [--seed 0]
              [--qemu] [--plain] [--layers] [--no-host] [-j 2] [--check]
              [--pipeline-options "arena-mode=alloc"] [--keep DIR]

Every failure (import, lowering, run, mismatch) is reported in its model's
row and counted; each part ends with `N passed, N failed`. --check exits 1
when anything failed.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The parts, and what ops.py, lstm_models.py, layers.py and
# test/Tools/helia-compile/Inputs/golden.py import from here: the tools and
# pipelines (toolchain.py), the .tflite reader (tflite_file.py), the
# harness (harness.py) and the networks' reference (network_reference.py).
from harness import (as_float, batches, decode, harness,  # noqa: E402,F401
                     parse_output, signature)
from network_reference import INT_RANGES, have_armnn  # noqa: E402,F401
from networks import NETWORKS, part_networks  # noqa: E402
from seanet import part_seanet, seanet_models  # noqa: E402
from tflite_file import tflite_io  # noqa: E402,F401
from toolchain import (BENCH, LLVM, PLAIN, RUNNER_LIBS,  # noqa: E402,F401
                       SYSTEM_PYTHON, TO_LLVM, TOSA, Failure, Tools,
                       function_name, run)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parts", nargs="*", metavar="seanet|networks",
                    help="which checks to run (default: both)")
    ap.add_argument("--build", default="build", help="the helia build directory")
    ap.add_argument("--bench", default=BENCH,
                    help="the shared bench directory (holds tflite/)")
    ap.add_argument("--translate", help="helia-translate (default BUILD/bin/helia-translate)")
    ap.add_argument("--imported", help="read DIR/<stem>.mlir instead of importing")
    ap.add_argument("--models", default="",
                    help="comma-separated: networks (kws_ref_model), seanet ops (conv) or models (conv3)")
    ap.add_argument("--count", type=int, default=20, help="random inputs per network")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--qemu", action="store_true",
                    help="also run the models as Cortex-M55 firmware on QEMU")
    ap.add_argument("--plain", action="store_true",
                    help="also run the networks unplanned (One-Shot Bufferize)")
    ap.add_argument("--no-host", action="store_true", help="skip the planned host run of the networks")
    ap.add_argument("--layers", action="store_true",
                    help="also check every operator of each network alone, on its own random inputs")
    ap.add_argument("--pipeline-options", default="",
                    help="more helia-memory-pipeline options for every planned run, "
                         "e.g. \"arena-mode=alloc in-place=true\"")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900, help="seconds per tool run")
    ap.add_argument("--keep", help="keep the work files in this directory")
    ap.add_argument("--check", action="store_true", help="exit 1 when anything failed")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.bench = os.path.abspath(args.bench)
    args.models = [m for m in args.models.split(",") if m]
    parts = args.parts or ["seanet", "networks"]
    for p in parts:
        if p not in ("seanet", "networks"):
            ap.error(f"unknown part {p!r} (seanet, networks)")
    return args, parts


def unknown_models(args):
    """Prints every --models name that selects nothing (a failure, not an
    empty table); returns how many."""
    known = {n for n, _, _ in NETWORKS}
    for op, i, _ in seanet_models(args.bench, []):
        known |= {op, f"{op}{i}"}
    failed = 0
    for m in args.models:
        if m not in known:
            print(f"unknown model {m!r} (networks: {', '.join(n for n, _, _ in NETWORKS)}; "
                  f"seanet: an op such as conv, or a model such as conv4)")
            failed += 1
    return failed


def main():
    args, parts = parse_args()
    tools = Tools(args)
    failed = 0
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        tmp = os.path.abspath(args.keep)
        ctx = None
    else:
        ctx = tempfile.TemporaryDirectory(prefix="helia-tflite-")
        tmp = ctx.name
    failed += unknown_models(args)
    try:
        if "seanet" in parts:
            failed += part_seanet(args, tools, tmp)
        if "networks" in parts:
            if "seanet" in parts:
                print()
            failed += part_networks(args, tools, tmp)
    finally:
        if ctx:
            ctx.cleanup()
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
