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
mlir-runner (the harness of bench/tflite/run.py).

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
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The harness, the lowering and the tool runner are run.py's.
sys.path.insert(0, HERE)
from run import (LLVM, PLAIN, RUNNER_LIBS, SYSTEM_PYTHON, TO_LLVM, TOSA,  # noqa: E402
                 Failure, as_float, batches, function_name, harness, have_armnn,
                 parse_output, run, signature)
import run as run_py  # noqa: E402
from tflite_softmax import quantize_multiplier  # noqa: E402
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(ROOT, "lib", "Target", "TFLite", "TFLiteSchema.fbs")
# The TFLite recipe (accumulators one element at a time, convolution
# windows instead of padded inputs) against the unfused plain reference.
PLANNED = ("builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true "
           "fuse-accumulators=true})")
FLOAT_RTOL = 1e-5
QUANT_LSB = 1



# --- Models ------------------------------------------------------------------

TFL_TYPES = {"f32": "FLOAT32", "i8": "INT8", "i16": "INT16", "i32": "INT32",
             "i64": "INT64"}
NP_TYPES = {"f32": "<f4", "i8": "i1", "i16": "<i2", "i32": "<i4", "i64": "<i8"}
# TFLite's builtin operator codes (schema.fbs).
CODES = {"ADD": 0, "AVERAGE_POOL_2D": 1, "CONCATENATION": 2, "CONV_2D": 3,
         "DEPTHWISE_CONV_2D": 4, "DEQUANTIZE": 6, "FULLY_CONNECTED": 9,
         "LOGISTIC": 14, "MAX_POOL_2D": 17, "MUL": 18, "RELU": 19,
         "RELU_N1_TO_1": 20, "RELU6": 21, "RESHAPE": 22, "SOFTMAX": 25,
         "TANH": 28, "PAD": 34, "TRANSPOSE": 39, "MEAN": 40, "SUB": 41,
         "SQUEEZE": 43, "STRIDED_SLICE": 45, "PADV2": 60,
         "TRANSPOSE_CONV": 67, "EXPAND_DIMS": 70, "LEAKY_RELU": 98,
         "QUANTIZE": 114, "UNIDIRECTIONAL_SEQUENCE_LSTM": 44}


def quant(scale, zp=0):
    return {"scale": [float(scale)], "zero_point": [int(zp)]}


def per_channel(scales, dim):
    return {"scale": [float(s) for s in scales], "zero_point": [0] * len(scales),
            "quantized_dimension": dim}


class Model:
    """One operator's model: tensors, buffers (0 is the empty one) and the
    flatc JSON of the whole."""

    def __init__(self, np, rs):
        self.np, self.rs = np, rs
        self.tensors, self.buffers = [], [{}]
        self.inputs, self.outputs, self.op_json = [], [], None
        # Per input: (low, high) of its random values.
        self.ranges = {}
        # Inputs whose samples are permutations of every value of their
        # type, repeated over the tensor (its size a multiple of 256 or
        # 65536).
        self.exhaustive = set()

    def tensor(self, shape, t, q=None, data=None, variable=False):
        entry = {"shape": [int(d) for d in shape], "type": TFL_TYPES[t],
                 "name": f"t{len(self.tensors)}", "buffer": 0}
        if variable:
            entry["is_variable"] = True
        if q:
            entry["quantization"] = q
        if data is not None:
            arr = self.np.asarray(data).astype(NP_TYPES[t]).reshape(shape)
            self.buffers.append({"data": list(arr.tobytes())})
            entry["buffer"] = len(self.buffers) - 1
        self.tensors.append(entry)
        return len(self.tensors) - 1

    def input(self, shape, t, q=None, low=None, high=None):
        k = self.tensor(shape, t, q)
        self.inputs.append(k)
        if low is None:
            low, high = {"f32": (-2.0, 2.0), "i8": (-128, 127),
                         "i16": (-32768, 32767)}[t]
        self.ranges[k] = (low, high)
        return k

    def output(self, shape, t, q=None):
        k = self.tensor(shape, t, q)
        self.outputs.append(k)
        return k

    def const_i32(self, values, shape=None):
        values = [int(v) for v in values]
        return self.tensor(shape or [len(values)], "i32", data=values)

    def op(self, name, ins, outs, options=None, version=1, intermediates=None):
        code = CODES[name]
        entry = {"opcode_index": 0, "inputs": ins, "outputs": outs}
        if intermediates:
            entry["intermediates"] = intermediates
        if options:
            entry["builtin_options_type"], entry["builtin_options"] = options
        self.code = {"deprecated_builtin_code": min(code, 127),
                     "builtin_code": code, "version": version}
        self.op_json = entry

    def json(self):
        return {"version": 3, "operator_codes": [self.code],
                "subgraphs": [{"tensors": self.tensors, "inputs": self.inputs,
                               "outputs": self.outputs,
                               "operators": [self.op_json], "name": "main"}],
                "description": "helia bench/tflite/ops.py",
                "buffers": self.buffers}


# Realistic quantization parameters, drawn from the model's generator.
def act_q(m, scale=None):
    """int8 activations: a scale near 0.03, a nonzero zero point."""
    rs = m.rs
    s = scale if scale is not None else float(rs.uniform(0.02, 0.05))
    zp = int(rs.randint(-30, 30))
    return quant(s, zp if zp else 3)


def weights_i8(m, shape, dim):
    """int8 weights over [-127, 127] and their per-channel scales."""
    w = m.rs.randint(-127, 128, size=shape)
    scales = m.rs.uniform(0.002, 0.02, size=shape[dim])
    return w, scales


def conv_out(size, k, stride, dilation, padding):
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size - eff + stride) // stride


def acc_scale(in_s, w_scales, taps, wide=False):
    """An output scale that spreads a convolution's outputs over the int8
    range: about 3 standard deviations of the accumulator to 127."""
    std = (taps ** 0.5) * (18900 if wide else 74) * 73 * in_s * \
        (sum(w_scales) / len(w_scales))
    return 3 * std / 127


# --- The cases ----------------------------------------------------------------
#
# Each case is (name, builder); a builder fills a Model.

def conv2d(t="i8", n=1, k=3, stride=1, dilation=1, padding="SAME", act="NONE",
           hw=(9, 9), cin=3, cout=4, bias=True):
    def build(m):
        np = m.np
        ih, iw = hw
        oh = conv_out(ih, k, stride, dilation, padding)
        ow = conv_out(iw, k, stride, dilation, padding)
        opts = ("Conv2DOptions", {"padding": padding, "stride_w": stride,
                                  "stride_h": stride,
                                  "fused_activation_function": act,
                                  "dilation_w_factor": dilation,
                                  "dilation_h_factor": dilation})
        if t == "f32":
            x = m.input([n, ih, iw, cin], "f32")
            w = m.tensor([cout, k, k, cin], "f32",
                         data=m.rs.normal(0, 0.3, size=(cout, k, k, cin)))
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (cout, k, k, cin), 0)
            x = m.input([n, ih, iw, cin], "i8", xq)
            w = m.tensor([cout, k, k, cin], "i8", per_channel(ws, 0), wv)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, k * k * cin)))
        m.op("CONV_2D", [x, w, b if bias else -1], [y], opts,
             version=2 if t == "i8" else 1)
    return build


