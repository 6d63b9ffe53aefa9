"""The two pipelines of the differential fuzzer (docs/Hardening.md) and
how one module runs through them: planned (helia-memory-pipeline) and plain
(upstream One-Shot Bufferize), each lowered to LLVM and run by mlir-runner,
their outputs normalized and compared. run.py and reduce.py drive it.
"""

import os
import re
import subprocess

TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, "
        "tosa-to-tensor)")
# The reference inlines the calls first: across function boundaries,
# upstream One-Shot Bufferize lets a write through one result of a call that
# returns the same argument twice show in the other result (seed 1747,
# docs/Hardening.md), which the planned program rightly does not.
# Loops may yield a new tensor for an iter_arg (gen.py --control-flow):
# the reference then allocates one per iteration.
PLAIN = ("inline, one-shot-bufferize{bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops}")
# test/Integration's %{to_llvm}.
LLVM_PASSES = ["convert-vector-to-scf", "convert-linalg-to-loops",
               "lower-affine", "convert-scf-to-cf", "expand-strided-metadata",
               "lower-affine", "convert-vector-to-llvm",
               "finalize-memref-to-llvm", "convert-to-llvm",
               "reconcile-unrealized-casts"]
TO_LLVM = ["--" + p for p in LLVM_PASSES]
TIMEOUT = 60
ADDR = re.compile(rb"base@ = 0x[0-9a-f]+")
# The reference inlines calls, so a function that returns a slice of a larger
# tensor prints there as a strided view (offset, strides) while the planned
# call copies it into a result slot of its own: the header's offset and
# strides say where the elements sit, not what they are. Shapes and every
# element are still compared.
LAYOUT = re.compile(rb"offset = \d+ (sizes = \[[\d, ]*\]) strides = \[[\d, ]*\]")


def normalize(out):
    return LAYOUT.sub(rb"\1", ADDR.sub(b"base@ = ADDR", out))
CRASH = re.compile(r"PLEASE submit a bug report|Stack dump|Segmentation fault|"
                   r"Assertion .* failed|LLVM ERROR|AddressSanitizer|"
                   r"UndefinedBehaviorSanitizer|runtime error:")


class Tools:
    def __init__(self, args):
        self.helia_opt = args.helia_opt
        self.runner = args.mlir_runner
        self.libs = args.shared_libs
        self.no_stale = args.no_stale_results
        self.plain_only = getattr(args, "plain_only", False)
        self.extra_options = getattr(args, "extra_options", "").split()
        self.control_flow = getattr(args, "control_flow", 1)
        self.plan_only = getattr(args, "plan_only", False)
        self.compare_with = getattr(args, "compare_with", None)

    def planned_pipeline(self, opts):
        return "builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true %s})" % (
            TOSA, " ".join(opts))

    def plain_pipeline(self):
        # helia-lower-copies only drops the helia attributes (the module's
        # rules) that mlir-runner cannot read, as test/Integration does.
        return "builtin.module(%s, %s, helia-lower-copies)" % (TOSA, PLAIN)

    def run_cmd(self):
        return [self.runner, "-e", "main", "-entry-point-result=void", "-O0",
                "-shared-libs=" + self.libs]


def run(cmd, stdin=None, env=None):
    """(returncode or 'timeout', stdout bytes, stderr text)."""
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=TIMEOUT,
                           env=env)
    except subprocess.TimeoutExpired:
        return "timeout", b"", "timed out after %g s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no message)"


def crashed(rc, err):
    return rc == "timeout" or (isinstance(rc, int) and rc < 0) or CRASH.search(err)


def execute(tools, module, pipeline, prefix):
    """Runs one module through `pipeline`, the LLVM lowering and the runner.
    Returns (stage, rc, stdout, stderr); stage is None on success."""
    # Planning and the LLVM lowering in one invocation; on failure, again
    # in two, to say which step failed.
    both = pipeline[:-1] + ", " + ", ".join(LLVM_PASSES) + ")"
    rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + both], module)
    if rc != 0:
        rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + pipeline], module)
        if rc != 0:
            return prefix + "helia-opt", rc, out, err
        rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=builtin.module(%s)" %
                            ", ".join(LLVM_PASSES)], out)
        if rc != 0:
            return prefix + "to-llvm", rc, out, err
    rc, out2, err = run(tools.run_cmd(), out)
    if rc != 0:
        return prefix + "mlir-runner", rc, out2, err
    return None, 0, normalize(out2), err


def execute_plain(tools, module, perturb=None):
    """The reference run, with the LLVM lowering in the same invocation.
    With perturb, glibc fills fresh and freed heap memory with that byte."""
    pipeline = tools.plain_pipeline()[:-1] + ", " + ", ".join(LLVM_PASSES) + ")"
    rc, out, err = run([tools.helia_opt, "-", "--pass-pipeline=" + pipeline], module)
    if rc != 0:
        return "plain helia-opt", rc, out, err
    env = dict(os.environ, MALLOC_PERTURB_=str(perturb)) if perturb else None
    rc, out2, err = run(tools.run_cmd(), out, env)
    if rc != 0:
        return "plain mlir-runner", rc, out2, err
    return None, 0, normalize(out2), err


def compare(tools, module, opts):
    """Classifies one module: (class, detail, plain output, planned output)."""
    data = module.encode()
    stage, rc, plain, err = execute_plain(tools, data)
    if stage:
        return "invalid", "%s: %s" % (stage, first_error(err)), plain, b""
    if tools.plain_only:
        return "same", "", plain, plain
    stage, rc, planned, err = execute(tools, data, tools.planned_pipeline(opts), "")
    if stage:
        if crashed(rc, err):
            return "crashed", "%s: %s" % (stage, first_error(err) if rc != "timeout" else err), plain, planned
        return "rejected", "%s: %s" % (stage, first_error(err)), plain, planned
    if planned != plain:
        # A program that reads memory it never wrote would differ anyway:
        # the plain run must print the same with the heap filled otherwise.
        stage, rc, again, err = execute_plain(tools, data, perturb=170)
        if stage or again != plain:
            return "invalid", "the plain program reads uninitialized memory " \
                "(its output changes with MALLOC_PERTURB_)", plain, planned
        return "DIFFERENT", first_diff(plain, planned), plain, planned
    return "same", "", plain, planned


def plan(tools, module, opts, helia_opt=None):
    """Runs only the planned pipeline, with `helia_opt` (by default the
    tools' binary): (class, first error, planned output)."""
    rc, out, err = run([helia_opt or tools.helia_opt, "-", "--pass-pipeline=" +
                        tools.planned_pipeline(opts)], module.encode())
    if crashed(rc, err):
        return "crashed", first_error(err) if rc != "timeout" else err, out
    if rc != 0:
        return "rejected", first_error(err), out
    return "planned", "", out


def first_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "print line %d differs" % (i + 1)
    return "output lengths differ (%d vs %d lines)" % (len(la), len(lb))


def set_timeout(seconds):
    """The wall time after which a step counts as crashed."""
    global TIMEOUT
    TIMEOUT = seconds
