#!/usr/bin/env python3
"""Proves a refactoring changed no output: runs two helia-opt binaries on
every input and compares what they print and write, byte for byte.

  refactor-proof.py --before OLD/helia-opt --after NEW/helia-opt
                    [--root .] [--bench ../shared/bench] [-j 2] [-v]

Two kinds of runs (docs/RefactorProof.md):

1. Pipelines. Every .mlir file under test/ and examples/ and every bench
   model (<bench>/models/*.mlir) goes through
     lower     --helia-memory-pipeline (planning and lowering, the default)
     plan      --helia-memory-pipeline="lower=false plan-json=- plan-report=-
                plan-svg=-" (the printed IR followed by the JSON plan, the
                report and the SVG, all on stdout)
     tosa      for inputs with TOSA ops: tosa-to-linalg and friends, then
                helia-memory-pipeline{lower=true lower-copies=true}
   with --allow-unregistered-dialect (imported tfl.* graphs), and
   --split-input-file for files made of `// -----` chunks.
2. RUN lines. Every lit test under test/ (.mlir and .test files) has its RUN
   lines replayed in order: the helia-opt stages of each pipeline (a leading
   prefix of `|`-separated stages that are helia-opt, `not helia-opt`, or
   input preparation such as `sed`/`cat`) run with the binary under test;
   preparation commands (echo, split-file, rm, mkdir, cp, printf, sed, cat,
   and python3 writing its output to a file: the generators of inputs) run
   as written; checkers and other tools (FileCheck, python3, mlir-runner,
   helia-plan, compilers) are skipped, as are lines that need a substitution
   other than %s, %S, %p, %t, %T, %helia_src, %python, %bench and those the
   lit.local.cfg files define (%{tosa}, %{to_llvm}, ...). `a && b` runs as
   two commands; `ulimit` is dropped.

Each run records exit status, stdout and stderr of every helia-opt command
and every file the commands wrote (the run's scratch directory, at the same
path for both binaries, so that paths in diagnostics agree). A run is
identical when all of that is byte-identical; a run that fails in both
binaries with identical output counts as identical (and is counted as
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

TIMEOUT = 900  # seconds per command
RERUNS = 8  # runs of the old binary that tell a difference from noise

# Commands that only prepare inputs: run as written.
PREPARE = {"echo", "split-file", "rm", "mkdir", "cp", "printf", "touch", "sed",
           "cat"}
# A Python script whose output goes to a file generates an input.
PYTHON = {"python3", "python"}
# Stages that may feed helia-opt inside a pipeline.
FEEDERS = {"sed", "cat", "echo", "printf"}
KNOWN_SUBSTITUTIONS = ("%helia_src", "%python", "%bench", "%s", "%S", "%p",
                       "%t", "%T")

PIPELINE_CONFIGS = [
    ("lower", ["--helia-memory-pipeline"]),
    ("plan", ["--helia-memory-pipeline=lower=false plan-json=- "
              "plan-report=- plan-svg=-"]),
]
TOSA_CONFIG = ("tosa", [
    "--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named, "
    "tosa-to-linalg, tosa-to-arith, tosa-to-tensor), "
    "helia-memory-pipeline{lower=true lower-copies=true})"])


def run_lines(path):
    """The RUN lines of a lit test, continuation lines joined."""
    commands, current = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\bRUN:(.*)$", line)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                current += text[:-1] + " "
                continue
            commands.append((current + text).strip())
            current = ""
    if current:
        commands.append(current.strip())
    return commands


class LocalConfig:
    """What a lit.local.cfg sees as `config`: the attributes the project's
    files read, and a placeholder for any other (only substitutions matter
    here)."""

    def __init__(self, root, bench):
        self.substitutions = []
        self.available_features = set()
        self.helia_src_root = root
        self.bench_dir = bench
        self.llvm_lib_dir = llvm_prefix.LIB_DIR
        self.llvm_tools_dir = llvm_prefix.BIN_DIR

    def __getattr__(self, name):
        return ""


_local_substitutions = {}


def local_substitutions(directory, root, bench):
    """The substitutions the lit.local.cfg files from test/ down to
    `directory` define, in definition order."""
    if directory not in _local_substitutions:
        top = os.path.join(root, "test")
        parent = os.path.dirname(directory)
        inherited = ([] if os.path.samefile(directory, top) or parent == directory
                     else local_substitutions(parent, root, bench))
        config = LocalConfig(root, bench)
        config.substitutions = list(inherited)
        local = os.path.join(directory, "lit.local.cfg")
        if os.path.exists(local):
            # A file that needs more of lit than LocalConfig offers (a build
            # directory) adds nothing: its tests' lines that use its
            # substitutions are skipped.
            try:
                with open(local, encoding="utf-8") as f:
                    exec(compile(f.read(), local, "exec"),
                         {"config": config, "lit_config": None})
            except Exception:
                config.substitutions = list(inherited)
        _local_substitutions[directory] = config.substitutions
    return _local_substitutions[directory]


def substitute(command, test, root, bench, tmp):
    """lit's substitutions for the replay, or None for unknown ones."""
    test_dir = os.path.dirname(test)
    out_dir = os.path.join(tmp, "Output")
    t = os.path.join(out_dir, os.path.basename(test) + ".tmp")
    # As lit: the configuration's substitutions first, then the defaults.
    for key, value in local_substitutions(test_dir, root, bench):
        command = command.replace(key, value)
    mapping = {"%helia_src": root, "%python": "python3", "%bench": bench,
               "%s": test,
               "%S": test_dir, "%p": test_dir, "%t": t, "%T": out_dir}
    pattern = re.compile("|".join(re.escape(k) for k in KNOWN_SUBSTITUTIONS))
    result = pattern.sub(lambda m: mapping[m.group(0)], command)
    # Any `%name` or `%{` left is a substitution (or a lit `%if`) this
    # replay does not know.
    if re.search(r"%[A-Za-z_{]", result):
        return None
    return result


