"""numpy transcriptions of TFLite's kernels, the reference of ops.py for
the models that Arm NN rejects, or where it deviates from TFLite's
kernel: the integer arithmetic of tensorflow/lite/kernels/internal/
reference (MultiplyByQuantizedMultiplier with double rounding,
QuantizeMultiplier, CalculateActivationRangeQuantized), in int64; and
TFLite Micro's kernels (tflm_nonlinear.py, lstm_ref.py), bit for bit."""

from ops_models import CODES, NP_TYPES, TFL_TYPES
from tflite_softmax import quantize_multiplier


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
# float computation, stays a cross-check within ops.py's QUANT_LSB.
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
