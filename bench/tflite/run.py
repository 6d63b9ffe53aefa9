#!/usr/bin/env python3
"""Checks helia on real TFLite models (../shared/bench/tflite) against
TFLite's golden data and Arm NN's reference runtime.

Every model is imported with `helia-translate --import-tflite`, wrapped at
run time in a harness (an `helia.unplanned` @main that builds each input as
an `arith.constant dense<"0x...">` of its little-endian bytes, calls the
model, and prints every element of every output as an i32: int8/int16
sign-extended, float32 as its bit pattern, with vector.print, which the
firmware runtime prints too), lowered and run with mlir-runner. Nothing in the shared directory is written.

Parts (positional, default both):

  seanet    every seanet/<op>/<op>N.tflite with its input CSVs, run planned
            (helia-memory-pipeline with fuse-accumulators=true) and plain
            (One-Shot Bufferize of the unfused module), both
            compared with <op>N_golden_<type>.csv bit for bit; with --qemu
            also planned for mps3-an547 as a Cortex-M55 image on QEMU.
  networks  every whole network, COUNT seeded random inputs; the reference
            is Arm NN's TfLite parser on CpuRef (bench/tflite/reference.py
            under /usr/bin/python3, one model per process, cached in
            BUILD/tflite/reference); helia planned on the host, and with
            --qemu the same harness as a Cortex-M55 image for mps3-an547 on
            qemu-system-arm. Tolerance: 1 LSB for quantized outputs, 1e-4
            relative for float outputs (max |a - b| / max |b| over each
            output and input). With --layers, every operator is also cut
            out of the network into a model of its own and checked alone,
            on its own random inputs, and the verdict takes the tolerance
            per operator: Arm NN rounds up to 1 LSB away from TFLite in
            each operator, and later operators amplify that end to end
            (a classifier must still agree on 75% of the top-1 classes).

usage: run.py [seanet] [networks] [--build build] [--bench ../shared/bench]
              [--models kws_ref_model,add0,conv] [--count 20] [--seed 0]
              [--qemu] [--plain] [--layers] [--no-host] [-j 2] [--check]
              [--pipeline-options "arena-mode=alloc"] [--keep DIR]

Every failure (import, lowering, run, mismatch) is reported in its model's
row and counted; each part ends with `N passed, N failed`. --check exits 1
when anything failed.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

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

# The whole networks: input range of float inputs, and whether the first
# output is a class score vector (top-1 agreement is reported).
NETWORKS = [
    ("kws_ref_model", (-1.0, 1.0), True),
    ("vww_96_int8", (0.0, 1.0), True),
    ("vww_96_float", (0.0, 1.0), True),
    ("pretrainedResnet_quant", (0.0, 1.0), True),
    ("ad01_int8", (-1.0, 1.0), False),
    ("ad01_fp32", (-1.0, 1.0), False),
    ("hello_world_int8", (-1.0, 1.0), False),
    ("hello_world_float", (-1.0, 1.0), False),
    ("micro_speech_quantized", (-1.0, 1.0), True),
    ("simple_add_model", (-1.0, 1.0), False),
]
INT_RANGES = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767),
              "i32": (-2 ** 31, 2 ** 31 - 1)}
FLOAT_RTOL = 1e-4
QUANT_LSB = 1

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


# --- Reading the .tflite flatbuffer (inputs and outputs of subgraph 0) -----

TFL_TYPES = {0: "f32", 1: "f16", 2: "i32", 3: "ui8", 4: "i64", 6: "i1",
             7: "i16", 9: "i8", 10: "f64"}


class FlatBuffer:
    def __init__(self, data):
        self.d = data

    def u32(self, p):
        return struct.unpack_from("<I", self.d, p)[0]

    def table(self, p):
        vt = p - struct.unpack_from("<i", self.d, p)[0]
        return p, vt, struct.unpack_from("<H", self.d, vt)[0]

    def field(self, t, i):
        p, vt, vsize = t
        if 4 + 2 * i >= vsize:
            return None
        off = struct.unpack_from("<H", self.d, vt + 4 + 2 * i)[0]
        return p + off if off else None

    def ref(self, t, i):
        f = self.field(t, i)
        return None if f is None else f + self.u32(f)

    def vector(self, t, i):
        v = self.ref(t, i)
        return (0, None) if v is None else (self.u32(v), v + 4)

    def tables(self, t, i):
        n, base = self.vector(t, i)
        return [self.table(base + 4 * k + self.u32(base + 4 * k))
                for k in range(n)]

    def scalars(self, t, i, fmt):
        n, base = self.vector(t, i)
        size = struct.calcsize("<" + fmt)
        return [struct.unpack_from("<" + fmt, self.d, base + size * k)[0]
                for k in range(n)]

    def string(self, t, i):
        n, base = self.vector(t, i)
        return "" if base is None else self.d[base:base + n].decode("utf-8", "replace")

    def scalar(self, t, i, fmt, default=0):
        f = self.field(t, i)
        return default if f is None else struct.unpack_from("<" + fmt, self.d, f)[0]


def tflite_io(path):
    """[(name, shape, type, scales, zero points)] of the inputs and outputs."""
    try:
        fb = FlatBuffer(open(path, "rb").read())
        model = fb.table(fb.u32(0))
        graph = fb.tables(model, 2)[0]
        tensors = fb.tables(graph, 0)

        def describe(k):
            t = tensors[k]
            q = fb.ref(t, 4)
            scale, zp = [], []
            if q is not None:
                qt = fb.table(q)
                scale, zp = fb.scalars(qt, 2, "f"), fb.scalars(qt, 3, "q")
            return {"name": fb.string(t, 3), "shape": fb.scalars(t, 0, "i"),
                    "type": TFL_TYPES.get(fb.scalar(t, 1, "b"), "?"),
                    "scale": scale, "zero_point": zp}

        return ([describe(k) for k in fb.scalars(graph, 1, "i")],
                [describe(k) for k in fb.scalars(graph, 2, "i")])
    except (struct.error, IndexError, OSError) as e:
        raise Failure(f"cannot read {os.path.basename(path)}: {e}")


# TFLite's builtin operator codes (schema.fbs), for the layer rows.
TFL_OPS = {0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D",
           4: "DEPTHWISE_CONV_2D", 6: "DEQUANTIZE", 9: "FULLY_CONNECTED",
           14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU",
           21: "RELU6", 22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 34: "PAD",
           40: "MEAN", 41: "SUB", 45: "STRIDED_SLICE", 67: "TRANSPOSE_CONV",
           98: "LEAKY_RELU", 114: "QUANTIZE"}


def single_op_models(path, outdir):
    """One .tflite per operator of subgraph 0: the same file with the
    subgraph's operators cut to that one, its inputs the operator's
    non-constant inputs and its outputs the operator's outputs (new vectors
    appended at the end of the buffer, which flatbuffers' forward offsets
    allow; the operator's table lies after the operators vector).
    Returns [(index, op name, path)]."""
    data = open(path, "rb").read()
    fb = FlatBuffer(data)
    model = fb.table(fb.u32(0))
    graph = fb.tables(model, 2)[0]
    codes = fb.tables(model, 1)
    buffers = fb.tables(model, 4)
    tensors = fb.tables(graph, 0)
    n_ops, ops_vec = fb.vector(graph, 3)
    f_inputs, f_outputs, f_ops = fb.field(graph, 1), fb.field(graph, 2), fb.field(graph, 3)
    if None in (f_inputs, f_outputs, f_ops):
        raise Failure("the subgraph has no inputs, outputs or operators")

    def constant(t):
        b = fb.scalar(tensors[t], 2, "I")
        return b < len(buffers) and fb.vector(buffers[b], 0)[0] > 0

    models = []
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    for k in range(n_ops):
        elem = ops_vec + 4 * k
        table = elem + fb.u32(elem)
        op = fb.table(table)
        code = codes[fb.scalar(op, 0, "I")]
        # builtin_code (field 3) supersedes the deprecated byte (field 0).
        opcode = max(fb.scalar(code, 0, "b"), fb.scalar(code, 3, "i"))
        ins = [t for t in fb.scalars(op, 1, "i") if t >= 0 and not constant(t)]
        outs = fb.scalars(op, 2, "i")
        out = bytearray(data)
        while len(out) % 4:
            out.append(0)

        def append_vector(values):
            pos = len(out)
            out.extend(struct.pack("<I%di" % len(values), len(values), *values))
            return pos

        vin, vout = append_vector(ins), append_vector(outs)
        struct.pack_into("<I", out, f_inputs, vin - f_inputs)
        struct.pack_into("<I", out, f_outputs, vout - f_outputs)
        ops_pos = f_ops + fb.u32(f_ops)
        if table < ops_pos + 4:
            raise Failure(f"operator {k}'s table precedes the operators vector")
        struct.pack_into("<II", out, ops_pos, 1, table - (ops_pos + 4))
        name = f"{stem}_op{k}"
        dst = os.path.join(outdir, name + ".tflite")
        with open(dst, "wb") as f:
            f.write(out)
        models.append((k, TFL_OPS.get(opcode, f"op{opcode}"), dst))
    return models


# --- Tools -------------------------------------------------------------------

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


# --- The harness ---------------------------------------------------------------

def split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [], {} and strings."""
    parts, depth, cur, quote = [], 0, [], False
    for c in text:
        if c == '"':
            quote = not quote
        if not quote:
            if c in "<([{":
                depth += 1
            elif c in ">)]}":
                depth -= 1
            elif c == sep and depth == 0:
                parts.append("".join(cur))
                cur = []
                continue
        cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def balanced(text, start):
    """Index after the bracket group that opens at text[start]."""
    open_, close = text[start], {"(": ")", "<": ">", "{": "}", "[": "]"}[text[start]]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
    raise Failure("unbalanced brackets in the imported function's signature")


