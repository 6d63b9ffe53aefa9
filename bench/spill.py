#!/usr/bin/env python3
"""Spilling on the bench models: fast and slow scratch arenas against the
lower bound, and the fast share, per (model, platform) pair that spills.

Each model of ../shared/bench/models is planned with helia-opt's pipeline
(lower=false, the platform's default rules) on every Apollo preset; a pair
spills when its scratch lands in both preferred memories (dtcm, then sram on
every Apollo preset). For those pairs the script prints:

- fast, slow: the scratch arenas in dtcm and sram (the JSON plan's arenas);
- bound: a lower bound on the slow arena computed here from the JSON plan's
  tensors and lifetimes, not taken from helia: at each step, the live
  scratch bytes (each buffer once, sizes rounded up to the arena alignment)
  minus the largest subset of them that fits the bytes dtcm has left for
  scratch (its capacity less its other arenas), maximised over the steps.
  Tensors are whole: a subset, not a fraction, is what dtcm can hold;
- fast live / best: at the step where the slow arena's live bytes peak,
  the scratch bytes live in dtcm and the most that could be (the same
  subset sum); equal means dtcm is not left idle at that step;
- fast share: scratch accessed bytes (tensor bytes x readers, each buffer
  once, through its first tensor)
  held in dtcm over all of them, computed here from the tensors; the
  script fails if helia's own `fast_share` disagrees.

Usage: bench/spill.py BUILD_DIR [BENCH_DIR] [--platforms=a,b]
                      [--algorithm=best] [--models=a,b]
Pairs helia cannot plan (e.g. constants larger than the flash) are listed
after the table. Exit status 1 when helia's fast_share disagrees.
"""
import json
import os
import subprocess
import sys
import tempfile

from cli import make_parser, tool

APOLLO = ["apollo510_evb", "apollo4p_evb", "apollo4l_evb", "apollo3p_evb"]
# The preferred order of every Apollo preset (lib/Dialect/Helia/IR/Platform.cpp).
FAST, SLOW = "dtcm", "sram"


def align(value, alignment):
    return (value + alignment - 1) // alignment * alignment


