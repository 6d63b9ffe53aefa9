"""run.py's networks part: every whole network on seeded random inputs
against Arm NN (network_reference.py), planned on the host, plain, and as
firmware on QEMU; with --layers every operator alone too."""

import concurrent.futures
import os
import struct
import time

from harness import batches, decode, elements, harness, parse_output, signature, ttype
from network_reference import install_armnn, reference
from tflite_file import single_op_models, tflite_io
from toolchain import PLAIN, PLANNED, TOSA, Failure, function_name


# The whole networks: input range of float inputs, and whether the first
# output is a class score vector (top-1 agreement is reported).
NETWORKS = [
    ("kws_ref_model", (-1.0, 1.0), True),
    ("vww_96_int8", (0.0, 1.0), True),
    ("vww_96_float", (0.0, 1.0), True),
    ("pretrainedResnet_quant", (0.0, 1.0), True),
    ("ad01_int8", (-1.0, 1.0), False),
    ("ad01_fp32", (-1.0, 1.0), False),
    ("hello_world_int8", (-1.0, 1.0), False),
    ("hello_world_float", (-1.0, 1.0), False),
    ("micro_speech_quantized", (-1.0, 1.0), True),
    ("simple_add_model", (-1.0, 1.0), False),
]


FLOAT_RTOL = 1e-4
QUANT_LSB = 1


def differences(got, want, results, classifier):
    """Per output: (max difference, unit, within tolerance), and the top-1
    agreement (or None)."""
    stats = []
    for i, (shape, elt) in enumerate(results):
        worst = 0.0
        over = total = 0
        for j in range(len(want)):
            g, w = got[j][i], want[j][i]
            if len(g) != len(w):
                raise Failure(f"output {i}: {len(g)} values, Arm NN {len(w)}")
            if elt == "f32":
                # The relative error in the maximum norm: max |a - b| over
                # max |b| of the output (summation order moves elements near
                # zero by more than 1e-4 of themselves, not of the output).
                scale = max((abs(x) for x in w if x == x), default=0.0)
                for a, b in zip(g, w):
                    total += 1
                    if a != a or b != b:  # NaN
                        if not (a != a and b != b):
                            worst = float("inf")
                            over += 1
                        continue
                    d = abs(a - b) / max(scale, 1e-30)
                    worst = max(worst, d)
                    over += d > FLOAT_RTOL
            else:
                for a, b in zip(g, w):
                    d = abs(int(a) - int(b))
                    worst = max(worst, d)
                    total += 1
                    over += d > QUANT_LSB
        # How many of all the elements are over the tolerance, when any is.
        count = f" ({over} of {total} over)" if over else ""
        if elt == "f32":
            stats.append((f"{worst:.2e} rel{count}", worst <= FLOAT_RTOL))
        else:
            stats.append((f"{int(worst)} LSB{count}", worst <= QUANT_LSB))
    top1 = None
    if classifier and results and elements(results[0][0]) > 1:
        agree = 0
        for j in range(len(want)):
            g, w = got[j][0], want[j][0]
            agree += g.index(max(g)) == w.index(max(w))
        top1 = f"{agree}/{len(want)}"
    return stats, top1


def layers_one(args, tools, path, low_high, armnn, work):
    """Every operator of the network alone, on its own seeded random inputs,
    planned on the host against Arm NN. Returns (cell, all within)."""
    rows = []
    try:
        models = single_op_models(path, os.path.join(work, "layers"))
    except (Failure, struct.error, IndexError) as e:
        return f"error: cannot cut the operators out: {e}", False
    for k, opname, op_path in models:
        try:
            ins, _ = tflite_io(op_path)
            samples, want, note = reference(args, op_path, ins, low_high, armnn,
                                            os.path.dirname(op_path))
            if want is None:
                raise Failure(note)
            lw = os.path.join(work, "layers", str(k))
            os.makedirs(lw, exist_ok=True)
            name = function_name(op_path)
            text = tools.import_model(op_path, name, lw)
            name, fargs, results = signature(text, name)
            h = os.path.join(lw, "harness.mlir")
            with open(h, "w") as f:
                f.write(harness(text, name, fargs, results, samples))
            lines = parse_output(tools.host(h, PLANNED % (TOSA, tools.options)), len(samples) * len(results))
            stats, _ = differences(decode(lines, results, len(samples)), want, results, False)
            rows.append((k, opname, ", ".join(c for c, _ in stats), all(w for _, w in stats)))
        except Failure as e:
            rows.append((k, opname, f"error: {str(e)[:160]}", False))
    bad = [r for r in rows if not r[3]]
    cell = f"{len(rows) - len(bad)}/{len(rows)} within"
    if bad:
        cell += ": " + "; ".join(f"op {k} {n} {c}" for k, n, c, _ in bad)
    else:
        worst = max((r[2] for r in rows), key=lambda c: float(c.split()[0]), default="")
        cell += f" (worst {worst})" if worst else ""
    return cell, not bad