TENSOR = re.compile(r"tensor<([0-9x]*?)x?(i1|i8|i16|i32|i64|f16|f32|f64)>|tensor<(i1|i8|i16|i32|i64|f16|f32|f64)>")


def parse_tensor(text):
    m = TENSOR.search(text)
    if not m:
        raise Failure(f"not a ranked tensor of a known element type: {text.strip()[:80]}")
    if m.group(3):
        return [], m.group(3)
    dims = [int(d) for d in m.group(1).split("x") if d] if m.group(1) else []
    return dims, m.group(2)


def signature(text, name):
    """(argument types, result types) of `func.func @name`; each a (shape,
    element type)."""
    m = re.search(r"func\.func\s+(?:public\s+|private\s+)?@" + re.escape(name) + r"\s*\(", text)
    if not m:
        names = re.findall(r"func\.func\s+(?:public\s+)?@([\w$.]+)\s*\(", text)
        if len(names) != 1:
            raise Failure(f"no func.func @{name} in the imported module "
                          f"(functions: {', '.join(names) or 'none'})")
        name = names[0]
        m = re.search(r"func\.func\s+(?:public\s+)?@" + re.escape(name) + r"\s*\(", text)
    open_ = m.end() - 1
    close = balanced(text, open_)
    args = [parse_tensor(a.split(":", 1)[1]) for a in split_top(text[open_ + 1:close - 1])]
    rest = text[close:]
    results = []
    r = re.match(r"\s*->\s*", rest)
    if r:
        rest = rest[r.end():]
        if rest.startswith("("):
            end = balanced(rest, 0)
            results = [parse_tensor(t) for t in split_top(rest[1:end - 1])]
        else:
            t = re.match(r"tensor<[^>]*>", rest)
            if not t:
                raise Failure("the model's result is not a tensor")
            results = [parse_tensor(t.group(0))]
    return name, args, results


