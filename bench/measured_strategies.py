#!/usr/bin/env python3
"""Measured memory cycles of one inference per placement objective.

Runs each network's image under the helia-traffic QEMU plugin
(bench/traffic.py) once per `--objective` of helia-compile, with a DTCM
limit that leaves room for only part of the weights, and weighs the
measured bytes of every memory by the platform's access costs (cycles per
access of `access_bytes` bytes, docs/Placement.md): the measured side of
bench/strategies.py's predicted table.

`profiled` is placement by measured cost (bench/traffic.py --profile
--replan, docs/Placement.md, "Placement by measured traffic"): the default
plan's run writes a traffic profile, the network is planned again with
objective=traffic and --traffic-profile, and of that plan and the plans of
every other objective the one of fewest measured weighted cycles is kept
(`kept`; `profile's plan` is the measured cycles of the re-plan itself).

--check exits 1 unless, on every row, `profiled` is at most every other
strategy and every plan prints the same output checksum; with
--check-traffic also unless the static `traffic` plan is at most
default, fast-share and hand.
"""
import argparse, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# mps3_an547's preset costs (read, write, access bytes; docs/Placement.md).
COSTS = {"itcm": (1, 1, 4), "dtcm": (1, 1, 4), "sram": (2, 2, 4),
         "qspi": (10, 10, 4)}
OBJECTIVES = ["default", "fast-share", "hand", "traffic"]
COLUMNS = OBJECTIVES + ["profiled"]


def cycles(report):
    total = 0
    for m in report["memories"]:
        r, w, b = COSTS[m["name"]]
        total += math.ceil(m["read_bytes"] / b) * r
        total += math.ceil(m["write_bytes"] / b) * w
    return total


def measure(model, limit, build, options, common):
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "traffic.py"), model,
         "--build", build, "--json", "--memory-limit", "dtcm=" + limit] +
        ["--compile-option=" + o for o in common] + options,
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+", metavar="MODEL=DTCM_BYTES",
                    help="a model and the DTCM limit of its plans")
    ap.add_argument("--build", default="build")
    ap.add_argument("--compile-option", action="append", default=[],
                    metavar="OPT",
                    help="a helia-compile option for every plan (repeatable; "
                         "e.g. --compile-option=--index-bitwidth=32)")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless profiled <= every other strategy on "
                         "every row and the checksums agree")
    ap.add_argument("--check-traffic", action="store_true",
                    help="with --check, also exit 1 unless the static traffic "
                         "plan <= default, fast-share and hand on every row "
                         "(issue 21's target)")
    args = ap.parse_args()
    print("| model | DTCM limit | " + " | ".join(COLUMNS) +
          " | kept | profile's plan | traffic vs best other | profiled vs best other"
          " | checksums equal |")
    print("|---|---:|" + "---:|" * len(COLUMNS) + "---|---:|---:|---:|---|")
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for case in args.cases:
            model, limit = case.rsplit("=", 1)
            row, sums = {}, set()
            profile = os.path.join(work, "profile.json")
            for objective in OBJECTIVES:
                extra = ["--compile-option=--objective=" + objective]
                if objective == "default":
                    extra += ["--profile", profile]
                report = measure(model, limit, args.build, extra, args.compile_option)
                row[objective] = cycles(report)
                sums.add(report["checksum"])
            report = measure(model, limit, args.build,
                             ["--profile", profile, "--replan"],
                             args.compile_option)
            row["profiled"] = cycles(report)
            sums.add(report["checksum"])
            kept = report["replan"]["chosen"]
            own = next(c["cycles"] for c in report["replan"]["candidates"]
                       if c["name"] == "profiled")
            best = {}
            best["traffic"] = min(v for o, v in row.items() if o not in ("traffic", "profiled"))
            best["profiled"] = min(v for o, v in row.items() if o != "profiled")
            name = os.path.basename(model)
            print(f"| {name} | {limit} | " +
                  " | ".join(str(row[o]) for o in COLUMNS) +
                  f" | {kept} | {own}"
                  f" | {row['traffic'] / best['traffic']:.4f}"
                  f" | {row['profiled'] / best['profiled']:.4f}"
                  f" | {'yes' if len(sums) == 1 else 'NO'} |", flush=True)
            if row["profiled"] > best["profiled"]:
                failures.append(f"{name} at {limit}: profiled {row['profiled']} > "
                                f"best other {best['profiled']}")
            if len(sums) != 1:
                failures.append(f"{name} at {limit}: the plans' checksums differ")
            if args.check_traffic and row["traffic"] > best["traffic"]:
                failures.append(f"{name} at {limit}: traffic {row['traffic']} > "
                                f"best other {best['traffic']}")
    print()
    print(f"profiled above another strategy, or checksums differ"
          f"{', or traffic above another' if args.check_traffic else ''}: {len(failures)}")
    for f in failures:
        print("  " + f)
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