TOP1_SANITY = 0.75


def import_network(tools, path, ins, outs, work):
    """The imported module, its function's name, arguments and results,
    checked against the model's inputs and outputs."""
    name = function_name(path)
    text = tools.import_model(path, name, work)
    name, fargs, results = signature(text, name)
    if [(list(i["shape"]), i["type"]) for i in ins] != [(list(s), e) for s, e in fargs]:
        raise Failure("@%s(%s) does not take the model's inputs (%s)" % (
            name, ", ".join(ttype(*a) for a in fargs),
            ", ".join(ttype(i["shape"], i["type"]) for i in ins)))
    if len(results) != len(outs):
        raise Failure(f"@{name} returns {len(results)} results, the model has {len(outs)} outputs")
    return text, name, fargs, results


def run_network(tools, kind, text, name, fargs, results, samples, work):
    """The lines one run prints: planned on the host ("host"), unplanned
    ("plain"), or as firmware on QEMU ("qemu", in batches that fit the
    image)."""
    if kind == "qemu":
        lines = []
        groups, heap = batches(results, fargs, len(samples))
        for b, idx in enumerate(groups):
            bw = os.path.join(work, f"fw{b}")
            os.makedirs(bw, exist_ok=True)
            bh = os.path.join(bw, "harness.mlir")
            with open(bh, "w") as f:
                f.write(harness(text, name, fargs, results, [samples[j] for j in idx]))
            lines += parse_output(tools.firmware(bh, bw, heap), len(idx) * len(results))
        return lines
    pipeline = PLANNED % (TOSA, tools.options) if kind == "host" else PLAIN % TOSA
    h = os.path.join(work, f"harness.{kind}.mlir")
    with open(h, "w") as f:
        f.write(harness(text, name, fargs, results, samples,
                        dealloc=kind == "host"))
    return parse_output(tools.host(h, pipeline), len(samples) * len(results))


def score(got, want, results, classifier):
    """One run against Arm NN: (its cell, within the tolerance, the top-1
    agreement at least TOP1_SANITY)."""
    stats, top1 = differences(got, want, results, classifier)
    cell = ", ".join(s for s, _ in stats)
    top1_ok = True
    if top1:
        cell += f"; top-1 {top1}"
        agree, n = map(int, top1.split("/"))
        top1_ok = agree >= TOP1_SANITY * n
    within = all(w for _, w in stats)
    if not within:
        cell += " OVER TOLERANCE"
    return cell, within, top1_ok


def compare_to_host(row, outputs, results):
    """Says in the plain and QEMU cells whether they printed the host's
    bytes; False when one differs (but for the firmware's float math)."""
    sound = True
    for kind in ("plain", "qemu"):
        if kind in outputs and "host" in outputs:
            if outputs[kind] == outputs["host"]:
                row["cells"][kind] += "; == host"
            elif kind == "qemu" and any(e == "f32" for _, e in results):
                # The image's expf/tanhf are not glibc's (libm.c): only
                # the tolerance to Arm NN decides.
                row["cells"][kind] += "; differs from host in the last bits (libm)"
            else:
                row["cells"][kind] += "; DIFFERS from host"
                sound = False
    return sound


def network_verdict(args, tools, row, path, low_high, armnn, work, sound, within,
                    top1_ok, runs):
    """Sets the row's verdict (with --layers, after checking every operator
    alone)."""
    if args.layers:
        cell, layers_ok = layers_one(args, tools, path, low_high, armnn, work)
        row["cells"]["layers"] = cell
        row["ok"] = sound and layers_ok and top1_ok
        if row["ok"]:
            row["verdict"] = "pass" if within else "pass (per layer)"
        elif sound and layers_ok:
            row["verdict"] = f"FAIL (top-1 below {TOP1_SANITY:.0%})"
    else:
        row["ok"] = sound and within and bool(runs)
        row["verdict"] = "pass" if row["ok"] else "FAIL"


