#!/usr/bin/python3
"""Single-operator TFLite models against Arm NN's reference runtime.

Every model is one TFLite builtin operator on seeded random weights with
realistic quantization (int8 weights per channel with zero point 0, int8
activations with nonzero zero points, int16 activations with zero point 0),
written as flatc JSON against lib/Target/TFLite/TFLiteSchema.fbs and
converted with `flatc -b`. Each model runs on the same seeded random inputs
in Arm NN's TfLite parser on CpuRef (one model per /usr/bin/python3 process;
the outputs are cached in BUILD/tflite/ops-reference) and in helia:
imported with `helia-translate --import-tflite`, lowered planned
(helia-memory-pipeline) and plain (One-Shot Bufferize), JIT-run with
mlir-runner (the harness of bench/tflite/run.py, harness.py).

Where Arm NN rejects a model, or deviates from TFLite's kernel
(ARMNN_DEVIATES), the reference is a numpy transcription of TFLite's
reference kernel (NUMPY_REFS), when there is one; without either, and
without pyarmnn, only planned == plain is checked (the first line says so).

Per model: the largest difference to the reference (LSB for integer
outputs, max |a - b| / max |b| for float ones) and whether planned == plain
bit for bit. Tolerance: 1 LSB for quantized outputs (Arm NN computes
quantized operators in float), 1e-5 relative for float.

With --qemu the planned harness also runs as a Cortex-M55 image on QEMU's
mps3-an547 and must print what the host printed.

usage: ops.py [--build build] [--models conv2d_i8_same,...] [--count 3]
              [--seed 0] [-j 2] [--cache DIR] [--keep DIR] [--no-armnn]
              [--qemu] [--list] [--check]

The run ends with `N passed, N failed`; --check exits 1 when anything
failed.
"""
import argparse
import concurrent.futures
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The harness, the lowering and the tool runner that run.py uses too.
sys.path.insert(0, HERE)
from harness import (as_float, batches, harness, parse_output,  # noqa: E402
                     signature)
from network_reference import have_armnn  # noqa: E402
import toolchain  # noqa: E402
from toolchain import (LLVM, PLAIN, RUNNER_LIBS, TO_LLVM, TOSA,  # noqa: E402
                       Failure, function_name, run)
# The models (ops_models.py, whose names lstm_models.py imports from here),
# the cases, and the two references.
from ops_armnn import armnn_reference, armnn_worker  # noqa: E402
from ops_cases import CASES  # noqa: E402
from ops_models import (CODES, NP_TYPES, SCHEMA, TFL_TYPES,  # noqa: E402,F401
                        build_model, make_inputs)
from ops_numpy import (ARMNN_DEVIATES, CROSS_LSB, NUMPY_FIRST,  # noqa: E402
                       exact_reference, numpy_reference)
# The TFLite recipe (accumulators one element at a time, convolution
# windows instead of padded inputs) against the unfused plain reference.
PLANNED = ("builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true "
           "fuse-accumulators=true})")
FLOAT_RTOL = 1e-5
QUANT_LSB = 1


class Tools:
    def __init__(self, args):
        self.opt = os.path.join(args.build, "bin", "helia-opt")
        self.translate = os.path.join(args.build, "bin", "helia-translate")
        self.runner = os.path.join(LLVM, "bin", "mlir-runner")
        self.timeout = args.timeout

    def import_model(self, model, work):
        out = os.path.splitext(model)[0] + ".mlir"
        run([self.translate, "--import-tflite", model, "-o", out],
            timeout=self.timeout, what="import")
        return open(out).read()

    def firmware(self, harness_path, work, heap):
        """The planned harness as an mps3-an547 image on QEMU (toolchain.Tools')."""
        args = argparse.Namespace(build=os.path.dirname(os.path.dirname(self.opt)),
                                  translate=self.translate, imported=None,
                                  timeout=self.timeout, pipeline_options="")
        return toolchain.Tools(args).firmware(harness_path, work, heap)

    def host(self, harness_path, pipeline):
        lowered = run([self.opt, harness_path, "--pass-pipeline=" + pipeline],
                      timeout=self.timeout, what="helia-opt")
        llvm = run([self.opt, "-"] + TO_LLVM, stdin=lowered,
                   timeout=self.timeout, what="to LLVM")
        return run([self.runner, "-e", "main", "-entry-point-result=void",
                    "-shared-libs=" + ",".join(RUNNER_LIBS)], stdin=llvm,
                   timeout=self.timeout, what="mlir-runner").decode(errors="replace")


