"""TFLite's scalar integer arithmetic in Python ints: QuantizeMultiplier,
gemmlowp's fixed point, and the int8 SOFTMAX (reference_ops::Softmax)."""
import math

MIN, MAX = -(1 << 31), (1 << 31) - 1


def quantize_multiplier(real):
    """QuantizeMultiplier: (multiplier, shift), round half away from zero
    (TfLiteRound; Python's round is half to even)."""
    if real == 0:
        return 0, 0
    q, shift = math.frexp(real)
    fixed = int(math.floor(abs(q) * (1 << 31) + 0.5)) * (1 if q > 0 else -1)
    if fixed == 1 << 31:
        fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return fixed, shift


def w32(x):
    return ((x + (1 << 31)) % (1 << 32)) - (1 << 31)


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def srdhm(a, b):
    if a == MIN and b == MIN:
        return MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    return trunc_div(ab + nudge, 1 << 31)


def rdbpot(x, e):
    mask = (1 << e) - 1
    rem = x & mask
    thr = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> e) + (1 if rem > thr else 0)


def sat_shl(x, e):
    thr = (1 << (31 - e)) - 1
    if x > thr:
        return MAX
    if x < -thr:
        return MIN
    return w32(x << e)


def mul_pot(x, e):
    return sat_shl(x, e) if e > 0 else (rdbpot(x, -e) if e < 0 else x)


def exp_quarter(a):  # F0 -> F0, a in [-1/4, 0)
    const_term = 1895147668
    c13 = 715827883
    x = w32(a + (1 << 28))
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_4 = mul_pot(x4, -2)
    t = mul_pot(w32(srdhm(w32(x4_4 + x3), c13) + x2), -1)
    return w32(const_term + srdhm(const_term, w32(x + t)))


def exp_neg(a, ib):  # FixedPoint<int32, ib> raw -> F0 raw
    fb = 31 - ib
    quarter = 1 << (fb - 2)
    mask = quarter - 1
    amq = w32((a & mask) - quarter)
    result = exp_quarter(mul_pot(amq, ib))
    rem = w32(amq - a)
    for e, mult in ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
                    (2, 39332535), (3, 720401), (4, 242)):
        if ib > e:
            sh = fb + e
            if sh >= 0 and sh < 32 and (rem & (1 << sh)):
                result = srdhm(result, mult)
    if ib > 5:
        clamp = -(1 << (fb + 5))
        if a < clamp:
            result = 0
    if a == 0:
        result = MAX
    return result


def rounding_half_sum(a, b):
    s = a + b
    sign = 1 if s >= 0 else -1
    return trunc_div(s + sign, 2)


def one_over_one_plus_x(a):  # F0 -> F0
    hd = rounding_half_sum(a, MAX)
    x = w32(1515870810 + srdhm(hd, -1010580540))
    for _ in range(3):
        hdx = srdhm(hd, x)
        omh = w32((1 << 29) - hdx)
        x = w32(x + mul_pot(srdhm(x, omh), 2))
    return mul_pot(x, 1)


def clz32(x):
    x &= 0xFFFFFFFF
    return 32 - x.bit_length()


def get_reciprocal(x, int_digits):
    h = clz32(x)
    nbou = int_digits - h
    ssm1 = w32(((x & 0xFFFFFFFF) << h & 0xFFFFFFFF) - (1 << 31))
    return one_over_one_plus_x(ssm1), nbou


def softmax_int8(row, in_scale, beta=1.0, out_min=-128, out_max=127):
    real = min(float(beta) * float(in_scale) * (1 << 26), (1 << 31) - 1.0)
    mult, ls = quantize_multiplier(real)
    assert ls >= 0
    radius = math.floor(1.0 * ((1 << 5) - 1) * (1 << 26) / (1 << ls))
    diff_min = -radius
    mx = max(row)
    s = 0
    exps = []
    for v in row:
        d = v - mx
        if d >= diff_min:
            r = srdhm(w32(d * (1 << ls)), mult)
            e = exp_neg(r, 5)
            exps.append(e)
            s = w32(s + rdbpot(e, 12))
        else:
            exps.append(None)
    scale, nbou = get_reciprocal(s, 12)
    out = []
    for e in exps:
        if e is None:
            out.append(out_min)
        else:
            u = rdbpot(srdhm(scale, e), nbou + 31 - 8)
            out.append(max(out_min, min(out_max, u + out_min)))
    return out
