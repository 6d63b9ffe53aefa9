#!/usr/bin/python3
"""The inputs and the Arm NN reference outputs of one TFLite network.

Run with Debian's /usr/bin/python3 (numpy, python3-pyarmnn); bench/tflite/run.py
calls it in a subprocess, one model per process (CpuRef registers its backend
once per process).

  reference.py --spec spec.json --out result.json [--armnn]

spec.json: {"model": path, "seed": S, "count": N,
            "inputs": [{"shape": [...], "type": "i8"|"i16"|"i32"|"f32",
                        "low": lo, "high": hi}, ...]}

Input k of sample j comes from one numpy RandomState(S), drawn in the order
sample 0 input 0, sample 0 input 1, ..., sample 1 input 0, ...: integers
uniform over [low, high] (randint), floats uniform over [low, high)
(uniform, then float32).

result.json: {"inputs": [[hex of each input's little-endian bytes] per
sample], "outputs": [[[values of each output, row-major] per output] per
sample] (only with --armnn), "error": message (only on failure)}.
"""
import argparse
import json
import sys
import traceback

DTYPES = {"i8": "int8", "ui8": "uint8", "i16": "int16", "i32": "int32",
          "f32": "float32"}


def make_inputs(np, spec):
    rs = np.random.RandomState(spec["seed"])
    samples = []
    for _ in range(spec["count"]):
        sample = []
        for inp in spec["inputs"]:
            dtype = np.dtype(DTYPES[inp["type"]])
            shape = tuple(inp["shape"])
            if dtype.kind == "f":
                x = rs.uniform(inp["low"], inp["high"], size=shape).astype(dtype)
            else:
                x = rs.randint(int(inp["low"]), int(inp["high"]) + 1,
                               size=shape).astype(dtype)
            sample.append(np.ascontiguousarray(x))
        samples.append(sample)
    return samples


def armnn_outputs(np, model, samples):
    import contextlib
    import io
    # pyarmnn prints a line per parser it lacks (Caffe, Onnx, TF) on import.
    with contextlib.redirect_stdout(io.StringIO()):
        import pyarmnn as ann
    parser = ann.ITfLiteParser()
    net = parser.CreateNetworkFromBinaryFile(model)
    ins = [parser.GetNetworkInputBindingInfo(0, n)
           for n in parser.GetSubgraphInputTensorNames(0)]
    outs = [parser.GetNetworkOutputBindingInfo(0, n)
            for n in parser.GetSubgraphOutputTensorNames(0)]
    rt = ann.IRuntime(ann.CreationOptions())
    opt, _ = ann.Optimize(net, [ann.BackendId("CpuRef")], rt.GetDeviceSpec(),
                          ann.OptimizerOptions())
    nid, _ = rt.LoadNetwork(opt)
    result = []
    for sample in samples:
        ot = ann.make_output_tensors(outs)
        rt.EnqueueWorkload(nid, ann.make_input_tensors(ins, sample), ot)
        ys = ann.workload_tensors_to_ndarray(ot)
        result.append([y.reshape(-1).tolist() for y in ys])
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--armnn", action="store_true")
    args = ap.parse_args()
    result = {}
    try:
        import numpy as np
        spec = json.load(open(args.spec))
        samples = make_inputs(np, spec)
        result["inputs"] = [[x.astype(x.dtype.newbyteorder("<")).tobytes().hex()
                             for x in s] for s in samples]
        if args.armnn:
            result["outputs"] = armnn_outputs(np, spec["model"], samples)
    except Exception as e:  # reported by run.py, per model
        result["error"] = f"{type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc()
    with open(args.out, "w") as f:
        json.dump(result, f)
    return 1 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
