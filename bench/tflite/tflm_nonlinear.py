"""TFLite Micro's reference LOGISTIC, TANH and SOFTMAX on quantized tensors,
transcribed into Python integers and numpy (int8 and int16 activations).

The kernels (tensorflow/lite/micro/kernels/{logistic,tanh,softmax}*.cc and
tensorflow/lite/kernels/internal/reference/{softmax.h,integer_ops/
{logistic,tanh}.h}) with their Prepare: int8 LOGISTIC and TANH evaluate
gemmlowp's fixed-point logistic and tanh on Q4.27; int16 ones interpolate
TFLite's sigmoid table; int8 SOFTMAX is gemmlowp's exp on Q5.26, a Q12.19
sum and its reciprocal; int16 SOFTMAX interpolates two 513-entry tables that
Prepare fills in float (exp with libm's expf, as the kernel calls it).

Every function takes and returns numpy arrays of the tensor's values.
"""
import ctypes
import math

import numpy as np

import tflite_softmax as G  # gemmlowp's scalar primitives

I64 = np.int64

# TFLite's sigmoid_table_uint16 (kernels/internal/common.h): the kernel's
# data, sigmoid(i / 24) in 0.16.
SIGMOID_TABLE = np.array([
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535,
], dtype=I64)


def tfl_round(x):
    """TfLiteRound (std::round): half away from zero."""
    return math.copysign(math.floor(abs(x) + 0.5), x)


def one_minus_x_over_one_plus_x(a):  # F0 -> F0
    hd = G.rounding_half_sum(a, G.MAX)
    x = G.w32(1515870810 + G.srdhm(hd, -1010580540))
    for _ in range(3):
        omh = G.w32((1 << 29) - G.srdhm(hd, x))
        x = G.w32(x + G.mul_pot(G.srdhm(x, omh), 2))
    return G.mul_pot(G.w32(x - (1 << 29)), 2)


def fp_logistic(a, ib):
    if a == 0:
        return 1 << 30
    absolute = a if a > 0 else G.w32(-a)
    pos = G.one_over_one_plus_x(G.exp_neg(G.w32(-absolute), ib))
    return pos if a > 0 else G.w32(G.MAX - pos)


def fp_tanh(a, ib):
    if a == 0:
        return 0
    n = a if a < 0 else G.w32(-a)
    t = one_minus_x_over_one_plus_x(G.exp_neg(n, ib + 1))
    return G.w32(-t) if a < 0 else t


def mbqm(x, mult, shift):
    left, right = max(shift, 0), max(-shift, 0)
    return G.rdbpot(G.srdhm(G.w32(x << left), mult), right)


def int8_table(in_scale, in_zp, tanh):
    """The int8 kernel's output for every input byte (index byte + 128)."""
    real = float(np.float32(in_scale)) * float(1 << 27)
    q, shift = math.frexp(real)
    mult = int(tfl_round(q * (1 << 31)))
    radius = math.floor(15.0 * (1 << 27) / 2.0 ** shift)
    out = []
    for v in range(-128, 128):
        x = v - in_zp
        if x <= -radius:
            out.append(-128)
        elif x >= radius:
            out.append(127)
        else:
            q4 = mbqm(x, mult, shift)
            if tanh:
                y = G.rdbpot(fp_tanh(q4, 4), 24)
            else:
                y = G.rdbpot(fp_logistic(q4, 4), 23) - 128
            out.append(max(-128, min(127, y)))
    return np.array(out, dtype=I64)


def activation_int8(x, in_scale, in_zp, tanh):
    return int8_table(in_scale, in_zp, tanh)[np.asarray(x, dtype=I64) + 128]


def checked_log2(x):
    log2 = math.log(float(np.float32(x))) / math.log(2.0)
    r = tfl_round(log2)
    return abs(log2 - r) < 1e-3, int(r)


def activation_int16(x, in_scale, tanh):
    """int16 LOGISTIC (tanh=False) or TANH; zero points 0, output 2^-15."""
    pot, log2 = checked_log2(in_scale)
    shift = 12 + log2
    if pot and (shift == 0 or (tanh and shift == 1)):
        mult, shift = 3 << shift, 0
    else:
        m = float(np.float32(in_scale)) * 4096.0 * 3.0
        shift = 0
        while m <= 32767.0 / 2.0 and shift <= 30:
            shift += 1
            m *= 2.0
        mult = int(m)
    rnd = (1 << (shift - 1)) if shift > 0 else 0
    v = (np.asarray(x, dtype=I64) * mult + rnd) >> shift
    a = np.abs(v)
    frac = 8 if tanh else 9
    uh = a >> frac
    sat = uh >= 255
    i = np.minimum(uh, 254)
    ua, ub = SIGMOID_TABLE[i], SIGMOID_TABLE[i + 1]
    r = (ua << frac) + (a & ((1 << frac) - 1)) * (ub - ua)
    if tanh:
        r = np.where(sat, 0xFFFF << 8, r)
        r = np.where(v >= 0, r - (1 << 23) + (1 << 7), -r + (1 << 23) + (1 << 7) - 1) >> 8
    else:
        r = np.where(sat, 0x7FFF << 10, r)
        r = np.where(v >= 0, r + (1 << 9), (1 << 25) - r + (1 << 9) - 1) >> 10
    return ((r + 32768) % 65536) - 32768


