#!/usr/bin/env python3
"""Runs the frontend networks of ../shared/bench/frontend planned and plain
and compares their outputs bit for bit; prints a table.

Each model gets a harness at run time (the shared files are never edited):
an `helia.unplanned` @main that builds the deterministic input (element i of
the flattened input is ((i * 7) % 17 - 8) / 8), calls @torch_jit, and prints
the logits as their bit patterns (arith.bitcast to i32, printMemrefI32).

Variants: the default platform; every constant pinned into PSRAM (`pin`:
staged arenas and hydration); every constant streamed (`stream`: the stream
pool); a DTCM limit of half the scratch arena, which forces scratch to spill
into SRAM (`spill`); ops that only move constant elements folded into
constants first (`fold`, fold-constants=true; the table shows the report's
predicted scratch peak without the tensors computed from constants alone
and the folded plan's scratch arenas). Each in arena modes global, arg and
alloc, against plain One-Shot Bufferize.

With --qemu, each model is also planned for QEMU's mps3-an547 in every
arena mode, lowered to LLVM with its arenas in their sections, and run on
the host (mlir-runner) and as a Cortex-M55 image on QEMU; both must print
what the unplanned module prints with the same math approximations
(helia-approximate-math), bit for bit. --variants "" runs only that.

The recurrent models of bench/frontend/recurrent.py (a GRU and a stacked
two-layer LSTM) are generated at run time; the others are read from the
shared frontend directory.

usage: run.py --build build [--models a,b] [--variants default,pin,stream,spill,fold]
              [--modes global,arg,alloc] [--pipeline-options "in-place=true"]
              [--qemu] [--check]
       run.py --build build --double-buffering [--models a,b]
--double-buffering prints each model's scratch arenas with the tensors its
loops carry in one slot where bufferization allows it and with each in two
slots (carry-in-place=false: a second slot and a copy back per iteration).
--check exits 1 when any planned run differs from plain or fails.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recurrent  # noqa: E402  (bench/frontend/recurrent.py)
from double_buffering import double_buffering  # noqa: E402
from execute import TOSA, execute, execute_llvm, firmware, run  # noqa: E402
from execute import PLAIN_APPROX  # noqa: E402
from harness import harness  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FRONTEND = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench", "frontend"))
DEFAULT_MODELS = ["transformer_block.tosa", "transformer_block.linalg",
                  "vit_tiny_32.tosa", "vit_tiny_32.linalg",
                  "shufflenet_v2_x0_5_64.tosa", "shufflenet_v2_x0_5_64.linalg",
                  "squeezenet1_1_64.tosa", "squeezenet1_1_64.linalg",
                  "mobilenet_v3_small_96.tosa", "lstm_16x8.linalg"] + \
    list(recurrent.MODELS)
RULES = {
    # Every constant copied at start-up into PSRAM (the one writable memory
    # that holds every model's weights): staged arenas, hydration.
    "pin": '[{"type": "constant", "attributes": '
           '{"constant_destination_memory": "psram"}}]',
    # Every constant streamed into the pool before its first reader.
    "stream": '[{"type": "constant", "attributes": {"residency": "stream"}}]',
}


# Options a model needs on the default platform: MobileNetV3's 6 MB of
# weights exceed Apollo510's 4 MB of MRAM (a limit above the physical size
# measures the plan alone).
MODEL_LIMITS = {"mobilenet_v3_small_96.tosa": ["mram=16777216"]}


def limits_option(limits):
    return " memory-limit=" + ",".join(limits) if limits else ""


class Tally:
    """The runs that printed what plain bufferization prints, and the
    others (or that failed)."""

    def __init__(self):
        self.passed = 0
        self.failures = 0


def read_model(args, model):
    if model in recurrent.MODELS:
        return recurrent.generate(model)
    return open(os.path.join(args.frontend, model + ".mlir")).read()


def plan_alone(opt, src, tmp, model, extra):
    """Planning alone: (the JSON plan's path, the report's path, seconds)."""
    json_path = os.path.join(tmp, model + ".json")
    t0 = time.time()
    report_path = os.path.join(tmp, model + ".report.txt")
    run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false plan-json=%s plan-report=%s%s})" % (TOSA, json_path, report_path, extra), "-o", os.devnull])
    plan_s = time.time() - t0
    return json_path, report_path, plan_s


def variant_options(variant, extra, limits, scratch, tmp):
    """The pipeline options of one variant."""
    opts = extra
    if variant == "spill":
        limit = max(16, (scratch // 2) // 16 * 16)
        opts = limits_option(limits + [f"dtcm={limit}"])
    if variant == "fold":
        opts += " fold-constants=true"
    if variant in RULES:
        rules = os.path.join(tmp, variant + ".json")
        open(rules, "w").write(RULES[variant])
        opts += f" rules-file={rules}"
    return opts


def run_modes(args, opt, src, plain, variant, opts, plan_s, tally, outcome):
    """One variant planned, lowered and run in every arena mode, against
    plain; returns the lowering's time (default variant, global mode) or
    None."""
    lower_s = None
    for mode in args.modes.split(","):
        try:
            t0 = time.time()
            lowered = run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true arena-mode=%s%s})" % (TOSA, mode, opts)])
            if variant == "default" and mode == "global":
                lower_s = time.time() - t0 - plan_s
            out = execute(opt, lowered)
            if out == plain:
                tally.passed += 1
            else:
                tally.failures += 1
                outcome.append(f"{variant}/{mode}: DIFFERENT")
        except Exception as e:
            tally.failures += 1
            outcome.append(f"{variant}/{mode}: {str(e).splitlines()[0][:160]}")
    return lower_s


def check_fold(opt, src, tmp, model, opts, report_path, scratch, tally, outcome):
    """The report's prediction (the scratch peak without the tensors
    computed from constants alone) against the scratch arenas of the folded
    plan; returns the table's cell."""
    fold_json = os.path.join(tmp, model + ".fold.json")
    m = re.search(r"without them: (\d+)", open(report_path).read())
    try:
        run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false%s plan-json=%s})" % (TOSA, opts, fold_json), "-o", os.devnull])
        fp = json.load(open(fold_json))
        folded = sum(a["size"] for a in fp["arenas"] if a["role"] == "scratch")
        predicted = int(m.group(1)) if m else scratch
        fold = f"{predicted} / {folded}"
        # Arenas round up to their alignment (16 bytes).
        slack = 16 * sum(1 for a in fp["arenas"] if a["role"] == "scratch")
        if folded > predicted + slack:
            tally.failures += 1
            outcome.append(f"fold: report predicted {predicted} B of scratch, the folded plan needs {folded} B")
    except Exception:
        fold = "?"
    return fold


