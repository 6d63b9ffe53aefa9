"""The program generator of fuzz/differential/gen.py, one module per concept:

  values.py        tensor values, scopes and functions as the generator
                   tracks them; MLIR type and literal text
  builder.py       Builder: the random source, fresh names, emitted lines,
                   constants, and the adapters that turn a value into one
                   of another shape or type
  elementwise.py   elementwise ops: TOSA binary and unary ops,
                   linalg.generic and named linalg ops, fill, select, casts
  layers.py        the ops of a network layer: convolutions, matmuls,
                   pooling, reductions
  shapes.py        ops that move elements: reshape, concat, slice, pad,
                   transpose, insert_slice
  control_flow.py  calls, scf.if, scf.for and scf.while
  harness.py       the unplanned @main that calls and prints
  config.py        the limits: rules and pipeline options
  program.py       Gen: the op weights, swarm testing and the module's
                   skeleton (functions, their bodies, the text)

Every choice draws from one random.Random(seed) in a fixed order, so that
the same seed always gives the same module.
"""

from .program import Gen  # noqa: F401
