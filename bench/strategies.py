#!/usr/bin/env python3
"""Predicted memory cycles per inference of each placement strategy, side by
side, on the bench networks (docs/Placement.md, docs/benchmarks.md).

Every network is planned by helia-opt on apollo510_evb with each
`objective` of helia-assign-bindings:

- default:    constants cold in MRAM (today's plan; scratch spills by the
              fast_share proxy when it must);
- fast-share: pin constants by size x readers, the proxy's ranking;
- hand:       heliaAOT's hand method, pin the constants with the most
              traffic that fit;
- traffic:    the objective=traffic solver;
- exact:      its exact optimum (branch-and-bound), where it finishes.

Each strategy is costed by the plan's own `predicted_traffic.cycles` (the
same model for all, docs/Placement.md). Two budgets per network: the
platform's DTCM, and a tight one (DTCM limited to the default plan's use
plus a third of the constants' bytes), where not every weight fits and the
strategies differ.

Networks: the TFLite files of ../shared/bench/tflite imported with
helia-translate and lowered from TOSA to linalg (the recipe of
bench/tflite/run.py), and the TFLM models of ../shared/bench/models
(`tfl.*` ops, costed by the per-op table).

Usage: bench/strategies.py [--build BUILD] [--bench BENCH] [--check]
  --check  exit 1 unless traffic <= every other strategy and within 2% of
           exact wherever exact finished.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
BENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench"))
TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, "
        "tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor)")
STRATEGIES = ["default", "fast-share", "hand", "traffic", "exact"]
IMPORTED = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]
TFLM = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8",
        "person_detect", "micro_speech_quantized"]


def plan(opt, source, objective, limit, unregistered, work):
    """The JSON plan and the planning time in ms, or None if planning failed
    (objective=exact gives up on large instances)."""
    out = os.path.join(work, "plan.json")
    options = f"objective={objective}"
    if limit:
        options += f" memory-limit=dtcm={limit}"
    if unregistered:
        cmd = [opt, "--allow-unregistered-dialect", "--helia-resolve-residency",
               f"--helia-assign-bindings={options}",
               f"--helia-export-plan=json={out}", source, "-o", os.devnull]
    else:
        cmd = [opt, source, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{"
               "fuse-accumulators=true %s plan-json=%s})" % (TOSA, options, out),
               "-o", os.devnull]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    ms = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        return None, ms, done.stderr.strip().splitlines()[-1:] or ["failed"]
    with open(out) as f:
        return json.load(f), ms, None


def dtcm_used(p):
    return next(m["used"] for m in p["memories"] if m["name"] == "dtcm")


def constant_bytes(p):
    sizes = {t["buffer"]: t["size"] for t in p["tensors"] if t["kind"] == "constant"}
    return sum(sizes.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--bench", default=BENCH)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    translate = os.path.join(args.build, "bin", "helia-translate")
    failures = []
    print("| network | budget | " + " | ".join(STRATEGIES) +
          " | traffic/default | ms default | ms traffic |")
    print("|---|---|" + "---:|" * (len(STRATEGIES) + 3))
    with tempfile.TemporaryDirectory() as work:
        sources = []
        for stem in IMPORTED:
            model = os.path.join(args.bench, "tflite", stem + ".tflite")
            if not os.path.exists(model):
                continue
            out = os.path.join(work, stem + ".mlir")
            subprocess.run([translate, "--import-tflite", model, "-o", out],
                           check=True, capture_output=True)
            sources.append((f"{stem} (imported)", out, False))
        for stem in TFLM:
            model = os.path.join(args.bench, "models", stem + ".mlir")
            if os.path.exists(model):
                sources.append((f"{stem} (tfl)", model, True))
        for label, source, unregistered in sources:
            base, _, _ = plan(opt, source, "default", None, unregistered, work)
            tight = dtcm_used(base) + constant_bytes(base) // 3
            tight = (tight + 15) // 16 * 16
            for budget, limit in (("dtcm", None), (f"dtcm {tight}", tight)):
                cycles, ms = {}, {}
                for s in STRATEGIES:
                    p, elapsed, err = plan(opt, source, s, limit, unregistered, work)
                    ms[s] = elapsed
                    cycles[s] = p["predicted_traffic"]["cycles"] if p else None
                    if p is None and s != "exact":
                        failures.append(f"{label} {budget} {s}: {err[0]}")
                cells = [str(cycles[s]) if cycles[s] is not None else "gave up"
                         for s in STRATEGIES]
                ratio = cycles["traffic"] / cycles["default"] if cycles["default"] else 1
                print(f"| {label} | {budget} | " + " | ".join(cells) +
                      f" | {ratio:.3f} | {ms['default']:.0f} | {ms['traffic']:.0f} |")
                t = cycles["traffic"]
                if t is None:
                    continue
                for s in ("default", "fast-share", "hand"):
                    if cycles[s] is not None and t > cycles[s]:
                        failures.append(f"{label} {budget}: traffic {t} > {s} {cycles[s]}")
                if cycles["exact"] is not None and t > cycles["exact"] * 1.02:
                    failures.append(f"{label} {budget}: traffic {t} > 1.02 x exact {cycles['exact']}")
    print()
    print(f"traffic worse than another strategy or >2% from exact: {len(failures)}")
    for f in failures:
        print("  " + f)
    if args.check and failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