def ttype(shape, elt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


ELT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "f32": 4, "f64": 8}
INT_FORMAT = {"i8": "b", "i16": "h", "i32": "i", "i64": "q"}


def to_hex(values, elt):
    """dense<"0x..."> bytes of integer values (little-endian)."""
    fmt = INT_FORMAT[elt]
    try:
        return struct.pack("<%d%s" % (len(values), fmt), *values).hex().upper()
    except struct.error as e:
        raise Failure(f"an input value does not fit {elt}: {e}")


def print_function(idx, shape, elt):
    """An unplanned function that prints a result as one line of i32s."""
    n = elements(shape)
    t = ttype(shape, elt)
    flat = f"tensor<{n}x{elt}>"
    lines = [f"  func.func @__print{idx}(%t: {t}) attributes {{helia.unplanned}} {{",
             "    %c0 = arith.constant 0 : index",
             "    %c1 = arith.constant 1 : index",
             f"    %last = arith.constant {n - 1} : index"]
    if len(shape) == 0:
        lines.append(f"    %f = tensor.expand_shape %t [] output_shape [1] : {t} into {flat}")
    elif len(shape) == 1:
        lines.append(f"    %f = tensor.cast %t : {t} to {flat}")
    else:
        lines.append(f"    %f = tensor.collapse_shape %t [[{', '.join(str(i) for i in range(len(shape)))}]] : {t} into {flat}")

    def convert(v, out):
        if elt in ("i8", "i16"):
            return [f"      {out} = arith.extsi {v} : {elt} to i32"]
        if elt == "i1":
            return [f"      {out} = arith.extui {v} : i1 to i32"]
        if elt == "i32":
            return [f"      {out} = arith.addi {v}, %zero : i32"]
        if elt == "f32":
            return [f"      {out} = arith.bitcast {v} : f32 to i32"]
        if elt == "f16":
            return [f"      {out}h = arith.bitcast {v} : f16 to i16",
                    f"      {out} = arith.extui {out}h : i16 to i32"]
        raise Failure(f"cannot print a result of {elt}")

    lines.append("    %zero = arith.constant 0 : i32")
    lines.append("    scf.for %i = %c0 to %last step %c1 {")
    lines.append(f"      %v = tensor.extract %f[%i] : {flat}")
    lines += convert("%v", "%w")
    lines.append("      vector.print %w : i32 punctuation <no_punctuation>")
    lines.append("      vector.print punctuation <comma>")
    lines.append("    }")
    lines.append(f"      %v = tensor.extract %f[%last] : {flat}")
    lines += convert("%v", "%w")
    lines.append("      vector.print %w : i32")
    lines.append("    return")
    lines.append("  }")
    return "\n".join(lines)


