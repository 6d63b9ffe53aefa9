"""The reference of run.py's networks: Arm NN's TfLite parser on CpuRef
(bench/tflite/reference.py under /usr/bin/python3, one model per process,
installed from Debian when missing), on seeded random inputs, cached in
BUILD/tflite/reference by model sha256 and seed."""

import json
import os
import subprocess

from toolchain import HERE, SYSTEM_PYTHON, Failure, sha256

INT_RANGES = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767),
              "i32": (-2 ** 31, 2 ** 31 - 1)}


def have_armnn():
    try:
        p = subprocess.run([SYSTEM_PYTHON, "-c", "import pyarmnn"],
                           capture_output=True, timeout=120)
        return p.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def install_armnn():
    """Arm NN from Debian, as scripts/install-deps.sh installs packages:
    only as root, only when missing."""
    if have_armnn():
        return True
    if os.geteuid() != 0:
        return False
    print("helia: installing python3-pyarmnn libarmnn-cpuref-backend22", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-qq"],
                ["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y",
                 "-qq", "--no-install-recommends", "python3-pyarmnn",
                 "libarmnn-cpuref-backend22"]):
        try:
            subprocess.run(cmd, env=env, capture_output=True, timeout=1200)
        except (OSError, subprocess.TimeoutExpired):
            return False
    return have_armnn()


def reference(args, path, ins, low_high, armnn, tmp):
    """(inputs as hex per sample, Arm NN outputs per sample or None, note)."""
    key = f"{sha256(path)}-seed{args.seed}-n{args.count}"
    cache_dir = os.path.join(args.build, "tflite", "reference")
    cache = os.path.join(cache_dir, key + ".json")
    if os.path.exists(cache):
        try:
            r = json.load(open(cache))
            if "outputs" in r and "inputs" in r:
                return r["inputs"], r["outputs"], "cached"
        except (OSError, ValueError):
            pass
    specs = []
    for inp in ins:
        if inp["type"] in INT_RANGES:
            lo, hi = INT_RANGES[inp["type"]]
            if inp["type"] == "i32":
                lo, hi = -2 ** 15, 2 ** 15 - 1
        elif inp["type"] == "f32":
            lo, hi = low_high
        else:
            raise Failure(f"no random inputs for {inp['type']}")
        specs.append({"shape": inp["shape"], "type": inp["type"], "low": lo, "high": hi})
    spec = {"model": path, "seed": args.seed, "count": args.count, "inputs": specs}
    base = os.path.join(tmp, os.path.basename(path) + ".ref")
    with open(base + ".spec.json", "w") as f:
        json.dump(spec, f)

    def call(with_armnn):
        cmd = [SYSTEM_PYTHON, os.path.join(HERE, "reference.py"), "--spec",
               base + ".spec.json", "--out", base + ".json"]
        if with_armnn:
            cmd.append("--armnn")
        try:
            subprocess.run(cmd, capture_output=True, timeout=args.timeout)
            return json.load(open(base + ".json"))
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {args.timeout} s"}
        except (OSError, ValueError) as e:
            return {"error": f"{SYSTEM_PYTHON} reference.py: {e}"}

    note = ""
    if armnn:
        r = call(True)
        if "error" not in r:
            os.makedirs(cache_dir, exist_ok=True)
            with open(cache + ".tmp", "w") as f:
                json.dump({"model": os.path.basename(path), **r}, f)
            os.replace(cache + ".tmp", cache)
            return r["inputs"], r["outputs"], "Arm NN"
        note = "Arm NN failed: " + r["error"].splitlines()[0][:200]
    else:
        note = "no Arm NN (python3-pyarmnn)"
    r = call(False)
    if "error" in r:
        raise Failure("inputs: " + r["error"].splitlines()[0][:200])
    return r["inputs"], None, note
