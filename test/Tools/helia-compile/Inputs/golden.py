#!/usr/bin/python3
"""Golden-data files for helia-compile --test-data (test/Tools/helia-compile).

Run with Debian's /usr/bin/python3 (numpy; python3-pyarmnn for `armnn`).

  golden.py add-relu OUT.npz [--samples N] [--flat] [--compressed] [--corrupt]
      The model of Inputs/add_relu.json: output = relu(x + [1, 2, 3, 4]) on
      float32 inputs of shape (1, 4), computed by numpy (exact: one float
      addition and a max per element). --flat stores each sample as 4
      elements, --compressed uses np.savez_compressed, --corrupt moves one
      expected value by 0.5.
  golden.py armnn MODEL.tflite OUT.npz [--samples N] [--corrupt]
      Seeded random inputs (bench/tflite/reference.py's make_inputs) and Arm
      NN CpuRef's outputs (its armnn_outputs), in the tensors' shapes.
      --corrupt moves one expected value by 3 LSB (or 0.5 for floats).
  golden.py bad KIND OUT
      A malformed file for the error tests: KIND is one of missing-output,
      float64, shape, samples, extra-key, fortran, crc, npy.
  golden.py check OUT.npz EXPECTED.npz
      Prints each array of OUT.npz (dtype, shape) and whether it equals the
      array of the same key in EXPECTED.npz.
"""
import argparse
import os
import sys
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
BIAS = np.array([1, 2, 3, 4], dtype=np.float32)


def save(path, arrays, compressed=False):
    (np.savez_compressed if compressed else np.savez)(path, **arrays)


def add_relu(args):
    rs = np.random.RandomState(7)
    x = rs.uniform(-5, 5, size=(args.samples, 1, 4)).astype(np.float32)
    y = np.maximum(x + BIAS, np.float32(0))
    if args.corrupt:
        y[args.samples // 2, 0, 1] += np.float32(0.5)
    if args.flat:
        x, y = x.reshape(args.samples, 4), y.reshape(args.samples, 4)
    save(args.out, {"input_0": x, "output_0": y}, args.compressed)


def armnn(args):
    sys.path.insert(0, os.path.join(ROOT, "bench", "tflite"))
    import reference
    import run
    ins, outs = run.tflite_io(args.model)
    spec = {"seed": 0, "count": args.samples, "inputs": []}
    for t in ins:
        if t["type"] == "f32":
            low, high = -1.0, 1.0
        else:
            low, high = run.INT_RANGES[t["type"]]
        spec["inputs"].append({"shape": t["shape"], "type": t["type"],
                               "low": low, "high": high})
    samples = reference.make_inputs(np, spec)
    results = reference.armnn_outputs(np, args.model, samples)
    arrays = {}
    for i in range(len(ins)):
        arrays[f"input_{i}"] = np.stack([s[i] for s in samples])
    for j, t in enumerate(outs):
        dtype = np.dtype(reference.DTYPES[t["type"]])
        arrays[f"output_{j}"] = np.stack(
            [np.array(r[j], dtype=dtype).reshape(t["shape"]) for r in results])
    if args.corrupt:
        y = arrays["output_0"].reshape(args.samples, -1)
        if y.dtype.kind == "f":
            y[args.samples // 2, 0] += 0.5
        else:
            info = np.iinfo(y.dtype)
            v = int(y[args.samples // 2, 0])
            y[args.samples // 2, 0] = v + 3 if v + 3 <= info.max else v - 3
    save(args.out, arrays)


def bad(args):
    x = np.zeros((3, 1, 4), np.float32)
    kinds = {
        "missing-output": {"input_0": x},
        "float64": {"input_0": x.astype(np.float64), "output_0": x},
        "shape": {"input_0": np.zeros((3, 5), np.float32), "output_0": x},
        "samples": {"input_0": x, "output_0": np.zeros((2, 1, 4), np.float32)},
        "extra-key": {"input_0": x, "output_0": x, "input_1": x},
        "fortran": {"input_0": np.asfortranarray(np.zeros((3, 4), np.float32)),
                    "output_0": x},
    }
    if args.kind in kinds:
        save(args.out, kinds[args.kind])
    elif args.kind == "crc":
        save(args.out, {"input_0": x, "output_0": x})
        data = bytearray(open(args.out, "rb").read())
        # The last byte of the first member's data (stored: its raw bytes).
        with zipfile.ZipFile(args.out) as z:
            info = z.infolist()[0]
        end = info.header_offset + 30 + len(info.filename) + len(info.extra) \
            + info.compress_size
        data[end - 1] ^= 0xff
        open(args.out, "wb").write(bytes(data))
    elif args.kind == "npy":
        with open(args.out, "wb") as f:
            np.save(f, x)
    else:
        sys.exit(f"unknown kind {args.kind}")


def check(args):
    out, expected = np.load(args.out), np.load(args.expected)
    for key in out.files:
        a = out[key]
        same = key in expected.files and a.dtype == expected[key].dtype and \
            a.shape == expected[key].shape and np.array_equal(a, expected[key])
        print(f"{key}: {a.dtype} {a.shape} {'equal' if same else 'different'}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("add-relu")
    p.add_argument("out")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--flat", action="store_true")
    p.add_argument("--compressed", action="store_true")
    p.add_argument("--corrupt", action="store_true")
    p = sub.add_parser("armnn")
    p.add_argument("model")
    p.add_argument("out")
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--corrupt", action="store_true")
    p = sub.add_parser("bad")
    p.add_argument("kind")
    p.add_argument("out")
    p = sub.add_parser("check")
    p.add_argument("out")
    p.add_argument("expected")
    args = ap.parse_args()
    {"add-relu": add_relu, "armnn": armnn, "bad": bad, "check": check}[args.cmd](args)


if __name__ == "__main__":
    main()
