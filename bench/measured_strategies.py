#!/usr/bin/env python3
"""Measured memory cycles of one inference per placement objective.

Runs each network's image under the helia-traffic QEMU plugin
(bench/traffic.py) once per `--objective` of helia-compile, with a DTCM
limit that leaves room for only part of the weights, and weighs the
measured bytes of every memory by the platform's access costs (cycles per
access of `access_bytes` bytes, docs/Placement.md): the measured side of
bench/strategies.py's predicted table.
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
# mps3_an547's preset costs (read, write, access bytes; docs/Placement.md).
COSTS = {"itcm": (1, 1, 4), "dtcm": (1, 1, 4), "sram": (2, 2, 4),
         "qspi": (10, 10, 4)}
OBJECTIVES = ["default", "fast-share", "hand", "traffic"]


def cycles(report):
    total = 0
    for m in report["memories"]:
        r, w, b = COSTS[m["name"]]
        total += math.ceil(m["read_bytes"] / b) * r
        total += math.ceil(m["write_bytes"] / b) * w
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+", metavar="MODEL=DTCM_BYTES",
                    help="a model and the DTCM limit of its plans")
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    print("| model | DTCM limit | " + " | ".join(OBJECTIVES) +
          " | traffic vs best other | checksums equal |")
    print("|---|---:|" + "---:|" * len(OBJECTIVES) + "---:|---|")
    worst = 0.0
    for case in args.cases:
        model, limit = case.rsplit("=", 1)
        row, sums = {}, set()
        for objective in OBJECTIVES:
            out = subprocess.run(
                [sys.executable, os.path.join(HERE, "traffic.py"), model,
                 "--build", args.build, "--json",
                 "--memory-limit", "dtcm=" + limit,
                 "--compile-option=--objective=" + objective],
                check=True, capture_output=True, text=True).stdout
            report = json.loads(out)
            row[objective] = cycles(report)
            sums.add(report["checksum"])
        best_other = min(v for k, v in row.items() if k != "traffic")
        ratio = row["traffic"] / best_other
        worst = max(worst, ratio)
        print(f"| {os.path.basename(model)} | {limit} | " +
              " | ".join(str(row[o]) for o in OBJECTIVES) +
              f" | {ratio:.4f} | {'yes' if len(sums) == 1 else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
