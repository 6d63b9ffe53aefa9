#!/usr/bin/env python3
"""Random, valid TOSA and linalg modules for the differential fuzzer.

usage: gen.py SEED [--options] [--no-stale-results] [--copy-results]
              [--no-rules] [--no-limit] [--global] [--control-flow K]

Prints one module on stdout; the same seed always gives the same module.
With --options, prints instead the helia-memory-pipeline options that the
seed chooses (arena mode, algorithm, memory limit, stream pool), one line.

A module holds one or more planned functions f0, f1, ... (fI may call fJ
for J > I), a stub f0_hydrate_constants and an unplanned harness @main that
calls the planned functions in sequence and prints every result as its bit
pattern (each element bitcast to i32, printMemrefI32). See
docs/Hardening.md, "Differential execution fuzzer".

The --no-* switches change the module after every random choice is made
(the same seed draws the same numbers), so that a failing seed can be
re-run without one feature to see whether that feature is the cause:

  --no-stale-results  copy every harness result right after its call and
                      use the copy after any later call (docs/Lowering.md:
                      "A result stays valid until the next call of the
                      model")
  --copy-results      as --no-stale-results, and the next call reads the
                      copies too (no call argument is another call's result)
  --no-rules          drop the helia.rules module attribute
  --no-limit          (with --options) drop memory-limit
  --global            (with --options) arena-mode=global

--control-flow K (K > 1) weights branches and loops up: scf.if and scf.for
weigh K times as much, scf.while is generated too, regions nest three deep,
and some loops carry a new tensor as it is (not written into the iter_arg).
The same seed and K always give the same module.
"""

import argparse
import sys

from generator import Gen  # fuzz/differential/generator/


def generate(seed, no_stale=False, copy_results=False, control_flow=1):
    g = Gen(seed, control_flow)
    g.no_stale = no_stale or copy_results
    g.copy_results = copy_results
    g.generate()
    return g


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("seed", type=int)
    p.add_argument("--options", action="store_true",
                   help="print the pipeline options this seed chooses")
    p.add_argument("--no-stale-results", action="store_true")
    p.add_argument("--copy-results", action="store_true")
    p.add_argument("--no-rules", action="store_true")
    p.add_argument("--no-limit", action="store_true")
    p.add_argument("--global", dest="force_global", action="store_true")
    p.add_argument("--control-flow", type=int, default=1, metavar="K",
                   help="multiply the weights of scf.if and scf.for by K and "
                        "generate scf.while too (K > 1)")
    a = p.parse_args()
    g = generate(a.seed, no_stale=a.no_stale_results, copy_results=a.copy_results,
                 control_flow=a.control_flow)
    if a.options:
        print(" ".join(options_of(g, a.no_limit, a.force_global)))
    else:
        sys.stdout.write(g.module_text(no_rules=a.no_rules))


def options_of(g, no_limit=False, force_global=False):
    out = []
    for o in g.options:
        if no_limit and o.startswith("memory-limit"):
            continue
        if force_global and o.startswith("arena-mode"):
            o = "arena-mode=global"
        out.append(o)
    return out


if __name__ == "__main__":
    main()