def depthwise(t="i8", n=1, k=3, stride=1, dilation=1, padding="SAME", act="NONE",
              hw=(8, 8), cin=3, mult=1):
    def build(m):
        ih, iw = hw
        cout = cin * mult
        oh = conv_out(ih, k, stride, dilation, padding)
        ow = conv_out(iw, k, stride, dilation, padding)
        opts = ("DepthwiseConv2DOptions", {
            "padding": padding, "stride_w": stride, "stride_h": stride,
            "depth_multiplier": mult, "fused_activation_function": act,
            "dilation_w_factor": dilation, "dilation_h_factor": dilation})
        if t == "f32":
            x = m.input([n, ih, iw, cin], "f32")
            w = m.tensor([1, k, k, cout], "f32",
                         data=m.rs.normal(0, 0.3, size=(1, k, k, cout)))
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (1, k, k, cout), 3)
            x = m.input([n, ih, iw, cin], "i8", xq)
            w = m.tensor([1, k, k, cout], "i8", per_channel(ws, 3), wv)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, k * k)))
        m.op("DEPTHWISE_CONV_2D", [x, w, b], [y], opts,
             version=2 if t == "i8" else 1)
    return build


def fully_connected(t="i8", in_shape=(2, 16), units=5, keep=False,
                    act="NONE", per_tensor=False, bias=True, depth=None):
    def build(m):
        depth_ = depth or in_shape[-1]
        total = 1
        for d in in_shape:
            total *= d
        rows = total // depth_
        out_shape = list(in_shape[:-1]) + [units] if keep else [rows, units]
        opts = ("FullyConnectedOptions", {"fused_activation_function": act,
                                          "keep_num_dims": keep})
        if t == "f32":
            x = m.input(list(in_shape), "f32")
            w = m.tensor([units, depth_], "f32",
                         data=m.rs.normal(0, 0.3, size=(units, depth_)))
            b = m.tensor([units], "f32", data=m.rs.normal(0, 0.5, size=units))
            y = m.output(out_shape, "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (units, depth_), 0)
            if per_tensor:
                ws = ws[:1]
            x = m.input(list(in_shape), "i8", xq)
            w = m.tensor([units, depth_], "i8", per_channel(ws, 0), wv)
            in_s = xq["scale"][0]
            b = m.tensor([units], "i32",
                         per_channel([in_s * s for s in ws], 0) if not per_tensor
                         else quant(in_s * ws[0]),
                         m.rs.randint(-3000, 3000, size=units))
            y = m.output(out_shape, "i8", act_q(m, acc_scale(in_s, ws, depth_)))
        m.op("FULLY_CONNECTED", [x, w, b if bias else -1], [y], opts,
             version=4 if t == "i8" else 1)
    return build


def transpose_conv(t="i8", n=1, k=3, stride=2, padding="SAME", hw=(4, 4), cin=3,
                   cout=2, bias=True, out_hw=None):
    def build(m):
        ih, iw = hw
        if out_hw:
            oh, ow = out_hw
        elif padding == "SAME":
            oh, ow = ih * stride, iw * stride
        else:
            oh, ow = (ih - 1) * stride + k, (iw - 1) * stride + k
        shape = m.const_i32([n, oh, ow, cout])
        opts = ("TransposeConvOptions", {"padding": padding, "stride_w": stride,
                                         "stride_h": stride})
        if t == "f32":
            w = m.tensor([cout, k, k, cin], "f32",
                         data=m.rs.normal(0, 0.3, size=(cout, k, k, cin)))
            x = m.input([n, ih, iw, cin], "f32")
            b = m.tensor([cout], "f32", data=m.rs.normal(0, 0.5, size=cout))
            y = m.output([n, oh, ow, cout], "f32")
        else:
            xq = act_q(m)
            wv, ws = weights_i8(m, (cout, k, k, cin), 0)
            w = m.tensor([cout, k, k, cin], "i8", per_channel(ws, 0), wv)
            x = m.input([n, ih, iw, cin], "i8", xq)
            in_s = xq["scale"][0]
            b = m.tensor([cout], "i32", per_channel([in_s * s for s in ws], 0),
                         m.rs.randint(-3000, 3000, size=cout))
            taps = max(1, (k * k * cin) // (stride * stride))
            y = m.output([n, oh, ow, cout], "i8",
                         act_q(m, acc_scale(in_s, ws, taps)))
        m.op("TRANSPOSE_CONV", [shape, w, x] + ([b] if bias else []), [y],
             opts, version=3 if bias else 2)
    return build


def pool(name, t="i8", n=1, k=3, stride=2, padding="SAME", act="NONE", hw=(9, 9),
         c=3):
    def build(m):
        ih, iw = hw
        oh = conv_out(ih, k, stride, 1, padding)
        ow = conv_out(iw, k, stride, 1, padding)
        opts = ("Pool2DOptions", {"padding": padding, "stride_w": stride,
                                  "stride_h": stride, "filter_width": k,
                                  "filter_height": k,
                                  "fused_activation_function": act})
        q = act_q(m) if t == "i8" else quant(3e-4) if t == "i16" else None
        x = m.input([n, ih, iw, c], t, q)
        y = m.output([n, oh, ow, c], t, q)
        m.op(name, [x], [y], opts, version=2 if t == "i8" else 1)
    return build


def binary(name, t="i8", a=(1, 4, 4, 3), b=(1, 4, 4, 3), act="NONE",
           const=False):
    def build(m):
        out = [max(x, y) for x, y in zip((1,) * (len(b) - len(a)) + tuple(a),
                                         (1,) * (len(a) - len(b)) + tuple(b))]
        opt_name = {"ADD": "AddOptions", "SUB": "SubOptions",
                    "MUL": "MulOptions"}[name]
        opts = (opt_name, {"fused_activation_function": act})
        if t == "f32":
            x1 = m.input(list(a), "f32")
            x2 = m.input(list(b), "f32")
            y = m.output(out, "f32")
        elif t == "i16":
            s1, s2 = m.rs.uniform(1e-4, 3e-4, size=2)
            x1 = m.input(list(a), "i16", quant(s1))
            x2 = m.input(list(b), "i16", quant(s2))
            so = (s1 * s2 * 32768 / 2) if name == "MUL" else (s1 + s2) * 0.8
            y = m.output(out, "i16", quant(so))
            if name != "MUL":
                opts[1]["pot_scale_int16"] = False
        else:
            q1, q2 = act_q(m), act_q(m)
            s1, s2 = q1["scale"][0], q2["scale"][0]
            x1 = m.input(list(a), "i8", q1)
            if const:
                x2 = m.tensor(list(b), "i8", q2, m.rs.randint(-128, 128, size=b))
            else:
                x2 = m.input(list(b), "i8", q2)
            so = (s1 * s2 * 128 / 2) if name == "MUL" else (s1 + s2) * 0.8
            y = m.output(out, "i8", act_q(m, so))
        m.op(name, [x1, x2], [y], opts, version=2 if t != "f32" else 1)
    return build


def unary(name, t="i8", shape=(2, 3, 8), out_q=None, in_q=None, options=None,
          low=None, high=None, out_t=None, version=None, exhaustive=False):
    """One input and one output of the same shape; `exhaustive`: every input
    value of the type in each sample."""
    def build(m):
        ot = out_t or t
        iq = in_q(m) if callable(in_q) else in_q
        if iq is None and t == "i8":
            iq = act_q(m)
        oq = out_q(m, iq) if callable(out_q) else out_q
        if oq is None and ot == "i8":
            oq = act_q(m)
        x = m.input(list(shape), t, iq, low, high)
        if exhaustive:
            m.exhaustive.add(x)
        y = m.output(list(shape), ot, oq)
        m.op(name, [x], [y], options,
             version=version or (2 if "i8" in (t, ot) else 1))
    return build


def same_q(m, iq):
    return iq


def softmax(t="i8", out_t="i8", beta=1.0, shape=(2, 10), scale=None,
            exhaustive=False, low=None, high=None):
    def build(m):
        iq = act_q(m, scale or 0.04) if t == "i8" else \
            quant(scale or 3e-4) if t == "i16" else None
        oq = {"i8": quant(1 / 256, -128),
              "i16": quant(1 / 65536, -32768) if t == "i8" else quant(1 / 32768),
              "f32": None}[out_t]
        x = m.input(list(shape), t, iq, low, high)
        if exhaustive:
            m.exhaustive.add(x)
        y = m.output(list(shape), out_t, oq)
        m.op("SOFTMAX", [x], [y], ("SoftmaxOptions", {"beta": beta}),
             version=2 if t == "i8" else 1)
    return build


def mean(t="i8", shape=(1, 5, 6, 4), axes=(1, 2), keep=True):
    def build(m):
        out = [1 if d in axes else n for d, n in enumerate(shape)] if keep else \
            [n for d, n in enumerate(shape) if d not in axes]
        q = act_q(m) if t == "i8" else quant(3e-4) if t == "i16" else None
        x = m.input(list(shape), t, q)
        a = m.const_i32(list(axes))
        y = m.output(out, t, act_q(m) if t == "i8" else quant(2e-4) if t == "i16" else None)
        m.op("MEAN", [x, a], [y], ("ReducerOptions", {"keep_dims": keep}),
             version=2 if t == "i8" else 1)
    return build


def concat(t="i8", shapes=((1, 3, 4, 2), (1, 3, 4, 3)), axis=-1):
    def build(m):
        q = act_q(m) if t == "i8" else None
        xs = [m.input(list(s), t, q) for s in shapes]
        rank = len(shapes[0])
        ax = axis % rank
        out = list(shapes[0])
        out[ax] = sum(s[ax] for s in shapes)
        y = m.output(out, t, q)
        m.op("CONCATENATION", xs, [y], ("ConcatenationOptions", {"axis": axis}),
             version=2 if t == "i8" else 1)
    return build


def transpose(t="i8", shape=(2, 3, 4), perm=(2, 0, 1)):
    def build(m):
        q = act_q(m) if t == "i8" else None
        x = m.input(list(shape), t, q)
        p = m.const_i32(list(perm))
        y = m.output([shape[i] for i in perm], t, q)
        m.op("TRANSPOSE", [x, p], [y], ("TransposeOptions", {}),
             version=2 if t == "i8" else 1)
    return build


def reshape_like(name, t="i8", shape=(1, 3, 1, 4), out=(3, 4), dims=None):
    def build(m):
        q = act_q(m) if t == "i8" else None
        x = m.input(list(shape), t, q)
        ins = [x]
        options = None
        if name == "SQUEEZE":
            options = ("SqueezeOptions", {"squeeze_dims": list(dims)}) if dims else \
                ("SqueezeOptions", {})
        elif name == "EXPAND_DIMS":
            ins.append(m.const_i32([dims]))
            options = ("ExpandDimsOptions", {})
        else:
            ins.append(m.const_i32(list(out)))
            options = ("ReshapeOptions", {"new_shape": list(out)})
        y = m.output(list(out), t, q)
        m.op(name, ins, [y], options)
    return build


def pad(name="PAD", t="i8", shape=(1, 3, 4, 2), paddings=((0, 0), (1, 2), (2, 0), (0, 1)),
        value=None):
    def build(m):
        q = act_q(m) if t == "i8" else None
        x = m.input(list(shape), t, q)
        flat = [v for p in paddings for v in p]
        p = m.const_i32(flat, [len(shape), 2])
        ins = [x, p]
        if value is not None:
            ins.append(m.tensor([1], t, q, [value]))
        out = [n + a + b for n, (a, b) in zip(shape, paddings)]
        y = m.output(out, t, q)
        m.op(name, ins, [y], ("PadV2Options" if name == "PADV2" else "PadOptions", {}),
             version=2 if t == "i8" else 1)
    return build


def strided_slice(t="i8", shape=(1, 7, 8, 3), begin=(0, 0, 0, 0),
                  end=(1, 7, 8, 3), strides=(1, 2, 2, 1), begin_mask=0,
                  end_mask=0, shrink=0):
    def build(m):
        q = act_q(m) if t == "i8" else None
        x = m.input(list(shape), t, q)
        b = m.const_i32(list(begin))
        e = m.const_i32(list(end))
        s = m.const_i32(list(strides))
        out = []
        for d, dim in enumerate(shape):
            st = strides[d]
            lo = begin[d] + (dim if begin[d] < 0 else 0)
            lo = min(max(lo, 0), dim) if st > 0 else min(max(lo, -1), dim - 1)
            if begin_mask & (1 << d):
                lo = 0 if st > 0 else dim - 1
            if shrink & (1 << d):
                continue
            hi = end[d] + (dim if end[d] < 0 else 0)
            hi = min(max(hi, 0), dim) if st > 0 else min(max(hi, -1), dim - 1)
            if end_mask & (1 << d):
                hi = dim if st > 0 else -1
            n = (hi - lo + st - 1) // st if st > 0 else (lo - hi - st - 1) // -st
            out.append(max(0, n))
        y = m.output(out, t, q)
        m.op("STRIDED_SLICE", [x, b, e, s], [y], ("StridedSliceOptions", {
            "begin_mask": begin_mask, "end_mask": end_mask,
            "shrink_axis_mask": shrink}), version=2 if t == "i8" else 1)
    return build


def quantize(in_t, out_t, shape=(2, 3, 8)):
    def build(m):
        if in_t == "f32":
            iq = None
        elif in_t == "i16":
            iq = quant(2e-4)
        else:
            iq = act_q(m)
        if out_t == "i16":
            oq = quant(1.5e-4)
        else:
            oq = act_q(m)
        low, high = (-2.5, 2.5) if in_t == "f32" else (None, None)
        x = m.input(list(shape), in_t, iq, low, high)
        y = m.output(list(shape), out_t, oq)
        m.op("QUANTIZE", [x], [y], ("QuantizeOptions", {}), version=2)
    return build


def dequantize(in_t, shape=(2, 3, 8)):
    def build(m):
        iq = act_q(m) if in_t == "i8" else quant(2e-4)
        x = m.input(list(shape), in_t, iq)
        y = m.output(list(shape), "f32")
        m.op("DEQUANTIZE", [x], [y], ("DequantizeOptions", {}), version=2)
    return build


def lstm(t="i8", batch=1, steps=5, n_in=6, units=4, time_major=False,
         clip=0.0, cell_power=-11, hidden_zp=5, state_input=False):
    """UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite's converter writes it: 24
    inputs (peephole, projection and layer norm absent), the hidden and
    cell states variable tensors, five intermediates (scaleless but the
    effective hidden scale), TANH on the cell gate. Integer models are
    8x8_16 (t="i8") or 16x8 (t="i16"), weights per tensor."""
    def build(m):
        np, rs = m.np, m.rs
        shape = [steps, batch, n_in] if time_major else [batch, steps, n_in]
        out_shape = [steps, batch, units] if time_major else [batch, steps, units]
        opts = ("UnidirectionalSequenceLSTMOptions",
                {"fused_activation_function": "TANH", "cell_clip": clip,
                 "time_major": time_major})
        ins = [-1] * 24
        inter = []
        if t == "f32":
            ins[0] = m.input(shape, "f32")
            for k in range(1, 5):
                ins[k] = m.tensor([units, n_in], "f32",
                                  data=rs.normal(0, 0.5, size=(units, n_in)))
            for k in range(5, 9):
                ins[k] = m.tensor([units, units], "f32",
                                  data=rs.normal(0, 0.5, size=(units, units)))
            for k in range(12, 16):
                ins[k] = m.tensor([units], "f32",
                                  data=rs.normal(0, 0.5, size=units) + (1.0 if k == 13 else 0))
            for k in (18, 19):
                ins[k] = m.tensor([batch, units], "f32", variable=True)
            y = m.output(out_shape, "f32")
        else:
            is8 = t == "i8"
            in_q = act_q(m) if is8 else quant(float(rs.uniform(2e-4, 5e-4)))
            h_q = quant(1 / 128, hidden_zp) if is8 else quant(1 / 32768)
            ins[0] = m.input(shape, t, in_q)
            w_q = {}
            for k in range(1, 9):
                cols = n_in if k < 5 else units
                w_q[k] = float(rs.uniform(0.005, 0.03))
                ins[k] = m.tensor([units, cols], "i8", quant(w_q[k]),
                                  rs.randint(-127, 128, size=(units, cols)))
            for k in range(12, 16):
                bs = in_q["scale"][0] * w_q[k - 11]
                ins[k] = m.tensor([units], "i32" if is8 else "i64", quant(bs),
                                  rs.randint(-800, 800, size=units) * (1 if is8 else 30))
            ins[18] = m.tensor([batch, units], t, h_q, variable=True)
            ins[19] = m.tensor([batch, units], "i16", quant(2.0 ** cell_power),
                               variable=True)
            y = m.output(out_shape, t, h_q)
            for g in ("input", "forget", "cell", "output"):
                inter.append(m.tensor([0], "i16"))
                m.tensors[-1]["name"] = f"input_to_{g}_intermediate"
                m.tensors[-1]["shape"] = []
            inter.append(m.tensor([], t, h_q))
            m.tensors[-1]["name"] = "effective_hidden_scale_intermediate"
        if state_input:
            # The states as subgraph inputs instead of variables.
            for k in (18, 19):
                m.tensors[ins[k]].pop("is_variable", None)
                m.inputs.append(ins[k])
                lim = {"f32": (-1.0, 1.0), "i8": (-100, 100),
                       "i16": (-3000, 3000)}
                m.ranges[ins[k]] = lim[m_elt(m, ins[k])]
        m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y], opts, version=1,
             intermediates=inter)
    return build


