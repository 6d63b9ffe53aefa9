"""Builders of the reductions and data movement of ops.py's cases: MEAN,
CONCATENATION, TRANSPOSE, the reshapes, PAD and STRIDED_SLICE."""

from ops_models import act_q, quant


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