def difference(got, want, elt):
    """(max difference, unit text, within tolerance) of one output."""
    if len(got) != len(want):
        raise Failure(f"{len(got)} values, Arm NN {len(want)}")
    if elt == "f32":
        scale = max((abs(x) for x in want), default=0.0) or 1.0
        worst = max((abs(a - b) for a, b in zip(got, want)), default=0.0) / scale
        if any(a != a for a in got) or any(b != b for b in want):
            worst = float("inf")
        return worst, f"{worst:.1e} rel", worst <= FLOAT_RTOL
    worst = max((abs(int(a) - int(b)) for a, b in zip(got, want)), default=0)
    return worst, f"{worst} LSB", worst <= QUANT_LSB


def describe(m):
    def t(k):
        e = m.tensors[k]
        elt = {v: kk for kk, v in TFL_TYPES.items()}[e["type"]]
        return "x".join(str(d) for d in e["shape"]) + "x" + elt
    return ", ".join(t(k) for k in m.inputs) + " -> " + ", ".join(t(k) for k in m.outputs)


def choose_reference(args, np, name, m, path, samples, armnn, work, row):
    """The reference of one model's outputs; sets row's reference (and its
    note, or why Arm NN dropped it). Returns (want, armnn_want, exact,
    cross, cross_source): want is what the outputs are compared with
    (TFLM's values where there is an exact transcription, `exact`, and then
    `cross` from `cross_source` is the cross-check), armnn_want Arm NN's
    outputs reported beside TFLM's."""
    want, source = None, ""
    if armnn:
        r = armnn_reference(args, path, samples, work, name)
        if "error" in r:
            row["dropped"] = "Arm NN: " + r["error"]
        else:
            want, source = r["outputs"], "Arm NN"
    armnn_want = None
    if row["op"] in NUMPY_FIRST:
        # TFLite Micro's kernel (EXACT_REFS) is the only reference;
        # Arm NN's difference is reported beside it.
        armnn_want, want = want, None
        row["note"] = NUMPY_FIRST[row["op"]] + (
            "" if armnn_want is not None else
            "; " + row.pop("dropped", "Arm NN: not run"))
    elif name in ARMNN_DEVIATES or "dropped" in row or not armnn:
        ref = numpy_reference(np, m, samples)
        if ref is not None:
            why = ARMNN_DEVIATES.get(name) or row.pop("dropped", None) or "no Arm NN"
            row["note"] = why
            want, source = ref, "numpy TFLite"
            if row["op"] == "SOFTMAX":
                source = "numpy float"
    exact = exact_reference(np, m, samples)
    cross = cross_source = None
    if exact is not None:
        cross, cross_source = want, source
        want, source = exact, "numpy TFLM"
    row["reference"] = source or "none"
    return want, armnn_want, exact, cross, cross_source


