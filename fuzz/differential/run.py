#!/usr/bin/env python3
"""Differential execution fuzzer: every generated program runs planned and
plain, and must print the same bits.

usage: run.py [--start S|auto] [--count N | --seeds A,B,... | --seconds T]
              [-j 2] [--keep DIR] [--helia-opt PATH] [--mlir-runner PATH]
              [--triage] [--no-stale-results] [--plain-only] [-v]
              [--extra-options "in-place=true"] [--control-flow K]
              [--plan-only [--json FILE]
               [--compare-with OTHER_HELIA_OPT [--execute-changed]]]
              [--timeout SECONDS]
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
must still run without --plan-only to know it is `same`. --compare-with
OTHER plans each seed with that binary too and prints how many planned
outputs are byte-identical and the seeds that differ; --execute-changed then
runs those seeds planned and plain (with --helia-opt).

Exit status 0 when every seed is `same` (with --plan-only: `planned`). The modules of the failing seeds
stay in the --keep directory (default: a fresh temporary directory), with
the commands that reproduce them. See docs/Hardening.md.
"""

import argparse
import copy
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
# The pipelines and their execution (reduce.py reaches them through run).
from pipelines import (TIMEOUT, TO_LLVM, Tools, compare, first_diff,  # noqa: E402,F401
                       plan, set_timeout)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)


def error_class(message):
    """A first error without its location, names and numbers, so that the
    rejections of one cause count together."""
    message = re.sub(r"^.*?error: ", "", message)
    message = re.sub(r"^loc\([^)]*\): ", "", message)
    message = re.sub(r"'[^']*'", "'X'", message)
    return re.sub(r"\d+", "N", message)[:110]


def check(tools, seed, no_stale=None, no_rules=False, no_limit=False,
          force_global=False, copy_results=False):
    """Classifies one seed: (class, detail, module text, options), and with
    --plan-only and --compare-with whether the other binary plans it
    otherwise."""
    if no_stale is None:
        no_stale = tools.no_stale
    g = gen.generate(seed, no_stale=no_stale, copy_results=copy_results,
                     control_flow=tools.control_flow)
    module = g.module_text(no_rules=no_rules)
    opts = gen.options_of(g, no_limit=no_limit, force_global=force_global)
    opts = opts + tools.extra_options
    if tools.plan_only:
        cls, detail, out = plan(tools, module, opts)
        if not tools.compare_with:
            return cls, detail, module, opts
        # Changed: the other binary plans it otherwise (another class,
        # error or planned output).
        other = plan(tools, module, opts, tools.compare_with)
        return cls, detail, module, opts, other != (cls, detail, out)
    cls, detail, _, _ = compare(tools, module, opts)
    return cls, detail, module, opts


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


def report_changed(args, tools, results, keep):
    """With --compare-with: how many seeds the other binary plans byte for
    byte the same, the seeds it plans otherwise, and with --execute-changed
    the full run (planned against plain) of those. Returns the exit status
    of that run (0 without it)."""
    changed = [seed for seed in sorted(results) if results[seed][4]]
    print("planned outputs against %s: %d identical, %d changed" % (
        tools.compare_with, len(results) - len(changed), len(changed)))
    if changed:
        print("  changed seeds: %s" % ",".join(str(s) for s in changed))
    if not args.execute_changed or not changed:
        return 0
    executing = copy.copy(tools)
    executing.plan_only = False
    print("executing the %d changed seeds, planned and plain:" % len(changed))
    runs, elapsed = run_seeds(args, executing, changed)
    return report_runs(args, executing, runs, elapsed, keep)


def report_runs(args, tools, results, elapsed, keep):
    """The summary of a full run: the counts, then each failing seed with
    its options and the commands that reproduce the first one; the exit
    status."""
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
        print_repro(tools, failing[0], keep)
    elif not args.keep:
        shutil.rmtree(keep, ignore_errors=True)
    if args.allow_rejected:
        return 1 if any(cls != "rejected" for _, cls, _, _, _ in failing) else 0
    return 1 if failing else 0


