"""Builders of the elementwise operators of ops.py's cases: ADD, SUB,
MUL, the activations, SOFTMAX, QUANTIZE and DEQUANTIZE."""

from ops_models import act_q, quant


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


def i16_q(scale):
    return lambda m, iq=None: quant(scale)


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
