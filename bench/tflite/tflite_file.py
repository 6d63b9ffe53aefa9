"""Reading a .tflite flatbuffer without TFLite: the inputs and outputs of
subgraph 0 (with their quantization), and one model per operator cut out
of a network."""

import os
import struct

from toolchain import Failure


TFL_TYPES = {0: "f32", 1: "f16", 2: "i32", 3: "ui8", 4: "i64", 6: "i1",
             7: "i16", 9: "i8", 10: "f64"}


class FlatBuffer:
    def __init__(self, data):
        self.d = data

    def u32(self, p):
        return struct.unpack_from("<I", self.d, p)[0]

    def table(self, p):
        vt = p - struct.unpack_from("<i", self.d, p)[0]
        return p, vt, struct.unpack_from("<H", self.d, vt)[0]

    def field(self, t, i):
        p, vt, vsize = t
        if 4 + 2 * i >= vsize:
            return None
        off = struct.unpack_from("<H", self.d, vt + 4 + 2 * i)[0]
        return p + off if off else None

    def ref(self, t, i):
        f = self.field(t, i)
        return None if f is None else f + self.u32(f)

    def vector(self, t, i):
        v = self.ref(t, i)
        return (0, None) if v is None else (self.u32(v), v + 4)

    def tables(self, t, i):
        n, base = self.vector(t, i)
        return [self.table(base + 4 * k + self.u32(base + 4 * k))
                for k in range(n)]

    def scalars(self, t, i, fmt):
        n, base = self.vector(t, i)
        size = struct.calcsize("<" + fmt)
        return [struct.unpack_from("<" + fmt, self.d, base + size * k)[0]
                for k in range(n)]

    def string(self, t, i):
        n, base = self.vector(t, i)
        return "" if base is None else self.d[base:base + n].decode("utf-8", "replace")

    def scalar(self, t, i, fmt, default=0):
        f = self.field(t, i)
        return default if f is None else struct.unpack_from("<" + fmt, self.d, f)[0]


def tflite_io(path):
    """[(name, shape, type, scales, zero points)] of the inputs and outputs."""
    try:
        fb = FlatBuffer(open(path, "rb").read())
        model = fb.table(fb.u32(0))
        graph = fb.tables(model, 2)[0]
        tensors = fb.tables(graph, 0)

        def describe(k):
            t = tensors[k]
            q = fb.ref(t, 4)
            scale, zp = [], []
            if q is not None:
                qt = fb.table(q)
                scale, zp = fb.scalars(qt, 2, "f"), fb.scalars(qt, 3, "q")
            return {"name": fb.string(t, 3), "shape": fb.scalars(t, 0, "i"),
                    "type": TFL_TYPES.get(fb.scalar(t, 1, "b"), "?"),
                    "scale": scale, "zero_point": zp}

        return ([describe(k) for k in fb.scalars(graph, 1, "i")],
                [describe(k) for k in fb.scalars(graph, 2, "i")])
    except (struct.error, IndexError, OSError) as e:
        raise Failure(f"cannot read {os.path.basename(path)}: {e}")


# TFLite's builtin operator codes (schema.fbs), for the layer rows.
TFL_OPS = {0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D",
           4: "DEPTHWISE_CONV_2D", 6: "DEQUANTIZE", 9: "FULLY_CONNECTED",
           14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU",
           21: "RELU6", 22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 34: "PAD",
           40: "MEAN", 41: "SUB", 45: "STRIDED_SLICE", 67: "TRANSPOSE_CONV",
           98: "LEAKY_RELU", 114: "QUANTIZE"}


def single_op_models(path, outdir):
    """One .tflite per operator of subgraph 0: the same file with the
    subgraph's operators cut to that one, its inputs the operator's
    non-constant inputs and its outputs the operator's outputs (new vectors
    appended at the end of the buffer, which flatbuffers' forward offsets
    allow; the operator's table lies after the operators vector).
    Returns [(index, op name, path)]."""
    data = open(path, "rb").read()
    fb = FlatBuffer(data)
    model = fb.table(fb.u32(0))
    graph = fb.tables(model, 2)[0]
    codes = fb.tables(model, 1)
    buffers = fb.tables(model, 4)
    tensors = fb.tables(graph, 0)
    n_ops, ops_vec = fb.vector(graph, 3)
    f_inputs, f_outputs, f_ops = fb.field(graph, 1), fb.field(graph, 2), fb.field(graph, 3)
    if None in (f_inputs, f_outputs, f_ops):
        raise Failure("the subgraph has no inputs, outputs or operators")

    def constant(t):
        b = fb.scalar(tensors[t], 2, "I")
        return b < len(buffers) and fb.vector(buffers[b], 0)[0] > 0

    models = []
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    for k in range(n_ops):
        elem = ops_vec + 4 * k
        table = elem + fb.u32(elem)
        op = fb.table(table)
        code = codes[fb.scalar(op, 0, "I")]
        # builtin_code (field 3) supersedes the deprecated byte (field 0).
        opcode = max(fb.scalar(code, 0, "b"), fb.scalar(code, 3, "i"))
        ins = [t for t in fb.scalars(op, 1, "i") if t >= 0 and not constant(t)]
        outs = fb.scalars(op, 2, "i")
        out = bytearray(data)
        while len(out) % 4:
            out.append(0)

        def append_vector(values):
            pos = len(out)
            out.extend(struct.pack("<I%di" % len(values), len(values), *values))
            return pos

        vin, vout = append_vector(ins), append_vector(outs)
        struct.pack_into("<I", out, f_inputs, vin - f_inputs)
        struct.pack_into("<I", out, f_outputs, vout - f_outputs)
        ops_pos = f_ops + fb.u32(f_ops)
        if table < ops_pos + 4:
            raise Failure(f"operator {k}'s table precedes the operators vector")
        struct.pack_into("<II", out, ops_pos, 1, table - (ops_pos + 4))
        name = f"{stem}_op{k}"
        dst = os.path.join(outdir, name + ".tflite")
        with open(dst, "wb") as f:
            f.write(out)
        models.append((k, TFL_OPS.get(opcode, f"op{opcode}"), dst))
    return models
