#!/usr/bin/env python3
"""Random, valid TOSA and linalg modules for the differential fuzzer.

usage: gen.py SEED [--options] [--no-stale-results] [--copy-results]
              [--no-rules] [--no-limit] [--global] [--control-flow K]

Prints one module on stdout; the same seed always gives the same module.
With --options, prints instead the helia-memory-pipeline options that the
seed chooses (arena mode, algorithm, memory limit, stream pool), one line.

A module holds one or more planned functions f0, f1, ... (fI may call fJ
for J > I), a stub f0_hydrate_constants and an unplanned harness @main that
calls the planned functions in sequence and prints every result as its bit
pattern (each element bitcast to i32, printMemrefI32). See
docs/Hardening.md, "Differential execution fuzzer".

The --no-* switches change the module after every random choice is made
(the same seed draws the same numbers), so that a failing seed can be
re-run without one feature to see whether that feature is the cause:

  --no-stale-results  copy every harness result right after its call and
                      use the copy after any later call (docs/Lowering.md:
                      "A result stays valid until the next call of the
                      model")
  --copy-results      as --no-stale-results, and the next call reads the
                      copies too (no call argument is another call's result)
  --no-rules          drop the helia.rules module attribute
  --no-limit          (with --options) drop memory-limit
  --global            (with --options) arena-mode=global

--control-flow K (K > 1) weights branches and loops up: scf.if and scf.for
weigh K times as much, scf.while is generated too, regions nest three deep,
and some loops carry a new tensor as it is (not written into the iter_arg).
The same seed and K always give the same module.
"""

import argparse
import random
import sys

FLOAT_TYPES = ("f32", "f16")
ELEM_BYTES = {"f32": 4, "f16": 2, "i8": 1, "i16": 2, "i32": 4, "i1": 1}

# Keep programs small: 100 of them run twice in under a minute.
MAX_ELEMS = 192


def prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def tensor_type(shape, dt):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), dt)


def fmt_float(x):
    return "%.4f" % x


def dense_literal(shape, vals):
    """Nested dense literal of `vals` (flat, row-major) with `shape`."""
    it = iter(vals)

    def rec(dims):
        if not dims:
            return next(it)
        return "[" + ", ".join(rec(dims[1:]) for _ in range(dims[0])) + "]"

    return rec(list(shape))


def idmap(rank):
    return "#id%d" % rank


class Value:
    __slots__ = ("name", "shape", "dt", "iter_arg")

    def __init__(self, name, shape, dt="f32", iter_arg=False):
        self.name = name
        self.shape = tuple(shape)
        self.dt = dt
        # A loop's iter_arg: an scf.if must not yield it as is (One-Shot
        # Bufferize then cannot keep the loop's yield in place).
        self.iter_arg = iter_arg

    @property
    def type(self):
        return tensor_type(self.shape, self.dt)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def nbytes(self):
        return prod(self.shape) * ELEM_BYTES[self.dt]


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.values = []

    def visible(self):
        out = []
        s = self
        chain = []
        while s is not None:
            chain.append(s)
            s = s.parent
        for s in reversed(chain):
            out.extend(s.values)
        return out


class Func:
    def __init__(self, index, args, results):
        self.index = index
        self.name = "f%d" % index
        self.args = args  # list of (shape, dt)
        self.results = results  # list of (shape, dt)
        self.lines = []
        self.counter = 0
        self.index_consts = set()
        self.zp_needed = False
        self.shift_needed = False
        self.const_bytes = []  # (name, bytes) of every tensor constant
        self.value_bytes = 0


