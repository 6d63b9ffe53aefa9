"""run.py's seanet part: every seanet/<op>/<op>N.tflite with its input
CSVs, run planned and plain (and with --qemu as firmware), each compared
with its golden CSV bit for bit."""

import concurrent.futures
import os
import re
import time

from harness import (INT_FORMAT, batches, elements, harness, parse_output,
                     signature, to_hex, ttype)
from tflite_file import tflite_io
from toolchain import PLAIN, PLANNED, TOSA, Failure, function_name


CSV_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32"}


def read_csv(path):
    try:
        text = open(path).read().strip()
        return [int(v) for v in text.replace("\n", ",").split(",") if v.strip()]
    except (OSError, ValueError) as e:
        raise Failure(f"{os.path.basename(path)}: {e}")


def seanet_models(bench, selected):
    root = os.path.join(bench, "tflite", "seanet")
    models = []
    if not os.path.isdir(root):
        return models
    for op in sorted(os.listdir(root)):
        d = os.path.join(root, op)
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            m = re.fullmatch(re.escape(op) + r"(\d+)\.tflite", f)
            if m:
                models.append((op, int(m.group(1)), os.path.join(d, f)))
    models.sort()
    if selected:
        models = [m for m in models
                  if m[0] in selected or f"{m[0]}{m[1]}" in selected]
    return models


def compare(got, want):
    if len(got) != len(want):
        return f"NO ({len(got)} elements, golden {len(want)})"
    diff = [abs(a - b) for a, b in zip(got, want) if a != b]
    if not diff:
        return "yes"
    return f"NO ({len(diff)} differ, max |d| {max(diff)})"


def seanet_one(tools, op, index, path, tmp, qemu=False):
    model = f"{op}{index}"
    d = os.path.dirname(path)
    row = {"op": op, "model": model, "elements": "", "planned": "", "plain": "", "ok": False}
    work = os.path.join(tmp, model)
    os.makedirs(work, exist_ok=True)
    try:
        ins, outs = tflite_io(path)
        inputs = []
        for k, inp in enumerate(ins):
            csv_type = CSV_TYPES.get(inp["type"], inp["type"])
            f = os.path.join(d, f"{model}_input{k}_{csv_type}.csv")
            inputs.append((inp["type"], read_csv(f)))
        goldens = [g for g in os.listdir(d) if re.fullmatch(re.escape(model) + r"_golden_\w+\.csv", g)]
        if len(goldens) != 1 or len(outs) != 1:
            raise Failure(f"{len(goldens)} golden files for {len(outs)} outputs")
        golden = read_csv(os.path.join(d, goldens[0]))
        row["elements"] = str(len(golden))
        name = function_name(path)
        text = tools.import_model(path, name, work)
        name, args, results = signature(text, name)
        if len(args) != len(inputs):
            raise Failure(f"@{name} takes {len(args)} arguments, the model has {len(inputs)} inputs")
        if len(results) != 1:
            raise Failure(f"@{name} returns {len(results)} results, the model has 1 output")
        sample = []
        for k, ((shape, elt), (_, values)) in enumerate(zip(args, inputs)):
            if elements(shape) != len(values):
                raise Failure(f"input {k}: {len(values)} values in the CSV for {ttype(shape, elt)}")
            if elt not in INT_FORMAT:
                raise Failure(f"input {k}: {ttype(shape, elt)} is not an integer tensor")
            sample.append(to_hex(values, elt))
        ok = True
        kinds = [("planned", PLANNED % (TOSA, tools.options)), ("plain", PLAIN % TOSA)]
        if qemu:
            kinds.append(("qemu", None))
        for key, pipeline in kinds:
            h = os.path.join(work, f"harness.{key}.mlir")
            with open(h, "w") as f:
                f.write(harness(text, name, args, results, [sample], dealloc=key != "plain"))
            try:
                if key == "qemu":
                    _, heap = batches(results, args, 1)
                    fw = os.path.join(work, "fw")
                    os.makedirs(fw, exist_ok=True)
                    out = tools.firmware(h, fw, heap)
                else:
                    out = tools.host(h, pipeline)
                row[key] = compare(parse_output(out, 1)[0], golden)
            except Failure as e:
                row[key] = f"error: {e}"
            ok = ok and row[key] == "yes"
        row["ok"] = ok
    except Failure as e:
        row["error"] = str(e)
    except Exception as e:  # a bug of this script: still this model's row
        row["error"] = f"internal error: {type(e).__name__}: {e}"
    row["ok"] = row["ok"] and "error" not in row
    return row


def part_seanet(args, tools, tmp):
    models = seanet_models(args.bench, args.models)
    print(f"== seanet: {len(models)} single-op models against TFLite's golden outputs, bit for bit")
    qemu = " QEMU mps3-an547 == golden |" if args.qemu else ""
    print(f"| op | model | elements | planned == golden | plain == golden |{qemu}")
    print("|---|---|---:|---|---|" + ("---|" if args.qemu else ""))
    passed = failed = 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(seanet_one, tools, op, i, p, tmp, args.qemu) for op, i, p in models]
        for fut in futures:
            try:
                row = fut.result()
            except Exception as e:  # a bug of this script: still one row
                row = {"op": "?", "model": "?", "elements": "", "planned": "",
                       "plain": "", "ok": False, "error": f"{type(e).__name__}: {e}"}
            if "error" in row:
                cells = f"| {row['op']} | {row['model']} | {row['elements']} | {row['error']} | |" + \
                    (" |" if args.qemu else "")
            else:
                cells = f"| {row['op']} | {row['model']} | {row['elements']} | {row['planned']} | {row['plain']} |" + \
                    (f" {row.get('qemu', '')} |" if args.qemu else "")
            print(cells, flush=True)
            if row["ok"]:
                passed += 1
            else:
                failed += 1
    print(f"seanet: {passed} passed, {failed} failed ({time.time() - t0:.0f} s)")
    return failed
