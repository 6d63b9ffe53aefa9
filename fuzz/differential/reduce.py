#!/usr/bin/env python3
"""Reduces a failing module of the differential fuzzer to a smaller one
that fails the same way.

usage: reduce.py MODULE [--options "arena-mode=arg ..."] [-o OUT]
       reduce.py --seed N [-o OUT]    (the module and options of seed N)

"The same way" is the class of run.py (DIFFERENT, rejected, crashed) and,
for a rejection or crash, the same first error message (locations
aside). The module is printed in MLIR's generic form, whose every op
states its result types, so that an op can be deleted and each use of its
results replaced by an earlier value of the same type (a function argument
or an earlier result). Ops are tried from the last to the first, then
unused functions and the pipeline options one by one, until nothing more
can go. Each try is one planned and one plain run (about half a second).
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import run  # noqa: E402

HEADER = re.compile(r"^(\s*)(%[\w]+)(?::(\d+))? = ")
ARG = re.compile(r"(%arg\d+): ([^,)\s]+)")
LOCS = re.compile(r' loc\((?:"<stdin>":\d+:\d+|unknown)\)')


def split_types(s):
    s = s.strip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def result_types(last_line):
    p = last_line.rfind(" -> ")
    if p < 0:
        return []
    q = last_line.find(" loc(", p)
    return split_types(last_line[p + 4:q if q >= 0 else None])


class Stmt:
    def __init__(self, start, end, indent, results, types):
        self.start, self.end = start, end  # lines [start, end)
        self.indent = indent
        self.results, self.types = results, types


def indent_of(line):
    return len(line) - len(line.lstrip())


def functions(lines):
    """(name, first body line, end line, [(arg, type)]) of every defined
    function; bodies are the lines at indent 4."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('  "func.func"()') and line.rstrip().endswith("({"):
            name = re.search(r'sym_name = "([^"]+)"', line).group(1)
            j = i + 1
            args = []
            if lines[j].strip().startswith("^bb0("):
                args = ARG.findall(lines[j])
                j += 1
            k = j
            while not lines[k].startswith("  })"):
                k += 1
            out.append((name, j, k, args))
            i = k
        i += 1
    return out


TERMINATORS = ('"func.return"', '"scf.yield"', '"linalg.yield"', '"tensor.yield"')


def statements(lines, begin, end):
    """Every op of a function body, nested ones included (generic form: a
    region's block label is at its op's indent, its ops two deeper)."""
    out = []
    i = begin
    while i < end:
        d = indent_of(lines[i])
        if lines[i].lstrip().startswith(("^", "}")):
            i += 1
            continue
        j = i + 1
        while j < end and (indent_of(lines[j]) > d or (
                indent_of(lines[j]) == d and lines[j].lstrip().startswith(("}", "^")))):
            j += 1
        m = HEADER.match(lines[i])
        results, types = [], []
        if m:
            n = int(m.group(3) or 1)
            name = m.group(2)
            results = [name] if n == 1 else ["%s#%d" % (name, k) for k in range(n)]
            types = result_types(lines[j - 1])
            if len(types) != len(results):
                types = [None] * len(results)
        out.append(Stmt(i, j, d, results, types))
        i += 1  # also the ops nested in this one
    return out


def in_scf_or_function(lines, fn, st):
    """Is st directly in a function body or in an scf region? (The scalar
    body of a linalg op is left alone: its init block argument may be
    uninitialized.)"""
    if st.indent == 4:
        return True
    for i in range(st.start - 1, fn[1] - 1, -1):
        line = lines[i]
        if indent_of(line) == st.indent - 2 and not line.lstrip().startswith(("^", "}")):
            return '"scf.' in line
    return False


def visible(lines, k, dk, s):
    """Is a value defined on line k at indent dk visible on line s?"""
    return all(indent_of(lines[i]) >= dk for i in range(k + 1, s))


def use_pattern(name):
    if "#" in name:
        return re.compile(re.escape(name) + r"(?!\d)")
    return re.compile(re.escape(name) + r"(?![\w#])")


class Reducer:
    def __init__(self, tools, text, opts, verbose, no_stale=False):
        self.tools = tools
        self.no_stale = no_stale
        self.opts = list(opts)
        self.verbose = verbose
        self.tries = 0
        self.text = self.generic(text)
        cls, detail, _, _ = run.compare(tools, self.text, self.opts)
        self.want = (cls, self.key(cls, detail))
        self.detail = "%s %s" % (cls, detail)
        if cls in ("same", "invalid"):
            raise SystemExit("the module does not fail (%s %s)" % (cls, detail))

    def generic(self, text):
        p = subprocess.run([self.tools.helia_opt, "-", "--mlir-print-op-generic",
                            "--mlir-print-debuginfo", "--mlir-print-local-scope"],
                           input=text.encode(), capture_output=True)
        if p.returncode != 0:
            raise SystemExit(p.stderr.decode())
        return LOCS.sub("", p.stdout.decode())

    @staticmethod
    def key(cls, detail):
        if cls == "DIFFERENT":
            return ""
        detail = re.sub(r'loc\([^)]*\)|<stdin>:\d+:\d+|<unknown>:0', "", detail)
        return re.sub(r"\d+", "N", detail)

    def fails(self, text, opts=None):
        self.tries += 1
        cls, detail, _, _ = run.compare(self.tools, text, self.opts if opts is None else opts)
        return (cls, self.key(cls, detail)) == self.want

    def try_delete(self, lines, fn, st, stmts):
        # With no_stale, the harness keeps its copies of call results and
        # never reads a call result in place of one: a reduction must not
        # turn into a read of a result after a later call.
        harness = self.no_stale and fn[0] == "main"
        if harness and '"linalg.copy"' in lines[st.start]:
            return None
        avail = list(fn[3])  # (name, type) visible at st
        for k in range(fn[1], st.start):
            line = lines[k]
            label = line.lstrip().startswith("^")
            if label and indent_of(line) + 2 <= st.indent and visible(
                    lines, k, indent_of(line) + 2, st.start):
                avail.extend(ARG.findall(line))
        for s in stmts:
            if s.start >= st.start:
                break
            if s.indent > st.indent or not visible(lines, s.start, s.indent, st.start):
                continue
            # Never a tensor.empty: reading it would print garbage.
            if '"tensor.empty"' in lines[s.start]:
                continue
            if harness and '"func.call"' in lines[s.start]:
                continue
            avail.extend((r, t) for r, t in zip(s.results, s.types) if t)
        rest = "\n".join(lines[st.end:])
        repl = {}
        for r, t in zip(st.results, st.types):
            if not use_pattern(r).search(rest):
                continue
            if t == "index":
                return None  # a loop bound or step: could make it infinite
            cands = [a for a, at in avail if at == t and t is not None]
            if not cands:
                return None
            repl[r] = cands[-1]
        new_rest = rest
        for r, a in repl.items():
            new_rest = use_pattern(r).sub(a, new_rest)
        return "\n".join(lines[:st.start]) + "\n" + new_rest

    def pass_statements(self):
        changed = False
        lines = self.text.split("\n")
        fns = functions(lines)
        # Last function first, last statement first; positions are
        # recomputed after every successful deletion.
        fi = len(fns) - 1
        while fi >= 0:
            lines = self.text.split("\n")
            fns = functions(lines)
            if fi >= len(fns):
                fi = len(fns) - 1
                continue
            fn = fns[fi]
            stmts = statements(lines, fn[1], fn[2])
            k = len(stmts) - 1
            while k >= 0:
                st = stmts[k]
                if not any(t in lines[st.start] for t in TERMINATORS) and \
                        in_scf_or_function(lines, fn, st):
                    cand = self.try_delete(lines, fn, st, stmts)
                    if cand is not None and self.fails(cand):
                        self.text = cand
                        changed = True
                        if self.verbose:
                            print("  deleted an op of @%s (%d lines left, %d tries)" % (
                                fn[0], len(self.text.split("\n")), self.tries),
                                file=sys.stderr, flush=True)
                        lines = self.text.split("\n")
                        fns = functions(lines)
                        fn = fns[fi]
                        stmts = statements(lines, fn[1], fn[2])
                        k = min(k, len(stmts)) - 1
                        continue
                k -= 1
            fi -= 1
        return changed

    def pass_functions(self):
        changed = False
        for name, b, e, _ in functions(self.text.split("\n")):
            if name in ("main", "f0") or name.endswith("_hydrate_constants"):
                continue
            lines = self.text.split("\n")
            fns = {f[0]: f for f in functions(lines)}
            if name not in fns or ("@" + name) in "\n".join(
                    l for i, l in enumerate(lines) if not (fns[name][1] - 1 <= i <= fns[name][2])
                    and "sym_name" not in l):
                continue
            start = fns[name][1] - (1 if lines[fns[name][1] - 1].strip().startswith("^bb0") else 0) - 1
            cand = "\n".join(lines[:start] + lines[fns[name][2] + 1:])
            if self.fails(cand):
                self.text = cand
                changed = True
        return changed

    def pass_options(self):
        changed = False
        for o in list(self.opts):
            opts = [x for x in self.opts if x != o]
            if self.fails(self.text, opts):
                self.opts = opts
                changed = True
        if "helia.rules" in self.text:
            cand = re.sub(r", helia.rules = \[.*?\]\}", "}", self.text, count=1)
            cand = re.sub(r"helia.rules = \[.*?\], ", "", cand, count=1)
            if cand != self.text and self.fails(cand):
                self.text = cand
                changed = True
        return changed

    def reduce(self):
        while True:
            a = self.pass_statements()
            b = self.pass_functions()
            c = self.pass_options()
            if not (a or b or c):
                break

    def pretty(self):
        p = subprocess.run([self.tools.helia_opt, "-", "--mlir-print-debuginfo",
                            "--mlir-print-local-scope"],
                           input=self.text.encode(), capture_output=True)
        return LOCS.sub("", p.stdout.decode())


def main():
    run.set_timeout(20)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("module", nargs="?")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--options", default="")
    p.add_argument("-o", "--output", default="-")
    p.add_argument("--helia-opt", default="build/bin/helia-opt")
    p.add_argument("--mlir-runner", default=run.llvm_prefix.tool("mlir-runner"))
    p.add_argument("--shared-libs", default=",".join(run.llvm_prefix.runner_libs()))
    p.add_argument("--no-stale-results", action="store_true",
                   help="with --seed: the module of gen.py --no-stale-results, "
                   "and keep the harness free of reads of stale results")
    p.add_argument("--copy-results", action="store_true",
                   help="with --seed: the module of gen.py --copy-results, "
                   "kept free of call arguments that are call results")
    p.add_argument("--control-flow", type=int, default=1, metavar="K",
                   help="with --seed: the module of gen.py --control-flow K")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()
    tools = run.Tools(a)
    if a.seed is not None:
        g = gen.generate(a.seed, no_stale=a.no_stale_results,
                         copy_results=a.copy_results,
                         control_flow=a.control_flow)
        text, opts = g.module_text(), gen.options_of(g)
    else:
        with open(a.module) as fh:
            text = fh.read()
        opts = a.options.split()
    r = Reducer(tools, text, opts, a.verbose,
                no_stale=a.no_stale_results or a.copy_results)
    r.reduce()
    origin = "seed %d" % a.seed if a.seed is not None else a.module
    out = "// %s  [reduced from %s by fuzz/differential/reduce.py]\n" \
          "// helia-memory-pipeline options: %s\n%s" % (
              r.detail, origin, " ".join(r.opts) or "(none)", r.pretty())
    if a.output == "-":
        sys.stdout.write(out)
    else:
        with open(a.output, "w") as fh:
            fh.write(out)
    print("%d tries, %d lines" % (r.tries, len(out.split("\n"))), file=sys.stderr)


if __name__ == "__main__":
    main()
