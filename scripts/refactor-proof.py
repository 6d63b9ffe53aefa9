#!/usr/bin/env python3
"""Proves a refactoring changed no output: runs two builds of helia's tools
(helia-opt, helia-translate) on every input and compares what they print and
write, byte for byte.

  refactor-proof.py [--before OLD/helia-opt --after NEW/helia-opt]
                    [--before-translate OLD/helia-translate
                     --after-translate NEW/helia-translate]
                    [--root .] [--bench ../shared/bench] [-j 2] [-v]

Three kinds of runs (docs/RefactorProof.md):

1. Pipelines (helia-opt). Every .mlir file under test/ and examples/ and
   every bench model (<bench>/models/*.mlir) goes through
     lower     --helia-memory-pipeline (planning and lowering, the default)
     plan      --helia-memory-pipeline="lower=false plan-json=- plan-report=-
                plan-svg=-" (the printed IR followed by the JSON plan, the
                report and the SVG, all on stdout)
     tosa      for inputs with TOSA ops: tosa-to-linalg and friends, then
                helia-memory-pipeline{lower=true lower-copies=true}
   with --allow-unregistered-dialect (imported tfl.* graphs), and
   --split-input-file for files made of `// -----` chunks.
2. Imports (helia-translate). Every .tflite file under <bench>/tflite and
   every model of bench/tflite/ops.py (refactor_proof_tflite.py) goes
   through --import-tflite, without and with --tflite-persistent-variables.
3. RUN lines (refactor_proof_lit.py). Every lit test under test/ (.mlir and
   .test files) has its RUN lines replayed in order: the stages of each
   pipeline up to the last tool under test (helia-opt, helia-translate,
   `not` dropped, or input preparation such as `sed`/`cat`) run with the
   binaries under test; preparation commands (echo, split-file, rm, mkdir,
   cp, printf, sed, cat, head, flatc, `cd`, a `for` loop over one of them,
   and python3 writing its output to a file) run as written; checkers and
   other tools (FileCheck, python3, mlir-runner, helia-plan, compilers) are
   skipped, as are lines that need a substitution other than %s, %S, %p,
   %t, %T, %helia_src, %python, %bench and those the lit.local.cfg files
   define (%{tosa}, %{to_llvm}, ...). `a && b` runs as two commands;
   `ulimit` is dropped.

Each run records exit status, stdout and stderr of every command of a tool
under test and every file the commands wrote (the run's scratch directory,
at the same path for both binaries, so that paths in diagnostics agree). A
run is identical when all of that is byte-identical; a run that fails in
both binaries with identical output counts as identical (and is counted as
"fails in both"). A run that differs is repeated with the old binary: if the
old binary does not repeat its own output, the run is "unstable" (listed, not
counted as identical, not a failure). Exits 1 if any run differs, 2 on bad
usage.
"""

import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)
from refactor_proof_lit import run_line_jobs, stage_tool  # noqa: E402
from refactor_proof_tflite import (bench_models, import_jobs,  # noqa: E402
                                   ops_models)

TIMEOUT = 900  # seconds per command
RERUNS = 8  # runs of the old binary that tell a difference from noise

PIPELINE_CONFIGS = [
    ("lower", ["--helia-memory-pipeline"]),
    ("plan", ["--helia-memory-pipeline=lower=false plan-json=- "
              "plan-report=- plan-svg=-"]),
]
TOSA_CONFIG = ("tosa", [
    "--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named, "
    "tosa-to-linalg, tosa-to-arith, tosa-to-tensor), "
    "helia-memory-pipeline{lower=true lower-copies=true})"])


def snapshot(directory):
    files = {}
    for base, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, directory)] = f.read()
    return files


