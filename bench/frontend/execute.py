"""How bench/frontend/run.py lowers and runs a module: the pipelines, the
lowering to LLVM, mlir-runner on the host, and the firmware run (planned
for QEMU's mps3-an547, on the host and as a Cortex-M55 image on QEMU)."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LLVM = llvm_prefix.PREFIX
TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, "
        "tosa-to-tensor)")
TO_LLVM = ["--convert-linalg-to-loops", "--lower-affine", "--convert-scf-to-cf",
           "--expand-strided-metadata", "--lower-affine",
           "--finalize-memref-to-llvm", "--convert-math-to-llvm",
           "--convert-math-to-libm", "--convert-to-llvm",
           "--reconcile-unrealized-casts"]
RUNNER_LIBS = [os.path.join(LLVM, "lib", "libmlir_runner_utils.so"),
               os.path.join(LLVM, "lib", "libmlir_c_runner_utils.so"),
               "/lib/x86_64-linux-gnu/libm.so.6"]
# The firmware run (--qemu): the model planned for QEMU's mps3-an547 and
# lowered to LLVM with its arenas in their sections (to-llvm through
# plan-ld, helia-approximate-math included), run on the host with
# mlir-runner and as a Cortex-M55 image on QEMU.
FIRMWARE = ("builtin.module(helia-memory-pipeline{platform=mps3_an547 "
            "arena-mode=%s plan-ld=%s plan-json=%s})")
# The unplanned reference for the firmware run: the same math (the
# approximations helia-approximate-math makes), plain bufferization.
PLAIN_APPROX = ("builtin.module(one-shot-bufferize{bufferize-function-boundaries "
                "function-boundary-type-conversion=identity-layout-map "
                "allow-return-allocs-from-loops}, helia-lower-copies, "
                "func.func(helia-approximate-math))")
TO_LLVM_VECTOR = ["--convert-vector-to-scf"] + TO_LLVM[:-3] + \
    ["--convert-vector-to-llvm"] + TO_LLVM[-3:]
QEMU = ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55",
        "-nographic", "-semihosting-config", "enable=on,target=native",
        "-kernel"]
# The firmware runtime's heap (examples/firmware/runtime.c), which holds
# the arenas in arena-mode=arg|alloc and the result copies: at most what
# the 64 KiB of DTCM the board keeps for the application hold beside the
# 32 KiB stack.
FW_HEAP_MAX = 30 * 1024


def run(cmd, stdin=None, timeout=600):
    p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace")
        first = next((l for l in err.splitlines() if "error" in l), err.strip()[:300])
        raise RuntimeError(os.path.basename(cmd[0]) + ": " + first.strip())
    return p.stdout


def execute_llvm(opt, lowered):
    """Runs a module lowered with vector.print in it (the firmware harness)."""
    llvm = run([opt, "-"] + TO_LLVM_VECTOR, stdin=lowered)
    return run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
                "-entry-point-result=void",
                "-shared-libs=" + ",".join(RUNNER_LIBS)], stdin=llvm)


def execute(opt, lowered):
    llvm = run([opt, "-"] + TO_LLVM, stdin=lowered)
    out = run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
               "-entry-point-result=void",
               "-shared-libs=" + ",".join(RUNNER_LIBS)], stdin=llvm)
    return b"\n".join(l for l in out.splitlines() if b"base@" not in l)


def firmware(opt, src, mode, work):
    """The firmware run of the harness `src` (printing with vector.print) in
    arena mode `mode`: returns (host output, QEMU output), both of the same
    LLVM module."""
    os.makedirs(work, exist_ok=True)
    llvm = os.path.join(work, "model.llvm.mlir")
    plan = os.path.join(work, "plan.json")
    run([opt, src, "--pass-pipeline=" + FIRMWARE % (mode, os.path.join(work, "plan.ld"), plan),
         "-o", llvm])
    host = run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
                "-entry-point-result=void",
                "-shared-libs=" + ",".join(RUNNER_LIBS[:2]), llvm])
    # The heap holds the writable arenas (arg, alloc) and the result copies.
    writable = sum(a["size"] for a in json.load(open(plan))["arenas"]
                   if a["role"] != "constant")
    heap = min(FW_HEAP_MAX, max(4096, (writable + 2048 + 1023) // 1024 * 1024))
    env = dict(os.environ, HELIA_RUNTIME_CFLAGS=f"-DHELIA_HEAP_BYTES={heap}")
    elf = os.path.join(work, "image.elf")
    p = subprocess.run([os.path.join(ROOT, "scripts", "firmware-image.sh"), llvm,
                        work, os.path.join(ROOT, "examples", "firmware", "mps3_an547.ld"),
                        elf], capture_output=True, env=env, timeout=600)
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError("firmware-image.sh: " + (err[-1] if err else "failed"))
    q = subprocess.run(QEMU + [elf], capture_output=True, timeout=120)
    # QEMU writes the semihosting output to its stderr.
    out = q.stderr
    if q.returncode != 0:
        raise RuntimeError(f"QEMU: exit {q.returncode}: {out.decode(errors='replace')[:200]}")
    return host, out