def stage_tool(stage):
    words = stage.split()
    if words and words[0] == "not":
        words = words[1:]
    return words[0] if words else ""


def plan_command(command, helia_opt):
    """The shell command to run for a RUN line (helia-opt replaced by the
    binary under test), whether it is a recorded helia-opt run, or None to
    skip the line."""
    stages = [s.strip() for s in re.split(r"\s\|\s", command)]
    tools = [stage_tool(s) for s in stages]
    if "helia-opt" not in tools:
        if len(stages) == 1 and (tools[0] in PREPARE or (
                tools[0] in PYTHON and re.search(r"\s>\s*\S", command))):
            return command, False
        return None
    last = max(i for i, tool in enumerate(tools) if tool == "helia-opt")
    kept = []
    for stage, tool in zip(stages[:last + 1], tools[:last + 1]):
        if tool == "helia-opt":
            words = stage.split(None, 1)
            if words[0] == "not":  # the exit status is recorded instead
                stage = words[1]
            stage = shlex.quote(helia_opt) + stage[len("helia-opt"):]
        elif tool not in FEEDERS:
            return None
        kept.append(stage)
    return " | ".join(kept), True


def snapshot(directory):
    files = {}
    for base, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, directory)] = f.read()
    return files


def execute(shell_commands, tmp, cwd):
    """Runs the commands in a fresh `tmp`; returns the outputs."""
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "Output"))
    outputs = {}
    for index, (command, recorded) in enumerate(shell_commands):
        try:
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                  cwd=cwd, capture_output=True,
                                  timeout=TIMEOUT)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = "timeout", b"", b""
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
    def run(binary):
        commands = make_commands(binary, tmp)
        return execute(commands, tmp, args.root) if commands else None

    before = run(args.before)
    if before is None:
        return name, "skipped", ""
    after = run(args.after)
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
        if ignore_lines(run(args.before), args) != before:
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
            def make(binary, tmp, path=path, flags=flags):
                argv = [binary, path, "--allow-unregistered-dialect",
                        *split, *flags]
                return [(shlex.join(argv), True)]
            jobs.append((f"{config}: {path}", make))
    return jobs


def run_line_jobs(tests, args):
    jobs = []
    for test in tests:
        lines = run_lines(test)
        if not any("helia-opt" in line for line in lines):
            continue

        def make(binary, tmp, test=test, lines=lines):
            commands = []
            for line in lines:
                command = substitute(line, test, args.root, args.bench, tmp)
                if command is None:
                    continue
                # `a && b` runs as two commands; `ulimit -t N` (a time limit
                # for the test) is dropped, the replay has its own.
                for part in re.split(r"\s&&\s", command):
                    if stage_tool(part) == "ulimit":
                        continue
                    planned = plan_command(part, binary)
                    if planned:
                        commands.append(planned)
            if not any(recorded for _, recorded in commands):
                return []
            return commands
        jobs.append((f"run-lines: {test}", make))
    return jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
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
    for binary in ("before", "after"):
        path = os.path.abspath(getattr(args, binary))
        if not os.access(path, os.X_OK):
            parser.error(f"--{binary} {path} is not an executable")
        setattr(args, binary, path)

    def files(directory, suffixes):
        found = []
        for base, dirs, names in os.walk(os.path.join(args.root, directory)):
            dirs.sort()
            found += [os.path.join(base, n) for n in sorted(names)
                      if n.endswith(suffixes)]
        return found

    models_dir = os.path.join(args.bench, "models")
    models = sorted(os.path.join(models_dir, n) for n in os.listdir(models_dir)
                    if n.endswith(".mlir")) if os.path.isdir(models_dir) else []
    if not models:
        print(f"warning: no bench models in {models_dir}", file=sys.stderr)
    inputs = models + files("examples", (".mlir",)) + files("test", (".mlir",))
    jobs = pipeline_jobs(inputs) + run_line_jobs(
        files("test", (".mlir", ".test")), args)
    if args.only:
        jobs = [job for job in jobs if re.search(args.only, job[0])]

    counts = {"identical": 0, "fails in both": 0, "different": 0,
              "unstable": 0, "skipped": 0}
    differences, unstable = [], []
    scratch = tempfile.mkdtemp(prefix="refactor-proof.")
    try:
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

    print(f"before: {args.before}\nafter:  {args.after}")
    if args.ignore_lines:
        print(f"ignoring lines that match {args.ignore_lines!r}")
    print(f"{len(models)} bench models, {len(inputs) - len(models)} other "
          f".mlir inputs, {len(jobs)} runs")
    print(f"{counts['identical'] + counts['fails in both']} identical "
          f"({counts['fails in both']} of them fail identically in both), "
          f"{counts['different']} different, {counts['unstable']} unstable "
          f"(the old binary does not repeat its own output), "
          f"{counts['skipped']} skipped (no helia-opt command to replay)")
    for name in unstable:
        print(f"UNSTABLE: {name}")
    for name, details in differences:
        print(f"DIFFERENT: {name}\n{details}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
