#!/usr/bin/python3
"""TFLite Micro's LSTM example models through helia, against TFLite Micro's
kernel transcribed in numpy (bench/tflite/lstm_ref.py).

For each model: every UNIDIRECTIONAL_SEQUENCE_LSTM output is made the
subgraph's output in turn (a copy of the file, as layers.py does), imported
with helia-translate, lowered planned (helia-memory-pipeline) and plain
(One-Shot Bufferize) and JIT-run on seeded random inputs; the reference
chains the model's LSTMs in numpy (each fed the previous one's reference
output) from the same inputs. Then the whole model, planned against plain.
Arm NN's TfLite parser (Debian's 22.x) does not take
UNIDIRECTIONAL_SEQUENCE_LSTM, so it is no reference here.

The models are not in the repository: point --models at the files, e.g.
from `fetch github:tensorflow/tflite-micro`:
  tensorflow/lite/micro/examples/mnist_lstm/trained_lstm{,_int8}.tflite
  third_party/xtensa/examples/micro_speech_lstm/micro_speech_lstm.tflite
  tensorflow/lite/micro/examples/dtln/dtln_noise_suppression.tflite

  lstm_models.py --build build --models a.tflite,b.tflite [--count 3] [--qemu]
                 [--tflm-golden dtln_noise_suppression.tflite=dtln_inout_data.cc]

--tflm-golden MODEL=FILE.cc: the int8 arrays `feature_data` (the input) and
`golden_ref` (TFLite Micro's output) of a TFLite Micro example test
(tensorflow/lite/micro/examples/dtln/dtln_inout_data.cc); the whole model
runs on the input and its output is compared with TFLite Micro's.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layers  # noqa: E402
import lstm_ref  # noqa: E402
from ops import NP_TYPES, PLANNED, SCHEMA, TFL_TYPES, Tools  # noqa: E402
from run import (PLAIN, TOSA, as_float, batches, function_name,  # noqa: E402
                 harness, parse_output, run, signature)

LSTM = 44


class Tensors:
    """data/q/elt of one model's tensors (flatc JSON), as ops.Ref."""

    def __init__(self, np, model, path):
        self.np, self.g, self.buffers = np, model["subgraphs"][0], model["buffers"]
        # flatc's JSON prints floats with six digits: the scales come from
        # the binary.
        self.exact = layers.describe(path)[1]

    def elt(self, k):
        return {v: kk for kk, v in TFL_TYPES.items()}[self.g["tensors"][k].get("type", "FLOAT32")]

    def data(self, k):
        t = self.g["tensors"][k]
        raw = bytes(self.buffers[t.get("buffer", 0)].get("data", []))
        return self.np.frombuffer(raw, dtype=NP_TYPES[self.elt(k)]).reshape(t["shape"])

    def q(self, k):
        e = self.exact[k]
        return [float(s) for s in e["scale"]], list(e["zp"]) or [0]


def read_c_arrays(path):
    """The int8 arrays of a C file, by name."""
    import re
    text = open(path).read()
    arrays = {}
    for m in re.finditer(r"int8_t\s+(\w+)\[\]\s*=\s*\{([^}]*)\}", text):
        arrays[m.group(1)] = [int(v) for v in re.findall(r"-?\d+", m.group(2))]
    return arrays


