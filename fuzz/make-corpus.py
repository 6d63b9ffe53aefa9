#!/usr/bin/env python3
"""Builds the seed corpora of the helia fuzzers from the repository's tests
and the shared bench models (read in place, never copied into the tree).

usage: fuzz/make-corpus.py OUT_DIR [BENCH_MODELS_DIR]

Writes OUT_DIR/pipeline/ (each module of test/ -- split at `// -----` -- and
each bench model, behind a few 8-byte configurations that the pipeline
fuzzer decodes: platform, rule seed, algorithm, limits), OUT_DIR/rules/
(every JSON file embedded in the tests with split-file, plus the README's
example), OUT_DIR/profile/ (the traffic profiles embedded in the tests),
OUT_DIR/planner/ (a few fixed byte strings) and OUT_DIR/tflite/
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


def npy(descr: str, shape: tuple, data: bytes, version: int = 1) -> bytes:
    """An .npy file as numpy.lib.format writes it (without numpy)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (
        descr, shape)
    size = 4 if version > 1 else 2
    pad = (64 - (6 + 2 + size + len(header) + 1) % 64) % 64
    header = (header + " " * pad + "\n").encode()
    return (b"\x93NUMPY" + bytes([version, 0]) +
            len(header).to_bytes(size, "little") + header + data)


def npz_seeds(out: pathlib.Path) -> int:
    """The NumPy reader's seeds: .npz archives as np.savez (stored) and
    np.savez_compressed (deflated) write them, with zip64 local headers as
    numpy forces them, and bare .npy files of each dtype and version."""
    import io
    import zipfile
    arrays = [
        ("input_0", npy("|i1", (2, 1, 3), bytes(range(6)))),
        ("output_0", npy("<f4", (2, 2), bytes(16))),
        ("output_1", npy(">i2", (3,), b"\x00\x01\x00\x02\x00\x03")),
        ("input_1", npy("|u1", (), b"\x07", version=2)),
        ("input_2", npy("|b1", (0, 4), b"", version=3)),
    ]
    count = 0
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        for members in (arrays[:2], arrays):
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", compression=method) as z:
                for name, data in members:
                    with z.open(name + ".npy", "w", force_zip64=True) as f:
                        f.write(data)
            write(out, buf.getvalue())
            count += 1
    for _, data in arrays:
        write(out, data)
        count += 1
    return count


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    bench = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else \
        ROOT.parent / "shared" / "bench" / "models"
    modules = []
    rules = []
    profiles = []
    for path in sorted((ROOT / "test").rglob("*")):
        if path.suffix not in (".mlir", ".test") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if "//--- " in text:
            for name, content in split_files(text):
                if name.endswith(".json") and "helia-traffic-profile" in content:
                    profiles.append(content.encode())
                elif name.endswith(".json"):
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
    for profile in profiles:
        write(out / "profile", profile)
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
    arrays = npz_seeds(out / "npz")
    print(f"corpus: {len(modules)} modules, {len(rules)} rule files, "
          f"{models} .tflite files, {arrays} .npz/.npy files in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
