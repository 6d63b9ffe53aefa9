"""The limits of a program: random helia.rules and the
helia-memory-pipeline options (arena mode, algorithm, memory limit,
stream pool)."""


class Configuration:
    """The rules and options generator, mixed into Gen (program.py)."""

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
