#!/usr/bin/env python3
"""Firmware images: per-section sizes and the QEMU run time.

Plans each model for QEMU's mps3-an547 board, lowers it to LLVM with its
arenas in their memories' sections (helia-memory-pipeline with plan-ld),
builds a -O2 Cortex-M55 image with scripts/firmware-image.sh, prints the
size of every allocated section, then runs the image on QEMU RUNS times and
reports the median wall time of the run (QEMU start-up included; the
empty-main baseline is that start-up alone) and whether QEMU printed what
mlir-runner prints on the host.

The models are the bundled example and the firmware tests' models; the
shared bench models are TFLite graphs of tfl.* ops, which have no
bufferization and do not lower (docs/Firmware.md).

Usage: bench/firmware.py BUILD_DIR [--runs=N]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "scripts"))
import llvm_prefix  # noqa: E402  (scripts/llvm_prefix.py)
from cli import make_parser, tool  # noqa: E402  (bench/cli.py)

LLVM = llvm_prefix.PREFIX
TOSA = ("func.func(tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, "
        "tosa-to-tensor)")
QEMU = ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55",
        "-nographic", "-semihosting-config", "enable=on,target=native",
        "-kernel"]


def models(root):
    fw = os.path.join(root, "test", "Firmware")
    return [
        ("tiny_cnn (example)", os.path.join(root, "examples", "tiny_cnn.mlir"),
         "platform=mps3_an547 rules-file=" + os.path.join(
             root, "examples", "firmware",
                                      "tiny_cnn.mps3_an547.rules.json")),
        ("pinned_streamed", os.path.join(fw, "pinned_streamed.mlir"), ""),
        ("spill (dtcm=2048)", os.path.join(fw, "spill.mlir"),
         "memory-limit=dtcm=2048"),
        ("calls", os.path.join(fw, "calls.mlir"), ""),
        # The baseline: a main that returns at once (no model).
        ("empty main (baseline)", None, ""),
    ]

EMPTY = """module attributes {helia.platform = "mps3_an547"} {
  func.func @main() attributes {helia.unplanned} {
    return
  }
}
"""


def sections(elf):
    out = subprocess.run([os.path.join(LLVM, "bin", "llvm-readelf"), "-S",
                          "-W", elf], check=True, capture_output=True,
                         text=True).stdout
    result = []
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("[") or "]" not in line:
            continue
        fields = line.split("]", 1)[1].split()
        if len(fields) < 7 or fields[0] == "Name":
            continue
        name, kind, addr, size, flags = fields[0], fields[1], fields[2], \
            int(fields[4], 16), fields[6]
        if "A" in flags and size:
            result.append((name, kind, addr, size))
    return result


def main():
    parser = make_parser(__doc__, bench=False)
    parser.add_argument("--runs", type=int, default=5,
                        help="runs per measurement")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    runs = args.runs
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    opt = tool(build)
    board = os.path.join(root, "examples", "firmware", "mps3_an547.ld")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path, extra in models(root):
            d = os.path.join(tmp, str(len(rows)))
            os.makedirs(d)
            llvm = os.path.join(d, "model.llvm.mlir")
            if path is None:
                path = os.path.join(d, "empty.mlir")
                with open(path, "w") as f:
                    f.write(EMPTY)
            pipeline = (f"builtin.module({TOSA}, helia-memory-pipeline{{"
                        f"{extra} plan-ld={d}/plan.ld}})")
            subprocess.run([opt, path, "--pass-pipeline=" + pipeline, "-o",
                            llvm], check=True)
            host = subprocess.run(
                [os.path.join(LLVM, "bin", "mlir-runner"), llvm, "-e", "main",
                 "-entry-point-result=void",
                 "-shared-libs=" + ",".join(
                     os.path.join(LLVM, "lib", lib) for lib in
                     ["libmlir_runner_utils.so",
                      "libmlir_c_runner_utils.so"])],
                check=True, capture_output=True).stdout
            elf = os.path.join(d, "image.elf")
            subprocess.run([os.path.join(root, "scripts", "firmware-image.sh"),
                            llvm, d, board, elf], check=True)
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                # QEMU writes the semihosting output to its stderr.
                run = subprocess.run(QEMU + [elf], check=True,
                                     capture_output=True, timeout=60)
                times.append(time.perf_counter() - start)
            rows.append((name, sections(elf), statistics.median(times),
                         run.stderr == host))

    print("| model | section | address | bytes |")
    print("|---|---|---|---|")
    for name, secs, _, _ in rows:
        for sec, kind, addr, size in secs:
            print(f"| {name} | `{sec}` ({kind}) | 0x{addr} | {size} |")
    print()
    print(f"| model | QEMU run, median of {runs} (ms) | output == host |")
    print("|---|---|---|")
    for name, _, seconds, same in rows:
        print(f"| {name} | {seconds * 1000:.0f} | {'yes' if same else 'NO'} |")
    if not all(same for *_, same in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
