#!/usr/bin/env python3
"""Runs the frontend networks of ../shared/bench/frontend planned and plain
and compares their outputs bit for bit; prints a table.

Each model gets a harness at run time (the shared files are never edited):
an `helia.unplanned` @main that builds the deterministic input (element i of
the flattened input is ((i * 7) % 17 - 8) / 8), calls @torch_jit, and prints
the logits as their bit patterns (arith.bitcast to i32, printMemrefI32).

Variants: the default platform; every constant pinned into PSRAM (`pin`:
staged arenas and hydration); every constant streamed (`stream`: the stream
pool); a DTCM limit of half the scratch arena, which forces scratch to spill
into SRAM (`spill`); ops that only move constant elements folded into
constants first (`fold`, fold-constants=true; the table shows the report's
predicted scratch peak without the tensors computed from constants alone
and the folded plan's scratch arenas). Each in arena modes global, arg and
alloc, against plain One-Shot Bufferize.

With --qemu, each model is also planned for QEMU's mps3-an547 in every
arena mode, lowered to LLVM with its arenas in their sections, and run on
the host (mlir-runner) and as a Cortex-M55 image on QEMU; both must print
what the unplanned module prints with the same math approximations
(helia-approximate-math), bit for bit. --variants "" runs only that.

The recurrent models of bench/frontend/recurrent.py (a GRU and a stacked
two-layer LSTM) are generated at run time; the others are read from the
shared frontend directory.

usage: run.py --build build [--models a,b] [--variants default,pin,stream,spill,fold]
              [--modes global,arg,alloc] [--pipeline-options "in-place=true"]
              [--qemu] [--check]
       run.py --build build --double-buffering [--models a,b]
--double-buffering prints each model's scratch arenas with the tensors its
loops carry in one slot where bufferization allows it and with each in two
slots (carry-in-place=false: a second slot and a copy back per iteration).
--check exits 1 when any planned run differs from plain or fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recurrent  # noqa: E402  (bench/frontend/recurrent.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)

HERE = os.path.dirname(os.path.abspath(__file__))
FRONTEND = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench", "frontend"))
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
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_MODELS = ["transformer_block.tosa", "transformer_block.linalg",
                  "vit_tiny_32.tosa", "vit_tiny_32.linalg",
                  "shufflenet_v2_x0_5_64.tosa", "shufflenet_v2_x0_5_64.linalg",
                  "squeezenet1_1_64.tosa", "squeezenet1_1_64.linalg",
                  "mobilenet_v3_small_96.tosa", "lstm_16x8.linalg"] + \
    list(recurrent.MODELS)
RULES = {
    # Every constant copied at start-up into PSRAM (the one writable memory
    # that holds every model's weights): staged arenas, hydration.
    "pin": '[{"type": "constant", "attributes": '
           '{"constant_destination_memory": "psram"}}]',
    # Every constant streamed into the pool before its first reader.
    "stream": '[{"type": "constant", "attributes": {"residency": "stream"}}]',
}


# Options a model needs on the default platform: MobileNetV3's 6 MB of
# weights exceed Apollo510's 4 MB of MRAM (a limit above the physical size
# measures the plan alone).
MODEL_LIMITS = {"mobilenet_v3_small_96.tosa": ["mram=16777216"]}


def limits_option(limits):
    return " memory-limit=" + ",".join(limits) if limits else ""


def signature(text):
    m = re.search(r"func\.func @torch_jit\((%\w+): tensor<([^>]*)>\) -> (.*?) \{", text)
    if not m:
        raise RuntimeError("no @torch_jit(%arg: tensor<...>) -> ... in the model")
    in_shape = m.group(2)
    results = re.findall(r"tensor<([^>]*)>", m.group(3))
    return in_shape, results


def harness(text, printer="memref"):
    """The model with an @main that runs it on the deterministic input and
    prints every result as its bit patterns: with printMemrefI32
    (`printer="memref"`, the MLIR runner library) or as one `vector.print`
    of i32 per result (`printer="vector"`, which the firmware runtime of
    examples/firmware prints too)."""
    in_shape, results = signature(text)
    dims = [int(d) for d in in_shape.split("x")[:-1]]
    elt = in_shape.split("x")[-1]
    n = 1
    for d in dims:
        n *= d
    values = ", ".join(repr(((i * 7) % 17 - 8) / 8) for i in range(n))
    lines = ["  func.func private @printMemrefI32(tensor<*xi32>)",
             "  func.func @main() attributes {helia.unplanned} {",
             "    call @torch_jit_hydrate_constants() : () -> ()",
             f"    %in = arith.constant dense<[{values}]> : tensor<{n}x{elt}>",
             f"    %x = tensor.reshape %in(%shape) : (tensor<{n}x{elt}>, tensor<{len(dims)}xindex>) -> tensor<{in_shape}>"]
    shape = ", ".join(str(d) for d in dims)
    lines.insert(4, f"    %shape = arith.constant dense<[{shape}]> : tensor<{len(dims)}xindex>")
    types = ", ".join(f"tensor<{r}>" for r in results)
    names = ", ".join(f"%r#{i}" for i in range(len(results))) if len(results) > 1 else "%r"
    lines.append(f"    %r{':' + str(len(results)) if len(results) > 1 else ''} = call @torch_jit(%x) : (tensor<{in_shape}>) -> ({types})")
    for i, r in enumerate(results):
        rv = f"%r#{i}" if len(results) > 1 else "%r"
        rshape = r.rsplit("x", 1)[0]
        rank = len(rshape.split("x"))
        dims_ = ", ".join(f"d{k}" for k in range(rank))
        its = ", ".join(['"parallel"'] * rank)
        lines.append(f"    %e{i} = tensor.empty() : tensor<{rshape}xi32>")
        lines.append(f"    %b{i} = linalg.generic {{indexing_maps = [affine_map<({dims_}) -> ({dims_})>, affine_map<({dims_}) -> ({dims_})>], iterator_types = [{its}]}} ins({rv} : tensor<{r}>) outs(%e{i} : tensor<{rshape}xi32>) {{")
        lines.append(f"    ^bb0(%v: {r.rsplit('x', 1)[1]}, %o: i32):")
        lines.append(f"      %c = arith.bitcast %v : {r.rsplit('x', 1)[1]} to i32")
        lines.append(f"      linalg.yield %c : i32")
        lines.append(f"    }} -> tensor<{rshape}xi32>")
        if printer == "vector":
            n = 1
            for d in rshape.split("x"):
                n *= int(d)
            if rank == 1:
                lines.append(f"    %f{i} = tensor.cast %b{i} : tensor<{n}xi32> to tensor<{n}xi32>")
            else:
                lines.append(f"    %f{i} = tensor.collapse_shape %b{i} [[{', '.join(str(k) for k in range(rank))}]] : tensor<{rshape}xi32> into tensor<{n}xi32>")
            lines.append(f"    %z{i} = arith.constant 0 : index")
            lines.append(f"    %p{i} = arith.constant 0 : i32")
            lines.append(f"    %v{i} = vector.transfer_read %f{i}[%z{i}], %p{i} : tensor<{n}xi32>, vector<{n}xi32>")
            lines.append(f"    vector.print %v{i} : vector<{n}xi32>")
            continue
        lines.append(f"    %u{i} = tensor.cast %b{i} : tensor<{rshape}xi32> to tensor<*xi32>")
        lines.append(f"    call @printMemrefI32(%u{i}) : (tensor<*xi32>) -> ()")
    lines += ["    return", "  }",
              "  func.func @torch_jit_hydrate_constants() attributes {helia.unplanned} {",
              "    return", "  }"]
    end = text.rstrip().rfind("}")
    return text[:end] + "\n".join(lines) + "\n}\n"


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


def double_buffering(opt, models, frontend, tmp):
    """The arenas of each model with loop-carried tensors in one slot where
    bufferization allows it (the default), and with every tensor a loop
    computes anew in a second slot copied back each iteration
    (carry-in-place=false): what one slot saves. Returns the failures."""
    print("| model | carried tensors | one slot / two slots | scratch B | "
          "scratch B (carry-in-place=false) | saved B |")
    print("|---|---:|---:|---:|---:|---:|")
    failures = 0
    for model in models:
        text = recurrent.generate(model) if model in recurrent.MODELS else \
            open(os.path.join(frontend, model + ".mlir")).read()
        src = os.path.join(tmp, model + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        cells = []
        try:
            for carry in ("true", "false"):
                path = os.path.join(tmp, f"{model}.carry-{carry}.json")
                run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false carry-in-place=%s plan-json=%s})" % (TOSA, carry, path), "-o", os.devnull])
                plan = json.load(open(path))
                scratch = sum(a["size"] for a in plan["arenas"] if a["role"] == "scratch")
                two = sum(1 for c in plan["carried"] if c["choice"] == "slot-and-copy")
                cells.append((len(plan["carried"]), two, scratch))
        except Exception as e:
            print(f"| {model} | | | | | planning failed: {str(e).splitlines()[0][:160]} |")
            failures += 1
            continue
        (n, two, best), (_, _, forced) = cells
        print(f"| {model} | {n} | {n - two} / {two} | {best} | {forced} | {forced - best} |", flush=True)
        if forced < best:
            failures += 1
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--variants", default="default,pin,stream,spill,fold")
    ap.add_argument("--modes", default="global,arg,alloc")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--frontend", default=FRONTEND)
    ap.add_argument("--qemu", action="store_true",
                    help="also plan each model for mps3-an547, run it on the "
                         "host and as Cortex-M55 firmware on QEMU in every "
                         "arena mode, and compare both with the unplanned "
                         "module (same math approximations) bit for bit")
    ap.add_argument("--pipeline-options", default="",
                    help="more helia-memory-pipeline options for every run, "
                         "e.g. in-place=true")
    ap.add_argument("--double-buffering", action="store_true",
                    help="print the scratch arenas with loop-carried tensors "
                         "in one slot where possible and with every one in "
                         "two slots (carry-in-place=false), and nothing else "
                         "(default models: the recurrent ones)")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "helia-opt")
    if args.double_buffering:
        models = args.models.split(",") if args.models != ",".join(DEFAULT_MODELS) \
            else ["lstm_16x8.linalg"] + list(recurrent.MODELS)
        with tempfile.TemporaryDirectory() as tmp:
            failures = double_buffering(opt, models, args.frontend, tmp)
        return 1 if (args.check and failures) else 0
    failures = 0
    passed = 0
    print("| model | ops | tensors | scratch B | constant B | scratch B (spill) | fold: predicted peak / scratch B | plan s | lower s | variants x modes | outputs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            if model in recurrent.MODELS:
                text = recurrent.generate(model)
            else:
                text = open(os.path.join(args.frontend, model + ".mlir")).read()
            src = os.path.join(tmp, model + ".mlir")
            with open(src, "w") as f:
                f.write(harness(text))
            row = {"model": model}
            try:
                plain = execute(opt, run([opt, src, "--pass-pipeline=builtin.module(%s, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, helia-lower-copies)" % TOSA]))
            except Exception as e:  # the reference itself does not run
                print(f"| {model} | | | | | | | | | | plain run failed: {str(e)[:200]} |")
                failures += 1
                continue
            # Planning alone: sizes and time.
            json_path = os.path.join(tmp, model + ".json")
            limits = MODEL_LIMITS.get(model, [])
            extra = limits_option(limits)
            if args.pipeline_options:
                extra += " " + args.pipeline_options
            t0 = time.time()
            report_path = os.path.join(tmp, model + ".report.txt")
            try:
                run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false plan-json=%s plan-report=%s%s})" % (TOSA, json_path, report_path, extra), "-o", os.devnull])
            except Exception as e:
                print(f"| {model} | | | | | | | | | | planning failed: {str(e).splitlines()[0][:200]} |")
                failures += 1
                continue
            plan_s = time.time() - t0
            plan = json.load(open(json_path))
            arenas = plan.get("arenas", [])
            scratch = sum(a["size"] for a in arenas if a["role"] == "scratch")
            const = sum(a["size"] for a in arenas if a["role"] == "constant")
            tensors = len(plan.get("tensors", []))
            ops = sum(1 for l in text.splitlines() if re.match(r"\s+(%\S+ = )?\"?[a-z_]+\.[a-z_0-9.]+", l))
            spill_scratch = ""
            fold = ""
            outcome = []
            lower_s = 0.0
            variants = [v for v in args.variants.split(",") if v]
            for variant in variants:
                opts = extra
                if variant == "spill":
                    limit = max(16, (scratch // 2) // 16 * 16)
                    opts = limits_option(limits + [f"dtcm={limit}"])
                if variant == "fold":
                    opts += " fold-constants=true"
                if variant in RULES:
                    rules = os.path.join(tmp, variant + ".json")
                    open(rules, "w").write(RULES[variant])
                    opts += f" rules-file={rules}"
                for mode in args.modes.split(","):
                    try:
                        t0 = time.time()
                        lowered = run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=true lower-copies=true arena-mode=%s%s})" % (TOSA, mode, opts)])
                        if variant == "default" and mode == "global":
                            lower_s = time.time() - t0 - plan_s
                        out = execute(opt, lowered)
                        if out == plain:
                            passed += 1
                        else:
                            failures += 1
                            outcome.append(f"{variant}/{mode}: DIFFERENT")
                    except Exception as e:
                        failures += 1
                        outcome.append(f"{variant}/{mode}: {str(e).splitlines()[0][:160]}")
                if variant == "fold":
                    # The report's prediction (the scratch peak without the
                    # tensors computed from constants alone) against the
                    # scratch arenas of the folded plan.
                    fold_json = os.path.join(tmp, model + ".fold.json")
                    m = re.search(r"without them: (\d+)", open(report_path).read())
                    try:
                        run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false%s plan-json=%s})" % (TOSA, opts, fold_json), "-o", os.devnull])
                        fp = json.load(open(fold_json))
                        folded = sum(a["size"] for a in fp["arenas"] if a["role"] == "scratch")
                        predicted = int(m.group(1)) if m else scratch
                        fold = f"{predicted} / {folded}"
                        # Arenas round up to their alignment (16 bytes).
                        slack = 16 * sum(1 for a in fp["arenas"] if a["role"] == "scratch")
                        if folded > predicted + slack:
                            failures += 1
                            outcome.append(f"fold: report predicted {predicted} B of scratch, the folded plan needs {folded} B")
                    except Exception:
                        fold = "?"
                if variant == "spill":
                    spill_json = os.path.join(tmp, model + ".spill.json")
                    try:
                        run([opt, src, "--pass-pipeline=builtin.module(%s, helia-memory-pipeline{lower=false%s plan-json=%s})" % (TOSA, opts, spill_json), "-o", os.devnull])
                        sp = json.load(open(spill_json))
                        spill_scratch = "+".join(f'{a["memory"]}:{a["size"]}' for a in sp["arenas"] if a["role"] == "scratch")
                    except Exception:
                        spill_scratch = "?"
            if args.qemu:
                vsrc = os.path.join(tmp, model + ".vector.mlir")
                with open(vsrc, "w") as f:
                    f.write(harness(text, "vector"))
                try:
                    reference = execute_llvm(opt, run([opt, vsrc, "--pass-pipeline=" + PLAIN_APPROX]))
                    if not re.search(rb"\( -?\d+", reference):
                        raise RuntimeError("the unplanned firmware harness printed no result")
                    for mode in args.modes.split(","):
                        host, qemu = firmware(opt, vsrc, mode, os.path.join(tmp, model + ".fw." + mode))
                        if host == reference and qemu == reference:
                            passed += 1
                        else:
                            failures += 1
                            outcome.append(f"qemu/{mode}: {'host' if host != reference else 'QEMU'} DIFFERENT")
                except Exception as e:
                    failures += 1
                    outcome.append(f"qemu: {str(e).splitlines()[0][:160]}")
            n = (len(variants) + args.qemu) * len(args.modes.split(","))
            status = "bit-identical" if not outcome else "; ".join(outcome)
            print(f"| {model} | {ops} | {tensors} | {scratch} | {const} | {spill_scratch} | {fold} | {plan_s:.2f} | {max(lower_s, 0):.2f} | {n} | {status} |", flush=True)
    print(f"{passed} passed, {failures} failed")
    return 1 if (args.check and failures) else 0


if __name__ == "__main__":
    sys.exit(main())