def m_elt(m, k):
    return {v: kk for kk, v in TFL_TYPES.items()}[m.tensors[k]["type"]]


def i16_q(scale):
    return lambda m, iq=None: quant(scale)


CASES = [
    # Convolutions.
    ("conv2d_i8_same", conv2d()),
    ("conv2d_i8_valid", conv2d(padding="VALID")),
    ("conv2d_i8_batch2_stride2", conv2d(n=2, stride=2, act="RELU")),
    ("conv2d_i8_stride2_valid_remainder", conv2d(padding="VALID", stride=2, hw=(8, 10))),
    ("conv2d_i8_stride2_same", conv2d(stride=2)),
    ("conv2d_i8_stride2_same_even", conv2d(stride=2, hw=(8, 8))),
    ("conv2d_i8_dilation2_same", conv2d(dilation=2)),
    ("conv2d_i8_dilation2_valid", conv2d(dilation=2, padding="VALID")),
    ("conv2d_i8_relu", conv2d(act="RELU")),
    ("conv2d_i8_relu6", conv2d(act="RELU6")),
    ("conv2d_i8_relu_n1_to_1", conv2d(act="RELU_N1_TO_1")),
    ("conv2d_i8_1x1_nobias", conv2d(k=1, bias=False)),
    ("conv2d_f32_same", conv2d(t="f32")),
    ("conv2d_f32_stride2_dilation2", conv2d(t="f32", stride=2, dilation=2, act="RELU6")),
    ("dwconv_i8_same", depthwise()),
    ("dwconv_i8_mult2", depthwise(mult=2)),
    ("dwconv_i8_batch2_mult2", depthwise(n=2, mult=2, stride=2)),
    ("dwconv_i8_mult3_valid", depthwise(mult=3, padding="VALID", cin=2)),
    ("dwconv_i8_dilation2", depthwise(dilation=2)),
    ("dwconv_i8_stride2_relu6", depthwise(stride=2, act="RELU6", hw=(9, 9))),
    ("dwconv_i8_stride2_dilation2", depthwise(stride=2, dilation=2, hw=(10, 9))),
    ("dwconv_f32_mult2_dilation2", depthwise(t="f32", mult=2, dilation=2)),
    ("fc_i8", fully_connected()),
    ("fc_i8_per_tensor", fully_connected(per_tensor=True)),
    ("fc_i8_3d", fully_connected(in_shape=(2, 3, 16))),
    ("fc_i8_3d_keep_dims", fully_connected(in_shape=(2, 3, 16), keep=True)),
    ("fc_i8_3d_per_tensor", fully_connected(in_shape=(2, 3, 16), per_tensor=True)),
    ("fc_i8_flatten_per_tensor", fully_connected(in_shape=(1, 2, 8), depth=16, per_tensor=True)),
    ("fc_i8_relu", fully_connected(act="RELU")),
    ("fc_i8_per_tensor_relu6", fully_connected(act="RELU6", per_tensor=True)),
    ("fc_i8_per_tensor_nobias", fully_connected(per_tensor=True, bias=False)),
    ("fc_f32_3d_keep_dims", fully_connected(t="f32", in_shape=(2, 3, 16), keep=True)),
    ("tconv_i8_stride2_same", transpose_conv()),
    ("tconv_i8_stride2_valid", transpose_conv(padding="VALID")),
    ("tconv_i8_stride1_same_nobias", transpose_conv(stride=1, bias=False)),
    ("tconv_i8_stride2_same_nobias", transpose_conv(bias=False)),
    ("tconv_i8_batch2_stride2_nobias", transpose_conv(n=2, bias=False)),
    ("tconv_i8_stride2_valid_nobias", transpose_conv(bias=False, padding="VALID")),
    ("tconv_i8_stride2_same_odd", transpose_conv(bias=False, out_hw=(7, 8))),
    ("tconv_i8_stride2_same_odd_bias", transpose_conv(out_hw=(7, 7), k=4)),
    ("tconv_f32_stride2_same", transpose_conv(t="f32")),
    ("tconv_f32_stride2_valid", transpose_conv(t="f32", padding="VALID", k=2)),
    # Pooling.
    ("maxpool_i8_3x3_s2_same", pool("MAX_POOL_2D")),
    ("maxpool_i8_batch2", pool("MAX_POOL_2D", n=2)),
    ("maxpool_i8_2x2_valid", pool("MAX_POOL_2D", k=2, padding="VALID", hw=(8, 8))),
    ("maxpool_i8_2x2_valid_remainder", pool("MAX_POOL_2D", k=2, padding="VALID", hw=(7, 9))),
    ("maxpool_i8_relu6", pool("MAX_POOL_2D", act="RELU6")),
    ("maxpool_f32_3x3_s2_same", pool("MAX_POOL_2D", t="f32")),
    ("maxpool_i16_3x3_s2_same", pool("MAX_POOL_2D", t="i16")),
    ("avgpool_i8_3x3_s2_same", pool("AVERAGE_POOL_2D")),
    ("avgpool_i8_batch2", pool("AVERAGE_POOL_2D", n=2)),
    ("avgpool_i8_3x3_s1_same", pool("AVERAGE_POOL_2D", stride=1, hw=(6, 7))),
    ("avgpool_i8_2x2_valid", pool("AVERAGE_POOL_2D", k=2, padding="VALID", hw=(8, 8))),
    ("avgpool_i8_3x3_s2_valid_remainder", pool("AVERAGE_POOL_2D", padding="VALID", hw=(8, 10))),
    ("avgpool_i8_relu", pool("AVERAGE_POOL_2D", act="RELU")),
    ("avgpool_f32_3x3_s2_same", pool("AVERAGE_POOL_2D", t="f32")),
    ("avgpool_i16_3x3_s2_same", pool("AVERAGE_POOL_2D", t="i16")),
    # Elementwise.
    ("add_i8", binary("ADD")),
    ("add_i8_broadcast", binary("ADD", a=(1, 4, 4, 3), b=(3,))),
    ("add_i8_broadcast_relu", binary("ADD", a=(1, 4, 1, 3), b=(1, 1, 5, 3), act="RELU")),
    ("add_i8_relu6", binary("ADD", act="RELU6")),
    ("add_i8_const_broadcast", binary("ADD", b=(1, 1, 4, 3), const=True)),
    ("add_i16", binary("ADD", t="i16")),
    ("add_f32_broadcast_relu6", binary("ADD", t="f32", b=(1, 1, 1, 3), act="RELU6")),
    ("sub_i8_broadcast", binary("SUB", b=(1, 4, 1, 1))),
    ("sub_i8_relu", binary("SUB", act="RELU")),
    ("sub_i16_broadcast", binary("SUB", t="i16", b=(1, 1, 4, 3))),
    ("sub_f32_broadcast", binary("SUB", t="f32", a=(4, 1), b=(1, 4, 4, 3))),
    ("mul_i8", binary("MUL")),
    ("mul_i8_broadcast_relu", binary("MUL", b=(1, 1, 1, 3), act="RELU")),
    ("mul_i8_relu6", binary("MUL", act="RELU6")),
    ("mul_i16", binary("MUL", t="i16")),
    ("mul_f32_broadcast", binary("MUL", t="f32", b=(3,))),
    ("logistic_i8", unary("LOGISTIC", in_q=lambda m: act_q(m, 0.06),
                          out_q=quant(1 / 256, -128))),
    ("logistic_f32", unary("LOGISTIC", t="f32", low=-8.0, high=8.0)),
    ("tanh_i8", unary("TANH", in_q=lambda m: act_q(m, 0.03), out_q=quant(1 / 128, 0))),
    ("tanh_f32", unary("TANH", t="f32", low=-4.0, high=4.0)),
    ("logistic_i16", unary("LOGISTIC", t="i16", in_q=quant(2 ** -12), out_q=quant(2 ** -15))),
    ("tanh_i16", unary("TANH", t="i16", in_q=quant(2 ** -12), out_q=quant(2 ** -15))),
    # Every input byte (every int16 value) through TFLM's kernels, at
    # scales from well inside the kernels' input radius to saturation.
    *[(f"logistic_i8_all_s{sc}", unary("LOGISTIC", shape=(4, 64), exhaustive=True,
                                       in_q=lambda m, sc=sc: act_q(m, sc),
                                       out_q=quant(1 / 256, -128)))
      for sc in (0.01, 0.06, 0.2, 1.5)],
    *[(f"tanh_i8_all_s{sc}", unary("TANH", shape=(4, 64), exhaustive=True,
                                   in_q=lambda m, sc=sc: act_q(m, sc),
                                   out_q=quant(1 / 128, 0)))
      for sc in (0.005, 0.03, 0.1, 0.8)],
    *[(f"{op.lower()}_i16_all_s{sc:g}", unary(op, t="i16", shape=(256, 256), exhaustive=True,
                                              in_q=quant(sc), out_q=quant(2 ** -15)))
      for op in ("LOGISTIC", "TANH") for sc in (2 ** -12, 2 ** -11, 3e-4, 1e-5)],
    ("relu_i8", unary("RELU", out_q=lambda m, iq: quant(0.02, -128))),
    ("relu_i8_same_q", unary("RELU", out_q=same_q)),
    ("relu_f32", unary("RELU", t="f32")),
    ("relu6_i8", unary("RELU6", in_q=lambda m: act_q(m, 0.05),
                       out_q=lambda m, iq: quant(6 / 255, -128))),
    ("relu6_i8_same_q", unary("RELU6", in_q=lambda m: act_q(m, 0.05), out_q=same_q)),
    ("relu6_f32", unary("RELU6", t="f32", low=-8.0, high=8.0)),
    ("relu_n1_to_1_i8", unary("RELU_N1_TO_1", out_q=lambda m, iq: quant(1 / 128, 0))),
    ("relu_n1_to_1_f32", unary("RELU_N1_TO_1", t="f32")),
    ("leaky_relu_i8", unary("LEAKY_RELU", options=("LeakyReluOptions", {"alpha": 0.2}))),
    ("leaky_relu_i8_alpha0.01", unary("LEAKY_RELU", options=("LeakyReluOptions", {"alpha": 0.01}))),
    ("leaky_relu_i8_alpha1.5", unary("LEAKY_RELU", options=("LeakyReluOptions", {"alpha": 1.5}))),
    ("leaky_relu_f32", unary("LEAKY_RELU", t="f32", options=("LeakyReluOptions", {"alpha": 0.2}))),
    ("softmax_i8", softmax()),
    ("softmax_i8_beta0.5", softmax(beta=0.5)),
    ("softmax_i8_to_i16", softmax(out_t="i16")),
    ("softmax_f32_beta2", softmax(t="f32", out_t="f32", beta=2.0)),
    # int16 rows whose differences stay within the [-10, 0] of the kernel's
    # exp table (beyond, the kernel counts exp(-10) for each element).
    ("softmax_i16", softmax(t="i16", out_t="i16", low=-16000, high=16000)),
    # Rows holding every byte: each difference 0..255 to the row's maximum.
    ("softmax_i8_all", softmax(shape=(2, 256), exhaustive=True)),
    ("softmax_i8_all_s0.3", softmax(shape=(2, 256), exhaustive=True, scale=0.3)),
    ("softmax_i8_all_to_i16", softmax(out_t="i16", shape=(2, 256), exhaustive=True, scale=0.02)),
    ("softmax_i8_s0.15_beta2", softmax(beta=2.0, shape=(3, 12), scale=0.15)),
    ("softmax_i8_4d", softmax(shape=(1, 2, 3, 12), scale=0.07)),
    ("softmax_i16_s1e-3_beta0.7", softmax(t="i16", out_t="i16", beta=0.7, shape=(3, 16), scale=1e-3,
                                          low=-7000, high=7000)),
    ("softmax_i16_s2e-5", softmax(t="i16", out_t="i16", shape=(2, 40), scale=2e-5)),
    ("quantize_f32_to_i8", quantize("f32", "i8")),
    ("quantize_f32_to_i16", quantize("f32", "i16")),
    ("quantize_i8_to_i8", quantize("i8", "i8")),
    ("quantize_i16_to_i8", quantize("i16", "i8")),
    ("quantize_i8_to_i16", quantize("i8", "i16")),
    ("dequantize_i8", dequantize("i8")),
    ("dequantize_i16", dequantize("i16")),
    # Reductions and data movement.
    ("mean_i8_hw_keep", mean()),
    ("mean_i8_c", mean(axes=(3,), keep=False)),
    ("mean_i8_3d_axis1", mean(shape=(2, 5, 6), axes=(1,), keep=False)),
    ("mean_i8_hwc_7x7", mean(shape=(1, 7, 7, 3), axes=(1, 2))),
    ("mean_f32_hw_keep", mean(t="f32")),
    ("mean_i16_hw_keep", mean(t="i16")),
    ("concat_i8_axis3", concat()),
    ("concat_i8_axis1_three", concat(shapes=((1, 2, 4, 2), (1, 3, 4, 2), (1, 1, 4, 2)), axis=1)),
    ("concat_f32_axis0", concat(t="f32", shapes=((2, 5), (3, 5)), axis=0)),
    ("transpose_i8", transpose()),
    ("transpose_f32_4d", transpose(t="f32", shape=(1, 2, 3, 4), perm=(0, 3, 1, 2))),
    ("squeeze_i8", reshape_like("SQUEEZE", dims=[0, 2])),
    ("squeeze_f32_all", reshape_like("SQUEEZE", t="f32")),
    ("expand_dims_i8", reshape_like("EXPAND_DIMS", shape=(3, 4), out=(3, 1, 4), dims=1)),
    ("expand_dims_f32_neg", reshape_like("EXPAND_DIMS", t="f32", shape=(3, 4), out=(3, 4, 1), dims=-1)),
    ("reshape_i8", reshape_like("RESHAPE", shape=(1, 3, 4, 2), out=(6, 4))),
    ("pad_i8", pad()),
    ("pad_f32", pad(t="f32")),
    ("padv2_i8", pad("PADV2", value=-100)),
    ("padv2_f32", pad("PADV2", t="f32", value=1.5)),
    ("strided_slice_i8_stride2", strided_slice()),
    ("strided_slice_i8_stride3_offset", strided_slice(begin=(0, 1, 2, 0), end=(1, 7, 8, 3), strides=(1, 3, 3, 2))),
    ("strided_slice_i8_negative", strided_slice(begin=(0, -1, 6, 2), end=(1, 0, 0, 0), strides=(1, -1, -2, -1), end_mask=1)),
    ("strided_slice_i8_negative_masks", strided_slice(begin=(0, 0, 0, 0), end=(1, 0, 0, 0), strides=(1, -2, -3, 1), begin_mask=15, end_mask=15)),
    ("strided_slice_i8_shrink", strided_slice(begin=(0, 2, 1, 0), end=(1, 3, 8, 3), strides=(1, 1, 2, 1), shrink=3)),
    ("strided_slice_f32_negative", strided_slice(t="f32", shape=(6, 5), begin=(5, 4), end=(-7, 0), strides=(-2, -1))),
    # Recurrent (TFLite Micro's LSTM kernel: numpy transcription, Arm NN
    # where it takes the model).
    ("lstm_f32", lstm(t="f32")),
    ("lstm_f32_time_major_batch2", lstm(t="f32", batch=2, steps=4, time_major=True, clip=3.0)),
    ("lstm_f32_batch3_clip", lstm(t="f32", batch=3, steps=3, n_in=5, units=7, clip=1.5)),
    ("lstm_i8", lstm()),
    ("lstm_i8_time_major_batch2_clip", lstm(batch=2, steps=4, time_major=True, clip=1.0)),
    ("lstm_i8_batch2_cell2^-12", lstm(batch=2, steps=6, n_in=3, units=5, cell_power=-12, hidden_zp=-3)),
    ("lstm_i8_cell2^-15", lstm(steps=3, cell_power=-15, clip=0.5)),
    ("lstm_i8_state_inputs", lstm(steps=3, state_input=True)),
    ("lstm_i16", lstm(t="i16", steps=4)),
    ("lstm_i16_time_major_batch2", lstm(t="i16", batch=2, steps=3, time_major=True, clip=2.0)),
]


