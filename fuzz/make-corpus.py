#!/usr/bin/env python3
"""Builds the seed corpora of the helia fuzzers from the repository's tests
and the shared bench models (read in place, never copied into the tree).

usage: fuzz/make-corpus.py OUT_DIR [BENCH_MODELS_DIR]

Writes OUT_DIR/pipeline/ (each module of test/ -- split at `// -----` -- and
each bench model, behind a few 8-byte configurations that the pipeline
fuzzer decodes: platform, rule seed, algorithm, limits), OUT_DIR/rules/
(every JSON file embedded in the tests with split-file, plus the README's
example), OUT_DIR/planner/ (a few fixed byte strings) and OUT_DIR/tflite/
(the small .tflite files of the shared bench). File names are
content hashes, so reruns are idempotent.
"""

import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# platform, flags, rule seed (2), limit (2), sizes (2); see Config in
# helia-pipeline-fuzzer.cpp.
CONFIGS = [
    bytes([0, 0, 0, 0, 0, 0, 0, 0]),  # the module as written
    bytes([1, 1, 7, 0, 0, 0, 0, 0]),  # apollo4p_evb, random rules
    bytes([3, 1, 42, 0, 64, 0, 0x33, 0x14]),  # small custom platform
    bytes([2, 16 | 2, 0, 0, 0, 1, 0, 0]),  # apollo3p_evb, a memory limit
]


def write(out: pathlib.Path, data: bytes) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)


def split_modules(text: str):
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        # Drop RUN/CHECK lines: they are comments to the parser anyway, but
        # smaller inputs mutate faster.
        lines = [l for l in chunk.splitlines()
                 if not re.match(r"\s*//\s*(RUN|CHECK|expected-)", l)]
        body = "\n".join(lines).strip()
        if body:
            yield body


def split_files(text: str):
    """Yields (name, content) of each `//--- name` section (split-file)."""
    parts = re.split(r"^//--- (\S+)\s*$", text, flags=re.M)
    for i in range(1, len(parts) - 1, 2):
        yield parts[i], parts[i + 1]


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    bench = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else \
        ROOT.parent / "shared" / "bench" / "models"
    modules = []
    rules = []
    for path in sorted((ROOT / "test").rglob("*")):
        if path.suffix not in (".mlir", ".test") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if "//--- " in text:
            for name, content in split_files(text):
                if name.endswith(".json"):
                    rules.append(content.encode())
                elif name.endswith(".mlir"):
                    modules.extend(split_modules(content))
        elif path.suffix == ".mlir":
            modules.extend(split_modules(text))
    if bench.is_dir():
        for path in sorted(bench.glob("*.mlir")):
            modules.append(path.read_text())
    for i, module in enumerate(modules):
        # Every module with the plain configuration; the others in turn.
        write(out / "pipeline", CONFIGS[0] + module.encode())
        write(out / "pipeline", CONFIGS[1 + i % 3] + module.encode())
    readme = (ROOT / "README.md").read_text()
    for block in re.findall(r"```json\n(.*?)```", readme, flags=re.S):
        rules.append(block.encode())
    rules.append(b'{"rules": [{"type": "*", "id": null, "attributes": {}}]}')
    for rule in rules:
        write(out / "rules", rule)
    for seed in (b"", b"\x00" * 16, bytes(range(64)), b"\xff" * 64):
        write(out / "planner", seed)
    # The importer's seeds: the real .tflite files small enough to mutate
    # quickly (every SEANet single-op model, the small TFLM examples).
    tflite = bench.parent / "tflite"
    models = 0
    if tflite.is_dir():
        for path in sorted(tflite.rglob("*.tflite")):
            if path.stat().st_size <= 32768:
                write(out / "tflite", path.read_bytes())
                models += 1
    # The importer's tests' models (flatc JSON; an LSTM among them, which
    # no bench model has in 16x8 or float), converted with flatc.
    schema = ROOT / "lib" / "Target" / "TFLite" / "TFLiteSchema.fbs"
    inputs = sorted((ROOT / "test" / "Target" / "TFLite" / "Inputs").glob("*.json")) + \
        sorted((ROOT / "test" / "Tools" / "helia-compile" / "Inputs").glob("*.json"))
    if shutil.which("flatc"):
        with tempfile.TemporaryDirectory() as tmp:
            for path in inputs:
                if subprocess.run(["flatc", "-b", "-o", tmp, str(schema), str(path)],
                                  capture_output=True).returncode == 0:
                    write(out / "tflite", (pathlib.Path(tmp) / (path.stem + ".bin")).read_bytes())
                    models += 1
    print(f"corpus: {len(modules)} modules, {len(rules)} rule files, "
          f"{models} .tflite files in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
