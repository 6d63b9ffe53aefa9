"""TFLite Micro's UNIDIRECTIONAL_SEQUENCE_LSTM in numpy.

A transcription of tensorflow/lite/micro/kernels/lstm_eval.{h,cc} and
lstm_eval_common.cc: float32, int8 activations with an int16 cell state
(8x8_16) and 16x8, with the state starting where TFLite Micro resets a
variable tensor (the zero point for int8, zero otherwise) or at `state`.

  lstm(np, tensors, op, x, state=None) -> (output, (hidden, cell))

`tensors` answers data(k), q(k) (scales, zero points) and elt(k) ("f32",
"i8", "i16", ...) for a tensor index, as bench/tflite/ops.py's Ref does.
"""
import math

from tflite_softmax import quantize_multiplier
from tflm_nonlinear import SIGMOID_TABLE


def mbqm32(np, x, mult, shift):
    """MultiplyByQuantizedMultiplier(int32): saturating rounding doubling
    high multiply, then rounding divide by a power of two."""
    x = np.asarray(x, dtype=np.int64)
    left, right = max(shift, 0), max(-shift, 0)
    x = x * (1 << left)
    x = ((x + (1 << 31)) % (1 << 32)) - (1 << 31)  # int32 wrap, as C++
    ab = x * np.int64(mult)
    nudge = np.where(ab >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    s = ab + nudge
    hi = np.where(s >= 0, s // (1 << 31), -((-s) // (1 << 31)))
    hi = np.where((x == -(1 << 31)) & (mult == -(1 << 31)), (1 << 31) - 1, hi)
    mask = np.int64((1 << right) - 1)
    rem = hi & mask
    threshold = (mask >> 1) + (hi < 0)
    return (hi >> right) + (rem > threshold)


def mbqm64(np, x, mult, shift):
    """MultiplyByQuantizedMultiplier(int64): the multiplier rounded to 16
    bits, one rounding shift."""
    x = np.asarray(x, dtype=np.int64)
    reduced = (mult + (1 << 15)) >> 16 if mult < 0x7FFF0000 else 0x7FFF
    total = 15 - shift
    y = x * np.int64(reduced) + (np.int64(1) << (total - 1))
    return y >> total


def sigmoid16(np, x):
    """reference_integer_ops::Logistic for int16 with a power-of-two input
    scale (multiplier 3, no shift)."""
    table = np.array(SIGMOID_TABLE, dtype=np.int64)
    v = np.asarray(x, dtype=np.int64) * 3
    a = np.abs(v)
    uh = a >> 9
    idx = np.minimum(uh, 254)
    ua, ub = table[idx], table[idx + 1]
    r = np.where(uh >= 255, 0x7FFF << 10, (ua << 9) + (a & 0x1FF) * (ub - ua))
    r = np.where(v >= 0, r + (1 << 9), (1 << 25) - r + (1 << 9) - 1)
    return r >> 10


def tanh16(np, x, multiplier, shift):
    """reference_integer_ops::Tanh for int16: `(x * multiplier + round) >>
    shift`, then the table at 2^-8 steps."""
    table = np.array(SIGMOID_TABLE, dtype=np.int64)
    if multiplier == 0:
        multiplier, shift = 3 << shift, 0
    rnd = (1 << (shift - 1)) if shift > 0 else 0
    v = (np.asarray(x, dtype=np.int64) * multiplier + rnd) >> shift
    a = np.abs(v)
    uh = a >> 8
    idx = np.minimum(uh, 254)
    ua, ub = table[idx], table[idx + 1]
    r = np.where(uh >= 255, 0xFFFF << 8, (ua << 8) + (a & 0xFF) * (ub - ua))
    r = np.where(v >= 0, r - (1 << 23) + (1 << 7), -r + (1 << 23) + (1 << 7) - 1)
    return r >> 8


def lstm(np, t, op, x, state=None):
    """The output sequence and the last (hidden, cell) state of one
    UNIDIRECTIONAL_SEQUENCE_LSTM on x."""
    ins = op["inputs"]
    opts = op.get("builtin_options", {})
    time_major = opts.get("time_major", False)
    clip = float(np.float32(opts.get("cell_clip", 0.0)))
    elt = t.elt(ins[0])
    w = {k: t.data(ins[k]) for k in range(1, 9)}
    bias = {k: t.data(ins[k]) for k in range(12, 16)}
    n_state = w[5].shape[0]
    xs = x if time_major else np.swapaxes(x, 0, 1)  # [T, B, I]
    batch = xs.shape[1]

    def initial(k, zp):
        if state is not None:
            return np.asarray(state[k - 18]).reshape(batch, n_state)
        return np.full((batch, n_state), zp)

    steps_of = lstm_float if elt == "f32" else lstm_integer
    out, h, c = steps_of(np, t, ins, w, bias, xs, clip, initial)
    y = out if time_major else np.swapaxes(out, 0, 1)
    return y, (h, c)


def lstm_float(np, t, ins, w, bias, xs, clip, initial):
    """The float32 steps over xs ([T, B, I]): (outputs [T, B, H], hidden,
    cell)."""
    steps, batch, n_state = xs.shape[0], xs.shape[1], w[5].shape[0]
    f32 = np.float32

    def gate(xt, h, wi, wr, b, act):
        acc = xt @ w[wi].T.astype(f32) + b.astype(f32)
        acc = acc.astype(f32) + (h @ w[wr].T.astype(f32)).astype(f32)
        if act == "tanh":
            return np.tanh(acc).astype(f32)
        return (f32(1) / (f32(1) + np.exp(-acc))).astype(f32)
    h = initial(18, 0).astype(f32)
    c = initial(19, 0).astype(f32)
    out = np.zeros((steps, batch, n_state), dtype=f32)
    for s in range(steps):
        xt = xs[s].astype(f32)
        i = gate(xt, h, 1, 5, bias[12], "sigmoid")
        f = gate(xt, h, 2, 6, bias[13], "sigmoid")
        g = gate(xt, h, 3, 7, bias[14], "tanh")
        c = (f * c + i * g).astype(f32)
        if clip > 0:
            c = np.clip(c, -clip, clip)
        o = gate(xt, h, 4, 8, bias[15], "sigmoid")
        h = (np.tanh(c).astype(f32) * o).astype(f32)
        out[s] = h
    return out, h, c


def lstm_integer(np, t, ins, w, bias, xs, clip, initial):
    """The 8x8_16 or 16x8 steps over xs ([T, B, I]): (outputs [T, B, H],
    hidden, cell)."""
    steps, batch, n_state = xs.shape[0], xs.shape[1], w[5].shape[0]
    elt = t.elt(ins[0])
    is8 = elt == "i8"
    (in_s,), (in_zp,) = t.q(ins[0])
    (h_s,), (h_zp,) = t.q(ins[18])
    (c_s,), _ = t.q(ins[19])
    lo, hi = (-128, 127) if is8 else (-32768, 32767)
    gate_scale = float(np.float32(2.0 ** -12))

    def fc(v, zp, scale, wk, b):
        (ws,), (wzp,) = t.q(ins[wk])
        acc = (np.asarray(v, dtype=np.int64) - zp) @ \
            (w[wk].astype(np.int64) - wzp).T
        if b is not None:
            acc = acc + b.astype(np.int64)
        real = float(np.float32(scale) * np.float32(ws)) / gate_scale
        m, sh = quantize_multiplier(real)
        y = mbqm32(np, acc, m, sh) if is8 else mbqm64(np, acc, m, sh)
        return np.clip(y, -32768, 32767)

    def gate(xt, h, wi, wr, b, act):
        s = np.clip(fc(xt, in_zp, in_s, wi, b) + fc(h, h_zp, h_s, wr, None),
                    -32768, 32767)
        return tanh16(np, s, 3, 0) if act == "tanh" else sigmoid16(np, s)

    def mul(a, b, s1, s2, so, zp, lo_, hi_):
        m, sh = quantize_multiplier(float(s1) * float(s2) / float(so))
        y = mbqm32(np, a.astype(np.int64) * b.astype(np.int64), m, sh) + zp
        return np.clip(y, lo_, hi_)

    power = int(round(math.log2(c_s)))
    tshift = 15 + power - 3
    tmul = 0
    if tshift < 0:
        tshift, tmul = -tshift, 3
    qclip = int(min(max(clip / float(c_s), -32768.0), 32767.0))
    g15 = 2.0 ** -15
    h = initial(18, h_zp if is8 else 0).astype(np.int64)
    c = initial(19, 0).astype(np.int64)
    out = np.zeros((steps, batch, n_state), dtype=np.int64)
    for s in range(steps):
        xt = xs[s]
        i = gate(xt, h, 1, 5, bias[12], "sigmoid")
        f = gate(xt, h, 2, 6, bias[13], "sigmoid")
        g = gate(xt, h, 3, 7, bias[14], "tanh")
        fcell = mul(f, c, g15, c_s, c_s, 0, -32768, 32767)
        icell = mul(i, g, g15, g15, c_s, 0, -32768, 32767)
        c = np.clip(fcell + icell, -32768, 32767)
        if clip > 0:
            c = np.clip(c, -qclip, qclip)
        o = gate(xt, h, 4, 8, bias[15], "sigmoid")
        h = mul(tanh16(np, c, tmul, tshift), o, g15, g15, h_s, h_zp, lo, hi)
        out[s] = h
    return out, h, c