# --- numpy transcriptions of TFLite's kernels ---------------------------------
#
# For the models that Arm NN rejects, or where it deviates from TFLite's
# kernel: the integer arithmetic of tensorflow/lite/kernels/internal/
# reference (MultiplyByQuantizedMultiplier with double rounding,
# QuantizeMultiplier, CalculateActivationRangeQuantized), in int64.

# Operators whose only reference is the transcription of TFLite Micro's
# kernel (EXACT_REFS, bit for bit for integer outputs), Arm NN's difference
# reported beside it.
NUMPY_FIRST = {
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "TFLite Micro's lstm_eval in numpy",
}

# Arm NN's known deviations from TFLite, by case: the reference is numpy.
ARMNN_DEVIATES = {
    "pad_i8": "Arm NN pads int8 with 0, TFLite (pad.cc) with the output zero point",
    # Arm NN's result is the first 7 rows of TFLite's for an 8-row output.
    "tconv_i8_stride2_same_odd": "Arm NN pads SAME as if the output were "
    "input x stride, TFLite from the output shape",
}


def tfl_round(np, x):
    """Round half away from zero (TfLiteRound, std::round)."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def mbqm(np, x, mult, shift):
    """MultiplyByQuantizedMultiplier(int32 x, mult, shift), elementwise;
    mult and shift may be arrays broadcasting over x."""
    x = np.asarray(x, dtype=np.int64)
    mult = np.asarray(mult, dtype=np.int64)
    shift = np.asarray(shift, dtype=np.int64)
    left = np.maximum(shift, 0)
    right = np.maximum(-shift, 0)
    x = np.clip(x * (np.int64(1) << left), -2 ** 31, 2 ** 31 - 1)
    ab = x * mult
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    v = ab + nudge
    d = np.int64(1) << 31
    hi = np.where(v >= 0, v // d, -((-v) // d))
    hi = np.where((x == -2 ** 31) & (mult == -2 ** 31), 2 ** 31 - 1, hi)
    mask = (np.int64(1) << right) - 1
    rem = hi & mask
    threshold = (mask >> 1) + (hi < 0)
    return (hi >> right) + (rem > threshold)


def act_range(np, act, scale, zp, elt):
    lo, hi = {"i8": (-128, 127), "i16": (-32768, 32767)}[elt]
    s = np.float32(scale)

    def q(f):
        return zp + int(tfl_round(np, np.float32(f) / s))
    if act in ("RELU", "RELU6", "RELU_N1_TO_1"):
        lo = max(lo, q(-1.0 if act == "RELU_N1_TO_1" else 0.0))
    if act == "RELU6":
        hi = min(hi, q(6.0))
    if act == "RELU_N1_TO_1":
        hi = min(hi, q(1.0))
    return lo, hi


def float_act(np, y, act):
    if act == "RELU":
        return np.maximum(y, 0)
    if act == "RELU6":
        return np.clip(y, 0, 6)
    if act == "RELU_N1_TO_1":
        return np.clip(y, -1, 1)
    return y


class Ref:
    """One model's tensors as numpy sees them."""

    def __init__(self, np, m):
        self.np, self.m = np, m

    def elt(self, k):
        return {v: kk for kk, v in TFL_TYPES.items()}[self.m.tensors[k]["type"]]

    def data(self, k):
        t = self.m.tensors[k]
        raw = bytes(self.m.buffers[t["buffer"]]["data"])
        return self.np.frombuffer(raw, dtype=NP_TYPES[self.elt(k)]).reshape(t["shape"])

    def q(self, k):
        qq = self.m.tensors[k].get("quantization") or {}
        scales = [float(self.np.float32(s)) for s in qq.get("scale", [])]
        return scales, qq.get("zero_point", [])

    def requantize(self, acc, k_in, k_w, k_out, act, channel_axis=-1):
        """acc (int64, output channels last) to the output: per-channel
        multipliers from double scales, MBQM, zero point, activation clamp."""
        np = self.np
        in_s = self.q(k_in)[0][0]
        w_s = self.q(k_w)[0]
        out_s, out_zp = self.q(k_out)
        c = acc.shape[-1]
        ws = w_s if len(w_s) == c else w_s * c
        mults, shifts = zip(*[quantize_multiplier(in_s * s / out_s[0]) for s in ws])
        y = mbqm(np, acc, np.array(mults), np.array(shifts)) + out_zp[0]
        lo, hi = act_range(np, act, out_s[0], out_zp[0], self.elt(k_out))
        return np.clip(y, lo, hi)


