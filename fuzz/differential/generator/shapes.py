"""Ops that move elements: reshape, concat, slice, pad, transpose and
tensor.insert_slice."""

from .values import MAX_ELEMS, FLOAT_TYPES, prod, tensor_type


class ShapeOps:
    """Generators of ops that move elements, mixed into Gen (program.py)."""

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

    def op_transpose(self, f, scope, depth):
        x = self.pick(scope, lambda v: v.rank >= 2)
        if x is None:
            return None
        return self.op_transpose_on(f, scope, depth, x)

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
