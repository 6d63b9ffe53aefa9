"""The single-operator models of ops.py: a Model (tensors, buffers, one
operator, its flatc JSON), TFLite's types and operator codes, realistic
quantization parameters, and the model's file and random inputs."""

import hashlib
import json
import os

from toolchain import run

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(ROOT, "lib", "Target", "TFLite", "TFLiteSchema.fbs")

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


def m_elt(m, k):
    return {v: kk for kk, v in TFL_TYPES.items()}[m.tensors[k]["type"]]


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