def execute(shell_commands, tmp, cwd):
    """Runs the commands in a fresh `tmp`; returns the outputs. `cd DIR`
    changes the directory of the commands after it, as in lit's shell."""
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "Output"))
    outputs = {}
    # As lit.cfg.py: LLVM's tools (split-file, not, ...) are on PATH.
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + os.pathsep
               + llvm_prefix.BIN_DIR)
    for index, (command, recorded) in enumerate(shell_commands):
        if stage_tool(command) == "cd":
            cwd = os.path.join(cwd, command.split(None, 1)[1].strip())
            continue
        try:
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                  cwd=cwd, env=env, capture_output=True,
                                  timeout=TIMEOUT)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        except (subprocess.TimeoutExpired, OSError) as e:
            rc, out, err = type(e).__name__, b"", b""
        if recorded:
            outputs[f"command {index + 1}: exit status"] = str(rc).encode()
            outputs[f"command {index + 1}: stdout"] = out
            outputs[f"command {index + 1}: stderr"] = err
    for name, data in snapshot(tmp).items():
        outputs["file " + name] = data
    return outputs


def first_difference(a, b):
    la = a.decode(errors="replace").splitlines()
    lb = b.decode(errors="replace").splitlines()
    diff = list(difflib.unified_diff(la, lb, "before", "after", n=0,
                                     lineterm=""))
    if not diff:
        return "differs in line endings or trailing bytes"
    return "\n".join("      " + line[:200] for line in diff[:8])


def ignore_lines(outputs, args):
    """`outputs` without the lines --ignore-lines matches (a deliberate
    format change, e.g. of one record, is the point of the change)."""
    if not args.ignore_lines:
        return outputs
    pattern = re.compile(args.ignore_lines.encode())
    return {key: b"\n".join(line for line in value.split(b"\n")
                            if not pattern.search(line))
            for key, value in outputs.items()}


def compare(job, args, scratch):
    """Runs one job with both binaries; returns (name, status, details)."""
    name, make_commands = job
    tmp = os.path.join(scratch, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    def run(side):
        commands = make_commands(args.tools[side], tmp)
        return execute(commands, tmp, args.root) if commands else None

    before = run("before")
    if before is None:
        return name, "skipped", ""
    after = run("after")
    if args.ignore_lines:
        before, after = ignore_lines(before, args), ignore_lines(after, args)
    if before == after:
        shutil.rmtree(tmp, ignore_errors=True)
        failed = any(k.endswith("exit status") and v != b"0"
                     for k, v in before.items())
        return name, "fails in both" if failed else "identical", ""
    # A run whose old binary does not repeat its own output (upstream passes
    # that order by pointer, say) proves nothing either way.
    for _ in range(RERUNS):
        if ignore_lines(run("before"), args) != before:
            shutil.rmtree(tmp, ignore_errors=True)
            return name, "unstable", ""
    shutil.rmtree(tmp, ignore_errors=True)
    details = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) == after.get(key):
            continue
        if key not in before or key not in after:
            details.append(f"    {key}: only {'after' if key in after else 'before'}")
        else:
            details.append(f"    {key}:\n"
                           + first_difference(before[key], after[key]))
    return name, "different", "\n".join(details)


def pipeline_jobs(inputs):
    jobs = []
    for path in inputs:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        split = ["--split-input-file"] if re.search(r"^// -----", text,
                                                    re.M) else []
        configs = list(PIPELINE_CONFIGS)
        if "tosa." in text:
            configs.append(TOSA_CONFIG)
        for config, flags in configs:
            def make(tools, tmp, path=path, flags=flags):
                argv = [tools["helia-opt"], path, "--allow-unregistered-dialect",
                        *split, *flags]
                return [(shlex.join(argv), True)]
            jobs.append((f"{config}: {path}", make))
    return jobs


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for tool, flag in (("helia-opt", ""), ("helia-translate", "-translate")):
        for side in ("before", "after"):
            parser.add_argument(f"--{side}{flag}",
                                help=f"the {tool} binary {side} the change")
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--bench", default=None,
                        help="the shared bench directory (default "
                             "<root>/../shared/bench)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--only", metavar="REGEX",
                        help="run only the runs whose name matches")
    parser.add_argument("--ignore-lines", metavar="REGEX",
                        help="drop the lines that match from every output "
                             "before comparing (a deliberate format change)")
    args = parser.parse_args()
    args.root = os.path.abspath(args.root)
    args.bench = os.path.abspath(args.bench or os.path.join(
        args.root, "..", "shared", "bench"))
    # The tools under test, per side: helia-opt and/or helia-translate.
    args.tools = {"before": {}, "after": {}}
    for tool, flag in (("helia-opt", ""), ("helia-translate", "_translate")):
        paths = [getattr(args, side + flag) for side in ("before", "after")]
        if paths.count(None) == 1:
            parser.error(f"{tool}: give both the binary before and after")
        for side, path in zip(("before", "after"), paths):
            if path is None:
                continue
            path = os.path.abspath(path)
            if not os.access(path, os.X_OK):
                parser.error(f"{tool} {side}: {path} is not an executable")
            args.tools[side][tool] = path
    if not args.tools["before"]:
        parser.error("give --before/--after (helia-opt) and/or "
                     "--before-translate/--after-translate")
    return args


