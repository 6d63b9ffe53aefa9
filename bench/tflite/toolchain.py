"""The tools that bench/tflite's scripts run, and how: the pipelines
(planned, plain, firmware), the lowering to LLVM and mlir-runner's
libraries, QEMU's command line and the firmware image's limits, the tool
runner that turns every failure into a Failure, and Tools (import, run on
the host, run as firmware on QEMU)."""

import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench"))
LLVM = llvm_prefix.PREFIX
SYSTEM_PYTHON = "/usr/bin/python3"
TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, "
        "tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor)")
# Planned runs take the TFLite recipe (helia-fuse-accumulators: accumulators
# one element and convolution windows at a time); the plain reference is the
# unfused module, so that "planned == plain" also checks the fusion.
PLANNED = ("builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true "
           "fuse-accumulators=true%s})")
PLAIN = ("builtin.module(%s, one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops}, helia-lower-copies)")
FIRMWARE = ("builtin.module(%s, helia-memory-pipeline{platform=mps3_an547 "
            "fuse-accumulators=true plan-ld=%s%s})")
TO_LLVM = ["--convert-vector-to-scf", "--convert-linalg-to-loops",
           "--lower-affine", "--convert-scf-to-cf",
           "--expand-strided-metadata", "--lower-affine",
           "--convert-vector-to-llvm", "--finalize-memref-to-llvm",
           "--convert-math-to-llvm", "--convert-math-to-libm",
           "--convert-to-llvm", "--reconcile-unrealized-casts"]
RUNNER_LIBS = [os.path.join(LLVM, "lib", "libmlir_runner_utils.so"),
               os.path.join(LLVM, "lib", "libmlir_c_runner_utils.so"),
               "/lib/x86_64-linux-gnu/libm.so.6"]
QEMU = ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55",
        "-nographic", "-semihosting-config", "enable=on,target=native",
        "-kernel"]

# The firmware image's limits (examples/firmware): the harness's constant
# inputs are read-only data in ITCM (512 KiB with the code), and the copy
# that host code keeps of every result comes from the runtime's bump heap
# (4 KiB unless HELIA_HEAP_BYTES says more), in the 64 KiB of DTCM that
# also hold the 32 KiB stack.
FW_INPUT_BYTES = 160 * 1024
FW_HEAP_BYTES = 4096
FW_HEAP_MAX = 24 * 1024


class Failure(Exception):
    """A failure of one model, reported in its row."""


def first_error(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l
    return lines[0] if lines else "(no output)"


def run(cmd, stdin=None, timeout=600, what=None, env=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True,
                           timeout=timeout, env=env)
    except FileNotFoundError:
        raise Failure(f"{cmd[0]} not found")
    except subprocess.TimeoutExpired:
        raise Failure(f"{what or os.path.basename(cmd[0])}: timed out after {timeout} s")
    if p.returncode < 0:
        # A crash: LLVM's stack dump says nothing about the model.
        raise Failure(f"{what or os.path.basename(cmd[0])}: crashed (signal {-p.returncode})")
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace")
        raise Failure(f"{what or os.path.basename(cmd[0])}: "
                      f"{first_error(err)[:300]} (exit {p.returncode})")
    return p.stdout


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def function_name(path):
    """The importer's default function name for a file."""
    stem = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    return "m_" + name if name[:1].isdigit() else name


class Tools:
    def __init__(self, args):
        self.opt = os.path.join(args.build, "bin", "helia-opt")
        self.translate = args.translate or os.path.join(args.build, "bin", "helia-translate")
        self.runner = os.path.join(LLVM, "bin", "mlir-runner")
        self.imported = args.imported
        self.timeout = args.timeout
        # More helia-memory-pipeline options for every planned run.
        self.options = (" " + args.pipeline_options) if args.pipeline_options else ""

    def import_model(self, model, name, work):
        """The imported module's text (or, with --imported DIR, the file
        DIR/<stem>.mlir written by hand)."""
        if self.imported:
            path = os.path.join(self.imported, os.path.splitext(os.path.basename(model))[0] + ".mlir")
            try:
                return open(path).read()
            except OSError as e:
                raise Failure(f"import: {e}")
        if not os.path.exists(self.translate):
            raise Failure(f"import: {self.translate} not found")
        out = os.path.join(work, name + ".mlir")
        run([self.translate, "--import-tflite", model, "-o", out],
            timeout=self.timeout, what="import")
        return open(out).read()

    def host(self, harness_path, pipeline):
        lowered = run([self.opt, harness_path, "--pass-pipeline=" + pipeline],
                      timeout=self.timeout, what="helia-opt")
        llvm = run([self.opt, "-"] + TO_LLVM, stdin=lowered,
                   timeout=self.timeout, what="to LLVM")
        return run([self.runner, "-e", "main", "-entry-point-result=void",
                    "-shared-libs=" + ",".join(RUNNER_LIBS)], stdin=llvm,
                   timeout=self.timeout, what="mlir-runner").decode(errors="replace")

    def firmware(self, harness_path, work, heap):
        """Builds the harness as an mps3-an547 image (with a heap of `heap`
        bytes) and runs it on QEMU; returns what the image printed."""
        llvm = os.path.join(work, "model.llvm.mlir")
        run([self.opt, harness_path,
             "--pass-pipeline=" + FIRMWARE % (TOSA, os.path.join(work, "plan.ld"), self.options),
             "-o", llvm], timeout=self.timeout, what="helia-opt (mps3_an547)")
        elf = os.path.join(work, "image.elf")
        # The float math the networks need (expf, tanhf), linked in.
        env = dict(os.environ, HELIA_FIRMWARE_SOURCES=os.path.join(HERE, "libm.c"))
        if heap > FW_HEAP_BYTES:
            env["HELIA_RUNTIME_CFLAGS"] = f"-DHELIA_HEAP_BYTES={heap}"
        run([os.path.join(ROOT, "scripts", "firmware-image.sh"), llvm, work,
             os.path.join(ROOT, "examples", "firmware", "mps3_an547.ld"), elf],
            timeout=self.timeout, what="firmware-image.sh", env=env)
        try:
            p = subprocess.run(QEMU + [elf], capture_output=True,
                               timeout=self.timeout)
        except FileNotFoundError:
            raise Failure("qemu-system-arm not found")
        except subprocess.TimeoutExpired:
            raise Failure(f"QEMU: timed out after {self.timeout} s")
        # QEMU writes the semihosting output to its stderr.
        out = p.stderr.decode(errors="replace")
        if p.returncode != 0:
            raise Failure(f"QEMU: exit {p.returncode}: {first_error(out)[:200]}")
        return out