def ref_conv(np, r, op, xs):
    """CONV_2D (and FULLY_CONNECTED as a 1x1 one), int8 or float."""
    opts = op.get("builtin_options", {})
    ins = op["inputs"]
    x = xs[0]
    w = r.data(ins[1])
    quantized = r.elt(ins[0]) == "i8"
    zp = r.q(ins[0])[1][0] if quantized else 0
    sh, sw = opts.get("stride_h", 1), opts.get("stride_w", 1)
    dh, dw = opts.get("dilation_h_factor", 1), opts.get("dilation_w_factor", 1)
    out_shape = r.m.tensors[op["outputs"][0]]["shape"]
    oh, ow = out_shape[1], out_shape[2]
    n, ih, iw, _ = x.shape
    cout, kh, kw, _ = w.shape
    pt = pl = 0
    if opts.get("padding", "SAME") == "SAME":
        pt = max(0, ((oh - 1) * sh + (kh - 1) * dh + 1 - ih)) // 2
        pl = max(0, ((ow - 1) * sw + (kw - 1) * dw + 1 - iw)) // 2
    big = np.full((n, ih + 2 * pt + kh * dh + oh * sh, iw + 2 * pl + kw * dw + ow * sw,
                   x.shape[3]), zp, dtype=np.int64 if quantized else np.float64)
    big[:, pt:pt + ih, pl:pl + iw, :] = x
    xc = big - zp if quantized else big
    acc = np.zeros((n, oh, ow, cout), dtype=np.int64 if quantized else np.float64)
    wq = w.astype(np.int64 if quantized else np.float64)
    for fy in range(kh):
        for fx in range(kw):
            patch = xc[:, fy * dh:fy * dh + oh * sh:sh, fx * dw:fx * dw + ow * sw:sw, :]
            acc += patch @ wq[:, fy, fx, :].T
    if len(ins) > 2 and ins[2] >= 0:
        acc = acc + r.data(ins[2])
    act = opts.get("fused_activation_function", "NONE")
    if not quantized:
        return float_act(np, acc, act)
    return r.requantize(acc, ins[0], ins[1], op["outputs"][0], act)


