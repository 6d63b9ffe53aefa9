"""Elementwise ops: TOSA binary and unary ops (with broadcasting),
linalg.generic and the named elementwise linalg ops, linalg.fill,
greater + select, and casts through other element types."""

from .values import FLOAT_TYPES, Value, fmt_float, idmap, prod, tensor_type


class ElementwiseOps:
    """Elementwise op generators, mixed into Gen (program.py)."""

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

    def op_unary_on(self, f, scope, depth, a):
        name = self.fresh(f)
        op = self.rng.choice(["abs", "sigmoid", "tanh"])
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
