#!/usr/bin/python3
"""Arm NN's TfLite parser on CpuRef as ops.py's reference: one model per
/usr/bin/python3 process (`ops_armnn.py --armnn-worker SPEC OUT`), the
outputs cached by model and inputs."""

import hashlib
import json
import os
import re
import subprocess
import sys

from toolchain import SYSTEM_PYTHON


def armnn_worker(spec_path, out_path):
    """--armnn-worker: runs spec's model on CpuRef, writes the outputs."""
    result = {}
    try:
        import contextlib
        import io
        import numpy as np
        spec = json.load(open(spec_path))
        with contextlib.redirect_stdout(io.StringIO()):
            import pyarmnn as ann
        parser = ann.ITfLiteParser()
        net = parser.CreateNetworkFromBinaryFile(spec["model"])
        ins = [parser.GetNetworkInputBindingInfo(0, n)
               for n in parser.GetSubgraphInputTensorNames(0)]
        outs = [parser.GetNetworkOutputBindingInfo(0, n)
                for n in parser.GetSubgraphOutputTensorNames(0)]
        rt = ann.IRuntime(ann.CreationOptions())
        opt, _ = ann.Optimize(net, [ann.BackendId("CpuRef")], rt.GetDeviceSpec(),
                              ann.OptimizerOptions())
        nid, _ = rt.LoadNetwork(opt)
        result["outputs"] = []
        for sample in spec["inputs"]:
            xs = [np.frombuffer(bytes.fromhex(h), dtype=np.dtype(d)).reshape(s).copy()
                  for h, d, s in sample]
            ot = ann.make_output_tensors(outs)
            rt.EnqueueWorkload(nid, ann.make_input_tensors(ins, xs), ot)
            ys = ann.workload_tensors_to_ndarray(ot)
            result["outputs"].append([y.reshape(-1).tolist() for y in ys])
    except Exception as e:  # reported in the model's row
        msg = str(e).strip().splitlines()
        msg = msg[0] if msg else type(e).__name__
        # Arm NN's messages: the parser's frame and source position dropped.
        msg = re.sub(r"^(WARNING: )?Failed to parse operator #\d+ within subgraph #\d+ error: ", "", msg)
        msg = re.sub(r"\s*(at function \w+ )?\[\./src/[^\]]*\]", "", msg)
        msg = re.sub(r"\s+at\s*$", "", msg)
        result["error"] = msg.strip()[:200]
    with open(out_path, "w") as f:
        json.dump(result, f)
    return 0


def armnn_reference(args, path, samples, work, name):
    """Arm NN's outputs per sample (cached by model and inputs), or raises
    Failure with Arm NN's message (the model is then dropped)."""
    spec = {"model": path,
            "inputs": [[(x.tobytes().hex(), x.dtype.str, list(x.shape)) for x in s]
                       for s in samples]}
    key = hashlib.sha256(open(path, "rb").read() +
                         json.dumps(spec["inputs"]).encode()).hexdigest()
    cache_dir = args.cache or os.path.join(args.build, "tflite", "ops-reference")
    cache = os.path.join(cache_dir, key + ".json")
    if os.path.exists(cache):
        try:
            r = json.load(open(cache))
            if "outputs" in r or "error" in r:
                return r
        except (OSError, ValueError):
            pass
    sp, op = os.path.join(work, name + ".spec.json"), os.path.join(work, name + ".armnn.json")
    with open(sp, "w") as f:
        json.dump(spec, f)
    try:
        subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__), "--armnn-worker", sp, op],
                       capture_output=True, timeout=args.timeout)
        r = json.load(open(op))
    except subprocess.TimeoutExpired:
        return {"error": f"Arm NN timed out after {args.timeout} s"}
    except (OSError, ValueError):
        return {"error": "the Arm NN process crashed"}
    if "error" in r and r["error"] == "":
        r["error"] = "unknown error"
    os.makedirs(cache_dir, exist_ok=True)
    with open(cache + ".tmp", "w") as f:
        json.dump(r, f)
    os.replace(cache + ".tmp", cache)
    return r


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "--armnn-worker":
        sys.exit("usage: ops_armnn.py --armnn-worker SPEC OUT")
    sys.exit(armnn_worker(sys.argv[2], sys.argv[3]))
