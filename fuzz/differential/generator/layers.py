"""The ops of a network layer: conv2d and depthwise_conv2d, matmul and
batch_matmul, max and average pooling, reductions."""

from .values import MAX_ELEMS, FLOAT_TYPES, prod, tensor_type


class LayerOps:
    """Layer op generators, mixed into Gen (program.py)."""

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
