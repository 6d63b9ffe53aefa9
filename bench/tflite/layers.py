#!/usr/bin/python3
"""Per-layer comparison of helia and Arm NN CpuRef on a .tflite network.

For each operator of subgraph 0 (in order), a copy of the model whose
subgraph output is that operator's first output tensor is written (the int32
in the subgraph's outputs vector is overwritten in place), then run in Arm NN
(CpuRef) and with helia (import, plain lowering, mlir-runner) on the same
seeded random inputs; prints max |helia - Arm NN| per layer.

  layers.py MODEL.tflite --build BUILD [--count 3] [--seed 0]
            [--work /tmp/helia-layers] [--only 3,5] [-j 2]

Then tflite_exact.py MODEL.tflite recomputes every layer with TFLite's
integer reference kernels in numpy, fed with helia's own input to it.

Arm NN results come from a subprocess (`layers.py --armnn-worker LIST`).
"""
import argparse
import concurrent.futures
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_PY_DIR = HERE  # run.py: the harness, lowering and flatbuffer helpers
sys.path.insert(0, RUN_PY_DIR)

from tflite_file import TFL_TYPES, FlatBuffer  # noqa: E402

BUILTIN = {0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D",
           4: "DEPTHWISE_CONV_2D", 6: "DEQUANTIZE", 9: "FULLY_CONNECTED",
           14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU", 21: "RELU6",
           22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 34: "PAD", 39: "TRANSPOSE",
           40: "MEAN", 41: "SUB", 43: "SQUEEZE", 45: "STRIDED_SLICE",
           49: "SPLIT", 114: "QUANTIZE", 98: "LEAKY_RELU", 70: "EXPAND_DIMS"}


# The flatbuffer reader of the .tflite helpers (FB is the name
# tflite_exact.py uses).
FB = FlatBuffer


def describe(path):
    """(ops, tensors, subgraph-outputs-vector position) of subgraph 0."""
    fb = FB(open(path, "rb").read())
    model = fb.table(fb.u32(0))
    codes = []
    for oc in fb.tables(model, 1):
        dep = fb.scalar(oc, 0, "b", 0)
        code = fb.scalar(oc, 3, "i", 0)
        codes.append(max(dep, code))
    graph = fb.tables(model, 2)[0]
    tensors = []
    for t in fb.tables(graph, 0):
        q = fb.ref(t, 4)
        scale, zp = [], []
        if q is not None:
            qt = fb.table(q)
            scale, zp = fb.scalars(qt, 2, "f"), fb.scalars(qt, 3, "q")
        tensors.append({"name": fb.string(t, 3), "shape": fb.scalars(t, 0, "i"),
                        "type": TFL_TYPES.get(fb.scalar(t, 1, "b"), "?"),
                        "buffer": fb.scalar(t, 2, "I"), "scale": scale, "zp": zp})
    ops = []
    for o in fb.tables(graph, 3):
        c = codes[fb.scalar(o, 0, "I", 0)]
        ops.append({"op": BUILTIN.get(c, str(c)), "inputs": fb.scalars(o, 1, "i"),
                    "outputs": fb.scalars(o, 2, "i")})
    n, base = fb.vector(graph, 2)
    return ops, tensors, (n, base)


def truncated(path, tensor, out_path):
    """Writes a copy of `path` whose subgraph-0 outputs are [tensor]."""
    data = bytearray(open(path, "rb").read())
    _, _, (n, base) = describe(path)
    for k in range(n):  # every output slot names the chosen tensor
        struct.pack_into("<i", data, base + 4 * k, tensor)
    with open(out_path, "wb") as f:
        f.write(data)


# --- Arm NN (worker, /usr/bin/python3) -------------------------------------

def armnn_worker(listfile):
    import contextlib
    import io
    import numpy as np
    with contextlib.redirect_stdout(io.StringIO()):
        import pyarmnn as ann
    job = json.load(open(listfile))
    rt = ann.IRuntime(ann.CreationOptions())
    samples = [[np.frombuffer(bytes.fromhex(h), dtype=np.dtype(dt)).reshape(sh)
                for h, dt, sh in s] for s in job["samples"]]
    res = {}
    for m in job["models"]:
        try:
            parser = ann.ITfLiteParser()
            net = parser.CreateNetworkFromBinaryFile(m)
            ins = [parser.GetNetworkInputBindingInfo(0, n)
                   for n in parser.GetSubgraphInputTensorNames(0)]
            outs = [parser.GetNetworkOutputBindingInfo(0, n)
                    for n in parser.GetSubgraphOutputTensorNames(0)]
            opt, _ = ann.Optimize(net, [ann.BackendId("CpuRef")], rt.GetDeviceSpec(),
                                  ann.OptimizerOptions())
            nid, _ = rt.LoadNetwork(opt)
            r = []
            for s in samples:
                ot = ann.make_output_tensors(outs)
                rt.EnqueueWorkload(nid, ann.make_input_tensors(ins, s), ot)
                ys = ann.workload_tensors_to_ndarray(ot)
                r.append([y.reshape(-1).tolist() for y in ys])
            rt.UnloadNetwork(nid)
            res[m] = r
        except Exception as e:
            res[m] = {"error": f"{type(e).__name__}: {e}"}
    json.dump(res, open(job["out"], "w"))


# --- helia -----------------------------------------------------------------

