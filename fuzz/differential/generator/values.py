"""Tensor values, scopes and functions as the generator tracks them, and
the text of MLIR types and literals."""

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