class Gen:
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

    # ------------------------------------------------------------ ops
    def op_binary(self, f, scope, depth):
        a = self.pick(scope, lambda v: v.dt in FLOAT_TYPES)
        if a is None:
            return None
        r = self.rng.random()
        if r < 0.45:
            b = self.pick(scope, lambda v: v.shape == a.shape and v.dt == a.dt and v is not a,
                          recent=0.3)
            if b is None:
                b = a
        else:
            # A constant, broadcast along some dims.
            bshape = tuple(d if self.chance(0.6) else 1 for d in a.shape)
            b = self.const(f, scope, depth, bshape, a.dt)
        if self.chance(0.5):
            a, b = b, a
        shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape))
        op = self.rng.choice(["add", "sub", "mul", "maximum", "minimum"])
        name = self.fresh(f)
        if op == "mul":
            self.emit(f, depth, "%%%s = tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s %s" % (
                name, a.name, b.name, self.shift(f), a.type, b.type,
                tensor_type(shape, a.dt), self.loc(f, name)))
        else:
            self.emit(f, depth, "%%%s = tosa.%s %s, %s : (%s, %s) -> %s %s" % (
                name, op, a.name, b.name, a.type, b.type,
                tensor_type(shape, a.dt), self.loc(f, name)))
        v = self.new_value(f, scope, name, shape, a.dt)
        if op == "mul" and self.chance(0.5):
            v = self.clamp(f, scope, depth, v)
        return v

    def op_unary(self, f, scope, depth):
        a = self.pick(scope, lambda v: v.dt in FLOAT_TYPES)
        if a is None:
            return None
        op = self.rng.choice(["abs", "negate", "clamp", "sigmoid", "tanh", "clamp"])
        if op == "clamp":
            return self.clamp(f, scope, depth, a)
        name = self.fresh(f)
        if op == "negate":
            if a.dt != "f32":
                return None
            z = self.zp(f)
            self.emit(f, depth, "%%%s = tosa.negate %s, %s, %s : (%s, tensor<1xf32>, tensor<1xf32>) -> %s %s" % (
                name, a.name, z, z, a.type, a.type, self.loc(f, name)))
        else:
            self.emit(f, depth, "%%%s = tosa.%s %s : (%s) -> %s %s" % (
                name, op, a.name, a.type, a.type, self.loc(f, name)))
        return self.new_value(f, scope, name, a.shape, a.dt)

    def generic_body(self, nins, read_init, dt="f32"):
        """The body of an elementwise linalg.generic over nins inputs and,
        when read_init, the init (%o); every result clamped to [-4, 4]."""
        lines = []
        xs = ["%%p%d" % i for i in range(nins)] + (["%o"] if read_init else [])
        ops = ["addf", "subf", "mulf", "maximumf", "minimumf"]
        acc = self.rng.choice(xs)
        k = 0
        for _ in range(self.rng.randint(1, 3)):
            op = self.rng.choice(ops)
            other = self.rng.choice(xs)
            if self.chance(0.3):
                lines.append("%%k%d = arith.constant %s : %s" % (k, fmt_float(self.nonzero(-2, 2)), dt))
                other = "%%k%d" % k
                k += 1
            lines.append("%%t%d = arith.%s %s, %s : %s" % (k, op, acc, other, dt))
            acc = "%%t%d" % k
            k += 1
        lines.append("%%lo = arith.constant -4.0 : %s" % dt)
        lines.append("%%hi = arith.constant 4.0 : %s" % dt)
        lines.append("%%m = arith.maximumf %s, %%lo : %s" % (acc, dt))
        lines.append("%%r = arith.minimumf %%m, %%hi : %s" % dt)
        lines.append("linalg.yield %%r : %s" % dt)
        return lines

    def op_generic(self, f, scope, depth):
        """linalg.generic (or a named elementwise op); the init is a fresh
        tensor.empty, or an existing value that the body reads (written
        in place when it is dead, copied by bufferization otherwise)."""
        a = self.pick(scope, lambda v: v.dt == "f32")
        if a is None:
            return None
        ins = [a]
        if self.chance(0.6):
            b = self.pick(scope, lambda v: v.shape == a.shape and v.dt == "f32", recent=0.3)
            ins.append(b)
        name = self.fresh(f)
        init = None
        if self.inplace_inits and self.chance(0.4):
            init = self.pick(scope, lambda v: v.shape == a.shape and v.dt == "f32",
                             recent=0.3)
        elif len(ins) == 2 and self.chance(0.4):
            e = self.fresh(f, "e")
            self.emit(f, depth, "%%%s = tensor.empty() : %s %s" % (e, a.type, self.loc(f, e)))
            op = self.rng.choice(["add", "sub", "mul", "max", "min"])
            self.emit(f, depth, "%%%s = linalg.%s ins(%s, %s : %s, %s) outs(%%%s : %s) -> %s %s" % (
                name, op, ins[0].name, ins[1].name, a.type, a.type, e,
                a.type, a.type, self.loc(f, name)))
            return self.new_value(f, scope, name, a.shape)
        return self.emit_generic(f, scope, depth, ins, init, name)

    def emit_generic(self, f, scope, depth, ins, init, name=None):
        """An elementwise linalg.generic of f32 `ins` into `init` (a value,
        or None for a fresh tensor.empty)."""
        a = ins[0]
        read_init = init is not None
        if init is None:
            e = self.fresh(f, "e")
            self.emit(f, depth, "%%%s = tensor.empty() : %s %s" % (e, a.type, self.loc(f, e)))
            init = Value("%" + e, a.shape)
        if name is None:
            name = self.fresh(f)
        m = idmap(a.rank)
        self.emit(f, depth,
                  "%%%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) outs(%s : %s) {" % (
                      name, ", ".join([m] * (len(ins) + 1)),
                      ", ".join(['"parallel"'] * a.rank),
                      ", ".join(v.name for v in ins), ", ".join(v.type for v in ins),
                      init.name, a.type))
        self.emit(f, depth, "^bb0(%s, %%o: f32):" % ", ".join("%%p%d: f32" % i for i in range(len(ins))))
        for line in self.generic_body(len(ins), read_init):
            self.emit(f, depth + 1, line)
        self.emit(f, depth, "} -> %s %s" % (a.type, self.loc(f, name)))
        return self.new_value(f, scope, name, a.shape)

    def op_fill(self, f, scope, depth):
        """linalg.fill into an existing value (read later or not)."""
        a = self.pick(scope, lambda v: v.dt == "f32", recent=0.3)
        if a is None:
            return None
        c = self.fresh(f, "fc")
        self.emit(f, depth, "%%%s = arith.constant %s : f32" % (c, fmt_float(self.nonzero())))
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = linalg.fill ins(%%%s : f32) outs(%s : %s) -> %s %s" % (
            name, c, a.name, a.type, a.type, self.loc(f, name)))
        v = self.new_value(f, scope, name, a.shape)
        # Mix it with something so that the fill is not all that is read.
        b = self.pick(scope, lambda u: u.shape == a.shape and u.dt == "f32" and u is not v,
                      recent=0.5)
        if b is not None:
            n2 = self.fresh(f)
            self.emit(f, depth, "%%%s = tosa.add %s, %s : (%s, %s) -> %s %s" % (
                n2, v.name, b.name, a.type, a.type, a.type, self.loc(f, n2)))
            v = self.new_value(f, scope, n2, a.shape)
        return v

    def op_insert_slice(self, f, scope, depth):
        """tensor.insert_slice of a slice of one value into another."""
        big = self.pick(scope, lambda v: v.dt == "f32", recent=0.4)
        if big is None:
            return None
        src = self.pick(scope, lambda v: v.shape == big.shape and v.dt == "f32", recent=0.3)
        size = tuple(self.rng.randint(1, d) for d in big.shape)
        small = self.slice_to(f, scope, depth, src, size)
        if self.chance(0.5):
            small = self.op_unary_on(f, scope, depth, small)
        off = [self.rng.randint(0, d - s) for d, s in zip(big.shape, size)]
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s %s" % (
            name, small.name, big.name, ", ".join(str(o) for o in off),
            ", ".join(str(s) for s in size), ", ".join("1" for _ in size),
            small.type, big.type, self.loc(f, name)))
        return self.new_value(f, scope, name, big.shape)

    def op_unary_on(self, f, scope, depth, a):
        name = self.fresh(f)
        op = self.rng.choice(["abs", "sigmoid", "tanh"])
        self.emit(f, depth, "%%%s = tosa.%s %s : (%s) -> %s %s" % (
            name, op, a.name, a.type, a.type, self.loc(f, name)))
        return self.new_value(f, scope, name, a.shape, a.dt)

    def op_conv(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.rank == 4 and v.dt == "f32")
        if x is None:
            x = self.pick(scope, lambda v: v.dt == "f32" and prod(v.shape) >= 4)
            if x is None:
                return None
            n = prod(x.shape)
            x = self.reshape(f, scope, depth, x, self.factor_shape(n, 4))
        _, h, w, c = x.shape
        depthwise = self.chance(0.4)
        kh, kw = self.rng.randint(1, 3), self.rng.randint(1, 3)
        pads = [self.rng.randint(0, min(1, k - 1)) for k in (kh, kh, kw, kw)]
        hp, wp = h + pads[0] + pads[1], w + pads[2] + pads[3]
        if hp < kh or wp < kw:
            kh, kw, pads = 1, 1, [0, 0, 0, 0]
            hp, wp = h, w
        sh = 2 if (hp - kh) % 2 == 0 and hp - kh >= 2 and self.chance(0.3) else 1
        sw = 2 if (wp - kw) % 2 == 0 and wp - kw >= 2 and self.chance(0.3) else 1
        oh, ow = (hp - kh) // sh + 1, (wp - kw) // sw + 1
        if depthwise:
            m = self.rng.randint(1, 2)
            oc = c * m
            wt = self.const(f, scope, depth, (kh, kw, c, m), lo=-0.5, hi=0.5)
        else:
            oc = self.rng.randint(1, 4)
            wt = self.const(f, scope, depth, (oc, kh, kw, c), lo=-0.5, hi=0.5)
        if x.shape[0] * oh * ow * oc > MAX_ELEMS:
            return None
        bias = self.const(f, scope, depth, (oc,), lo=-0.5, hi=0.5)
        z = self.zp(f)
        name = self.fresh(f)
        out = (x.shape[0], oh, ow, oc)
        op = "depthwise_conv2d" if depthwise else "conv2d"
        self.emit(f, depth,
                  "%%%s = tosa.%s %s, %s, %s, %s, %s {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: %s>, stride = array<i64: %d, %d>} : (%s, %s, %s, tensor<1xf32>, tensor<1xf32>) -> %s %s" % (
                      name, op, x.name, wt.name, bias.name, z, z,
                      ", ".join(str(p) for p in pads), sh, sw, x.type, wt.type,
                      bias.type, tensor_type(out, "f32"), self.loc(f, name)))
        v = self.new_value(f, scope, name, out)
        if self.chance(0.6):
            v = self.clamp(f, scope, depth, v)
        return v

    def op_matmul(self, f, scope, depth):
        a = self.pick(scope, lambda v: v.rank == 3 and v.shape[0] == 1 and v.dt == "f32")
        if a is None:
            a = self.pick(scope, lambda v: v.dt == "f32")
            if a is None:
                return None
            n = prod(a.shape)
            a = self.reshape(f, scope, depth, a, self.mm_shape(n))
        _, m, k = a.shape
        nn = self.rng.randint(1, 6)
        b = None
        if self.chance(0.3):
            b = self.pick(scope, lambda v: v.shape == (1, k, nn) and v.dt == "f32")
        if b is None:
            b = self.const(f, scope, depth, (1, k, nn), lo=-0.5, hi=0.5)
        name = self.fresh(f)
        out = (1, m, nn)
        if self.chance(0.35):
            e = self.fresh(f, "e")
            fl = self.fresh(f, "fl")
            self.emit(f, depth, "%%%s = tensor.empty() : %s %s" % (e, tensor_type(out, "f32"), self.loc(f, e)))
            self.emit(f, depth, "%%%s = linalg.fill ins(%%zf : f32) outs(%%%s : %s) -> %s %s" % (
                fl, e, tensor_type(out, "f32"), tensor_type(out, "f32"), self.loc(f, fl)))
            self.emit(f, depth, "%%%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%%%s : %s) -> %s %s" % (
                name, a.name, b.name, a.type, b.type, fl, tensor_type(out, "f32"),
                tensor_type(out, "f32"), self.loc(f, name)))
        else:
            z = self.zp(f)
            self.emit(f, depth, "%%%s = tosa.matmul %s, %s, %s, %s : (%s, %s, tensor<1xf32>, tensor<1xf32>) -> %s %s" % (
                name, a.name, b.name, z, z, a.type, b.type, tensor_type(out, "f32"),
                self.loc(f, name)))
        v = self.new_value(f, scope, name, out)
        if self.chance(0.6):
            v = self.clamp(f, scope, depth, v)
        return v

    def mm_shape(self, n):
        ds = [d for d in range(1, n + 1) if n % d == 0 and n // d <= 16]
        m = self.rng.choice(ds)
        return (1, m, n // m)

    def op_reshape(self, f, scope, depth):
        x = self.pick(scope)
        if x is None:
            return None
        n = prod(x.shape)
        return self.reshape(f, scope, depth, x, self.factor_shape(n, self.rng.randint(1, 4)))

    def op_concat(self, f, scope, depth):
        a = self.pick(scope)
        if a is None or 2 * prod(a.shape) > MAX_ELEMS:
            return None
        axis = self.rng.randrange(a.rank)
        b = self.pick(scope, lambda v: v.dt == a.dt and v.rank == a.rank and all(
            x == y or i == axis for i, (x, y) in enumerate(zip(v.shape, a.shape))), recent=0.3)
        ins = [a, b] if self.chance(0.5) else [b, a]
        if self.chance(0.2):
            ins.append(a)
        shape = list(a.shape)
        shape[axis] = sum(v.shape[axis] for v in ins)
        if prod(shape) > MAX_ELEMS:
            return None
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.concat %s {axis = %d : i32} : (%s) -> %s %s" % (
            name, ", ".join(v.name for v in ins), axis, ", ".join(v.type for v in ins),
            tensor_type(shape, a.dt), self.loc(f, name)))
        return self.new_value(f, scope, name, shape, a.dt)

    def op_slice(self, f, scope, depth):
        x = self.pick(scope)
        if x is None:
            return None
        size = tuple(self.rng.randint(1, d) for d in x.shape)
        return self.slice_to(f, scope, depth, x, size)

    def op_pad(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.dt in FLOAT_TYPES)
        if x is None:
            return None
        pads = [(self.rng.randint(0, 1), self.rng.randint(0, 1)) for _ in x.shape]
        shape = [d + lo + hi for d, (lo, hi) in zip(x.shape, pads)]
        if prod(shape) > MAX_ELEMS:
            return None
        return self.pad_to(f, scope, depth, x, pads)

    def op_reduce(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.dt in FLOAT_TYPES)
        if x is None:
            return None
        axis = self.rng.randrange(x.rank)
        op = self.rng.choice(["reduce_sum", "reduce_max", "reduce_min"])
        shape = list(x.shape)
        shape[axis] = 1
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.%s %s {axis = %d : i32} : (%s) -> %s %s" % (
            name, op, x.name, axis, x.type, tensor_type(shape, x.dt), self.loc(f, name)))
        v = self.new_value(f, scope, name, shape, x.dt)
        if op == "reduce_sum" and self.chance(0.5):
            v = self.clamp(f, scope, depth, v)
        if self.chance(0.5):
            # Broadcast it back against its input (a residual).
            n2 = self.fresh(f)
            self.emit(f, depth, "%%%s = tosa.sub %s, %s : (%s, %s) -> %s %s" % (
                n2, x.name, v.name, x.type, v.type, x.type, self.loc(f, n2)))
            v = self.new_value(f, scope, n2, x.shape, x.dt)
        return v

    def op_transpose(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.rank >= 2)
        if x is None:
            return None
        perm = list(range(x.rank))
        self.rng.shuffle(perm)
        shape = [x.shape[p] for p in perm]
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s %s" % (
            name, x.name, ", ".join(str(p) for p in perm), x.type,
            tensor_type(shape, x.dt), self.loc(f, name)))
        return self.new_value(f, scope, name, shape, x.dt)

    def op_pool(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.rank == 4 and v.dt == "f32")
        if x is None:
            return None
        _, h, w, c = x.shape
        kh, kw = self.rng.randint(1, min(2, h)), self.rng.randint(1, min(2, w))
        sh = kh if (h - kh) % kh == 0 and self.chance(0.5) else 1
        sw = kw if (w - kw) % kw == 0 and self.chance(0.5) else 1
        oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
        out = (x.shape[0], oh, ow, c)
        name = self.fresh(f)
        if self.chance(0.5):
            self.emit(f, depth, "%%%s = tosa.max_pool2d %s {kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: %d, %d>} : (%s) -> %s %s" % (
                name, x.name, kh, kw, sh, sw, x.type, tensor_type(out, "f32"), self.loc(f, name)))
        else:
            z = self.zp(f)
            self.emit(f, depth, "%%%s = tosa.avg_pool2d %s, %s, %s {acc_type = f32, kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: %d, %d>} : (%s, tensor<1xf32>, tensor<1xf32>) -> %s %s" % (
                name, x.name, z, z, kh, kw, sh, sw, x.type, tensor_type(out, "f32"), self.loc(f, name)))
        return self.new_value(f, scope, name, out)

    def op_cast(self, f, scope, depth):
        """Through another element type and back: 1- and 2-byte tensors."""
        x = self.pick(scope, lambda v: v.dt == "f32")
        if x is None:
            return None
        dt = self.rng.choice(["i8", "i16", "i32", "f16"])
        y = self.cast(f, scope, depth, x, dt)
        if self.chance(0.5):
            r = self.rng.random()
            if r < 0.4:
                y = self.op_transpose_on(f, scope, depth, y)
            elif r < 0.7:
                size = tuple(self.rng.randint(1, d) for d in y.shape)
                y = self.slice_to(f, scope, depth, y, size)
            else:
                y = self.reshape(f, scope, depth, y, self.factor_shape(prod(y.shape), self.rng.randint(1, 4)))
        if self.chance(0.7):
            return self.cast(f, scope, depth, y, "f32")
        return y

    def op_transpose_on(self, f, scope, depth, x):
        if x.rank < 2:
            return x
        perm = list(range(x.rank))
        self.rng.shuffle(perm)
        shape = [x.shape[p] for p in perm]
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s %s" % (
            name, x.name, ", ".join(str(p) for p in perm), x.type,
            tensor_type(shape, x.dt), self.loc(f, name)))
        return self.new_value(f, scope, name, shape, x.dt)

    def op_select(self, f, scope, depth):
        a = self.pick(scope, lambda v: v.dt == "f32")
        if a is None:
            return None
        b = self.pick(scope, lambda v: v.shape == a.shape and v.dt == "f32" and v is not a, recent=0.3)
        if b is None:
            b = self.const(f, scope, depth, a.shape)
        c = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.greater %s, %s : (%s, %s) -> %s %s" % (
            c, a.name, b.name, a.type, b.type, tensor_type(a.shape, "i1"), self.loc(f, c)))
        cv = self.new_value(f, scope, c, a.shape, "i1")
        x = self.pick(scope, lambda v: v.shape == a.shape and v.dt == "f32", recent=0.3)
        name = self.fresh(f)
        self.emit(f, depth, "%%%s = tosa.select %s, %s, %s : (%s, %s, %s) -> %s %s" % (
            name, cv.name, x.name, b.name, cv.type, x.type, b.type, a.type, self.loc(f, name)))
        return self.new_value(f, scope, name, a.shape)

    def op_call(self, f, scope, depth):
        callees = [g for g in self.funcs if g.index > f.index]
        if not callees:
            return None
        g = self.rng.choice(callees)
        args = [self.value_of(f, scope, depth, s, dt, reuse=0.85) for s, dt in g.args]
        name = self.fresh(f, "c")
        rtypes = [tensor_type(s, dt) for s, dt in g.results]
        res = ("%%%s:%d = " % (name, len(rtypes))) if len(rtypes) > 1 else ("%%%s = " % name)
        self.emit(f, depth, "%sfunc.call @%s(%s) : (%s) -> (%s) %s" % (
            res, g.name, ", ".join(a.name for a in args),
            ", ".join(a.type for a in args), ", ".join(rtypes), self.loc(f, name)))
        out = []
        for i, (s, dt) in enumerate(g.results):
            n = "%s#%d" % (name, i) if len(rtypes) > 1 else name
            out.append(self.new_value(f, scope, n, s, dt))
        return out[-1] if out else None

    def cond(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.dt == "f32", recent=0.5)
        idx = [self.rng.randrange(d) for d in x.shape]
        e = self.fresh(f, "x")
        self.emit(f, depth, "%%%s = tensor.extract %s[%s] : %s" % (
            e, x.name, ", ".join(self.cindex(f, i) for i in idx), x.type))
        b = self.fresh(f, "b")
        self.emit(f, depth, "%%%s = arith.cmpf %s, %%%s, %%zf : f32" % (
            b, self.rng.choice(["ogt", "olt"]), e))
        return "%" + b

    def yields(self, f, local, depth, types, no_iter=False):
        out = []
        for s, dt in types:
            # Prefer a value computed in the region; else an outer one.
            cands = [v for v in local.values if v.shape == s and v.dt == dt
                     and not (no_iter and v.iter_arg)]
            if cands and self.chance(0.85):
                out.append(self.rng.choice(cands[-2:]))
            else:
                out.append(self.value_of(f, local, depth, s, dt, reuse=0.9,
                                         no_iter=no_iter))
        return out

    def op_if(self, f, scope, depth):
        if depth >= self.max_depth:
            return None
        b = self.cond(f, scope, depth)
        vis = [v for v in scope.visible() if v.dt == "f32"]
        types = []
        for _ in range(self.rng.randint(1, 2)):
            v = self.rng.choice(vis[-4:] if self.chance(0.6) else vis)
            types.append((v.shape, v.dt))
        name = self.fresh(f, "y")
        # Generate both branches first (into temporary line buffers).
        saved = f.lines
        branches = []
        for _ in range(2):
            f.lines = []
            local = Scope(scope)
            self.gen_ops(f, local, depth + 1, self.rng.randint(0, 3))
            ys = self.yields(f, local, depth + 1, types, no_iter=True)
            self.emit(f, depth + 1, "scf.yield %s : %s" % (
                ", ".join(y.name for y in ys), ", ".join(y.type for y in ys)))
            branches.append(f.lines)
        f.lines = saved
        rt = ", ".join(tensor_type(s, dt) for s, dt in types)
        res = ("%%%s:%d = " % (name, len(types))) if len(types) > 1 else ("%%%s = " % name)
        self.emit(f, depth, "%sscf.if %s -> (%s) {" % (res, b, rt))
        f.lines.extend(branches[0])
        self.emit(f, depth, "} else {")
        f.lines.extend(branches[1])
        self.emit(f, depth, "} %s" % self.loc(f, name))
        out = None
        for i, (s, dt) in enumerate(types):
            n = "%s#%d" % (name, i) if len(types) > 1 else name
            out = self.new_value(f, scope, n, s, dt)
        return out

    def loop_body(self, f, scope, depth, inits, index_arg=None):
        """The body of a loop carrying `inits`: (iter_args, body lines,
        yielded values). `index_arg`, a (name, type) pair, is a block
        argument before the tensors (an scf.while's counter)."""
        local = Scope(scope)
        iters = []
        for v in inits:
            it = self.fresh(f, "it")
            iters.append(("%" + it, v))
        saved = f.lines
        f.lines = []
        for it, v in iters:
            local.values.append(Value(it, v.shape, v.dt, iter_arg=True))
        self.gen_ops(f, local, depth + 1, self.rng.randint(1, 3))
        types = [(v.shape, v.dt) for _, v in iters]
        ys = self.yields(f, local, depth + 1, types)
        # One-Shot Bufferize needs each yielded value to be equivalent to
        # its iter_arg: the last write of each is an elementwise generic
        # into the iter_arg, reading only a fresh copy of what the body
        # computed (so that no later read makes it out of place). With
        # control flow weighted up, some loops carry the new value as it is
        # instead, which needs a second buffer or a copy back.
        temps = []
        for y, (it, _) in zip(ys, iters):
            if y.name == it or y.dt != "f32":
                temps.append(None)
            elif self.control_flow > 1 and self.chance(0.3):
                temps.append(None)
            else:
                temps.append(self.emit_generic(f, local, depth + 1, [y], None))
        ys2 = []
        for y, t, (it, v) in zip(ys, temps, iters):
            if t is not None:
                y = self.emit_generic(f, local, depth + 1, [t], Value(it, v.shape, v.dt))
            ys2.append(y)
        body = f.lines
        f.lines = saved
        return iters, body, ys2

    def loop_inits(self, scope):
        inits = []
        for _ in range(self.rng.randint(1, 2)):
            v = self.pick(scope, lambda v: v.dt == "f32" and v not in inits)
            if v is not None:
                inits.append(v)
        return inits

    def op_for(self, f, scope, depth):
        if depth >= self.max_depth:
            return None
        inits = self.loop_inits(scope)
        if not inits:
            return None
        name = self.fresh(f, "l")
        iv = self.fresh(f, "i")
        ub = self.rng.randint(1, 3)
        iters, body, ys2 = self.loop_body(f, scope, depth, inits)
        body.append("    " + "  " * (depth + 1) + "scf.yield %s : %s" % (
            ", ".join(y.name for y in ys2), ", ".join(y.type for y in ys2)))
        rt = ", ".join(v.type for _, v in iters)
        res = ("%%%s:%d = " % (name, len(iters))) if len(iters) > 1 else ("%%%s = " % name)
        self.emit(f, depth, "%sscf.for %%%s = %s to %s step %s iter_args(%s) -> (%s) {" % (
            res, iv, self.cindex(f, 0), self.cindex(f, ub), self.cindex(f, 1),
            ", ".join("%s = %s" % (it, v.name) for it, v in iters), rt))
        f.lines.extend(body)
        self.emit(f, depth, "} %s" % self.loc(f, name))
        out = None
        for i, (_, v) in enumerate(iters):
            n = "%s#%d" % (name, i) if len(iters) > 1 else name
            out = self.new_value(f, scope, n, v.shape, v.dt)
        return out

    def op_while(self, f, scope, depth):
        """scf.while carrying a counter and one or two tensors; the before
        region tests the counter (and passes the tensors on), the after
        region is a loop body as op_for's."""
        if depth >= self.max_depth:
            return None
        inits = self.loop_inits(scope)
        if not inits:
            return None
        name = self.fresh(f, "w")
        ub = self.rng.randint(1, 3)
        k0, k1, k2, c = (self.fresh(f, p) for p in ("wk", "wk", "wk", "wc"))
        before = ["%" + self.fresh(f, "bt") for _ in inits]
        iters, body, ys2 = self.loop_body(f, scope, depth, inits)
        rt = ", ".join(v.type for _, v in iters)
        d = depth + 1
        self.emit(f, depth, "%%%s:%d = scf.while (%%%s = %s, %s) : (index, %s) -> (index, %s) {" % (
            name, len(iters) + 1, k0, self.cindex(f, 0),
            ", ".join("%s = %s" % (b, v.name) for b, (_, v) in zip(before, iters)),
            rt, rt))
        self.emit(f, d, "%%%s = arith.cmpi slt, %%%s, %s : index" % (c, k0, self.cindex(f, ub)))
        self.emit(f, d, "scf.condition(%%%s) %%%s, %s : index, %s" % (
            c, k0, ", ".join(before), rt))
        self.emit(f, depth, "} do {")
        self.emit(f, depth, "^bb0(%%%s: index, %s):" % (
            k1, ", ".join("%s: %s" % (it, v.type) for it, v in iters)))
        f.lines.extend(body)
        self.emit(f, d, "%%%s = arith.addi %%%s, %s : index" % (k2, k1, self.cindex(f, 1)))
        self.emit(f, d, "scf.yield %%%s, %s : index, %s" % (
            k2, ", ".join(y.name for y in ys2), ", ".join(y.type for y in ys2)))
        self.emit(f, depth, "} %s" % self.loc(f, name))
        out = None
        for i, (_, v) in enumerate(iters):
            out = self.new_value(f, scope, "%s#%d" % (name, i + 1), v.shape, v.dt)
        return out

    OPS = [
        ("binary", 14), ("unary", 6), ("generic", 10), ("fill", 3),
        ("insert_slice", 4), ("conv", 8), ("matmul", 7), ("reshape", 4),
        ("concat", 4), ("slice", 4), ("pad", 3), ("reduce", 4),
        ("transpose", 3), ("pool", 3), ("cast", 4), ("select", 3),
        ("call", 10), ("if", 7), ("for", 5),
    ]

    # Swarm testing: each seed enables a random subset of the op kinds (and
    # of in-place writes into live values, which bufferization may have to
    # copy), so that programs differ in kind, not only in detail.
    ALWAYS = ("binary", "unary", "conv", "matmul")

    # Ops of control flow, whose weights --control-flow multiplies; scf.while
    # is generated only then (the default programs stay as they were).
    CONTROL_FLOW = ("if", "for", "while")

    def choose_features(self):
        self.enabled = {}
        for op, _ in self.OPS:
            p = 1.0 if op in self.ALWAYS else 0.6
            if op in ("fill", "insert_slice"):
                p = 0.35
            self.enabled[op] = self.chance(p)
        self.inplace_inits = self.chance(0.35)
        self.ops = list(self.OPS)
        if self.control_flow > 1:
            self.ops.append(("while", 5))
            for op in self.CONTROL_FLOW:
                self.enabled[op] = True
            self.ops = [(o, w * self.control_flow if o in self.CONTROL_FLOW else w)
                        for o, w in self.ops]

    def gen_ops(self, f, scope, depth, n):
        names = [o for o, _ in self.ops if self.enabled[o]]
        weights = [w for o, w in self.ops if self.enabled[o]]
        for _ in range(n):
            for _attempt in range(4):
                op = self.rng.choices(names, weights)[0]
                r = getattr(self, "op_" + op)(f, scope, depth)
                if r is not None:
                    break

    # ------------------------------------------------------------ module
    def interface_types(self):
        types = []
        for _ in range(self.rng.randint(1, 3)):
            types.append((self.random_shape(48), "f32"))
        return types

    def generate(self):
        rng = self.rng
        self.choose_features()
        single = self.chance(0.35)
        nfuncs = 1 if single else rng.randint(2, 4)
        itypes = self.interface_types()
        for i in range(nfuncs):
            nargs = rng.randint(1, 2 if single else 3)
            nres = rng.randint(1, 2 if single else 3)
            args = [rng.choice(itypes) for _ in range(nargs)]
            results = [rng.choice(itypes) for _ in range(nres)]
            self.funcs.append(Func(i, args, results))
        # Bodies: callees' signatures are known up front.
        for f in reversed(self.funcs):
            scope = Scope()
            for k, (s, dt) in enumerate(f.args):
                scope.values.append(Value("%%a%d" % k, s, dt))
            n = rng.randint(8, 16) if single else rng.randint(3, 9)
            self.gen_ops(f, scope, 0, n)
            outs = []
            for s, dt in f.results:
                if self.chance(0.15):
                    # An argument or an earlier value returned as is.
                    v = self.pick(scope, lambda v: v.shape == s and v.dt == dt, recent=0.0)
                    if v is not None:
                        outs.append(v)
                        continue
                cands = [v for v in scope.values if v.shape == s and v.dt == dt]
                if cands and self.chance(0.8):
                    outs.append(rng.choice(cands[-3:]))
                else:
                    src = self.pick(scope, lambda v: v.dt in FLOAT_TYPES, recent=0.9)
                    outs.append(self.adapt(f, scope, 0, src, s, dt))
            f.outs = outs
        self.gen_harness()
        self.gen_config()

    def gen_harness(self):
        rng = self.rng
        h = Func(-1, [], [])
        h.name = "main"
        self.harness = h
        scope = Scope()
        ninputs = rng.randint(1, 3)
        shapes = sorted({s for g in self.funcs for s, _ in g.args})
        for _ in range(ninputs):
            s = rng.choice(shapes)
            name = self.fresh(h, "in")
            vals = [fmt_float(self.nonzero(-1.5, 1.5)) for _ in range(prod(s))]
            self.emit(h, 0, "%%%s = arith.constant dense<%s> : %s" % (
                name, dense_literal(s, vals), tensor_type(s, "f32")))
            scope.values.append(Value("%" + name, s))
        # A call of f0 first, then calls of any planned function (the same
        # one again, inner ones directly), fed with inputs or earlier results
        # (also results of a call before the last one), and results printed
        # right away or after later calls.
        ncalls = rng.randint(1, 2) if len(self.funcs) == 1 else rng.randint(2, 4)
        late = []
        born = {}  # result name -> index of the call that made it
        copies = {}  # result name -> its copy (with no_stale)

        def use(v, k):
            # A result read after a later call: with no_stale, its copy;
            # with copy_results, every use of a result reads its copy.
            if v.name in born and (self.copy_results or (
                    self.no_stale and born[v.name] < k)):
                return copies[v.name]
            return v

        for k in range(ncalls):
            g = self.funcs[0] if k == 0 else rng.choice(self.funcs)
            args = []
            for s, dt in g.args:
                cands = [v for v in scope.values if v.shape == s and v.dt == dt]
                results = [v for v in cands if v.name in born]
                if results and self.chance(0.6):
                    args.append(use(rng.choice(results), k - 1))
                elif cands:
                    args.append(use(rng.choice(cands), k - 1))
                else:
                    src = use(rng.choice(scope.values), k - 1)
                    args.append(self.adapt(h, scope, 0, src, s, dt))
            name = self.fresh(h, "r")
            rtypes = [tensor_type(s, dt) for s, dt in g.results]
            res = ("%%%s:%d = " % (name, len(rtypes))) if len(rtypes) > 1 else ("%%%s = " % name)
            self.emit(h, 0, "%scall @%s(%s) : (%s) -> (%s)" % (
                res, g.name, ", ".join(a.name for a in args),
                ", ".join(a.type for a in args), ", ".join(rtypes)))
            rs = []
            for i, (s, dt) in enumerate(g.results):
                n = "%%%s#%d" % (name, i) if len(rtypes) > 1 else "%" + name
                v = Value(n, s, dt)
                scope.values.append(v)
                born[n] = k
                if self.no_stale or self.copy_results:
                    copies[n] = self.copy(h, v)
                rs.append(v)
            for v in rs:
                mode = rng.choice(["now", "now", "copy", "late"])
                if mode == "late" and self.no_stale:
                    mode = "copy"
                if mode == "now":
                    self.print_bits(h, self.to_bits(h, v))
                elif mode == "copy":
                    late.append(self.to_bits(h, v))
                else:
                    late.append(v)
        for v in late:
            if v.dt != "i32":
                v = self.to_bits(h, v)
            self.print_bits(h, v)

    def copy(self, h, v):
        e = self.fresh(h, "ce")
        c = self.fresh(h, "copy")
        self.emit(h, 0, "%%%s = tensor.empty() : %s" % (e, v.type))
        self.emit(h, 0, "%%%s = linalg.copy ins(%s : %s) outs(%%%s : %s) -> %s" % (
            c, v.name, v.type, e, v.type, v.type))
        return Value("%" + c, v.shape, v.dt)

    def to_bits(self, h, v):
        """The bit pattern of every element, as i32 (a copy)."""
        e = self.fresh(h, "be")
        b = self.fresh(h, "bits")
        t = tensor_type(v.shape, "i32")
        self.emit(h, 0, "%%%s = tensor.empty() : %s" % (e, t))
        m = idmap(v.rank)
        self.emit(h, 0, '%%%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} ins(%s : %s) outs(%%%s : %s) {' % (
            b, m, m, ", ".join(['"parallel"'] * v.rank), v.name, v.type, e, t))
        self.emit(h, 0, "^bb0(%%x: %s, %%o: i32):" % v.dt)
        if v.dt == "f32":
            self.emit(h, 1, "%y = arith.bitcast %x : f32 to i32")
        elif v.dt == "f16":
            self.emit(h, 1, "%z = arith.bitcast %x : f16 to i16")
            self.emit(h, 1, "%y = arith.extui %z : i16 to i32")
        else:
            self.emit(h, 1, "%%y = arith.extsi %%x : %s to i32" % v.dt)
        self.emit(h, 1, "linalg.yield %y : i32")
        self.emit(h, 0, "} -> %s" % t)
        return Value("%" + b, v.shape, "i32")

    def print_bits(self, h, v):
        u = self.fresh(h, "u")
        self.emit(h, 0, "%%%s = tensor.cast %s : %s to tensor<*xi32>" % (u, v.name, v.type))
        self.emit(h, 0, "call @printMemrefI32(%%%s) : (tensor<*xi32>) -> ()" % u)

    # ------------------------------------------------------------ rules, options
    def gen_config(self):
        rng = self.rng
        consts = [(f.name, n, b) for f in self.funcs for n, b in f.const_bytes]
        self.rules = []
        limit = self.chance(0.45)
        if consts and self.chance(0.6):
            for _ in range(rng.randint(1, 3)):
                fname, n, _ = rng.choice(consts)
                r = rng.random()
                if r < 0.3:
                    ids = '"%s/%s"' % (fname, n)
                elif r < 0.6:
                    ids = '"%s/w*"' % fname
                elif r < 0.8:
                    ids = '"*/%s"' % n
                else:
                    ids = None
                kind = rng.choice(["stream", "stream", "pin", "pin", "cold", "scratch"])
                idpart = ", id = [%s]" % ids if ids else ""
                if kind == "stream":
                    self.rules.append("#helia.rule<type = constant%s, attributes = <residency = stream>>" % idpart)
                elif kind == "pin":
                    dst = rng.choice(["dtcm", "dtcm", "sram", "itcm"])
                    self.rules.append('#helia.rule<type = constant%s, attributes = <memory = "mram", constant_destination_memory = "%s">>' % (idpart, dst))
                elif kind == "cold":
                    self.rules.append('#helia.rule<type = constant%s, attributes = <memory = "%s">>' % (
                        idpart, rng.choice(["mram", "sram"])))
                else:
                    f = rng.choice(self.funcs)
                    self.rules.append('#helia.rule<type = scratch, id = ["%s/*"], attributes = <memory = "%s">>' % (
                        f.name, "sram" if limit else rng.choice(["sram", "dtcm"])))
        total_consts = sum(b for _, _, b in consts)
        scratch = max(f.value_bytes for f in self.funcs)
        opts = []
        opts.append("arena-mode=%s" % rng.choice(["global", "arg", "alloc"]))
        opts.append("algorithm=%s" % rng.choice(["best", "heuristic", "greedy-by-size"]))
        if limit:
            # Small enough that scratch spills out of dtcm (the sum of all
            # tensors of the largest function is far above its peak); large
            # enough for every constant that a rule may pin or stream
            # there (aligned to 16 each).
            aligned = sum((b + 15) // 16 * 16 for _, _, b in consts)
            in_dtcm = any('"dtcm"' in r or "stream" in r for r in self.rules)
            limit = (aligned if in_dtcm else 0) + int(scratch * rng.uniform(0.05, 0.5))
            limit = (limit + 15) // 16 * 16
            opts.append("memory-limit=dtcm=%d" % limit)
        if self.chance(0.15):
            opts.append("stream-pool=sram")
        self.options = opts

    def module_text(self, no_rules=False):
        out = []
        for r in (1, 2, 3, 4):
            out.append("#id%d = affine_map<(%s) -> (%s)>" % (
                r, ", ".join("d%d" % i for i in range(r)), ", ".join("d%d" % i for i in range(r))))
        attrs = ['helia.platform = "apollo510_evb"']
        if self.rules and not no_rules:
            attrs.append("helia.rules = [%s]" % ", ".join(self.rules))
        out.append("// Generated by fuzz/differential/gen.py %d" % self.seed)
        out.append("module attributes {%s} {" % ", ".join(attrs))
        out.append("  func.func private @printMemrefI32(tensor<*xi32> {bufferization.access = \"read\"})")
        for f in self.funcs:
            sig = ", ".join("%%a%d: %s" % (k, tensor_type(s, dt)) for k, (s, dt) in enumerate(f.args))
            rt = ", ".join(tensor_type(s, dt) for s, dt in f.results)
            out.append("  func.func @%s(%s) -> (%s) {" % (f.name, sig, rt))
            out.extend(self.prologue(f))
            out.extend(f.lines)
            out.append("    return %s : %s" % (", ".join(v.name for v in f.outs), rt))
            out.append("  }")
        out.append("  func.func @%s_hydrate_constants() attributes {helia.unplanned} {" % self.funcs[0].name)
        out.append("    return")
        out.append("  }")
        out.append("  func.func @main() attributes {helia.unplanned} {")
        out.append("    call @%s_hydrate_constants() : () -> ()" % self.funcs[0].name)
        out.extend(self.harness.lines)
        out.append("    return")
        out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"

    def prologue(self, f):
        lines = []
        if f.zp_needed:
            lines.append('    %%zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32> loc("%s/zp")' % f.name)
        if f.shift_needed:
            lines.append('    %%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8> loc("%s/shift")' % f.name)
        lines.append("    %zf = arith.constant 0.0 : f32")
        for k in sorted(f.index_consts):
            lines.append("    %%ci%d = arith.constant %d : index" % (k, k))
        return lines


def generate(seed, no_stale=False, copy_results=False, control_flow=1):
    g = Gen(seed, control_flow)
    g.no_stale = no_stale or copy_results
    g.copy_results = copy_results
    g.generate()
    return g


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("seed", type=int)
    p.add_argument("--options", action="store_true",
                   help="print the pipeline options this seed chooses")
    p.add_argument("--no-stale-results", action="store_true")
    p.add_argument("--copy-results", action="store_true")
    p.add_argument("--no-rules", action="store_true")
    p.add_argument("--no-limit", action="store_true")
    p.add_argument("--global", dest="force_global", action="store_true")
    p.add_argument("--control-flow", type=int, default=1, metavar="K",
                   help="multiply the weights of scf.if and scf.for by K and "
                        "generate scf.while too (K > 1)")
    a = p.parse_args()
    g = generate(a.seed, no_stale=a.no_stale_results, copy_results=a.copy_results,
                 control_flow=a.control_flow)
    if a.options:
        print(" ".join(options_of(g, a.no_limit, a.force_global)))
    else:
        sys.stdout.write(g.module_text(no_rules=a.no_rules))


def options_of(g, no_limit=False, force_global=False):
    out = []
    for o in g.options:
        if no_limit and o.startswith("memory-limit"):
            continue
        if force_global and o.startswith("arena-mode"):
            o = "arena-mode=global"
        out.append(o)
    return out


if __name__ == "__main__":
    main()