def best_fit(sizes, capacity, unit):
    """The largest sum of a subset of `sizes` (multiples of `unit`) that is
    at most `capacity`: a subset-sum over a bitset of units."""
    if sum(sizes) <= capacity:
        return sum(sizes)
    slots = capacity // unit
    mask = (1 << (slots + 1)) - 1
    reachable = 1
    for size in sizes:
        reachable = (reachable | (reachable << (size // unit))) & mask
    return (reachable.bit_length() - 1) * unit


def analyse(plan):
    """Returns the row for a plan that spills, None for one that does not."""
    arenas = {(a["memory"], a["name"]): a for a in plan["arenas"]
              if a["role"] == "scratch" and not a["stream"]}
    fast = next((a for (m, _), a in arenas.items() if m == FAST), None)
    slow = next((a for (m, _), a in arenas.items() if m == SLOW), None)
    if fast is None or slow is None:
        return None
    functions = {t["function"] for t in plan["tensors"] if t["kind"] == "scratch"}
    if len(functions) != 1:
        raise SystemExit("bench/spill.py: steps are per function; the bound "
                         "needs a one-function model")
    alignment = fast["alignment"]
    memory = next(m for m in plan["memories"] if m["name"] == FAST)
    others = memory["used"] - fast["size"]
    capacity = memory["capacity"] - others

    # One entry per scratch buffer: aligned size, lifetime, memory, readers.
    buffers = {}
    for t in plan["tensors"]:
        if t["kind"] != "scratch":
            continue
        key = t["buffer"]
        size = align(t["size"], alignment)
        if key in buffers:  # the first tensor of a buffer defines it
            buffers[key]["size"] = max(buffers[key]["size"], size)
            continue
        buffers[key] = {"size": size, "bytes": t["size"], "first": t["first_step"],
                        "last": t["last_step"], "memory": t["memory"],
                        "readers": t.get("readers")}
    steps = sorted({b["first"] for b in buffers.values()})
    bound = 0
    slow_peak, slow_peak_step = -1, None
    for step in steps:  # live bytes only rise where a buffer starts
        live = [b for b in buffers.values() if b["first"] <= step <= b["last"]]
        total = sum(b["size"] for b in live)
        bound = max(bound, total - best_fit([b["size"] for b in live],
                                            capacity, alignment))
        in_slow = sum(b["size"] for b in live if b["memory"] == SLOW)
        if in_slow > slow_peak:
            slow_peak, slow_peak_step = in_slow, step
    live = [b for b in buffers.values()
            if b["first"] <= slow_peak_step <= b["last"]]
    fast_live = sum(b["size"] for b in live if b["memory"] == FAST)
    fast_best = best_fit([b["size"] for b in live], capacity, alignment)

    share = None
    if all(b["readers"] is not None for b in buffers.values()):
        accessed = sum(b["bytes"] * b["readers"] for b in buffers.values())
        in_fast = sum(b["bytes"] * b["readers"] for b in buffers.values()
                      if b["memory"] == FAST)
        share = in_fast / accessed if accessed else None
    # (A plan written before `readers` existed has no share.)
    return {"fast": fast["size"], "slow": slow["size"], "bound": bound,
            "capacity": capacity, "fast_live": fast_live,
            "fast_best": fast_best, "share": share}


def main():
    parser = make_parser(__doc__)
    parser.add_argument("--platforms", default=",".join(APOLLO),
                        help="comma-separated platform presets")
    parser.add_argument("--algorithm", default="best",
                        help="the packing algorithm")
    parser.add_argument("--models", help="comma-separated models (default: all)")
    args = parser.parse_args()
    build, bench = args.build, args.bench
    platforms = args.platforms.split(",")
    algorithm = args.algorithm
    helia_opt = tool(build)
    models_dir = os.path.join(bench, "models")
    models = sorted(f[:-5] for f in os.listdir(models_dir) if f.endswith(".mlir"))
    if args.models:
        models = [m for m in models if m in args.models.split(",")]

    print("| model | platform | dtcm for scratch | fast B | slow B | bound | "
          "slow/bound | fast live / best at slow peak | fast share |")
    print("|---|---|---|---|---|---|---|---|---|")
    failures = 0
    not_planned = []
    rows = 0
    at_bound = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plan.json")
        for model in models:
            for platform in platforms:
                run = subprocess.run(
                    [helia_opt, "--allow-unregistered-dialect",
                     "--helia-memory-pipeline=lower=false platform="
                     f"{platform} algorithm={algorithm} plan-json={path}",
                     os.path.join(models_dir, model + ".mlir"), "-o", os.devnull],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    lines = run.stderr.strip().splitlines() or ["?"]
                    not_planned.append((model, platform, lines[0]))
                    continue
                with open(path) as f:
                    plan = json.load(f)
                row = analyse(plan)
                if row is None:
                    continue
                rows += 1
                at_bound += row["slow"] == row["bound"]
                share = row["share"]
                claimed = plan.get("fast_share")
                if "fast_share" not in plan:
                    pass  # an older helia: nothing to compare
                elif (share is None) != (claimed is None) or (
                        share is not None and abs(share - claimed) > 5e-5):
                    print(f"bench/spill.py: {model} on {platform}: helia's "
                          f"fast_share {claimed} but the tensors give {share}",
                          file=sys.stderr)
                    failures += 1
                # A bound of 0: everything fits by live bytes, the packing not.
                ratio = f'{row["slow"] / row["bound"]:.3f}' if row["bound"] else "-"
                share_text = "-" if share is None else f"{100 * share:.1f}%"
                print(f"| `{model}` | {platform} | {row['capacity']} | "
                      f"{row['fast']} | {row['slow']} | {row['bound']} | "
                      f"{ratio} | {row['fast_live']} / {row['fast_best']} | "
                      f"{share_text} |")
    print()
    print(f"spilled pairs: {rows}; slow arena at the bound on {at_bound}; "
          f"fast_share disagreements: {failures}")
    for model, platform, error in not_planned:
        error = error.split("error: ", 1)[-1]
        print(f"not planned: {model} on {platform}: {error[:140]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