def collect_jobs(args, scratch):
    """The runs, and a line that counts their inputs."""
    def files(directory, suffixes):
        found = []
        for base, dirs, names in os.walk(os.path.join(args.root, directory)):
            dirs.sort()
            found += [os.path.join(base, n) for n in sorted(names)
                      if n.endswith(suffixes)]
        return found

    tools = args.tools["before"]
    jobs, inputs = [], []
    if "helia-opt" in tools:
        models_dir = os.path.join(args.bench, "models")
        models = sorted(os.path.join(models_dir, n)
                        for n in os.listdir(models_dir)
                        if n.endswith(".mlir")) if os.path.isdir(models_dir) \
            else []
        if not models:
            print(f"warning: no bench models in {models_dir}", file=sys.stderr)
        others = files("examples", (".mlir",)) + files("test", (".mlir",))
        jobs += pipeline_jobs(models + others)
        inputs.append(f"{len(models)} bench models, {len(others)} other "
                      ".mlir inputs")
    if "helia-translate" in tools:
        bench = bench_models(args.bench)
        ops = ops_models(args.root, os.path.join(scratch, "ops-models"))
        jobs += import_jobs(bench + ops)
        inputs.append(f"{len(bench)} .tflite files under "
                      f"{os.path.join(args.bench, 'tflite')}, {len(ops)} "
                      "bench/tflite/ops.py models")
    jobs += run_line_jobs(files("test", (".mlir", ".test")), args, tools)
    if args.only:
        jobs = [job for job in jobs if re.search(args.only, job[0])]
    return jobs, ", ".join(inputs)


def main():
    args = parse_args()
    counts = {"identical": 0, "fails in both": 0, "different": 0,
              "unstable": 0, "skipped": 0}
    differences, unstable = [], []
    scratch = tempfile.mkdtemp(prefix="refactor-proof.")
    try:
        jobs, inputs = collect_jobs(args, scratch)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, status, details in pool.map(
                    lambda job: compare(job, args, scratch), jobs):
                counts[status] += 1
                if args.verbose:
                    print(f"{status}: {name}", flush=True)
                if status == "different":
                    differences.append((name, details))
                if status == "unstable":
                    unstable.append(name)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    for side in ("before", "after"):
        print(f"{side + ':':7} " + ", ".join(args.tools[side].values()))
    if args.ignore_lines:
        print(f"ignoring lines that match {args.ignore_lines!r}")
    print(f"{inputs}, {len(jobs)} runs")
    print(f"{counts['identical'] + counts['fails in both']} identical "
          f"({counts['fails in both']} of them fail identically in both), "
          f"{counts['different']} different, {counts['unstable']} unstable "
          f"(the old binary does not repeat its own output), "
          f"{counts['skipped']} skipped (no command to replay)")
    for name in unstable:
        print(f"UNSTABLE: {name}")
    for name, details in differences:
        print(f"DIFFERENT: {name}\n{details}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