def spill_arenas(opt, src, tmp, model, opts):
    """The scratch arenas of the spilled plan, as the table's cell."""
    spill_json = os.path.join(tmp, model + ".spill.json")
    try:
        run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false%s plan-json=%s})" % (TOSA, opts, spill_json), "-o", os.devnull])
        sp = json.load(open(spill_json))
        return "+".join(f'{a["memory"]}:{a["size"]}' for a in sp["arenas"] if a["role"] == "scratch")
    except Exception:
        return "?"


def check_firmware(args, opt, text, tmp, model, tally, outcome):
    """--qemu: the model planned for mps3-an547 in every arena mode, on the
    host and on QEMU, against the unplanned module with the same math."""
    vsrc = os.path.join(tmp, model + ".vector.mlir")
    with open(vsrc, "w") as f:
        f.write(harness(text, "vector"))
    try:
        reference = execute_llvm(opt, run([opt, vsrc, "--pass-pipeline=" + PLAIN_APPROX]))
        if not re.search(rb"\( -?\d+", reference):
            raise RuntimeError("the unplanned firmware harness printed no result")
        for mode in args.modes.split(","):
            host, qemu = firmware(opt, vsrc, mode, os.path.join(tmp, model + ".fw." + mode))
            if host == reference and qemu == reference:
                tally.passed += 1
            else:
                tally.failures += 1
                outcome.append(f"qemu/{mode}: {'host' if host != reference else 'QEMU'} DIFFERENT")
    except Exception as e:
        tally.failures += 1
        outcome.append(f"qemu: {str(e).splitlines()[0][:160]}")


