#!/usr/bin/env python3
"""A chain of N planned functions, f0 -> f1 -> ... -> f(N-1), each calling
the next and computing on its result and its argument, which lives across
the call: f(N-1)(x) = x + w and fi(x) = f(i+1)(x) + ci * x, with
ci = ((i % 7) - 3) / 8 and w constants of their functions.
@main (host code) calls f0 on [1, 2, 3, 4] and prints the result.

usage: call-chain.py N
"""
import sys

n = int(sys.argv[1])
T = "tensor<4xf32>"
ADD = "affine_map<(d0) -> (d0)>"
out = ["module {",
       "  func.func @main() attributes {helia.unplanned} {",
       f"    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : {T}",
       f"    %r = call @f0(%x) : ({T}) -> {T}",
       "    %c0 = arith.constant 0 : index",
       "    %pad = arith.constant 0.0 : f32",
       f"    %v = vector.transfer_read %r[%c0], %pad : {T}, vector<4xf32>",
       "    vector.print %v : vector<4xf32>",
       "    return",
       "  }"]
for i in range(n):
    out.append(f"  func.func @f{i}(%a: {T}) -> {T} {{")
    out.append(f"    %e = tensor.empty() : {T}")
    if i == n - 1:
        out.append(f"    %w = arith.constant dense<[0.5, -1.0, 2.0, 0.25]> : {T}")
        out.append(f"    %s = linalg.add ins(%a, %w : {T}, {T}) outs(%e : {T}) -> {T}")
    else:
        c = ((i % 7) - 3) / 8
        out.append(f"    %c = arith.constant dense<{c}> : {T}")
        out.append(f"    %r = call @f{i + 1}(%a) : ({T}) -> {T}")
        out.append(f"    %t = linalg.mul ins(%a, %c : {T}, {T}) outs(%e : {T}) -> {T}")
        out.append(f"    %e2 = tensor.empty() : {T}")
        out.append(f"    %s = linalg.add ins(%r, %t : {T}, {T}) outs(%e2 : {T}) -> {T}")
    out.append(f"    return %s : {T}")
    out.append("  }")
out.append("}")
print("\n".join(out))