def helia_run(tools, model, work, samples_hex):
    import run as R
    os.makedirs(work, exist_ok=True)
    name = R.function_name(model)
    text = tools.import_model(model, name, work)
    # run.py's harness splices @main in before the module's last "}" and
    # drops whatever follows (trailing #loc alias definitions): move those
    # to the top of the text.
    # Locations dropped: run.py's harness splices @main in before the
    # module's last "}" and loses the trailing #loc alias definitions.
    text = R.run([tools.opt, "-"], stdin=text.encode(), what="strip locs").decode()
    name, fargs, results = R.signature(text, name)
    h = os.path.join(work, "harness.plain.mlir")
    with open(h, "w") as f:
        f.write(R.harness(text, name, fargs, results, samples_hex, dealloc=False))
    lines = R.parse_output(tools.host(h, R.PLAIN % R.TOSA), len(samples_hex) * len(results))
    return R.decode(lines, results, len(samples_hex)), results


DT = {"i8": "int8", "ui8": "uint8", "i16": "int16", "i32": "int32", "f32": "float32"}


def draw_samples(np, R, a, work):
    """The seeded random inputs, as reference.py draws them (also saved to
    inputs.npy): (arrays per sample, their hex bytes per sample)."""
    ins, _ = R.tflite_io(a.model)
    rs = np.random.RandomState(a.seed)
    samples = []
    for _ in range(a.count):
        s = []
        for inp in ins:
            lo, hi = R.INT_RANGES[inp["type"]]
            x = rs.randint(lo, hi + 1, size=tuple(inp["shape"])).astype(DT[inp["type"]])
            s.append(x)
        samples.append(s)
    samples_hex = [[x.tobytes().hex().upper() for x in s] for s in samples]
    np.save(os.path.join(work, "inputs.npy"), np.stack([s[0] for s in samples]))
    return samples, samples_hex


def armnn_outputs(models, samples, work):
    """Arm NN's outputs of every truncated model, from one worker process."""
    job = {"models": list(models.values()), "out": os.path.join(work, "armnn.json"),
           "samples": [[(x.tobytes().hex(), x.dtype.str, list(x.shape)) for x in s] for s in samples]}
    jf = os.path.join(work, "armnn.job.json")
    json.dump(job, open(jf, "w"))
    p = subprocess.run(["/usr/bin/python3", os.path.abspath(__file__), "--armnn-worker", jf],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr[-2000:])
    return json.load(open(job["out"]))


def helia_outputs(R, a, models, idx, work, samples_hex):
    """helia's outputs of every truncated model (or the exception)."""
    class Args:
        pass
    ta = Args()
    ta.build, ta.translate, ta.imported, ta.keep, ta.timeout = a.build, None, None, None, 900
    ta.pipeline_options = ""
    tools = R.Tools(ta)

    def one(k):
        try:
            return k, helia_run(tools, models[k], os.path.join(work, f"L{k:03d}"), samples_hex)
        except Exception as e:
            return k, e

    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for k, r in pool.map(one, idx):
            out[k] = r
    return out


def print_layers(np, ops, tensors, idx, models, out, arm, work):
    """The table, one row per layer; the values to values.json."""
    print("| # | op | output tensor | shape | type | scale | zp | max diff | elems differing |")
    print("|---|---|---|---|---|---|---|---|---|")
    dump = {}
    for k in idx:
        t = tensors[ops[k]["outputs"][0]]
        r = out[k]
        w = arm.get(models[k])
        if isinstance(r, Exception):
            cell = f"helia error: {str(r)[:120]}"
            nd = ""
        elif isinstance(w, dict):
            cell = f"armnn error: {w['error'][:120]}"
            nd = ""
        else:
            got, results = r
            g = np.array([s[0] for s in got], dtype=np.float64)
            ww = np.array([s[0] for s in w], dtype=np.float64)
            d = np.abs(g - ww)
            cell = f"{d.max():g}"
            nd = f"{int((d > 0).sum())}/{d.size}"
            dump[k] = {"helia": g.tolist(), "armnn": ww.tolist()}
        sc = t["scale"][0] if len(t["scale"]) == 1 else (f"{len(t['scale'])} ch" if t["scale"] else "")
        zp = t["zp"][0] if len(t["zp"]) == 1 else ""
        print(f"| {k} | {ops[k]['op']} | {ops[k]['outputs'][0]} {t['name'][:40]} | {t['shape']} | "
              f"{t['type']} | {sc} | {zp} | {cell} | {nd} |", flush=True)
    json.dump(dump, open(os.path.join(work, "values.json"), "w"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", nargs="?")
    ap.add_argument("--armnn-worker")
    ap.add_argument("--build", default="/work/main/build")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default="/tmp/helia-layers")
    ap.add_argument("--only", default="")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.armnn_worker:
        return armnn_worker(a.armnn_worker)
    import numpy as np
    import run as R
    ops, tensors, _ = describe(a.model)
    stem = os.path.splitext(os.path.basename(a.model))[0]
    work = os.path.join(a.work, stem)
    os.makedirs(work, exist_ok=True)
    samples, samples_hex = draw_samples(np, R, a, work)
    idx = [int(k) for k in a.only.split(",") if k] or list(range(len(ops)))
    models = {}
    for k in idx:
        t = ops[k]["outputs"][0]
        p = os.path.join(work, f"L{k:03d}.tflite")
        truncated(a.model, t, p)
        models[k] = p
    arm = armnn_outputs(models, samples, work)
    out = helia_outputs(R, a, models, idx, work, samples_hex)
    print_layers(np, ops, tensors, idx, models, out, arm, work)


if __name__ == "__main__":
    sys.exit(main())