def print_repro(tools, failure, keep):
    seed, cls, detail, path, opts = failure
    print("modules of the failing seeds: %s" % keep)
    print("reproduce seed %d (planned, then plain):" % seed)
    print("  python3 %s --helia-opt %s --seeds %d%s -v" % (
        shlex.quote(os.path.abspath(__file__)), shlex.quote(tools.helia_opt), seed,
        " --control-flow %d" % tools.control_flow if tools.control_flow > 1 else ""))
    for line in repro(tools, path, opts, keep).splitlines():
        print("  " + line)


def run_seeds(args, tools, seeds):
    """Checks `seeds` (None: consecutive seeds from --start until --seconds
    passed) on --jobs threads: ({seed: check's result}, elapsed seconds)."""
    start = time.time()
    results = {}

    def job(seed):
        return seed, check(tools, seed)

    def done(seed, r):
        results[seed] = r
        if args.verbose:
            print("seed %d: %s %s" % (seed, r[0], r[1]), flush=True)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if seeds is not None:
            for seed, r in pool.map(job, seeds):
                done(seed, r)
        else:
            # Open-ended: keep `jobs` seeds in flight until time is up.
            nxt = args.start
            pending = []
            while pending or time.time() - start < args.seconds:
                while len(pending) < args.jobs and time.time() - start < args.seconds:
                    pending.append(pool.submit(job, nxt))
                    nxt += 1
                done(*pending.pop(0).result())
    return results, time.time() - start


def parse_args():
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
    p.add_argument("--compare-with", default=None, metavar="OTHER_HELIA_OPT",
                   help="with --plan-only: plan each seed with this binary "
                        "too and list the seeds whose planned output differs")
    p.add_argument("--execute-changed", action="store_true",
                   help="with --compare-with: run the changed seeds planned "
                        "and plain")
    args = p.parse_args()
    if args.json and not args.plan_only:
        p.error("--json needs --plan-only")
    if args.compare_with and not args.plan_only:
        p.error("--compare-with needs --plan-only")
    if args.execute_changed and not args.compare_with:
        p.error("--execute-changed needs --compare-with")
    if args.plan_only and (args.module or args.plain_only or args.triage):
        p.error("--plan-only runs seeds: not with --module, --plain-only "
                "or --triage")
    return args


def run_module(tools, args):
    """--module: one module, planned against plain, both outputs printed
    when they differ."""
    with open(args.module) as fh:
        cls, detail, plain, planned = compare(tools, fh.read(), args.options.split())
    print("%s %s" % (cls, detail))
    if cls != "same":
        sys.stdout.write("--- plain\n" + plain.decode(errors="replace"))
        sys.stdout.write("--- planned\n" + planned.decode(errors="replace"))
    return 0 if cls == "same" else 1


def choose_seeds(args):
    """The seeds to run, or None for --seconds (open-ended)."""
    if args.start == "auto":
        args.start = int(time.time()) % 1000000 * 1000
    args.start = int(args.start)
    if args.seeds:
        return [int(s) for s in args.seeds.split(",") if s]
    if args.count is not None:
        return list(range(args.start, args.start + args.count))
    if args.seconds is not None:
        return None
    return list(range(args.start, args.start + 100))


def main():
    args = parse_args()
    set_timeout(args.timeout)
    tools = Tools(args)
    if args.module:
        return run_module(tools, args)
    seeds = choose_seeds(args)
    keep = args.keep or tempfile.mkdtemp(prefix="helia-difffuzz-")
    os.makedirs(keep, exist_ok=True)
    results, elapsed = run_seeds(args, tools, seeds)
    if not args.plan_only:
        return report_runs(args, tools, results, elapsed, keep)
    status = report_plans(args, results, elapsed)
    if tools.compare_with:
        status |= report_changed(args, tools, results, keep)
    # The modules of failing --execute-changed seeds stay.
    if not args.keep and os.path.isdir(keep) and not os.listdir(keep):
        shutil.rmtree(keep, ignore_errors=True)
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        sys.exit(1)
