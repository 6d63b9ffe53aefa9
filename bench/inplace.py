#!/usr/bin/env python3
"""Scratch lower bound and arena of every bench model with and without
helia-elementwise-in-place (`helia-memory-pipeline` option `in-place`).

Plans each model with `helia-memory-pipeline{lower=false in-place=...}` and
one scratch memory large enough for the whole arena (as bench/models.py),
reads the JSON plan, and prints per model the lifetime lower bound (the
largest sum of the aligned sizes of the scratch buffers live at one step)
and the scratch arena bytes, without and with the pass. Models: the 24
TFLite Micro / MLPerf Tiny graphs of ../shared/bench/models (`tfl.*` ops:
the op table), the TOSA and linalg networks of ../shared/bench/frontend
(TOSA goes through tosa-to-linalg first; the LSTM is rejected at planning),
and bench/transformer_block.tosa.mlir (a transformer block whose layer norms,
softmax and GELU are separate elementwise ops).

With --platform=NAME the models are planned on that platform's real
capacities instead (scratch spills to the next memory when the first is
full), and the table lists the scratch arenas per memory.

With --fuzz=N it plans instead the first N programs of the differential
fuzzer's generator (fuzz/differential/gen.py, default platform, no limit)
and counts those whose arenas change and those where one grows.

usage: bench/inplace.py BUILD_DIR [BENCH_DIR] [--platform=NAME | --fuzz=N]
Exits 1 when the pass grows any arena or bound.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from cli import make_parser, tool

HERE = os.path.dirname(os.path.abspath(__file__))
TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, "
        "tosa-to-tensor)")
LIMITS = "memory-limit=dtcm=4294967296,mram=4294967296"


def plan(helia_opt, path, tosa, in_place, platform):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "plan.json")
        where = f"platform={platform} memory-limit=mram=4294967296" if platform else LIMITS
        pipeline = (f"helia-memory-pipeline{{lower=false in-place={str(in_place).lower()} "
                    f"{where} plan-json={out}}}")
        if tosa:
            pipeline = f"{TOSA}, {pipeline}"
        subprocess.run([helia_opt, "--allow-unregistered-dialect",
                        f"--pass-pipeline=builtin.module({pipeline})", path,
                        "-o", os.devnull],
                       check=True, capture_output=True, text=True)
        with open(out) as f:
            return json.load(f)


def bound_and_arena(p):
    """(lower bound, arena bytes) over the scratch arenas of a plan."""
    arenas = {a["region_id"]: a for a in p["arenas"]
              if a["role"] == "scratch" and not a["stream"]}
    bound = 0
    for rid, arena in arenas.items():
        align = arena["alignment"] or 1
        deltas = {}
        seen = set()
        for t in p["tensors"]:
            if t["binding"]["region_id"] != rid:
                continue
            key = (t["function"], t["buffer"])
            if key in seen:
                continue
            seen.add(key)
            size = -(-t["size"] // align) * align
            f = t["function"]
            deltas[(f, t["first_step"])] = deltas.get((f, t["first_step"]), 0) + size
            deltas[(f, t["last_step"] + 1)] = deltas.get((f, t["last_step"] + 1), 0) - size
        live, func = 0, None
        for (f, _), d in sorted(deltas.items()):
            if f != func:
                live, func = 0, f
            live += d
            bound = max(bound, live)
    return bound, sum(a["size"] for a in arenas.values())


def arenas_by_memory(p):
    """{memory: bytes} of the scratch arenas of a plan."""
    sizes = {}
    for a in p["arenas"]:
        if a["role"] == "scratch" and not a["stream"]:
            sizes[a["memory"]] = sizes.get(a["memory"], 0) + a["size"]
    return sizes


def models(bench):
    root = os.path.join(bench, "models")
    for name in sorted(os.listdir(root)):
        if name.endswith(".mlir"):
            yield name[:-5], os.path.join(root, name), False
    front = os.path.join(bench, "frontend")
    for name in sorted(os.listdir(front)):
        if name.endswith(".mlir") and not name.startswith("lstm"):
            yield name[:-5], os.path.join(front, name), ".tosa." in name
    yield ("transformer_block.tosa (bench/, GELU and norms as separate ops)",
           os.path.join(HERE, "transformer_block.tosa.mlir"), True)


def fuzz(helia_opt, count):
    sys.path.insert(0, os.path.join(HERE, "..", "fuzz", "differential"))
    import gen
    changed = same = rejected = 0
    grew = []
    for seed in range(count):
        text = gen.generate(seed).module_text()
        arenas = []
        for in_place in ("false", "true"):
            r = subprocess.run(
                [helia_opt, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline"
                 "{lower=false in-place=%s})" % (TOSA, in_place)],
                input=text, capture_output=True, text=True)
            if r.returncode:
                break
            arenas.append(dict((a, int(b)) for a, b in re.findall(
                r"helia.arena @(\w+) [^\n]*? size (\d+) align", r.stdout)))
        if len(arenas) < 2:
            rejected += 1
            continue
        if arenas[0] == arenas[1]:
            same += 1
            continue
        changed += 1
        if any(b > arenas[0].get(a, 0) for a, b in arenas[1].items()):
            grew.append(str(seed))
    print(f"generated programs 0..{count - 1}: plan changed by in-place {changed}, "
          f"unchanged {same}, not planned (either way) {rejected}; "
          f"an arena grows on: {', '.join(grew) if grew else 'none'}")
    return 1 if grew else 0


def main():
    parser = make_parser(__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--platform", help="plan on this platform's memories")
    group.add_argument("--fuzz", type=int, metavar="N",
                       help="plan the first N differential fuzz programs")
    args = parser.parse_args()
    build, bench, platform = args.build, args.bench, args.platform
    helia_opt = tool(build)
    if args.fuzz is not None:
        return fuzz(helia_opt, args.fuzz)
    if platform:
        print(f"| model ({platform}) | scratch arenas | scratch arenas in-place |")
        print("|---|---|---|")
    else:
        print("| model | LB | LB in-place | arena | arena in-place | LB change |")
        print("|---|---:|---:|---:|---:|---:|")
    grew = []
    for name, path, tosa in models(bench):
        try:
            p0 = plan(helia_opt, path, tosa, False, platform)
            p1 = plan(helia_opt, path, tosa, True, platform)
        except subprocess.CalledProcessError as e:
            msg = [l for l in e.stderr.splitlines() if "error:" in l] or [str(e)]
            print(f"| `{name}` | not planned: {msg[0].split('error: ', 1)[-1][:100]} | |")
            continue
        if platform:
            a0, a1 = arenas_by_memory(p0), arenas_by_memory(p1)
            show = lambda a: "+".join(f"{m}:{b}" for m, b in sorted(a.items()))
            print(f"| `{name}` | {show(a0)} | {show(a1)} |")
            if any(a1.get(m, 0) > b for m, b in a0.items()) or \
                    any(m not in a0 for m in a1):
                grew.append(name)
            continue
        lb0, ar0 = bound_and_arena(p0)
        lb1, ar1 = bound_and_arena(p1)
        change = f"{(lb1 - lb0) / lb0 * 100:+.1f}%" if lb0 else "0"
        print(f"| `{name}` | {lb0} | {lb1} | {ar0} | {ar1} | {change} |")
        if ar1 > ar0 or lb1 > lb0:
            grew.append(name)
    print()
    print("grown with in-place: " + (", ".join(grew) if grew else "none"))
    return 1 if grew else 0


if __name__ == "__main__":
    sys.exit(main())