def model_row(args, opt, model, tmp, tally):
    """Runs one model in every variant and mode and prints its row."""
    text = read_model(args, model)
    src = os.path.join(tmp, model + ".mlir")
    with open(src, "w") as f:
        f.write(harness(text))
    try:
        plain = execute(opt, run([opt, src, "--pass-pipeline=builtin.module(%s, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" % TOSA]))
    except Exception as e:  # the reference itself does not run
        print(f"| {model} | | | | | | | | | | plain run failed: {str(e)[:200]} |")
        tally.failures += 1
        return
    # Planning alone: sizes and time.
    limits = MODEL_LIMITS.get(model, [])
    extra = limits_option(limits)
    if args.pipeline_options:
        extra += " " + args.pipeline_options
    try:
        json_path, report_path, plan_s = plan_alone(opt, src, tmp, model, extra)
    except Exception as e:
        print(f"| {model} | | | | | | | | | | planning failed: {str(e).splitlines()[0][:200]} |")
        tally.failures += 1
        return
    plan = json.load(open(json_path))
    arenas = plan.get("arenas", [])
    scratch = sum(a["size"] for a in arenas if a["role"] == "scratch")
    const = sum(a["size"] for a in arenas if a["role"] == "constant")
    tensors = len(plan.get("tensors", []))
    ops = sum(1 for l in text.splitlines() if re.match(r"\s+(%\S+ = )?\"?[a-z_]+\.[a-z_0-9.]+", l))
    spill_scratch = ""
    fold = ""
    outcome = []
    lower_s = 0.0
    variants = [v for v in args.variants.split(",") if v]
    for variant in variants:
        opts = variant_options(variant, extra, limits, scratch, tmp)
        s = run_modes(args, opt, src, plain, variant, opts, plan_s, tally, outcome)
        if s is not None:
            lower_s = s
        if variant == "fold":
            fold = check_fold(opt, src, tmp, model, opts, report_path, scratch, tally, outcome)
        if variant == "spill":
            spill_scratch = spill_arenas(opt, src, tmp, model, opts)
    if args.qemu:
        check_firmware(args, opt, text, tmp, model, tally, outcome)
    n = (len(variants) + args.qemu) * len(args.modes.split(","))
    status = "bit-identical" if not outcome else "; ".join(outcome)
    print(f"| {model} | {ops} | {tensors} | {scratch} | {const} | {spill_scratch} | {fold} | {plan_s:.2f} | {max(lower_s, 0):.2f} | {n} | {status} |", flush=True)


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--variants", default="default,pin,stream,spill,fold")
    ap.add_argument("--modes", default="global,arg,alloc")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--frontend", default=FRONTEND)
    ap.add_argument("--qemu", action="store_true",
                    help="also plan each model for mps3-an547, run it on the "
                         "host and as Cortex-M55 firmware on QEMU in every "
                         "arena mode, and compare both with the unplanned "
                         "module (same math approximations) bit for bit")
    ap.add_argument("--pipeline-options", default="",
                    help="more helia-memory-pipeline options for every run, "
                         "e.g. in-place=true")
    ap.add_argument("--double-buffering", action="store_true",
                    help="print the scratch arenas with loop-carried tensors "
                         "in one slot where possible and with every one in "
                         "two slots (carry-in-place=false), and nothing else "
                         "(default models: the recurrent ones)")
    return ap.parse_args()


def main():
    args = parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    if args.double_buffering:
        models = args.models.split(",") if args.models != ",".join(DEFAULT_MODELS) \
            else ["lstm_16x8.linalg"] + list(recurrent.MODELS)
        with tempfile.TemporaryDirectory() as tmp:
            failures = double_buffering(opt, models, args.frontend, tmp)
        return 1 if (args.check and failures) else 0
    tally = Tally()
    print("| model | ops | tensors | scratch B | constant B | scratch B (spill) | fold: predicted peak / scratch B | plan s | lower s | variants x modes | outputs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            model_row(args, opt, model, tmp, tally)
    print(f"{tally.passed} passed, {tally.failures} failed")
    return 1 if (args.check and tally.failures) else 0


if __name__ == "__main__":
    sys.exit(main())