def harness(text, name, args, results, samples, dealloc=True):
    """The imported module with an @main that calls @name once per sample
    (samples: [[hex bytes of each argument]]) and prints every result.

    dealloc: give each result back after printing it. Planned, every result
    that host code sees is its own copy (docs/Lowering.md); unplanned, a
    result may be a constant's global or an argument's buffer, so the plain
    harness leaves them alone."""
    body = [f"  func.func @{name}_hydrate_constants() attributes {{helia.unplanned}} {{",
            "    return", "  }"]
    for i, (shape, elt) in enumerate(results):
        body.append(print_function(i, shape, elt))
    body += ["  func.func @main() attributes {helia.unplanned} {",
             f"    call @{name}_hydrate_constants() : () -> ()"]
    arg_types = ", ".join(ttype(*a) for a in args)
    res_types = ", ".join(ttype(*r) for r in results)
    for j, sample in enumerate(samples):
        names = []
        for k, ((shape, elt), hexbytes) in enumerate(zip(args, sample)):
            if len(hexbytes) != 2 * elements(shape) * ELT_BYTES[elt]:
                raise Failure(f"input {k} has {len(hexbytes) // 2} bytes, "
                              f"the model's argument {ttype(shape, elt)} {elements(shape) * ELT_BYTES[elt]}")
            body.append(f'    %x{j}_{k} = arith.constant dense<"0x{hexbytes}"> : {ttype(shape, elt)}')
            names.append(f"%x{j}_{k}")
        n = len(results)
        lhs = f"%r{j}:{n} = " if n > 1 else (f"%r{j} = " if n == 1 else "")
        body.append(f"    {lhs}call @{name}({', '.join(names)}) : ({arg_types}) -> ({res_types})")
        for i, r in enumerate(results):
            v = f"%r{j}#{i}" if n > 1 else f"%r{j}"
            body.append(f"    call @__print{i}({v}) : ({ttype(*r)}) -> ()")
            # The result's copy goes back to the heap at once: the firmware
            # runtime's heap is 4 KiB and gives back the last block.
            if dealloc:
                body.append(f"    bufferization.dealloc_tensor {v} : {ttype(*r)}")
    body += ["    return", "  }"]
    # Attribute and location aliases (`#loc3 = loc(...)`) follow the module.
    lines = text.rstrip().split("\n")
    tail = []
    while lines and (lines[-1].startswith("#") or not lines[-1].strip()):
        tail.insert(0, lines.pop())
    module = "\n".join(lines)
    end = module.rfind("}")
    if end < 0:
        raise Failure("the imported text is not a module")
    return module[:end] + "\n".join(body) + "\n}\n" + "".join(l + "\n" for l in tail)


def parse_output(out, expected_lines):
    """The printed lines of integers (runner noise dropped)."""
    lines = []
    for line in out.splitlines():
        line = line.strip()
        if not line or not re.fullmatch(r"-?\d+(, -?\d+)*", line):
            continue
        lines.append([int(v) for v in line.split(", ")])
    if len(lines) != expected_lines:
        raise Failure(f"printed {len(lines)} output lines, expected {expected_lines}")
    return lines


# --- Part 1: seanet ---------------------------------------------------------

CSV_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32"}


def read_csv(path):
    try:
        text = open(path).read().strip()
        return [int(v) for v in text.replace("\n", ",").split(",") if v.strip()]
    except (OSError, ValueError) as e:
        raise Failure(f"{os.path.basename(path)}: {e}")


def seanet_models(bench, selected):
    root = os.path.join(bench, "tflite", "seanet")
    models = []
    if not os.path.isdir(root):
        return models
    for op in sorted(os.listdir(root)):
        d = os.path.join(root, op)
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            m = re.fullmatch(re.escape(op) + r"(\d+)\.tflite", f)
            if m:
                models.append((op, int(m.group(1)), os.path.join(d, f)))
    models.sort()
    if selected:
        models = [m for m in models
                  if m[0] in selected or f"{m[0]}{m[1]}" in selected]
    return models


def compare(got, want):
    if len(got) != len(want):
        return f"NO ({len(got)} elements, golden {len(want)})"
    diff = [abs(a - b) for a, b in zip(got, want) if a != b]
    if not diff:
        return "yes"
    return f"NO ({len(diff)} differ, max |d| {max(diff)})"


