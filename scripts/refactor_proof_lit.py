"""The RUN-line replay of scripts/refactor-proof.py (docs/RefactorProof.md):
a lit test's RUN lines, substituted as lit does, turned into shell commands
in which the helia tools under test (helia-opt, and helia-translate when its
two binaries are given) are the binaries of one side of the comparison."""

import os
import re
import shlex

import llvm_prefix  # scripts/llvm_prefix.py

# Commands that only prepare inputs: run as written.
PREPARE = {"echo", "split-file", "rm", "mkdir", "cp", "printf", "touch", "sed",
           "cat", "head", "flatc"}
# A Python script whose output goes to a file generates an input.
PYTHON = {"python3", "python"}
# Stages that may feed a tool under test inside a pipeline.
FEEDERS = {"sed", "cat", "echo", "printf"}
KNOWN_SUBSTITUTIONS = ("%helia_src", "%python", "%bench", "%s", "%S", "%p",
                       "%t", "%T")


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


def preparation(command, tool):
    """Whether a command without a tool under test prepares inputs: a
    preparation command, `cd`, a Python generator writing to a file, or a
    shell `for` loop over one preparation command (flatc over *.json)."""
    if tool in PREPARE or tool == "cd":
        return True
    if tool in PYTHON:
        return bool(re.search(r"\s>\s*\S", command))
    loop = re.fullmatch(r"for\s.*?;\s*do\s+(.*?);\s*done", command)
    return bool(loop) and stage_tool(loop.group(1)) in PREPARE


def plan_command(command, tools):
    """The shell command to run for a RUN line (each tool under test
    replaced by its binary in `tools`, a name -> path map), whether it is a
    recorded run, or None to skip the line."""
    stages = [s.strip() for s in re.split(r"\s\|\s", command)]
    names = [stage_tool(s) for s in stages]
    if not any(name in tools for name in names):
        if len(stages) == 1 and preparation(command, names[0]):
            return command, False
        return None
    last = max(i for i, name in enumerate(names) if name in tools)
    kept = []
    for stage, name in zip(stages[:last + 1], names[:last + 1]):
        if name in tools:
            words = stage.split(None, 1)
            if words[0] == "not":  # the exit status is recorded instead
                stage = words[1]
            stage = shlex.quote(tools[name]) + stage[len(name):]
        elif name not in FEEDERS:
            return None
        kept.append(stage)
    return " | ".join(kept), True


def run_line_jobs(tests, args, tool_names):
    """One job per lit test that runs a tool under test."""
    jobs = []
    for test in tests:
        lines = run_lines(test)
        if not any(name in line for line in lines for name in tool_names):
            continue

        def make(tools, tmp, test=test, lines=lines):
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
                    planned = plan_command(part, tools)
                    if planned:
                        commands.append(planned)
            if not any(recorded for _, recorded in commands):
                return []
            return commands
        jobs.append((f"run-lines: {test}", make))
    return jobs
