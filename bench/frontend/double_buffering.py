"""run.py --double-buffering: each model's scratch arenas with the tensors
its loops carry in one slot where bufferization allows it, and with each
in two slots (carry-in-place=false)."""

import json
import os

import recurrent
from execute import TOSA, run


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