def network_one(args, tools, stem, low_high, classifier, armnn, tmp):
    """One network's row. Its verdict: every run within the tolerance of
    Arm NN (end to end), no error, the plain and QEMU runs printing the
    host's bytes. With --layers the tolerance applies to every operator
    alone instead (Arm NN's reference kernels round differently from
    TFLite's by up to 1 LSB per operator, and later operators amplify it),
    and end to end the classifiers must still agree on the top-1 class for
    TOP1_SANITY of the inputs."""
    path = os.path.join(args.bench, "tflite", stem + ".tflite")
    row = {"model": stem, "ok": False, "cells": {}, "verdict": "FAIL"}
    work = os.path.join(tmp, stem)
    os.makedirs(work, exist_ok=True)
    try:
        if not os.path.exists(path):
            raise Failure(f"{path} not found")
        ins, outs = tflite_io(path)
        row["io"] = " ".join(ttype(i["shape"], i["type"]) for i in ins) + " -> " + \
            " ".join(ttype(o["shape"], o["type"]) for o in outs)
        samples, want, note = reference(args, path, ins, low_high, armnn, tmp)
        row["reference"] = note
        text, name, fargs, results = import_network(tools, path, ins, outs, work)
        sound = want is not None      # no error, every bit-identity holds
        within = True                 # end to end within the tolerance
        top1_ok = True                # the sanity bound on top-1 agreement
        runs = (["host"] if not args.no_host else []) + \
            (["plain"] if args.plain else []) + (["qemu"] if args.qemu else [])
        outputs = {}
        for kind in runs:
            try:
                lines = run_network(tools, kind, text, name, fargs, results, samples, work)
                outputs[kind] = lines
                got = decode(lines, results, len(samples))
                if want is None:
                    row["cells"][kind] = "ran (no reference)"
                    continue
                cell, run_within, run_top1_ok = score(got, want, results, classifier)
                within = within and run_within
                top1_ok = top1_ok and run_top1_ok
                row["cells"][kind] = cell
            except Failure as e:
                row["cells"][kind] = f"error: {e}"
                sound = False
        sound = compare_to_host(row, outputs, results) and sound
        network_verdict(args, tools, row, path, low_high, armnn, work, sound, within,
                        top1_ok, runs)
    except Failure as e:
        row["error"] = str(e)
    except Exception as e:  # a bug of this script: still this network's row
        row["error"] = f"internal error: {type(e).__name__}: {e}"
    row["ok"] = row["ok"] and "error" not in row
    return row


def part_networks(args, tools, tmp):
    models = [n for n in NETWORKS if not args.models or n[0] in args.models]
    armnn = install_armnn()
    kinds = (["host"] if not args.no_host else []) + (["plain"] if args.plain else []) + \
        (["qemu"] if args.qemu else []) + (["layers"] if args.layers else [])
    print(f"== networks: {len(models)} networks, {args.count} random inputs (seed {args.seed}) "
          f"against Arm NN CpuRef; tolerance {QUANT_LSB} LSB (quantized), {FLOAT_RTOL:g} relative (float)")
    print("| network | signature | reference | " + " | ".join(
        {"host": "host (planned)", "plain": "host (plain)", "qemu": "QEMU mps3-an547",
         "layers": "each layer alone (host)"}[k]
        for k in kinds) + " | result |")
    print("|---|---|---|" + "---|" * len(kinds) + "---|")
    passed = failed = per_layer = 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(network_one, args, tools, s, lh, c, armnn, tmp)
                   for s, lh, c in models]
        for fut in futures:
            try:
                row = fut.result()
            except Exception as e:  # a bug of this script: still one row
                row = {"model": "?", "ok": False, "error": f"{type(e).__name__}: {e}", "cells": {}}
            if "error" in row:
                print(f"| {row['model']} | {row.get('io', '')} | {row.get('reference', '')} | "
                      + " | ".join("" for _ in kinds) + f" | FAIL: {row['error']} |", flush=True)
            else:
                print(f"| {row['model']} | {row['io']} | {row['reference']} | "
                      + " | ".join(row["cells"].get(k, "") for k in kinds)
                      + f" | {row['verdict']} |", flush=True)
            if row["ok"]:
                passed += 1
                per_layer += row["verdict"] == "pass (per layer)"
            else:
                failed += 1
    note = f", {per_layer} of the passes per layer only" if per_layer else ""
    print(f"networks: {passed} passed, {failed} failed ({time.time() - t0:.0f} s{note})")
    return failed
