"""Calls and control flow: func.call of a later function, scf.if on a
data-dependent condition, scf.for and scf.while carrying tensors."""

from .values import Scope, Value, tensor_type


class ControlFlowOps:
    """Call and region generators, mixed into Gen (program.py); the
    regions' bodies come from Gen.gen_ops."""

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
