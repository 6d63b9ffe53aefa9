"""The importer runs of scripts/refactor-proof.py (docs/RefactorProof.md):
every .tflite file under <bench>/tflite (the networks and the single-operator
models of TFLite Micro's integration tests) and every single-operator model
of bench/tflite/ops.py (the models test/TFLite/ops.test and lstm.test
import), imported by both helia-translate binaries.

Run as a script by /usr/bin/python3 (numpy), it writes the ops.py models:
  refactor_proof_tflite.py --write-ops-models DIR
"""

import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = "/usr/bin/python3"  # numpy is there only
# Every model is imported as the tests import them, without and with its
# variable tensors as persistent arguments (an LSTM's state).
IMPORT_CONFIGS = [
    ("import", ["--import-tflite"]),
    ("import-persistent", ["--import-tflite", "--tflite-persistent-variables"]),
]


def bench_models(bench):
    """Every .tflite file under <bench>/tflite, in a stable order."""
    found = []
    for base, dirs, names in os.walk(os.path.join(bench, "tflite")):
        dirs.sort()
        found += [os.path.join(base, n) for n in sorted(names)
                  if n.endswith(".tflite")]
    return found


def ops_models(root, directory):
    """Writes the models of bench/tflite/ops.py (seed 0, as the tests run
    it) into `directory`; returns their paths, or [] with a warning when
    they cannot be written (no numpy for /usr/bin/python3, no flatc)."""
    os.makedirs(directory, exist_ok=True)
    proc = subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__),
                           "--write-ops-models", directory, root],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("warning: the models of bench/tflite/ops.py are not compared: "
              + (proc.stderr.strip().splitlines() or ["?"])[-1],
              file=sys.stderr)
        return []
    return [os.path.join(directory, n) for n in sorted(os.listdir(directory))
            if n.endswith(".tflite")]


def import_jobs(models):
    """One job per model and import configuration."""
    jobs = []
    for path in models:
        for config, flags in IMPORT_CONFIGS:
            def make(tools, tmp, path=path, flags=flags):
                if "helia-translate" not in tools:
                    return []
                argv = [tools["helia-translate"], *flags, path]
                return [(shlex.join(argv), True)]
            jobs.append((f"{config}: {path}", make))
    return jobs


def write_ops_models(directory, root):
    import numpy as np
    sys.path.insert(0, os.path.join(root, "bench", "tflite"))
    import ops
    for name, builder in ops.CASES:
        ops.build_model(np, name, builder, 0, directory)
        os.remove(os.path.join(directory, name + ".json"))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--write-ops-models":
        write_ops_models(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