def ref_fully_connected(np, r, op, xs):
    ins = op["inputs"]
    w = r.data(ins[1])
    x = xs[0].reshape(1, -1, 1, w.shape[1])
    fake = dict(op, builtin_options={"padding": "VALID",
                                     "fused_activation_function":
                                     op.get("builtin_options", {}).get(
                                         "fused_activation_function", "NONE")})
    saved = r.m.tensors[ins[1]]["shape"]
    out_k = op["outputs"][0]
    saved_out = r.m.tensors[out_k]["shape"]
    r.m.tensors[out_k] = dict(r.m.tensors[out_k], shape=[1, x.shape[1], 1, w.shape[0]])
    orig_data = r.data

    def data4(k):
        d = orig_data(k)
        return d.reshape(d.shape[0], 1, 1, d.shape[1]) if k == ins[1] else d
    r.data = data4
    try:
        y = ref_conv(np, r, fake, [x])
    finally:
        r.data = orig_data
        r.m.tensors[out_k] = dict(r.m.tensors[out_k], shape=saved_out)
    del saved
    return y.reshape(saved_out)


def ref_transpose_conv(np, r, op, xs):
    opts = op.get("builtin_options", {})
    ins = op["inputs"]
    x, w = xs[0], r.data(ins[1])
    quantized = r.elt(ins[2]) == "i8"
    zp = r.q(ins[2])[1][0] if quantized else 0
    sh, sw = opts.get("stride_h", 1), opts.get("stride_w", 1)
    out_shape = r.m.tensors[op["outputs"][0]]["shape"]
    n, oh, ow, cout = out_shape
    _, ih, iw, _ = x.shape
    _, kh, kw, _ = w.shape
    pt = pl = 0
    if opts.get("padding", "SAME") == "SAME":
        pt = max(0, (((oh + sh - 1) // sh) - 1) * sh + kh - oh) // 2
        pl = max(0, (((ow + sw - 1) // sw) - 1) * sw + kw - ow) // 2
    dt = np.int64 if quantized else np.float64
    scratch = np.zeros((n, ih * sh + kh + oh, iw * sw + kw + ow, cout), dtype=dt)
    xc = x.astype(dt) - zp
    wq = w.astype(dt)
    for fy in range(kh):
        for fx in range(kw):
            scratch[:, fy:fy + ih * sh:sh, fx:fx + iw * sw:sw, :] += xc @ wq[:, fy, fx, :].T
    acc = scratch[:, pt:pt + oh, pl:pl + ow, :]
    if len(ins) > 3 and ins[3] >= 0:
        acc = acc + r.data(ins[3])
    act = opts.get("fused_activation_function", "NONE")
    if not quantized:
        return float_act(np, acc, act)
    return r.requantize(acc, ins[2], ins[1], op["outputs"][0], act)


def ref_pad(np, r, op, xs):
    ins = op["inputs"]
    p = r.data(ins[1]).reshape(-1, 2)
    elt = r.elt(ins[0])
    if len(ins) > 2:
        value = r.data(ins[2]).reshape(-1)[0]
    elif elt == "i8":
        value = r.q(op["outputs"][0])[1][0]
    else:
        value = 0
    return np.pad(xs[0], [tuple(v) for v in p], constant_values=value)


def ref_reshape(np, r, op, xs):
    return xs[0].reshape(r.m.tensors[op["outputs"][0]]["shape"])


def ref_relu_n1_to_1(np, r, op, xs):
    ins, out = op["inputs"], op["outputs"][0]
    if r.elt(ins[0]) == "f32":
        return np.clip(xs[0], -1, 1)
    (in_s,), (in_zp,) = r.q(ins[0])
    (out_s,), (out_zp,) = r.q(out)
    # ReluPrepare: the multiplier from a float division.
    m, s = quantize_multiplier(float(np.float32(in_s) / np.float32(out_s)))
    y = mbqm(np, xs[0].astype(np.int64) - in_zp, m, s) + out_zp
    lo, hi = act_range(np, "RELU_N1_TO_1", out_s, out_zp, r.elt(out))
    return np.clip(y, lo, hi)


def ref_softmax_float(np, r, op, xs):
    """Softmax in float between dequantize and quantize (what Arm NN
    computes; TFLite's gemmlowp kernel is within 1 LSB of it)."""
    ins, out = op["inputs"], op["outputs"][0]
    beta = op.get("builtin_options", {}).get("beta", 1.0)
    (in_s,), (in_zp,) = r.q(ins[0])
    x = (xs[0].astype(np.float64) - in_zp) * in_s
    e = np.exp(beta * (x - x.max(axis=-1, keepdims=True)))
    y = e / e.sum(axis=-1, keepdims=True)
    (out_s,), (out_zp,) = r.q(out)
    lo, hi = {"i8": (-128, 127), "i16": (-32768, 32767)}[r.elt(out)]
    return np.clip(tfl_round(np, y / out_s) + out_zp, lo, hi)


def ref_lstm(np, r, op, xs):
    import lstm_ref
    state = None
    if len(xs) > 1:  # the states as subgraph inputs
        state = xs[1:3]
    y, _ = lstm_ref.lstm(np, r, op, xs[0], state)
    return y


def ref_tflm_nonlinear(np, r, op, xs):
    """LOGISTIC, TANH and SOFTMAX on quantized tensors: TFLite Micro's
    reference kernels (bench/tflite/tflm_nonlinear.py), or None for float."""
    import tflm_nonlinear as T
    ins, out = op["inputs"], op["outputs"][0]
    elt, out_elt = r.elt(ins[0]), r.elt(out)
    if elt == "f32":
        return None
    (in_s,), (in_zp,) = r.q(ins[0])
    name = {v: k for k, v in CODES.items()}[r.m.code["builtin_code"]]
    if name == "SOFTMAX":
        beta = op.get("builtin_options", {}).get("beta", 1.0)
        if elt == "i8":
            return T.softmax_int8(xs[0], in_s, beta, 16 if out_elt == "i16" else 8)
        return T.softmax_int16(xs[0], in_s, beta)
    if elt == "i8":
        return T.activation_int8(xs[0], in_s, in_zp, name == "TANH")
    return T.activation_int16(xs[0], in_s, name == "TANH")


# Quantized operators whose reference is the transcription of TFLite
# Micro's kernel, exactly (0 LSB); Arm NN, or where it rejects the model the
# float computation, stays a cross-check within QUANT_LSB.
EXACT_REFS = {"LOGISTIC": ref_tflm_nonlinear, "TANH": ref_tflm_nonlinear,
              "SOFTMAX": ref_tflm_nonlinear,
              "UNIDIRECTIONAL_SEQUENCE_LSTM": ref_lstm}


# The cross-check's tolerance where TFLite Micro's kernel itself is further
# from float than 1 LSB: its own tests allow 16 LSB for int16 TANH
# (tanh_test.cc, TestTanhInt16WideRange; its interpolated sigmoid table
# also serves LOGISTIC) and 7 LSB for int16 SOFTMAX (softmax_test.cc).
CROSS_LSB = {("LOGISTIC", "i16"): 16, ("TANH", "i16"): 16, ("SOFTMAX", "i16"): 7}


def exact_reference(np, m, samples):
    """Per sample, per output: TFLM's values, or None (not such an operator,
    or float)."""
    name = {v: k for k, v in CODES.items()}[m.code["builtin_code"]]
    fn = EXACT_REFS.get(name)
    if fn is None:
        return None
    r = Ref(np, m)
    outs = [fn(np, r, m.op_json, s) for s in samples]
    if any(o is None for o in outs):
        return None
    return [[o.reshape(-1).tolist()] for o in outs]


NUMPY_REFS = {"CONV_2D": ref_conv, "FULLY_CONNECTED": ref_fully_connected,
              "TRANSPOSE_CONV": ref_transpose_conv, "PAD": ref_pad,
              "PADV2": ref_pad, "EXPAND_DIMS": ref_reshape,
              "RELU_N1_TO_1": ref_relu_n1_to_1, "SOFTMAX": ref_softmax_float}


def numpy_reference(np, m, samples):
    """Per sample, per output: the values, or None without a transcription."""
    name = {v: k for k, v in CODES.items()}[m.code["builtin_code"]]
    fn = NUMPY_REFS.get(name)
    if fn is None:
        return None
    r = Ref(np, m)
    return [[fn(np, r, m.op_json, s).reshape(-1).tolist()] for s in samples]


def build_model(np, name, builder, seed, work):
    """Writes <work>/<name>.tflite; returns (path, Model)."""
    rs = np.random.RandomState(int(hashlib.sha256(f"{seed}:{name}".encode())
                                   .hexdigest()[:8], 16))
    m = Model(np, rs)
    builder(m)
    js = os.path.join(work, name + ".json")
    with open(js, "w") as f:
        json.dump(m.json(), f)
    run(["flatc", "-b", "-o", work, SCHEMA, js], what="flatc")
    bin_ = os.path.join(work, name + ".bin")
    path = os.path.join(work, name + ".tflite")
    os.replace(bin_, path)
    return path, m


def make_inputs(np, m, count, seed, name):
    """Per sample, per input: a contiguous numpy array."""
    rs = np.random.RandomState(int(hashlib.sha256(f"inputs:{seed}:{name}".encode())
                                   .hexdigest()[:8], 16))
    samples = []
    for _ in range(count):
        sample = []
        for k in m.inputs:
            t = m.tensors[k]
            elt = {v: kk for kk, v in TFL_TYPES.items()}[t["type"]]
            lo, hi = m.ranges[k]
            if k in m.exhaustive:
                values = np.arange(lo, hi + 1)
                reps = -(-int(np.prod(t["shape"])) // values.size)
                x = np.concatenate([rs.permutation(values) for _ in range(reps)])
                x = x[:int(np.prod(t["shape"]))].reshape(t["shape"]).astype(NP_TYPES[elt])
            elif elt == "f32":
                x = rs.uniform(lo, hi, size=t["shape"]).astype("<f4")
            else:
                x = rs.randint(lo, hi + 1, size=t["shape"]).astype(NP_TYPES[elt])
            sample.append(np.ascontiguousarray(x))
        samples.append(sample)
    return samples


# --- Arm NN (one model per /usr/bin/python3 process) ------------------------

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


# --- helia ---------------------------------------------------------------------

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
        """The planned harness as an mps3-an547 image on QEMU (run.py's)."""
        args = argparse.Namespace(build=os.path.dirname(os.path.dirname(self.opt)),
                                  translate=self.translate, imported=None,
                                  timeout=self.timeout, pipeline_options="")
        return run_py.Tools(args).firmware(harness_path, work, heap)

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


def one(args, tools, np, name, builder, armnn, tmp):
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
        if exact is not None:
            cross, cross_source = want, source
            want, source = exact, "numpy TFLM"
        row["reference"] = source or "none"
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
        if want is not None:
            cells = []
            for i, (shape, elt) in enumerate(results):
                def compare(reference, tolerance):
                    worst, text_, within = (0, "", True)
                    for j in range(len(samples)):
                        g = outs["planned"][j * len(results) + i]
                        if elt == "f32":
                            g = [as_float(v) for v in g]
                        w_, t_, in_ = difference(g, reference[j][i], elt)
                        if w_ >= worst:
                            worst, text_ = w_, t_
                        within = within and (in_ if elt == "f32" else w_ <= tolerance)
                    return text_ + ("" if within else " OVER"), within
                if exact is None:
                    text_, within = compare(want, QUANT_LSB)
                else:
                    # Exact against TFLM; the cross-check within 1 LSB.
                    text_, within = compare(want, 0)
                    if cross is None and row["op"] == "SOFTMAX":
                        cross = numpy_reference(np, m, samples)
                        cross_source = "numpy float"
                    if cross is not None:
                        in_elt = {v: kk for kk, v in TFL_TYPES.items()}[
                            m.tensors[m.inputs[0]]["type"]]
                        ct, cw = compare(cross, CROSS_LSB.get((row["op"], in_elt), QUANT_LSB))
                        text_ += f" (cross-check {cross_source}: {ct})"
                        within = within and cw
                cells.append(text_)
                ok = ok and within
            row["armnn"] = ", ".join(cells)
            if armnn_want is not None:
                worst = 0
                for j in range(len(samples)):
                    for i, (shape, elt) in enumerate(results):
                        g = outs["planned"][j * len(results) + i]
                        if elt == "f32":
                            g = [as_float(v) for v in g]
                        worst = max(worst, difference(g, armnn_want[j][i], elt)[0])
                unit = "rel" if results[0][1] == "f32" else "LSB"
                row["note"] += f"; Arm NN: {worst:.1e} {unit}" if unit == "rel" \
                    else f"; Arm NN: {worst} LSB"
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


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--armnn-worker":
        return armnn_worker(sys.argv[2], sys.argv[3])
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
    args = ap.parse_args()
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
    tools = Tools(args)
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
    passed = failed = dropped = 0
    t0 = time.time()
    try:
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
    finally:
        if ctx:
            ctx.cleanup()
    note = f"; {dropped} rejected by Arm NN, checked planned == plain only" if dropped else ""
    print(f"({time.time() - t0:.0f} s{note})")
    print(f"{passed} passed, {failed} failed")
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
