#!/usr/bin/env python3
"""Differential execution fuzzer: every generated program runs planned and
plain, and must print the same bits.

usage: run.py [--start S|auto] [--count N | --seeds A,B,... | --seconds T]
              [-j 2] [--keep DIR] [--helia-opt PATH] [--mlir-runner PATH]
              [--triage] [--no-stale-results] [--plain-only] [-v]
              [--extra-options "in-place=true"] [--control-flow K]
              [--plan-only [--json FILE]] [--timeout SECONDS]
       run.py --module FILE [--options "arena-mode=arg ..."]

For each seed, fuzz/differential/gen.py writes a module (and chooses
helia-memory-pipeline options); the module then runs

  planned: TOSA to linalg, helia-memory-pipeline{lower=true lower-copies=true
           OPTIONS}, the LLVM lowering, mlir-runner
  plain:   TOSA to linalg, inline, one-shot-bufferize{bufferize-function-boundaries
           function-boundary-type-conversion=identity-layout-map}, the same
           LLVM lowering, mlir-runner

and the outputs are compared byte for byte (the base addresses that
printMemrefI32 prints are masked). Each seed is one of:

  same       identical output
  DIFFERENT  planned output differs from plain: a wrong plan
  rejected   helia (or the lowering of its output) fails with an error
  crashed    helia or the planned program crashed, or timed out
  invalid    the plain program fails, or (checked when the outputs differ)
             prints otherwise with the heap filled by MALLOC_PERTURB_: a
             generator bug

With --plan-only, each seed runs only the planned pipeline (no lowering to
LLVM, no execution): it is `planned`, `rejected` or `crashed`, and the
rejections are counted by the class of their first error (names and numbers
aside); --json FILE writes seed -> [status, first error]. A planned seed
must still run without --plan-only to know it is `same`.

Exit status 0 when every seed is `same` (with --plan-only: `planned`). The modules of the failing seeds
stay in the --keep directory (default: a fresh temporary directory), with
the commands that reproduce them. See docs/Hardening.md.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)

TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, "
        "tosa-to-tensor)")
# The reference inlines the calls first: across function boundaries,
# upstream One-Shot Bufferize lets a write through one result of a call that
# returns the same argument twice show in the other result (seed 1747,
# docs/Hardening.md), which the planned program rightly does not.
# Loops may yield a new tensor for an iter_arg (gen.py --control-flow):
# the reference then allocates one per iteration.
PLAIN = ("inline, one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops}")
# test/Integration's %{to_llvm}.
LLVM_PASSES = ["convert-vector-to-scf", "convert-linalg-to-loops",
               "lower-affine", "convert-scf-to-cf", "expand-strided-metadata",
               "lower-affine", "convert-vector-to-llvm",
               "finalize-memref-to-llvm", "convert-to-llvm",
               "reconcile-unrealized-casts"]
TO_LLVM = ["--" + p for p in LLVM_PASSES]
TIMEOUT = 60
ADDR = re.compile(rb"base@ = 0x[0-9a-f]+")
# The reference inlines calls, so a function that returns a slice of a larger
# tensor prints there as a strided view (offset, strides) while the planned
# call copies it into a result slot of its own: the header's offset and
# strides say where the elements sit, not what they are. Shapes and every
# element are still compared.
LAYOUT = re.compile(rb"offset = \d+ (sizes = \[[\d, ]*\]) strides = \[[\d, ]*\]")


def normalize(out):
    return LAYOUT.sub(rb"\1", ADDR.sub(b"base@ = ADDR", out))
CRASH = re.compile(r"PLEASE submit a bug report|Stack dump|Segmentation fault|"
                   r"Assertion .* failed|LLVM ERROR|AddressSanitizer|"
                   r"UndefinedBehaviorSanitizer|runtime error:")


class Tools:
    def __init__(self, args):
        self.helia_opt = args.helia_opt
        self.runner = args.mlir_runner
        self.libs = args.shared_libs
        self.no_stale = args.no_stale_results
        self.plain_only = getattr(args, "plain_only", False)
        self.extra_options = getattr(args, "extra_options", "").split()
        self.control_flow = getattr(args, "control_flow", 1)
        self.plan_only = getattr(args, "plan_only", False)

    def planned_pipeline(self, opts):
        return "builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true %s})" % (
            TOSA, " ".join(opts))

    def plain_pipeline(self):
        # helia-lower-copies only drops the helia attributes (the module's
        # rules) that mlir-runner cannot read, as test/Integration does.
        return "builtin.module(%s, %s, helia-lower-copies)" % (TOSA, PLAIN)

    def run_cmd(self):
        return [self.runner, "-e", "main", "-entry-point-result=void", "-O0",
                "-shared-libs=" + self.libs]


def run(cmd, stdin=None, env=None):
    """(returncode or 'timeout', stdout bytes, stderr text)."""
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=TIMEOUT,
                           env=env)
    except subprocess.TimeoutExpired:
        return "timeout", b"", "timed out after %g s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no message)"


def crashed(rc, err):
    return rc == "timeout" or (isinstance(rc, int) and rc < 0) or CRASH.search(err)


def execute(tools, module, pipeline, prefix):
    """Runs one module through `pipeline`, the LLVM lowering and the runner.
    Returns (stage, rc, stdout, stderr); stage is None on success."""
    # Planning and the LLVM lowering in one invocation; on failure, again
    # in two, to say which step failed.
    both = pipeline[:-1] + ", " + ", ".join(LLVM_PASSES) + ")"
    rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + both], module)
    if rc != 0:
        rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + pipeline], module)
        if rc != 0:
            return prefix + "helia-opt", rc, out, err
        rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=builtin.module(%s)" %
                            ", ".join(LLVM_PASSES)], out)
        if rc != 0:
            return prefix + "to-llvm", rc, out, err
    rc, out2, err = run(tools.run_cmd(), out)
    if rc != 0:
        return prefix + "mlir-runner", rc, out2, err
    return None, 0, normalize(out2), err


def execute_plain(tools, module, perturb=None):
    """The reference run, with the LLVM lowering in the same invocation.
    With perturb, glibc fills fresh and freed heap memory with that byte."""
    pipeline = tools.plain_pipeline()[:-1] + ", " + ", ".join(LLVM_PASSES) + ")"
    rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + pipeline], module)
    if rc != 0:
        return "plain helia-opt", rc, out, err
    env = dict(os.environ, MALLOC_PERTURB_=str(perturb)) if perturb else None
    rc, out2, err = run(tools.run_cmd(), out, env)
    if rc != 0:
        return "plain mlir-runner", rc, out2, err
    return None, 0, normalize(out2), err


def compare(tools, module, opts):
    """Classifies one module: (class, detail, plain output, planned output)."""
    data = module.encode()
    stage, rc, plain, err = execute_plain(tools, data)
    if stage:
        return "invalid", "%s: %s" % (stage, first_error(err)), plain, b""
    if tools.plain_only:
        return "same", "", plain, plain
    stage, rc, planned, err = execute(tools, data, tools.planned_pipeline(opts), "")
    if stage:
        if crashed(rc, err):
            return "crashed", "%s: %s" % (stage, first_error(err) if rc != "timeout" else err), plain, planned
        return "rejected", "%s: %s" % (stage, first_error(err)), plain, planned
    if planned != plain:
        # A program that reads memory it never wrote would differ anyway:
        # the plain run must print the same with the heap filled otherwise.
        stage, rc, again, err = execute_plain(tools, data, perturb=170)
        if stage or again != plain:
            return "invalid", "the plain program reads uninitialized memory " \
                "(its output changes with MALLOC_PERTURB_)", plain, planned
        return "DIFFERENT", first_diff(plain, planned), plain, planned
    return "same", "", plain, planned


def plan(tools, module, opts):
    """Runs only the planned pipeline: (class, first error)."""
    rc, _, err = run([tools.helia_opt, "-", "--pass-pipeline=" +
                      tools.planned_pipeline(opts)], module.encode())
    if crashed(rc, err):
        return "crashed", first_error(err) if rc != "timeout" else err
    if rc != 0:
        return "rejected", first_error(err)
    return "planned", ""


def error_class(message):
    """A first error without its location, names and numbers, so that the
    rejections of one cause count together."""
    message = re.sub(r"^.*?error: ", "", message)
    message = re.sub(r"^loc\([^)]*\): ", "", message)
    message = re.sub(r"'[^']*'", "'X'", message)
    return re.sub(r"\d+", "N", message)[:110]


def check(tools, seed, no_stale=None, no_rules=False, no_limit=False,
          force_global=False, copy_results=False):
    """Classifies one seed: (class, detail, module text, options)."""
    if no_stale is None:
        no_stale = tools.no_stale
    g = gen.generate(seed, no_stale=no_stale, copy_results=copy_results,
                     control_flow=tools.control_flow)
    module = g.module_text(no_rules=no_rules)
    opts = gen.options_of(g, no_limit=no_limit, force_global=force_global)
    opts = opts + tools.extra_options
    if tools.plan_only:
        cls, detail = plan(tools, module, opts)
        return cls, detail, module, opts
    cls, detail, _, _ = compare(tools, module, opts)
    return cls, detail, module, opts


def first_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "print line %d differs" % (i + 1)
    return "output lengths differ (%d vs %d lines)" % (len(la), len(lb))


# Switches that remove one feature of a seed without changing the rest;
# --triage re-runs a failing seed with each to find what it depends on.
TRIAGE = [
    ("no-stale-results", dict(no_stale=True)),
    ("copy-results", dict(copy_results=True)),
    ("no-rules", dict(no_rules=True)),
    ("no-limit", dict(no_limit=True)),
    ("global", dict(force_global=True)),
]


def triage(tools, seed, cls):
    fixes = []
    for name, kw in TRIAGE:
        c = check(tools, seed, **kw)[0]
        if c == "same":
            fixes.append(name)
    return fixes


def repro(tools, path, opts, keep):
    q = shlex.quote
    planned = tools.planned_pipeline(opts)
    return "\n".join([
        "%s %s --pass-pipeline=%s -o %s" % (
            q(tools.helia_opt), q(path), q(planned), q(path + ".planned.mlir")),
        "%s %s %s | %s" % (q(tools.helia_opt), q(path + ".planned.mlir"),
                           " ".join(TO_LLVM), " ".join(q(c) for c in tools.run_cmd())),
        "%s %s --pass-pipeline=%s | %s %s | %s" % (
            q(tools.helia_opt), q(path), q(tools.plain_pipeline()),
            q(tools.helia_opt), " ".join(TO_LLVM),
            " ".join(q(c) for c in tools.run_cmd())),
    ])


def report_plans(args, results, elapsed):
    """The summary of a --plan-only run; exit status 0 when every seed is
    planned (or, with --allow-rejected, none crashed)."""
    counts = {c: 0 for c in ("planned", "rejected", "crashed")}
    classes = {}
    for seed in sorted(results):
        cls, detail = results[seed][:2]
        counts[cls] += 1
        if cls != "planned":
            key = ("crashed: " if cls == "crashed" else "") + error_class(detail)
            classes.setdefault(key, []).append(seed)
    print("%s in %.1f s, seeds %s" % (
        ", ".join("%s %d" % (c, n) for c, n in counts.items()), elapsed,
        "%d..%d" % (min(results), max(results)) if results else "none"))
    for key, seeds in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("%5d %s" % (len(seeds), key))
        print("      seeds: %s" % ",".join(str(s) for s in seeds))
    if args.json:
        import json
        with open(args.json, "w") as fh:
            json.dump({str(s): list(results[s][:2]) for s in sorted(results)},
                      fh, indent=0)
            fh.write("\n")
    if counts["crashed"]:
        return 1
    return 0 if args.allow_rejected or not counts["rejected"] else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--start", default="0",
                   help="first seed, or 'auto' for one taken from the clock")
    p.add_argument("--count", type=int, default=None, help="number of seeds")
    p.add_argument("--seeds", default=None, help="comma-separated seeds")
    p.add_argument("--seconds", type=float, default=None,
                   help="run consecutive seeds until this much time passed")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--keep", default=None,
                   help="directory for the modules of failing seeds")
    p.add_argument("--helia-opt", default=shutil.which("helia-opt") or "build/bin/helia-opt")
    p.add_argument("--mlir-runner", default=shutil.which("mlir-runner") or
                   llvm_prefix.tool("mlir-runner"))
    p.add_argument("--shared-libs", default=",".join(llvm_prefix.runner_libs()))
    p.add_argument("--no-stale-results", action="store_true",
                   help="harnesses copy every result before the next call "
                   "and use the copy after it (gen.py --no-stale-results)")
    p.add_argument("--plain-only", action="store_true",
                   help="only check that the programs run plain (the generator)")
    p.add_argument("--triage", action="store_true",
                   help="re-run failing seeds without each feature")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per seed")
    p.add_argument("--allow-rejected", action="store_true",
                   help="exit 0 when the only failures are programs helia "
                        "rejects with an error (they are still listed)")
    p.add_argument("--module", default=None,
                   help="run this module (e.g. a reduced one) instead of seeds, "
                   "with --options; prints both outputs")
    p.add_argument("--extra-options", default="",
                   help="helia-memory-pipeline options added to every "
                        "seed's, e.g. in-place=true")
    p.add_argument("--options", default="",
                   help="helia-memory-pipeline options for --module")
    p.add_argument("--control-flow", type=int, default=1, metavar="K",
                   help="weight branches and loops up (gen.py --control-flow K)")
    p.add_argument("--plan-only", action="store_true",
                   help="run only the planned pipeline (no execution) and "
                        "count the rejections by first-error class")
    p.add_argument("--timeout", type=float, default=TIMEOUT, metavar="SECONDS",
                   help="wall time after which a step counts as crashed "
                        "(default %(default)s; raise it on a loaded machine)")
    p.add_argument("--json", default=None, metavar="FILE",
                   help="with --plan-only: write seed -> [status, first error]")
    args = p.parse_args()
    globals()["TIMEOUT"] = args.timeout
    if args.json and not args.plan_only:
        p.error("--json needs --plan-only")
    if args.plan_only and (args.module or args.plain_only or args.triage):
        p.error("--plan-only runs seeds: not with --module, --plain-only "
                "or --triage")
    tools = Tools(args)
    if args.module:
        with open(args.module) as fh:
            cls, detail, plain, planned = compare(tools, fh.read(), args.options.split())
        print("%s %s" % (cls, detail))
        if cls != "same":
            sys.stdout.write("--- plain\n" + plain.decode(errors="replace"))
            sys.stdout.write("--- planned\n" + planned.decode(errors="replace"))
        return 0 if cls == "same" else 1
    if args.start == "auto":
        args.start = int(time.time()) % 1000000 * 1000
    args.start = int(args.start)

    if args.seeds:
        seeds = [int(s) for s in args.seeds.split(",") if s]
    elif args.count is not None:
        seeds = list(range(args.start, args.start + args.count))
    elif args.seconds is not None:
        seeds = None
    else:
        seeds = list(range(args.start, args.start + 100))

    keep = args.keep or tempfile.mkdtemp(prefix="helia-difffuzz-")
    os.makedirs(keep, exist_ok=True)
    start = time.time()
    results = {}

    def job(seed):
        return seed, check(tools, seed)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if seeds is not None:
            for seed, r in pool.map(job, seeds):
                results[seed] = r
                if args.verbose:
                    print("seed %d: %s %s" % (seed, r[0], r[1]), flush=True)
        else:
            # Open-ended: keep `jobs` seeds in flight until time is up.
            nxt = args.start
            pending = []
            while pending or time.time() - start < args.seconds:
                while len(pending) < args.jobs and time.time() - start < args.seconds:
                    pending.append(pool.submit(job, nxt))
                    nxt += 1
                seed, r = pending.pop(0).result()
                results[seed] = r
                if args.verbose:
                    print("seed %d: %s %s" % (seed, r[0], r[1]), flush=True)
    elapsed = time.time() - start
    if args.plan_only:
        if not args.keep:
            shutil.rmtree(keep, ignore_errors=True)
        return report_plans(args, results, elapsed)

    counts = {c: 0 for c in ("same", "DIFFERENT", "rejected", "crashed", "invalid")}
    failing = []
    for seed in sorted(results):
        cls, detail, module, opts = results[seed]
        counts[cls] += 1
        if cls != "same":
            path = os.path.join(keep, "seed-%d.mlir" % seed)
            with open(path, "w") as fh:
                fh.write(module)
            with open(path + ".options", "w") as fh:
                fh.write(" ".join(opts) + "\n")
            failing.append((seed, cls, detail, path, opts))

    print("%d passed, %d failed (%s) in %.1f s, seeds %s" % (
        counts["same"], len(results) - counts["same"],
        ", ".join("%s %d" % (c, n) for c, n in counts.items()), elapsed,
        "%d..%d" % (min(results), max(results)) if results else "none"))
    for seed, cls, detail, path, opts in failing:
        extra = ""
        if args.triage and cls in ("DIFFERENT", "crashed"):
            fixes = triage(tools, seed, cls)
            extra = " [same with: %s]" % (", ".join(fixes) if fixes else "none")
        print("  seed %d: %s: %s%s" % (seed, cls, detail, extra))
        print("    options: %s" % " ".join(opts))
    if failing:
        seed, cls, detail, path, opts = failing[0]
        print("modules of the failing seeds: %s" % keep)
        print("reproduce seed %d (planned, then plain):" % seed)
        print("  python3 %s --helia-opt %s --seeds %d%s -v" % (
            shlex.quote(os.path.abspath(__file__)), shlex.quote(tools.helia_opt), seed,
            " --control-flow %d" % tools.control_flow if tools.control_flow > 1 else ""))
        for line in repro(tools, path, opts, keep).splitlines():
            print("  " + line)
    elif not args.keep:
        shutil.rmtree(keep, ignore_errors=True)
    if args.allow_rejected:
        return 1 if any(cls != "rejected" for _, cls, _, _, _ in failing) else 0
    return 1 if failing else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        sys.exit(1)
