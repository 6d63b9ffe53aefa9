#!/usr/bin/env python3
"""Prints a module of N functions for the threading test.

Every function computes on tensors of its own sizes with a named weight
constant; every fifth one calls the previous function (one call site each,
so the callee runs inside its caller's call step), and one weight of every
seventh function is streamed by a rule.
"""

import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
print('module attributes {helia.rules = [')
print('  #helia.rule<type = constant, id = ["f*_7/w"], attributes = <residency = stream>>]} {')
for i in range(count):
    n = 16 * (1 + i % 13)
    t = f"tensor<{n}xf32>"
    calls = i % 5 == 0 and i > 0
    print(f'  func.func @f{i}(%x: {t} {{helia.name = "f{i}/x"}}) -> {t} {{')
    print(f'    %w = arith.constant {{helia.name = "f{i}_{i % 10}/w"}} dense<{i}.0> : {t}')
    print(f'    %a = arith.addf %x, %w {{helia.name = "f{i}/a"}} : {t}')
    print(f'    %b = arith.mulf %a, %a {{helia.name = "f{i}/b"}} : {t}')
    print(f'    %c = arith.subf %b, %x {{helia.name = "f{i}/c"}} : {t}')
    last = "%c"
    if calls:
        m = 16 * (1 + (i - 1) % 13)
        print(f'    %e = tensor.empty() : tensor<{m}xf32>')
        print(f'    %r = func.call @f{i - 1}(%e) : (tensor<{m}xf32>) -> tensor<{m}xf32>')
    print(f'    %d = arith.addf {last}, %w {{helia.name = "f{i}/d"}} : {t}')
    print(f'    return %d : {t}')
    print('  }')
print('}')