def seanet_one(tools, op, index, path, tmp, qemu=False):
    model = f"{op}{index}"
    d = os.path.dirname(path)
    row = {"op": op, "model": model, "elements": "", "planned": "", "plain": "", "ok": False}
    work = os.path.join(tmp, model)
    os.makedirs(work, exist_ok=True)
    try:
        ins, outs = tflite_io(path)
        inputs = []
        for k, inp in enumerate(ins):
            csv_type = CSV_TYPES.get(inp["type"], inp["type"])
            f = os.path.join(d, f"{model}_input{k}_{csv_type}.csv")
            inputs.append((inp["type"], read_csv(f)))
        goldens = [g for g in os.listdir(d) if re.fullmatch(re.escape(model) + r"_golden_\w+\.csv", g)]
        if len(goldens) != 1 or len(outs) != 1:
            raise Failure(f"{len(goldens)} golden files for {len(outs)} outputs")
        golden = read_csv(os.path.join(d, goldens[0]))
        row["elements"] = str(len(golden))
        name = function_name(path)
        text = tools.import_model(path, name, work)
        name, args, results = signature(text, name)
        if len(args) != len(inputs):
            raise Failure(f"@{name} takes {len(args)} arguments, the model has {len(inputs)} inputs")
        if len(results) != 1:
            raise Failure(f"@{name} returns {len(results)} results, the model has 1 output")
        sample = []
        for k, ((shape, elt), (_, values)) in enumerate(zip(args, inputs)):
            if elements(shape) != len(values):
                raise Failure(f"input {k}: {len(values)} values in the CSV for {ttype(shape, elt)}")
            if elt not in INT_FORMAT:
                raise Failure(f"input {k}: {ttype(shape, elt)} is not an integer tensor")
            sample.append(to_hex(values, elt))
        ok = True
        kinds = [("planned", PLANNED % (TOSA, tools.options)), ("plain", PLAIN % TOSA)]
        if qemu:
            kinds.append(("qemu", None))
        for key, pipeline in kinds:
            h = os.path.join(work, f"harness.{key}.mlir")
            with open(h, "w") as f:
                f.write(harness(text, name, args, results, [sample], dealloc=key != "plain"))
            try:
                if key == "qemu":
                    _, heap = batches(results, args, 1)
                    fw = os.path.join(work, "fw")
                    os.makedirs(fw, exist_ok=True)
                    out = tools.firmware(h, fw, heap)
                else:
                    out = tools.host(h, pipeline)
                row[key] = compare(parse_output(out, 1)[0], golden)
            except Failure as e:
                row[key] = f"error: {e}"
            ok = ok and row[key] == "yes"
        row["ok"] = ok
    except Failure as e:
        row["error"] = str(e)
    except Exception as e:  # a bug of this script: still this model's row
        row["error"] = f"internal error: {type(e).__name__}: {e}"
    row["ok"] = row["ok"] and "error" not in row
    return row


def part_seanet(args, tools, tmp):
    models = seanet_models(args.bench, args.models)
    print(f"== seanet: {len(models)} single-op models against TFLite's golden outputs, bit for bit")
    qemu = " QEMU mps3-an547 == golden |" if args.qemu else ""
    print(f"| op | model | elements | planned == golden | plain == golden |{qemu}")
    print("|---|---|---:|---|---|" + ("---|" if args.qemu else ""))
    passed = failed = 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(seanet_one, tools, op, i, p, tmp, args.qemu) for op, i, p in models]
        for fut in futures:
            try:
                row = fut.result()
            except Exception as e:  # a bug of this script: still one row
                row = {"op": "?", "model": "?", "elements": "", "planned": "",
                       "plain": "", "ok": False, "error": f"{type(e).__name__}: {e}"}
            if "error" in row:
                cells = f"| {row['op']} | {row['model']} | {row['elements']} | {row['error']} | |" + \
                    (" |" if args.qemu else "")
            else:
                cells = f"| {row['op']} | {row['model']} | {row['elements']} | {row['planned']} | {row['plain']} |" + \
                    (f" {row.get('qemu', '')} |" if args.qemu else "")
            print(cells, flush=True)
            if row["ok"]:
                passed += 1
            else:
                failed += 1
    print(f"seanet: {passed} passed, {failed} failed ({time.time() - t0:.0f} s)")
    return failed


# --- Part 2: networks ------------------------------------------------------

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


def as_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def decode(lines, results, count):
    """Per sample, per output: the values (floats from their bit patterns)."""
    n = len(results)
    per = []
    for j in range(count):
        sample = []
        for i, (shape, elt) in enumerate(results):
            vals = lines[j * n + i]
            if len(vals) != elements(shape):
                raise Failure(f"sample {j} output {i}: {len(vals)} values printed, "
                              f"expected {elements(shape)}")
            sample.append([as_float(v) for v in vals] if elt == "f32" else vals)
        per.append(sample)
    return per