def run_helia(args, tools, path, samples, work, row):
    """Imports the model and runs its harness planned and plain (and with
    --qemu, planned as firmware); sets row's planned == plain cell.
    Returns (outputs by kind, the function's results, whether they agree)."""
    text = tools.import_model(path, work)
    fname = function_name(path)
    fname, fargs, results = signature(text, fname)
    hexes = [[x.tobytes().hex().upper() for x in s] for s in samples]
    outs = {}
    for kind, pipeline in (("planned", PLANNED % TOSA), ("plain", PLAIN % TOSA)):
        h = os.path.join(work, f"harness.{kind}.mlir")
        with open(h, "w") as f:
            f.write(harness(text, fname, fargs, results, hexes,
                            dealloc=kind == "planned"))
        outs[kind] = parse_output(tools.host(h, pipeline),
                                  len(samples) * len(results))
    same = outs["planned"] == outs["plain"]
    row["plain"] = "yes" if same else "NO"
    ok = same
    if args.qemu:
        # The planned harness as firmware: QEMU == host bit for bit.
        _, heap = batches(results, fargs, len(samples))
        fw = os.path.join(work, "fw")
        os.makedirs(fw, exist_ok=True)
        got = parse_output(tools.firmware(os.path.join(work, "harness.planned.mlir"),
                                          fw, heap), len(samples) * len(results))
        qemu_same = got == outs["planned"]
        row["plain"] += ", QEMU == host" if qemu_same else ", QEMU != host"
        ok = ok and qemu_same
    return outs, results, ok


def planned_values(outs, results, j, i, elt):
    """The planned output i of sample j (floats from their bits)."""
    g = outs["planned"][j * len(results) + i]
    if elt == "f32":
        g = [as_float(v) for v in g]
    return g


def compare_output(outs, results, count, i, elt, reference, tolerance):
    """Output i against `reference` over every sample: (the largest
    difference's text, " OVER" appended beyond the tolerance; within)."""
    worst, text_, within = (0, "", True)
    for j in range(count):
        g = planned_values(outs, results, j, i, elt)
        w_, t_, in_ = difference(g, reference[j][i], elt)
        if w_ >= worst:
            worst, text_ = w_, t_
        within = within and (in_ if elt == "f32" else w_ <= tolerance)
    return text_ + ("" if within else " OVER"), within


def compare_outputs(np, m, row, samples, outs, results, refs):
    """Every output against the reference (exactly against TFLM's, with the
    cross-check), and Arm NN's difference beside TFLM's; sets row's max
    diff cell. Returns whether every output is within its tolerance."""
    want, armnn_want, exact, cross, cross_source = refs
    ok = True
    cells = []
    for i, (shape, elt) in enumerate(results):
        if exact is None:
            text_, within = compare_output(outs, results, len(samples), i, elt,
                                           want, QUANT_LSB)
        else:
            # Exact against TFLM; the cross-check within 1 LSB.
            text_, within = compare_output(outs, results, len(samples), i, elt,
                                           want, 0)
            if cross is None and row["op"] == "SOFTMAX":
                cross = numpy_reference(np, m, samples)
                cross_source = "numpy float"
            if cross is not None:
                in_elt = {v: kk for kk, v in TFL_TYPES.items()}[
                    m.tensors[m.inputs[0]]["type"]]
                ct, cw = compare_output(outs, results, len(samples), i, elt, cross,
                                        CROSS_LSB.get((row["op"], in_elt), QUANT_LSB))
                text_ += f" (cross-check {cross_source}: {ct})"
                within = within and cw
        cells.append(text_)
        ok = ok and within
    row["armnn"] = ", ".join(cells)
    if armnn_want is not None:
        worst = 0
        for j in range(len(samples)):
            for i, (shape, elt) in enumerate(results):
                g = planned_values(outs, results, j, i, elt)
                worst = max(worst, difference(g, armnn_want[j][i], elt)[0])
        unit = "rel" if results[0][1] == "f32" else "LSB"
        row["note"] += f"; Arm NN: {worst:.1e} {unit}" if unit == "rel" \
            else f"; Arm NN: {worst} LSB"
    return ok


