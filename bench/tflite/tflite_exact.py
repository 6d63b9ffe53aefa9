#!/usr/bin/python3
"""TFLite(-Micro) reference-kernel int8 arithmetic in numpy, fed per layer with
helia's own input to that layer (values.json written by layers.py), compared
with helia's output of that layer; also a float emulation (dequantize,
compute in float32, quantize) as Arm NN CpuRef does it, compared with Arm NN.

  tflite_exact.py MODEL.tflite [--work /tmp/helia-layers]   (after layers.py MODEL.tflite)
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers as L  # noqa: E402
from tflite_softmax import quantize_multiplier  # noqa: E402

I64 = np.int64


def srdhm(a, b):
    a = np.asarray(a, dtype=I64)
    ab = a * I64(b)
    nudge = np.where(ab >= 0, I64(1 << 30), I64(1 - (1 << 30)))
    s = ab + nudge
    q = np.where(s >= 0, s // (1 << 31), -((-s) // (1 << 31)))  # truncation toward zero
    sat = (a == -(1 << 31)) & (b == -(1 << 31))
    return np.where(sat, I64((1 << 31) - 1), q)


def rdbpot(x, e):
    x = np.asarray(x, dtype=I64)
    mask = I64((1 << e) - 1)
    rem = x & mask
    thr = (mask >> 1) + np.where(x < 0, I64(1), I64(0))
    return (x >> e) + np.where(rem > thr, I64(1), I64(0))


def wrap32(x):
    return ((np.asarray(x, dtype=I64) + (1 << 31)) % (1 << 32)) - (1 << 31)


def mbqm(x, m, shift):
    ls = shift if shift > 0 else 0
    rs = 0 if shift > 0 else -shift
    return rdbpot(srdhm(wrap32(np.asarray(x, dtype=I64) * (1 << ls)), m), rs)


def tfl_round(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def act_range(act, scale, zp, qmin=-128, qmax=127):
    def q(f):
        return zp + int(tfl_round(np.float32(f) / np.float32(scale)))
    if act == 1:  # RELU
        return max(qmin, q(0.0)), qmax
    if act == 2:  # RELU_N1_TO_1
        return max(qmin, q(-1.0)), min(qmax, q(1.0))
    if act == 3:  # RELU6
        return max(qmin, q(0.0)), min(qmax, q(6.0))
    return qmin, qmax


class Model:
    def __init__(self, path):
        fb = L.FB(open(path, "rb").read())
        self.fb = fb
        model = fb.table(fb.u32(0))
        bufs = fb.tables(model, 4)
        self.buffers = []
        for b in bufs:
            n, base = fb.vector(b, 0)
            self.buffers.append(bytes(fb.d[base:base + n]) if base else b"")
        self.ops, self.tensors, _ = L.describe(path)
        graph = fb.tables(model, 2)[0]
        self.inputs = fb.scalars(graph, 1, "i")
        for o, t in zip(self.ops, fb.tables(graph, 3)):
            opt = fb.ref(t, 4)
            o["opt"] = fb.table(opt) if opt is not None else None

    def const(self, k, dtype):
        t = self.tensors[k]
        return np.frombuffer(self.buffers[t["buffer"]], dtype=dtype).reshape(t["shape"])

    def optv(self, o, i, fmt, default=0):
        return default if o["opt"] is None else self.fb.scalar(o["opt"], i, fmt, default)


def pad_amount(padding, stride, dil, size, f, out):
    eff = (f - 1) * dil + 1
    if padding == 0:  # SAME
        total = max(0, (out - 1) * stride + eff - size)
        return total // 2
    return 0


def conv_int8(x, w, b, in_zp, mults, shifts, out_zp, lo, hi, sh, sw, dh, dw, ph, pw, OH, OW, depthwise=False, M=1):
    N, H, W, C = x.shape
    xi = x.astype(I64) - in_zp
    if depthwise:
        O = w.shape[3]
        FH, FW = w.shape[1], w.shape[2]
    else:
        O, FH, FW, IC = w.shape
    acc = np.zeros((N, OH, OW, O), dtype=I64)
    for fy in range(FH):
        for fx in range(FW):
            for oy in range(OH):
                iy = oy * sh - ph + fy * dh
                if iy < 0 or iy >= H:
                    continue
                for ox in range(OW):
                    ix = ox * sw - pw + fx * dw
                    if ix < 0 or ix >= W:
                        continue
                    v = xi[:, iy, ix, :]  # N x C
                    if depthwise:
                        vv = np.repeat(v, M, axis=1)  # out_ch = ic*M+m
                        acc[:, oy, ox, :] += vv * w[0, fy, fx, :].astype(I64)
                    else:
                        acc[:, oy, ox, :] += v @ w[:, fy, fx, :].astype(I64).T
    if b is not None:
        acc += b.astype(I64)
    out = np.empty_like(acc)
    for c in range(O):
        out[..., c] = mbqm(acc[..., c], mults[c], shifts[c])
    return np.clip(out + out_zp, lo, hi)


def run_layer(m, k, ins, mode):
    """Output (int64 array) of op k given input arrays `ins` (by tensor)."""
    o = m.ops[k]
    T = m.tensors
    out_t = T[o["outputs"][0]]
    oscale, ozp = out_t["scale"][0] if out_t["scale"] else 0, out_t["zp"][0] if out_t["zp"] else 0
    op = o["op"]
    if op in ("RESHAPE", "SQUEEZE"):
        return ins[0].reshape([ins[0].shape[0]] + list(out_t["shape"][1:]))
    x = ins[0]
    xt = T[o["inputs"][0]]
    iscale, izp = xt["scale"][0], xt["zp"][0]
    if op in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        dw = op == "DEPTHWISE_CONV_2D"
        wt = T[o["inputs"][1]]
        w = m.const(o["inputs"][1], np.int8)
        b = m.const(o["inputs"][2], np.int32) if len(o["inputs"]) > 2 and o["inputs"][2] >= 0 else None
        padding = m.optv(o, 0, "b")
        sw, sh = m.optv(o, 1, "i"), m.optv(o, 2, "i")
        if dw:
            M = m.optv(o, 3, "i")
            act = m.optv(o, 4, "b")
            dilw, dilh = m.optv(o, 5, "i", 1), m.optv(o, 6, "i", 1)
            FH, FW = w.shape[1], w.shape[2]
        else:
            M = 1
            act = m.optv(o, 3, "b")
            dilw, dilh = m.optv(o, 4, "i", 1), m.optv(o, 5, "i", 1)
            FH, FW = w.shape[1], w.shape[2]
        _, OH, OW, O = out_t["shape"]
        ph = pad_amount(padding, sh, dilh, x.shape[1], FH, OH)
        pw = pad_amount(padding, sw, dilw, x.shape[2], FW, OW)
        fs = wt["scale"] if len(wt["scale"]) > 1 else wt["scale"] * O
        if mode == "float":
            lo, hi = act_range(act, oscale, ozp)
            xf = ((x.astype(np.float32) - izp) * np.float32(iscale)).astype(np.float32)
            fsa = np.array(fs, dtype=np.float32)
            if dw:
                wf = (w.astype(np.float32) * fsa).astype(np.float32)
            else:
                wf = (w.astype(np.float32) * fsa[:, None, None, None]).astype(np.float32)
            bt = T[o["inputs"][2]]
            bsc = np.array(bt["scale"] if len(bt["scale"]) > 1 else bt["scale"] * O, dtype=np.float32)
            bf = (b.astype(np.float32) * bsc).astype(np.float32) if b is not None else np.float32(0)
            N, H, W, C = x.shape
            acc = np.zeros((N, OH, OW, O), dtype=np.float32)
            for fy in range(FH):
                for fx in range(FW):
                    for oy in range(OH):
                        iy = oy * sh - ph + fy * dilh
                        if iy < 0 or iy >= H:
                            continue
                        for ox in range(OW):
                            ix = ox * sw - pw + fx * dilw
                            if ix < 0 or ix >= W:
                                continue
                            v = xf[:, iy, ix, :]
                            if dw:
                                acc[:, oy, ox, :] += np.repeat(v, M, axis=1) * wf[0, fy, fx, :]
                            else:
                                acc[:, oy, ox, :] += v @ wf[:, fy, fx, :].T
            y = acc + bf
            return np.clip(tfl_round(y / np.float32(oscale)) + ozp, lo, hi).astype(I64)
        ms = [quantize_multiplier(float(iscale) * float(f) / float(oscale)) for f in fs]
        lo, hi = act_range(act, oscale, ozp)
        return conv_int8(x, w, b, izp, [a for a, _ in ms], [s for _, s in ms], ozp, lo, hi,
                         sh, sw, dilh, dilw, ph, pw, OH, OW, dw, M)
    if op == "FULLY_CONNECTED":
        wt = T[o["inputs"][1]]
        w = m.const(o["inputs"][1], np.int8).astype(I64)
        b = m.const(o["inputs"][2], np.int32).astype(I64) if len(o["inputs"]) > 2 and o["inputs"][2] >= 0 else 0
        act = m.optv(o, 0, "b")
        lo, hi = act_range(act, oscale, ozp)
        wzp = wt["zp"][0] if wt["zp"] else 0
        xx = x.reshape(x.shape[0], -1).astype(I64)
        if mode == "float":
            xf = ((xx - izp) * np.float32(iscale)).astype(np.float32)
            wf = ((w - wzp) * np.float32(wt["scale"][0])).astype(np.float32)
            bt = T[o["inputs"][2]]
            bf = (b * np.float32(bt["scale"][0])).astype(np.float32)
            y = xf @ wf.T + bf
            q = tfl_round(y / np.float32(oscale)) + ozp
            return np.clip(q, lo, hi).astype(I64)
        acc = (xx - izp) @ (w - wzp).T + b
        if len(wt["scale"]) > 1:
            ms = [quantize_multiplier(float(iscale) * float(f) / float(oscale)) for f in wt["scale"]]
            out = np.stack([mbqm(acc[:, c], *ms[c]) for c in range(acc.shape[1])], 1)
        else:
            eff = float(np.float32(iscale) * np.float32(wt["scale"][0])) / float(oscale)
            out = mbqm(acc, *quantize_multiplier(eff))
        return np.clip(out + ozp, lo, hi)
    if op == "AVERAGE_POOL_2D":
        padding = m.optv(o, 0, "b")
        sw, sh, fw, fh = (m.optv(o, i, "i") for i in (1, 2, 3, 4))
        act = m.optv(o, 5, "b")
        lo, hi = act_range(act, oscale, ozp)
        N, H, W, C = x.shape
        _, OH, OW, _ = out_t["shape"]
        ph = pad_amount(padding, sh, 1, H, fh, OH)
        pw = pad_amount(padding, sw, 1, W, fw, OW)
        out = np.zeros((N, OH, OW, C), dtype=I64)
        for oy in range(OH):
            for ox in range(OW):
                y0, x0 = oy * sh - ph, ox * sw - pw
                ys = slice(max(0, y0), min(H, y0 + fh))
                xs = slice(max(0, x0), min(W, x0 + fw))
                win = x[:, ys, xs, :].astype(I64)
                n = win.shape[1] * win.shape[2]
                acc = win.sum(axis=(1, 2))
                if mode == "float":
                    f = ((win - izp) * np.float32(iscale)).astype(np.float32).sum(axis=(1, 2)) / np.float32(n)
                    out[:, oy, ox, :] = tfl_round(f / np.float32(oscale)) + ozp
                else:
                    out[:, oy, ox, :] = np.where(acc > 0, (acc + n // 2) // n,
                                                 -((-(acc - n // 2)) // n))
        return np.clip(out, lo, hi)
    if op == "ADD":
        x2 = ins[1]
        t2 = T[o["inputs"][1]]
        s1, s2 = float(np.float32(iscale)), float(np.float32(t2["scale"][0]))
        act = m.optv(o, 0, "b")
        lo, hi = act_range(act, oscale, ozp)
        if mode == "float":
            f = (x.astype(np.float32) - izp) * np.float32(s1) + (x2.astype(np.float32) - t2["zp"][0]) * np.float32(s2)
            return np.clip(tfl_round(f / np.float32(oscale)) + ozp, lo, hi).astype(I64)
        tm = 2 * max(s1, s2)
        m1, sh1 = quantize_multiplier(s1 / tm)
        m2, sh2 = quantize_multiplier(s2 / tm)
        mo, so = quantize_multiplier(tm / ((1 << 20) * float(oscale)))
        a = (x.astype(I64) - izp) * (1 << 20)
        bb = (x2.astype(I64) - t2["zp"][0]) * (1 << 20)
        sa = rdbpot(srdhm(a, m1), -sh1)
        sb = rdbpot(srdhm(bb, m2), -sh2)
        raw = rdbpot(srdhm(sa + sb, mo), -so) + ozp
        return np.clip(raw, lo, hi)
    if op in ("LOGISTIC", "TANH"):
        if mode != "float":  # TFLite Micro's gemmlowp kernels
            import tflm_nonlinear as N
            return N.activation_int8(x, iscale, izp, op == "TANH")
        xf = (x.astype(np.float32) - izp) * np.float32(iscale)
        y = np.tanh(xf) if op == "TANH" else 1 / (1 + np.exp(-xf))
        return np.clip(tfl_round(y / np.float32(oscale)) + ozp, -128, 127).astype(I64)
    if op == "SOFTMAX":
        beta = m.optv(o, 0, "f", 1.0)
        if mode != "float":  # TFLite's gemmlowp fixed-point kernel
            import tflite_softmax as S
            rows = x.reshape(-1, x.shape[-1])
            return np.array([S.softmax_int8([int(v) for v in r], iscale, beta) for r in rows],
                            dtype=I64).reshape(x.shape)
        xf = (x.astype(np.float32) - izp) * np.float32(iscale)
        mx = xf.max(axis=-1, keepdims=True)
        e = np.exp((xf - mx) * np.float32(beta))
        p = e / e.sum(axis=-1, keepdims=True)
        return np.clip(tfl_round(p / np.float32(oscale)) + ozp, -128, 127).astype(I64)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--work", default="/tmp/helia-layers")
    a = ap.parse_args()
    m = Model(a.model)
    stem = os.path.splitext(os.path.basename(a.model))[0]
    work = os.path.join(a.work, stem)
    vals = {int(k): v for k, v in json.load(open(os.path.join(work, "values.json"))).items()}
    inputs = np.load(os.path.join(work, "inputs.npy"))
    producer = {op["outputs"][0]: k for k, op in enumerate(m.ops)}

    def value(t, which):
        if t in m.inputs:
            return inputs.astype(I64).reshape([inputs.shape[0]] + list(m.tensors[t]["shape"][1:]))
        k = producer[t]
        shape = [inputs.shape[0]] + list(m.tensors[t]["shape"][1:])
        return np.array(vals[k][which], dtype=I64).reshape(shape)

    print("| # | op | helia vs TFLite-exact (helia's input) | Arm NN vs float emulation (Arm NN's input) | helia vs float emulation (helia's input) | Arm NN vs TFLite-exact (Arm NN's input) |")
    print("|---|---|---|---|---|---|")
    for k, o in enumerate(m.ops):
        if k not in vals:
            continue
        cells = []
        for which, mode in (("helia", "int"), ("armnn", "float"), ("helia", "float"), ("armnn", "int")):
            ins = [value(t, which) for t in o["inputs"]
                   if t >= 0 and (t in m.inputs or t in producer)]
            r = run_layer(m, k, ins, mode)
            if r is None:
                cells.append("n/a")
                continue
            got = np.array(vals[k][which], dtype=I64).reshape(-1)
            d = np.abs(r.reshape(-1) - got)
            cells.append(f"max {d.max()}, {int((d > 0).sum())}/{d.size} differ")
        print(f"| {k} | {o['op']} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()


def softmax_exact(model_path, work="/tmp/helia-layers"):
    import tflite_softmax as S
    m = Model(model_path)
    stem = os.path.splitext(os.path.basename(model_path))[0]
    vals = {int(k): v for k, v in json.load(open(os.path.join(work, stem, "values.json"))).items()}
    k = max(i for i, o in enumerate(m.ops) if o["op"] == "SOFTMAX")
    o = m.ops[k]
    prod = {op["outputs"][0]: i for i, op in enumerate(m.ops)}
    src = prod[o["inputs"][0]]
    xt = m.tensors[o["inputs"][0]]
    beta = m.optv(o, 0, "f", 1.0)
    res = {}
    for which in ("helia", "armnn"):
        d = []
        for s in range(len(vals[k][which])):
            row = [int(v) for v in vals[src][which][s]]
            exact = S.softmax_int8(row, xt["scale"][0], beta)
            d.append(max(abs(a - int(b)) for a, b in zip(exact, vals[k][which][s])))
        res[which] = d
    return k, res
