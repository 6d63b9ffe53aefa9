"""Builder: what every op generator uses. The random source and its
helpers, fresh names, emitted lines and locations, constants, and the
adapters that turn a visible value into one of another shape or type
(reshape, slice, pad, cast)."""

import random

from .values import (FLOAT_TYPES, Value, dense_literal, fmt_float, prod,
                     tensor_type)


class Builder:
    """The base of Gen: the state of one generation (its seed, random
    source and functions) and the helpers every op generator uses."""

    def __init__(self, seed, control_flow=1):
        self.seed = seed
        self.rng = random.Random(seed)
        self.funcs = []
        # Weight of branches and loops (1: the default programs); above 1,
        # scf.while too, nesting three deep, and loops that carry a new
        # tensor as it is.
        self.control_flow = control_flow
        self.max_depth = 2 if control_flow <= 1 else 3

    # ------------------------------------------------------------ helpers
    def chance(self, p):
        return self.rng.random() < p

    def nonzero(self, lo=-1.0, hi=1.0):
        while True:
            x = self.rng.uniform(lo, hi)
            if abs(x) >= 0.05:
                return round(x, 4)

    def fresh(self, f, prefix="v"):
        f.counter += 1
        return "%s%d" % (prefix, f.counter)

    def emit(self, f, depth, text):
        f.lines.append("    " + "  " * depth + text)

    def loc(self, f, name):
        return 'loc("%s/%s")' % (f.name, name)

    def new_value(self, f, scope, name, shape, dt="f32"):
        v = Value("%" + name, shape, dt)
        scope.values.append(v)
        f.value_bytes += v.nbytes
        return v

    def cindex(self, f, k):
        f.index_consts.add(k)
        return "%%ci%d" % k

    def pick(self, scope, pred=lambda v: True, recent=0.6):
        cands = [v for v in scope.visible() if pred(v)]
        if not cands:
            return None
        if self.chance(recent):
            return self.rng.choice(cands[-3:])
        return self.rng.choice(cands)

    def const(self, f, scope, depth, shape, dt="f32", lo=-1.0, hi=1.0,
              arith=None):
        """A constant of random non-zero values."""
        name = self.fresh(f, "w")
        n = prod(shape)
        if dt in FLOAT_TYPES:
            vals = [fmt_float(self.nonzero(lo, hi)) for _ in range(n)]
        else:
            vals = [str(self.rng.choice([-3, -2, -1, 1, 2, 3])) for _ in range(n)]
        if n > 1 and self.chance(0.1):
            lit = vals[0]  # a splat
        else:
            lit = dense_literal(shape, vals)
        t = tensor_type(shape, dt)
        if arith is None:
            arith = self.chance(0.3)
        if arith:
            self.emit(f, depth, "%%%s = arith.constant dense<%s> : %s %s" %
                      (name, lit, t, self.loc(f, name)))
        else:
            self.emit(f, depth,
                      '%%%s = "tosa.const"() {values = dense<%s> : %s} : () -> %s %s'
                      % (name, lit, t, t, self.loc(f, name)))
        v = self.new_value(f, scope, name, shape, dt)
        f.const_bytes.append((name, v.nbytes))
        return v

    def shape_const(self, f, depth, dims):
        name = self.fresh(f, "s")
        self.emit(f, depth,
                  "%%%s = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> !tosa.shape<%d>"
                  % (name, ", ".join(str(d) for d in dims), len(dims), len(dims)))
        return "%" + name

    def zp(self, f):
        f.zp_needed = True
        return "%zp"

    def shift(self, f):
        f.shift_needed = True
        return "%shift"

    def clamp(self, f, scope, depth, x, bound=None):
        if bound is None:
            bound = self.rng.choice([1.0, 2.0, 4.0])
        name = self.fresh(f)
        if x.dt == "f32":
            attrs = "{min_val = %s : f32, max_val = %s : f32}" % (
                fmt_float(-bound), fmt_float(bound))
        else:
            attrs = "{min_val = %s : f16, max_val = %s : f16}" % (
                fmt_float(-bound), fmt_float(bound))
        self.emit(f, depth, "%%%s = tosa.clamp %s %s : (%s) -> %s %s" %
                  (name, x.name, attrs, x.type, x.type, self.loc(f, name)))
        return self.new_value(f, scope, name, x.shape, x.dt)

    def random_shape(self, max_elems=64):
        kind = self.rng.choice(["4d", "4d", "3d", "3d", "2d", "1d"])
        while True:
            if kind == "4d":
                s = (1, self.rng.randint(2, 5), self.rng.randint(2, 5),
                     self.rng.randint(1, 4))
            elif kind == "3d":
                s = (1, self.rng.randint(1, 6), self.rng.randint(2, 8))
            elif kind == "2d":
                s = (self.rng.randint(1, 6), self.rng.randint(2, 8))
            else:
                s = (self.rng.randint(2, 24),)
            if prod(s) <= max_elems:
                return s

    def factor_shape(self, n, rank):
        """A random shape of `rank` dims holding n elements."""
        dims = [1] * rank
        rest = n
        primes = []
        p = 2
        while rest > 1:
            while rest % p == 0:
                primes.append(p)
                rest //= p
            p += 1
        for q in primes:
            dims[self.rng.randrange(rank)] *= q
        if rank >= 3 and dims[0] != 1 and self.chance(0.7):
            # A leading batch of 1, as models have.
            dims[1] *= dims[0]
            dims[0] = 1
        return tuple(dims)

    # ------------------------------------------------------------ adapters
    def reshape(self, f, scope, depth, x, shape):
        if tuple(shape) == x.shape:
            return x
        name = self.fresh(f)
        if self.chance(0.25) and x.rank > 1 and len(shape) == 1:
            # linalg path: collapse every dim.
            self.emit(f, depth, "%%%s = tensor.collapse_shape %s [[%s]] : %s into %s %s" % (
                name, x.name, ", ".join(str(i) for i in range(x.rank)), x.type,
                tensor_type(shape, x.dt), self.loc(f, name)))
        elif self.chance(0.25) and x.rank == 1 and len(shape) > 1:
            self.emit(f, depth, "%%%s = tensor.expand_shape %s [[%s]] output_shape [%s] : %s into %s %s" % (
                name, x.name, ", ".join(str(i) for i in range(len(shape))),
                ", ".join(str(d) for d in shape), x.type,
                tensor_type(shape, x.dt), self.loc(f, name)))
        else:
            s = self.shape_const(f, depth, shape)
            self.emit(f, depth, "%%%s = tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s %s" % (
                name, x.name, s, x.type, len(shape), tensor_type(shape, x.dt),
                self.loc(f, name)))
        return self.new_value(f, scope, name, shape, x.dt)

    def slice_to(self, f, scope, depth, x, size, start=None):
        if start is None:
            start = [self.rng.randint(0, d - s) for d, s in zip(x.shape, size)]
        name = self.fresh(f)
        if self.chance(0.3):
            self.emit(f, depth, "%%%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s %s" % (
                name, x.name, ", ".join(str(s) for s in start),
                ", ".join(str(s) for s in size), ", ".join("1" for _ in size),
                x.type, tensor_type(size, x.dt), self.loc(f, name)))
        else:
            st = self.shape_const(f, depth, start)
            sz = self.shape_const(f, depth, size)
            self.emit(f, depth, "%%%s = tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> %s %s" % (
                name, x.name, st, sz, x.type, x.rank, x.rank,
                tensor_type(size, x.dt), self.loc(f, name)))
        return self.new_value(f, scope, name, size, x.dt)

    def pad_to(self, f, scope, depth, x, pads, value=None):
        """tosa.pad of x by pads = [(lo, hi), ...]."""
        if value is None:
            value = self.nonzero()
        name = self.fresh(f)
        flat = [p for lohi in pads for p in lohi]
        ps = self.shape_const(f, depth, flat)
        pc = self.fresh(f, "pc")
        self.emit(f, depth, '%%%s = "tosa.const"() {values = dense<%s> : tensor<1x%s>} : () -> tensor<1x%s> %s' % (
            pc, fmt_float(value) if x.dt in FLOAT_TYPES else str(int(value * 3) or 1),
            x.dt, x.dt, self.loc(f, pc)))
        shape = tuple(d + lo + hi for d, (lo, hi) in zip(x.shape, pads))
        self.emit(f, depth, "%%%s = tosa.pad %s, %s, %%%s : (%s, !tosa.shape<%d>, tensor<1x%s>) -> %s %s" % (
            name, x.name, ps, pc, x.type, 2 * x.rank, x.dt,
            tensor_type(shape, x.dt), self.loc(f, name)))
        return self.new_value(f, scope, name, shape, x.dt)

    def adapt(self, f, scope, depth, x, shape, dt="f32"):
        """Some value of type (shape, dt) computed from x."""
        if x.dt != dt:
            x = self.cast(f, scope, depth, x, dt)
        if x.shape == tuple(shape):
            return x
        n, m = prod(x.shape), prod(shape)
        flat = self.reshape(f, scope, depth, x, (1, n))
        if n > m:
            flat = self.slice_to(f, scope, depth, flat, (1, m))
        elif n < m:
            lo = self.rng.randint(0, m - n)
            flat = self.pad_to(f, scope, depth, flat, [(0, 0), (lo, m - n - lo)])
        return self.reshape(f, scope, depth, flat, shape)

    def cast(self, f, scope, depth, x, dt):
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.cast %s : (%s) -> %s %s" % (
            name, x.name, x.type, tensor_type(x.shape, dt), self.loc(f, name)))
        return self.new_value(f, scope, name, x.shape, dt)

    def value_of(self, f, scope, depth, shape, dt="f32", reuse=0.8, no_iter=False):
        """A visible value of this type, or one adapted from another."""
        if self.chance(reuse):
            v = self.pick(scope, lambda v: v.shape == tuple(shape) and v.dt == dt
                          and not (no_iter and v.iter_arg), recent=0.5)
            if v is not None:
                return v
        src = self.pick(scope, lambda v: v.dt in FLOAT_TYPES)
        if src is None:
            return self.const(f, scope, depth, shape, dt)
        return self.adapt(f, scope, depth, src, shape, dt)