def differences(got, want, results, classifier):
    """Per output: (max difference, unit, within tolerance), and the top-1
    agreement (or None)."""
    stats = []
    for i, (shape, elt) in enumerate(results):
        worst = 0.0
        over = total = 0
        for j in range(len(want)):
            g, w = got[j][i], want[j][i]
            if len(g) != len(w):
                raise Failure(f"output {i}: {len(g)} values, Arm NN {len(w)}")
            if elt == "f32":
                # The relative error in the maximum norm: max |a - b| over
                # max |b| of the output (summation order moves elements near
                # zero by more than 1e-4 of themselves, not of the output).
                scale = max((abs(x) for x in w if x == x), default=0.0)
                for a, b in zip(g, w):
                    total += 1
                    if a != a or b != b:  # NaN
                        if not (a != a and b != b):
                            worst = float("inf")
                            over += 1
                        continue
                    d = abs(a - b) / max(scale, 1e-30)
                    worst = max(worst, d)
                    over += d > FLOAT_RTOL
            else:
                for a, b in zip(g, w):
                    d = abs(int(a) - int(b))
                    worst = max(worst, d)
                    total += 1
                    over += d > QUANT_LSB
        # How many of all the elements are over the tolerance, when any is.
        count = f" ({over} of {total} over)" if over else ""
        if elt == "f32":
            stats.append((f"{worst:.2e} rel{count}", worst <= FLOAT_RTOL))
        else:
            stats.append((f"{int(worst)} LSB{count}", worst <= QUANT_LSB))
    top1 = None
    if classifier and results and elements(results[0][0]) > 1:
        agree = 0
        for j in range(len(want)):
            g, w = got[j][0], want[j][0]
            agree += g.index(max(g)) == w.index(max(w))
        top1 = f"{agree}/{len(want)}"
    return stats, top1


