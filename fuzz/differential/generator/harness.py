"""The unplanned harness @main: calls of the planned functions in
sequence, every result printed as its bit pattern."""

from .values import Func, Scope, Value, dense_literal, fmt_float, idmap, prod, tensor_type


class Harness:
    """The harness generator, mixed into Gen (program.py)."""

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
