#!/usr/bin/env python3
"""Planning time of objective=traffic against objective=default.

Issue 21's target: planning with objective=traffic takes at most twice
the time of today's plan (objective=default). Two measurements:

- the 24 TFLite Micro / MLPerf Tiny models of ../shared/bench/models
  (those of tflm_baseline.tsv and tflm_baseline_extra.tsv that exist):
  `helia-opt --helia-resolve-residency --helia-assign-bindings=objective=X`
  with --mlir-timing, the wall time of the HeliaAssignBindings pass and of
  the whole run (parse, plan, print), the fastest of --repeat runs, with
  the platform's DTCM and with DTCM limited to the default plan's use plus
  a third of the constants' bytes (not every weight fits; as
  bench/strategies.py);
- with --compile MODEL=DTCM_BYTES (repeatable): helia-compile's `plan`
  phase (import done; both pad-in-place variants planned) for
  mps3_an547 with that DTCM limit, the fastest of --repeat runs.

--check exits 1 unless every ratio traffic/default is at most 2 and
objective=traffic plans every model that objective=default plans.
"""
import argparse, csv, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
BENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench"))


class PlanFailed(Exception):
    pass


def assign(opt, source, objective, limit, json_out=None):
    """(pass seconds, total seconds) of one helia-opt run."""
    options = f"objective={objective}"
    if limit:
        options += f" memory-limit=dtcm={limit}"
    cmd = [opt, "--allow-unregistered-dialect", "--helia-resolve-residency",
           f"--helia-assign-bindings={options}"]
    if json_out:
        cmd.append(f"--helia-export-plan=json={json_out}")
    cmd += [source, "-o", os.devnull, "--mlir-timing",
            "--mlir-timing-display=list"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise PlanFailed(done.stderr.strip().splitlines()[0])
    err = done.stderr
    passes = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+HeliaAssignBindings$", err, re.M)
    total = re.search(r"Total Execution Time: ([0-9.]+) seconds", err)
    return float(passes.group(1)), float(total.group(1))


def fastest(repeat, run):
    times = [run() for _ in range(repeat)]
    return tuple(min(t[i] for t in times) for i in range(len(times[0])))


def compile_plan_seconds(compiler, model, limit, objective, work):
    out = subprocess.run(
        [compiler, model, "--platform=mps3_an547", "--prefix=model",
         f"--memory-limit=dtcm={limit}", f"--objective={objective}", "-o", work],
        check=True, capture_output=True, text=True).stderr
    return float(re.search(r"^helia-compile: plan\s+([0-9.]+) s", out, re.M).group(1)),


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--bench", default=BENCH)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--compile", action="append", default=[], metavar="MODEL=DTCM_BYTES")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    models = os.path.join(args.bench, "models")
    names = []
    for table in ("tflm_baseline.tsv", "tflm_baseline_extra.tsv"):
        path = os.path.join(models, table)
        if os.path.exists(path):
            with open(path) as f:
                names += [r["model"] for r in csv.DictReader(f, delimiter="\t")
                          if r["model"] not in names]
    ratios, failed = [], []
    print("| model | budget | pass ms default | pass ms traffic | pass ratio "
          "| run ms default | run ms traffic | run ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    sums = {"pass": [0.0, 0.0], "run": [0.0, 0.0]}
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            source = os.path.join(models, name + ".mlir")
            if not os.path.exists(source):
                continue
            plan_json = os.path.join(work, "plan.json")
            assign(opt, source, "default", None, plan_json)
            with open(plan_json) as f:
                plan = json.load(f)
            used = next((m["used"] for m in plan["memories"] if m["name"] == "dtcm"), 0)
            sizes = {t["buffer"]: t["size"] for t in plan["tensors"] if t["kind"] == "constant"}
            tight = (used + sum(sizes.values()) // 3 + 15) // 16 * 16
            for budget, limit in (("dtcm", None), (f"dtcm {tight}", tight)):
                d = fastest(args.repeat, lambda: assign(opt, source, "default", limit))
                try:
                    t = fastest(args.repeat, lambda: assign(opt, source, "traffic", limit))
                except PlanFailed as e:
                    failed.append(f"{name} {budget}: {e}")
                    print(f"| {name} | {budget} | {d[0] * 1000:.1f} | fails | | "
                          f"{d[1] * 1000:.1f} | fails | |", flush=True)
                    continue
                for i, key in enumerate(("pass", "run")):
                    sums[key][0] += d[i]
                    sums[key][1] += t[i]
                ratios.append((f"{name} {budget} (pass)", t[0] / d[0]))
                ratios.append((f"{name} {budget} (run)", t[1] / d[1]))
                print(f"| {name} | {budget} | {d[0] * 1000:.1f} | {t[0] * 1000:.1f} "
                      f"| {t[0] / d[0]:.2f} | {d[1] * 1000:.1f} | {t[1] * 1000:.1f} "
                      f"| {t[1] / d[1]:.2f} |", flush=True)
        print(f"| all | | {sums['pass'][0] * 1000:.1f} | {sums['pass'][1] * 1000:.1f} "
              f"| {sums['pass'][1] / sums['pass'][0]:.2f} | {sums['run'][0] * 1000:.1f} "
              f"| {sums['run'][1] * 1000:.1f} | {sums['run'][1] / sums['run'][0]:.2f} |")
        if args.compile:
            compiler = os.path.join(args.build, "bin", "helia-compile")
            print()
            print("| model | DTCM limit | plan s default | plan s traffic | ratio |")
            print("|---|---:|---:|---:|---:|")
            for case in args.compile:
                model, limit = case.rsplit("=", 1)
                d = fastest(args.repeat, lambda: compile_plan_seconds(compiler, model, limit, "default", work))
                t = fastest(args.repeat, lambda: compile_plan_seconds(compiler, model, limit, "traffic", work))
                ratios.append((f"{os.path.basename(model)} {limit} (helia-compile)", t[0] / d[0]))
                print(f"| {os.path.basename(model)} | {limit} | {d[0]:.2f} | {t[0]:.2f} "
                      f"| {t[0] / d[0]:.2f} |", flush=True)
    over = [(n, r) for n, r in ratios if r > 2]
    print()
    print(f"ratios above 2: {len(over)}" + "".join(f"\n  {n}: {r:.2f}" for n, r in over))
    print(f"objective=traffic fails where default plans: {len(failed)}" +
          "".join(f"\n  {f}" for f in failed))
    return 1 if args.check and (over or failed) else 0


if __name__ == "__main__":
    sys.exit(main())
