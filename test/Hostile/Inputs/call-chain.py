"""Prints a module whose functions call each other in a chain:
f0 -> f1 -> ... -> f(n-1), each called once. Usage: call-chain.py N"""
import sys

n = int(sys.argv[1])
for i in range(n - 1):
    print(f"func.func @f{i}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n"
          f"  %r = call @f{i + 1}(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
          f"  return %r : tensor<4xf32>\n}}")
print(f"func.func @f{n - 1}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n"
      f"  return %a : tensor<4xf32>\n}}")