def one(args, tools, np, path, work):
    rows = []
    stem = os.path.splitext(os.path.basename(path))[0]
    run(["flatc", "--json", "--strict-json", "--raw-binary", "-o", work,
         SCHEMA, "--", path], what="flatc")
    model = json.load(open(os.path.join(work, stem + ".json")))
    t = Tensors(np, model, path)
    g = model["subgraphs"][0]
    codes = [max(c.get("deprecated_builtin_code", 0), c.get("builtin_code", 0))
             for c in model["operator_codes"]]
    for op in g["operators"]:
        op.setdefault("builtin_options", {})
    lstms = [op for op in g["operators"] if codes[op.get("opcode_index", 0)] == LSTM]
    rs = np.random.RandomState(args.seed)
    (k_in,) = g["inputs"]
    shape = g["tensors"][k_in]["shape"]
    elt = t.elt(k_in)
    samples = []
    for _ in range(args.count):
        if elt == "f32":
            x = rs.uniform(0, 1, size=shape).astype("<f4")
        else:
            x = rs.randint(-128, 128, size=shape).astype(NP_TYPES[elt])
        samples.append(x)
    # The reference: the LSTMs chained in numpy (they read each other or
    # the subgraph input in these models).
    refs = {}
    for op in lstms:
        src = op["inputs"][0]
        xs = samples if src == k_in else refs[src]
        refs[op["outputs"][0]] = [lstm_ref.lstm(np, t, op, x)[0].astype(
            NP_TYPES[t.elt(op["outputs"][0])]) for x in xs]
    hexes = [[x.tobytes().hex().upper()] for x in samples]

    def helia(model_path, name, qemu=False):
        text = tools.import_model(model_path, work)
        fname, fargs, results = signature(text, function_name(model_path))
        outs = {}
        for kind, pipeline in (("planned", PLANNED % TOSA), ("plain", PLAIN % TOSA)):
            h = os.path.join(work, f"{name}.{kind}.mlir")
            with open(h, "w") as f:
                f.write(harness(text, fname, fargs, results, hexes,
                                dealloc=kind == "planned"))
            outs[kind] = parse_output(tools.host(h, pipeline), len(hexes) * len(results))
        if qemu:
            _, heap = batches(results, fargs, len(hexes))
            fw = os.path.join(work, name + ".fw")
            os.makedirs(fw, exist_ok=True)
            outs["qemu"] = parse_output(
                tools.firmware(os.path.join(work, f"{name}.planned.mlir"), fw, heap),
                len(hexes) * len(results))
        return outs, results

    for n, op in enumerate(lstms):
        k_out = op["outputs"][0]
        cut = os.path.join(work, f"{stem}_lstm{n}.tflite")
        layers.truncated(path, k_out, cut)
        t0 = time.time()
        outs, results = helia(cut, f"lstm{n}")
        worst = 0
        for j in range(len(samples)):
            got = outs["planned"][j]
            if results[0][1] == "f32":
                got = [as_float(v) for v in got]
                want = refs[k_out][j].reshape(-1).astype(float)
                scale = max(abs(want).max(), 1e-30)
                worst = max(worst, max(abs(a - b) for a, b in zip(got, want)) / scale)
            else:
                want = refs[k_out][j].reshape(-1)
                worst = max(worst, max(abs(int(a) - int(b)) for a, b in zip(got, want)))
        unit = f"{worst:.1e} rel" if results[0][1] == "f32" else f"{worst} LSB"
        ok = (worst <= 1e-5 if results[0][1] == "f32" else worst == 0) and \
            outs["planned"] == outs["plain"]
        rows.append((stem, f"LSTM {n} ({g['tensors'][k_out]['name']}: "
                     + "x".join(map(str, g["tensors"][k_out]["shape"])) + f"x{results[0][1]})",
                     unit, "yes" if outs["planned"] == outs["plain"] else "NO",
                     f"{time.time() - t0:.0f} s", ok))
    t0 = time.time()
    outs, results = helia(path, "whole", qemu=args.qemu)
    same = outs["planned"] == outs["plain"]
    text = "yes" if same else "NO"
    if args.qemu:
        if outs["qemu"] == outs["planned"]:
            text += ", QEMU == host"
        elif all(e == "f32" for _, e in results):
            # The image's libm (bench/tflite/libm.c) is not the host's: float
            # outputs agree to a tolerance.
            worst = 0.0
            for q, h in zip(outs["qemu"], outs["planned"]):
                q, h = [as_float(v) for v in q], [as_float(v) for v in h]
                scale = max(max(abs(v) for v in h), 1e-30)
                worst = max(worst, max(abs(a - b) for a, b in zip(q, h)) / scale)
            text += f", QEMU {worst:.1e} rel from host"
            same = same and worst <= 1e-5
        else:
            text += ", QEMU != host"
            same = False
    rows.append((stem, "whole model", "(no reference)", text,
                 f"{time.time() - t0:.0f} s", same))
    golden = dict(g.split("=", 1) for g in args.tflm_golden.split(",") if g)
    if os.path.basename(path) in golden:
        arrays = read_c_arrays(golden[os.path.basename(path)])
        x = np.array(arrays["feature_data"], dtype="i1").reshape(shape)
        hexes[:] = [[x.tobytes().hex().upper()]]
        t0 = time.time()
        outs, results = helia(path, "golden")
        got = outs["planned"][0]
        want = arrays["golden_ref"]
        worst = max(abs(int(a) - int(b)) for a, b in zip(got, want))
        n_diff = sum(int(a) != int(b) for a, b in zip(got, want))
        rows.append((stem, "whole model on TFLite Micro's test input",
                     f"{worst} LSB vs TFLite Micro's golden output "
                     f"({n_diff} of {len(want)} differ)",
                     "yes" if outs["planned"] == outs["plain"] else "NO",
                     f"{time.time() - t0:.0f} s",
                     worst <= 1 and outs["planned"] == outs["plain"]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--models", required=True, help="comma-separated .tflite paths")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--keep", help="keep the work files here")
    ap.add_argument("--qemu", action="store_true",
                    help="also run the whole model as an mps3-an547 image on "
                    "QEMU: QEMU == host bit for bit")
    ap.add_argument("--tflm-golden", default="",
                    help="MODEL.tflite=FILE.cc,...: TFLite Micro's test input "
                    "and golden output for a model")
    args = ap.parse_args()
    import numpy as np
    args.build = os.path.abspath(args.build)
    tools = Tools(args)
    tmp = args.keep or tempfile.mkdtemp(prefix="helia-lstm-")
    print(f"== TFLite Micro's LSTM models, {args.count} random inputs each "
          f"(seed {args.seed}); reference: TFLite Micro's kernel in numpy "
          "(bit for bit for integer outputs)")
    print("| model | output | max diff | planned == plain | time | result |")
    print("|---|---|---|---|---|---|")
    failed = 0
    for path in args.models.split(","):
        work = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0])
        os.makedirs(work, exist_ok=True)
        try:
            rows = one(args, tools, np, os.path.abspath(path), work)
        except (subprocess.SubprocessError, Exception) as e:  # the model's row
            rows = [(os.path.basename(path), "", "", "", "", f"FAIL: {e}")]
        for r in rows:
            verdict = r[5] if isinstance(r[5], str) else ("pass" if r[5] else "FAIL")
            failed += verdict != "pass"
            print("| " + " | ".join(r[:5]) + f" | {verdict} |", flush=True)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