def softmax_int8(x, in_scale, beta, out_bits=8):
    """int8 input; int8 (zero point -128) or int16 (zero point -32768) output."""
    x = np.asarray(x, dtype=I64)
    rows = x.reshape(-1, x.shape[-1])
    real = min(float(beta) * float(np.float32(in_scale)) * (1 << 26), (1 << 31) - 1.0)
    mult, ls = G.quantize_multiplier(real)
    diff_min = -math.floor(31.0 * (1 << 26) / (1 << ls))
    lo, hi = -(1 << (out_bits - 1)), (1 << (out_bits - 1)) - 1
    out = []
    for row in rows:
        mx = int(row.max())
        exps = []
        s = 0
        for v in row:
            d = int(v) - mx
            if d >= diff_min:
                e = G.exp_neg(G.srdhm(G.w32(d << ls), mult), 5)
                exps.append(e)
                s = G.w32(s + G.rdbpot(e, 12))
            else:
                exps.append(None)
        scale, nbou = G.get_reciprocal(s, 12)
        exponent = nbou + 31 - out_bits
        out.append([lo if e is None else
                    max(lo, min(hi, G.rdbpot(G.srdhm(scale, e), exponent) + lo))
                    for e in exps])
    return np.array(out, dtype=I64).reshape(x.shape)


_LIBM = ctypes.CDLL("libm.so.6")
_LIBM.expf.restype = ctypes.c_float
_LIBM.expf.argtypes = [ctypes.c_float]
F32 = np.float32


def _expf(v):
    return F32(_LIBM.expf(float(v)))


def _recip(v):
    return F32(F32(1.0) / (F32(1.0) + F32(v)))


def lut_populate_int16(in_scale, in_zp, out_scale, out_zp, fn):
    """LUTPopulate<int16_t> with float arithmetic."""
    in_scale, out_scale = F32(in_scale), F32(out_scale)
    in_min = F32(in_scale * F32(-32768 - in_zp))
    in_max = F32(in_scale * F32(32767 - in_zp))
    out_min = F32(out_scale * F32(-32768 - out_zp))
    out_max = F32(out_scale * F32(32767 - out_zp))
    step = F32((in_max - in_min) / F32(512))
    half = F32(step / F32(2))
    inv = F32(F32(65536) / F32(out_max - out_min))

    def rnd(v):
        return F32(tfl_round(float(v)))
    lut = []
    for i in range(512):
        at = F32(in_min + F32(F32(i) * step))
        val = fn(at)
        mid = fn(F32(at + half))
        nxt = fn(F32(in_min + F32(F32(i + 1) * step)))
        sample = rnd(F32(val * inv))
        interp = rnd(F32(F32(F32(nxt * inv) + sample) / F32(2)))
        exact = rnd(F32(mid * inv))
        bias = rnd(F32(F32(interp - exact) / F32(2)))
        lut.append(int(min(max(F32(sample - bias), F32(-32768)), F32(32767))))
    lut.append(int(min(max(rnd(F32(fn(in_max) * inv)), F32(-32768)), F32(32767))))
    return np.array(lut, dtype=I64)


def lut_lookup(v, lut):
    v = np.asarray(v, dtype=I64)
    index = 256 + (v >> 7)
    offset = v & 0x7F
    base = lut[index]
    slope = ((lut[index + 1] - base + 32768) % 65536) - 32768
    delta = (slope * offset + 64) >> 7
    return ((base + delta + 32768) % 65536) - 32768


_TABLES = {}


def softmax_tables():
    if not _TABLES:
        rng = 65535
        _TABLES["exp"] = lut_populate_int16(F32(10.0) / F32(rng), 32767,
                                            F32(2.0) / F32(rng), 0, _expf)
        _TABLES["recip"] = lut_populate_int16(F32(1.0) / F32(rng), -32768,
                                              F32(2.0) / F32(rng), 0, _recip)
    return _TABLES["exp"], _TABLES["recip"]


def clz32(x):
    return 32 - int(x).bit_length()


def softmax_int16(x, in_scale, beta):
    """int16 input and output, zero points 0, output scale 1/32768."""
    exp_lut, recip_lut = softmax_tables()
    x = np.asarray(x, dtype=I64)
    rows = x.reshape(-1, x.shape[-1])
    mult, shift = G.quantize_multiplier(float(np.float32(in_scale)) * float(np.float32(beta))
                                        / (10.0 / 65535.0))
    out = []
    for row in rows:
        diff = row - row.max()
        scaled = np.array([mbqm(int(d), mult, shift) for d in diff], dtype=I64)
        e = lut_lookup(np.clip(scaled + 32767, -32768, 32767), exp_lut)
        s = int(e.sum())
        hp1 = clz32(s)
        shifted = ((s << (hp1 - 1)) + (1 << 13)) >> 14
        recip = int(lut_lookup(np.clip(shifted - ((1 << 15) + (1 << 16)), -32768, 32767),
                               recip_lut))
        rs = 31 - hp1
        r = (e * recip + (1 << (rs - 1))) >> rs
        out.append(np.clip(r, 0, 32767))
    return np.array(out, dtype=I64).reshape(x.shape)