def batches(results, args_, count):
    """Samples per firmware image: the inputs fit the image's read-only data,
    and the copies of one call's results its heap (each is deallocated after
    it is printed)."""
    in_bytes = sum(elements(s) * ELT_BYTES[e] for s, e in args_)
    # Each copy is a malloc of its bytes and 64 more (the alignment).
    out_bytes = sum((elements(s) * ELT_BYTES[e] + 64 + 15) // 16 * 16 for s, e in results)
    if out_bytes > FW_HEAP_MAX:
        raise Failure(f"the copies of the results ({out_bytes} B) exceed the "
                      f"largest firmware heap ({FW_HEAP_MAX} B)")
    per = max(1, FW_INPUT_BYTES // max(in_bytes, 1))
    heap = max(FW_HEAP_BYTES, (out_bytes + 1023) // 1024 * 1024)
    return [list(range(k, min(k + per, count))) for k in range(0, count, per)], heap


def layers_one(args, tools, path, low_high, armnn, work):
    """Every operator of the network alone, on its own seeded random inputs,
    planned on the host against Arm NN. Returns (cell, all within)."""
    rows = []
    try:
        models = single_op_models(path, os.path.join(work, "layers"))
    except (Failure, struct.error, IndexError) as e:
        return f"error: cannot cut the operators out: {e}", False
    for k, opname, op_path in models:
        try:
            ins, _ = tflite_io(op_path)
            samples, want, note = reference(args, op_path, ins, low_high, armnn,
                                            os.path.dirname(op_path))
            if want is None:
                raise Failure(note)
            lw = os.path.join(work, "layers", str(k))
            os.makedirs(lw, exist_ok=True)
            name = function_name(op_path)
            text = tools.import_model(op_path, name, lw)
            name, fargs, results = signature(text, name)
            h = os.path.join(lw, "harness.mlir")
            with open(h, "w") as f:
                f.write(harness(text, name, fargs, results, samples))
            lines = parse_output(tools.host(h, PLANNED % (TOSA, tools.options)), len(samples) * len(results))
            stats, _ = differences(decode(lines, results, len(samples)), want, results, False)
            rows.append((k, opname, ", ".join(c for c, _ in stats), all(w for _, w in stats)))
        except Failure as e:
            rows.append((k, opname, f"error: {str(e)[:160]}", False))
    bad = [r for r in rows if not r[3]]
    cell = f"{len(rows) - len(bad)}/{len(rows)} within"
    if bad:
        cell += ": " + "; ".join(f"op {k} {n} {c}" for k, n, c, _ in bad)
    else:
        worst = max((r[2] for r in rows), key=lambda c: float(c.split()[0]), default="")
        cell += f" (worst {worst})" if worst else ""
    return cell, not bad


TOP1_SANITY = 0.75


def network_one(args, tools, stem, low_high, classifier, armnn, tmp):
    """One network's row. Its verdict: every run within the tolerance of
    Arm NN (end to end), no error, the plain and QEMU runs printing the
    host's bytes. With --layers the tolerance applies to every operator
    alone instead (Arm NN's reference kernels round differently from
    TFLite's by up to 1 LSB per operator, and later operators amplify it),
    and end to end the classifiers must still agree on the top-1 class for
    TOP1_SANITY of the inputs."""
    path = os.path.join(args.bench, "tflite", stem + ".tflite")
    row = {"model": stem, "ok": False, "cells": {}, "verdict": "FAIL"}
    work = os.path.join(tmp, stem)
    os.makedirs(work, exist_ok=True)
    try:
        if not os.path.exists(path):
            raise Failure(f"{path} not found")
        ins, outs = tflite_io(path)
        row["io"] = " ".join(ttype(i["shape"], i["type"]) for i in ins) + " -> " + \
            " ".join(ttype(o["shape"], o["type"]) for o in outs)
        samples, want, note = reference(args, path, ins, low_high, armnn, tmp)
        row["reference"] = note
        name = function_name(path)
        text = tools.import_model(path, name, work)
        name, fargs, results = signature(text, name)
        if [(list(i["shape"]), i["type"]) for i in ins] != [(list(s), e) for s, e in fargs]:
            raise Failure("@%s(%s) does not take the model's inputs (%s)" % (
                name, ", ".join(ttype(*a) for a in fargs),
                ", ".join(ttype(i["shape"], i["type"]) for i in ins)))
        if len(results) != len(outs):
            raise Failure(f"@{name} returns {len(results)} results, the model has {len(outs)} outputs")
        sound = want is not None      # no error, every bit-identity holds
        within = True                 # end to end within the tolerance
        top1_ok = True                # the sanity bound on top-1 agreement
        runs = (["host"] if not args.no_host else []) + \
            (["plain"] if args.plain else []) + (["qemu"] if args.qemu else [])
        outputs = {}
        for kind in runs:
            try:
                if kind == "qemu":
                    lines = []
                    groups, heap = batches(results, fargs, len(samples))
                    for b, idx in enumerate(groups):
                        bw = os.path.join(work, f"fw{b}")
                        os.makedirs(bw, exist_ok=True)
                        bh = os.path.join(bw, "harness.mlir")
                        with open(bh, "w") as f:
                            f.write(harness(text, name, fargs, results, [samples[j] for j in idx]))
                        lines += parse_output(tools.firmware(bh, bw, heap), len(idx) * len(results))
                else:
                    pipeline = PLANNED % (TOSA, tools.options) if kind == "host" else PLAIN % TOSA
                    h = os.path.join(work, f"harness.{kind}.mlir")
                    with open(h, "w") as f:
                        f.write(harness(text, name, fargs, results, samples,
                                        dealloc=kind == "host"))
                    lines = parse_output(tools.host(h, pipeline), len(samples) * len(results))
                outputs[kind] = lines
                got = decode(lines, results, len(samples))
                if want is None:
                    row["cells"][kind] = "ran (no reference)"
                    continue
                stats, top1 = differences(got, want, results, classifier)
                cell = ", ".join(s for s, _ in stats)
                if top1:
                    cell += f"; top-1 {top1}"
                    agree, n = map(int, top1.split("/"))
                    top1_ok = top1_ok and agree >= TOP1_SANITY * n
                if not all(w for _, w in stats):
                    cell += " OVER TOLERANCE"
                    within = False
                row["cells"][kind] = cell
            except Failure as e:
                row["cells"][kind] = f"error: {e}"
                sound = False
        for kind in ("plain", "qemu"):
            if kind in outputs and "host" in outputs:
                if outputs[kind] == outputs["host"]:
                    row["cells"][kind] += "; == host"
                elif kind == "qemu" and any(e == "f32" for _, e in results):
                    # The image's expf/tanhf are not glibc's (libm.c): only
                    # the tolerance to Arm NN decides.
                    row["cells"][kind] += "; differs from host in the last bits (libm)"
                else:
                    row["cells"][kind] += "; DIFFERS from host"
                    sound = False
        if args.layers:
            cell, layers_ok = layers_one(args, tools, path, low_high, armnn, work)
            row["cells"]["layers"] = cell
            row["ok"] = sound and layers_ok and top1_ok
            if row["ok"]:
                row["verdict"] = "pass" if within else "pass (per layer)"
            elif sound and layers_ok:
                row["verdict"] = f"FAIL (top-1 below {TOP1_SANITY:.0%})"
        else:
            row["ok"] = sound and within and bool(runs)
            row["verdict"] = "pass" if row["ok"] else "FAIL"
    except Failure as e:
        row["error"] = str(e)
    except Exception as e:  # a bug of this script: still this network's row
        row["error"] = f"internal error: {type(e).__name__}: {e}"
    row["ok"] = row["ok"] and "error" not in row
    return row


def part_networks(args, tools, tmp):
    models = [n for n in NETWORKS if not args.models or n[0] in args.models]
    armnn = install_armnn()
    kinds = (["host"] if not args.no_host else []) + (["plain"] if args.plain else []) + \
        (["qemu"] if args.qemu else []) + (["layers"] if args.layers else [])
    print(f"== networks: {len(models)} networks, {args.count} random inputs (seed {args.seed}) "
          f"against Arm NN CpuRef; tolerance {QUANT_LSB} LSB (quantized), {FLOAT_RTOL:g} relative (float)")
    print("| network | signature | reference | " + " | ".join(
        {"host": "host (planned)", "plain": "host (plain)", "qemu": "QEMU mps3-an547",
         "layers": "each layer alone (host)"}[k]
        for k in kinds) + " | result |")
    print("|---|---|---|" + "---|" * len(kinds) + "---|")
    passed = failed = per_layer = 0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(network_one, args, tools, s, lh, c, armnn, tmp)
                   for s, lh, c in models]
        for fut in futures:
            try:
                row = fut.result()
            except Exception as e:  # a bug of this script: still one row
                row = {"model": "?", "ok": False, "error": f"{type(e).__name__}: {e}", "cells": {}}
            if "error" in row:
                print(f"| {row['model']} | {row.get('io', '')} | {row.get('reference', '')} | "
                      + " | ".join("" for _ in kinds) + f" | FAIL: {row['error']} |", flush=True)
            else:
                print(f"| {row['model']} | {row['io']} | {row['reference']} | "
                      + " | ".join(row["cells"].get(k, "") for k in kinds)
                      + f" | {row['verdict']} |", flush=True)
            if row["ok"]:
                passed += 1
                per_layer += row["verdict"] == "pass (per layer)"
            else:
                failed += 1
    note = f", {per_layer} of the passes per layer only" if per_layer else ""
    print(f"networks: {passed} passed, {failed} failed ({time.time() - t0:.0f} s{note})")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parts", nargs="*", metavar="seanet|networks",
                    help="which checks to run (default: both)")
    ap.add_argument("--build", default="build", help="the helia build directory")
    ap.add_argument("--bench", default=BENCH,
                    help="the shared bench directory (holds tflite/)")
    ap.add_argument("--translate", help="helia-translate (default BUILD/bin/helia-translate)")
    ap.add_argument("--imported", help="read DIR/<stem>.mlir instead of importing")
    ap.add_argument("--models", default="",
                    help="comma-separated: networks (kws_ref_model), seanet ops (conv) or models (conv3)")
    ap.add_argument("--count", type=int, default=20, help="random inputs per network")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--qemu", action="store_true",
                    help="also run the models as Cortex-M55 firmware on QEMU")
    ap.add_argument("--plain", action="store_true",
                    help="also run the networks unplanned (One-Shot Bufferize)")
    ap.add_argument("--no-host", action="store_true", help="skip the planned host run of the networks")
    ap.add_argument("--layers", action="store_true",
                    help="also check every operator of each network alone, on its own random inputs")
    ap.add_argument("--pipeline-options", default="",
                    help="more helia-memory-pipeline options for every planned run, "
                         "e.g. \"arena-mode=alloc in-place=true\"")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900, help="seconds per tool run")
    ap.add_argument("--keep", help="keep the work files in this directory")
    ap.add_argument("--check", action="store_true", help="exit 1 when anything failed")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.bench = os.path.abspath(args.bench)
    args.models = [m for m in args.models.split(",") if m]
    parts = args.parts or ["seanet", "networks"]
    for p in parts:
        if p not in ("seanet", "networks"):
            ap.error(f"unknown part {p!r} (seanet, networks)")
    tools = Tools(args)
    failed = 0
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        tmp = os.path.abspath(args.keep)
        ctx = None
    else:
        ctx = tempfile.TemporaryDirectory(prefix="helia-tflite-")
        tmp = ctx.name
    # A name that selects nothing is a failure, not an empty table.
    known = {n for n, _, _ in NETWORKS}
    for op, i, _ in seanet_models(args.bench, []):
        known |= {op, f"{op}{i}"}
    for m in args.models:
        if m not in known:
            print(f"unknown model {m!r} (networks: {', '.join(n for n, _, _ in NETWORKS)}; "
                  f"seanet: an op such as conv, or a model such as conv4)")
            failed += 1
    try:
        if "seanet" in parts:
            failed += part_seanet(args, tools, tmp)
        if "networks" in parts:
            if "seanet" in parts:
                print()
            failed += part_networks(args, tools, tmp)
    finally:
        if ctx:
            ctx.cleanup()
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