def one(args, tools, np, name, builder, armnn, tmp):
    """One case's row of the table."""
    row = {"model": name, "op": "", "signature": "", "armnn": "", "plain": "",
           "reference": "",
           "ok": False}
    work = os.path.join(tmp, name)
    os.makedirs(work, exist_ok=True)
    try:
        path, m = build_model(np, name, builder, args.seed, work)
        row["op"] = {v: k for k, v in CODES.items()}[m.code["builtin_code"]]
        row["signature"] = describe(m)
        samples = make_inputs(np, m, args.count, args.seed, name)
        refs = choose_reference(args, np, name, m, path, samples, armnn, work, row)
        outs, results, ok = run_helia(args, tools, path, samples, work, row)
        if refs[0] is not None:
            ok = compare_outputs(np, m, row, samples, outs, results, refs) and ok
        else:
            row["armnn"] = "dropped: " + row["dropped"] if "dropped" in row else "no reference"
        if "note" in row:
            row["armnn"] += " (" + row["note"] + ")"
        row["ok"] = ok
    except Failure as e:
        row["error"] = str(e)
    except Exception as e:  # a bug of this script: still this model's row
        row["error"] = f"internal error: {type(e).__name__}: {e}"
    return row


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the helia build directory")
    ap.add_argument("--models", default="",
                    help="comma-separated case names or prefixes (conv2d,add_i8)")
    ap.add_argument("--count", type=int, default=3, help="random inputs per model")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per tool run")
    ap.add_argument("--cache", help="where Arm NN's outputs are cached "
                    "(default BUILD/tflite/ops-reference)")
    ap.add_argument("--keep", help="keep the models and work files in this directory")
    ap.add_argument("--qemu", action="store_true",
                    help="also run the planned harness as an mps3-an547 image "
                    "on QEMU and require QEMU == host bit for bit")
    ap.add_argument("--no-armnn", action="store_true",
                    help="check planned == plain only")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--check", action="store_true", help="exit 1 when anything failed")
    return ap.parse_args()


def run_cases(args, np, cases, armnn, tmp):
    """Prints the table's rows as they complete, in order: (passed, failed,
    passed without a reference because Arm NN rejected the model)."""
    tools = Tools(args)
    passed = failed = dropped = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(one, args, tools, np, n, b, armnn, tmp)
                   for n, b in cases]
        for fut in futures:
            row = fut.result()
            if "error" in row:
                verdict = "FAIL: " + row["error"]
            else:
                verdict = "pass" if row["ok"] else "FAIL"
            print(f"| {row['model']} | {row['op']} | {row['signature']} | "
                  f"{row['reference']} | {row['armnn']} | {row['plain']} | {verdict} |", flush=True)
            if row["ok"]:
                passed += 1
                dropped += "dropped" in row
            else:
                failed += 1
    return passed, failed, dropped


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--armnn-worker":
        return armnn_worker(sys.argv[2], sys.argv[3])
    args = parse_args()
    if args.list:
        for name, _ in CASES:
            print(name)
        return 0
    try:
        import numpy as np
    except ImportError:
        print("ops.py needs numpy (run it with /usr/bin/python3)")
        return 1
    args.build = os.path.abspath(args.build)
    selected = [s for s in args.models.split(",") if s]
    cases = [(n, b) for n, b in CASES
             if not selected or any(n == s or n.startswith(s) for s in selected)]
    if selected and not cases:
        print(f"no case matches {args.models!r} (--list lists them)")
        print("0 passed, 1 failed")
        return 1 if args.check else 0
    armnn = not args.no_armnn and have_armnn()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        tmp, ctx = os.path.abspath(args.keep), None
    else:
        ctx = tempfile.TemporaryDirectory(prefix="helia-tflite-ops-")
        tmp = ctx.name
    ref = "Arm NN CpuRef" if armnn else \
        "no Arm NN (python3-pyarmnn is not installed): planned == plain only"
    print(f"== {len(cases)} single-operator models, {args.count} random inputs each "
          f"(seed {args.seed}); reference: {ref}; tolerance {QUANT_LSB} LSB "
          f"(quantized), {FLOAT_RTOL:g} relative (float)")
    print("| model | op | signature | reference | max diff | planned == plain | result |")
    print("|---|---|---|---|---|---|---|")
    t0 = time.time()
    try:
        passed, failed, dropped = run_cases(args, np, cases, armnn, tmp)
    finally:
        if ctx:
            ctx.cleanup()
    note = f"; {dropped} rejected by Arm NN, checked planned == plain only" if dropped else ""
    print(f"({time.time() - t0:.0f} s{note})")
    print(f"{passed} passed, {failed} failed")
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
