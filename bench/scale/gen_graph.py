#!/usr/bin/env python3
"""Writes a synthetic model of N ops for helia's scale benchmark.

usage: bench/scale/gen_graph.py N [SEED] > model.mlir

One func.func: constants first (as TFLite imports put them), then a chain of
N unregistered "tfl.op" ops in which each op reads the previous result and,
with probability 0.1, a random earlier result up to 64 ops back (a skip
connection), and every fourth op also reads a weight constant. Activation
sizes vary between 64 B and 4 KiB. The same N and SEED always give the same
file.
"""

import random
import sys


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    n = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    out = sys.stdout
    out.write(f"// Synthetic chain of {n} ops with skip connections "
              f"(bench/scale/gen_graph.py {n}).\n")
    out.write('func.func @main(%in: tensor<1x64xf32> loc("input")) '
              '-> tensor<1x64xf32> {\n')
    weights = []
    for i in range(0, n, 4):
        k = rng.choice((16, 32, 64, 128))
        weights.append(k)
        out.write(f'  %w{i} = arith.constant dense<0.0> : tensor<{k}x4xf32> '
                  f'loc("layer{i}/weights")\n')
    types = ["tensor<1x64xf32>"]
    names = ["%in"]
    for i in range(n):
        operands = [names[-1]]
        operand_types = [types[-1]]
        if len(names) > 2 and rng.random() < 0.1:
            j = rng.randrange(max(0, len(names) - 64), len(names) - 1)
            operands.append(names[j])
            operand_types.append(types[j])
        if i % 4 == 0:
            operands.append(f"%w{i}")
            operand_types.append(f"tensor<{weights[i // 4]}x4xf32>")
        t = f"tensor<1x{rng.choice((16, 64, 256, 1024))}xf32>"
        if i == n - 1:
            t = "tensor<1x64xf32>"
        out.write(f'  %a{i} = "tfl.op"({", ".join(operands)}) : '
                  f'({", ".join(operand_types)}) -> {t} loc("layer{i}")\n')
        names.append(f"%a{i}")
        types.append(t)
    out.write(f"  return {names[-1]} : tensor<1x64xf32>\n}}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
