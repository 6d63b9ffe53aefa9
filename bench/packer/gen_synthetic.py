#!/usr/bin/env python3
"""Writes a synthetic, ML-graph-like buffer list as MiniMalloc CSV.

Usage: gen_synthetic.py N OUT.csv [--seed S]

Buffer i is produced at step i (a topologically ordered graph with one
output per op); most live 1-5 steps, one in ten feeds a skip connection up
to 64 steps ahead, one in a thousand lives for a long stretch (weights
staged in, state). Sizes are multiples of 16 between 16 B and 64 KiB with
a long tail. Deterministic for a given seed.
"""
import argparse
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.out, "w") as f:
        f.write("id,lower,upper,size\n")
        for i in range(args.count):
            roll = rng.random()
            if roll < 0.001:
                length = rng.randint(100, 5000)
            elif roll < 0.1:
                length = rng.randint(6, 64)
            else:
                length = rng.randint(1, 5)
            size = 16 * int(min(4096, rng.paretovariate(1.2) * 4))
            f.write(f"{i},{i},{i + 1 + length},{size}\n")


if __name__ == "__main__":
    main()
