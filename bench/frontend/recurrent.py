#!/usr/bin/env python3
"""Recurrent networks in linalg on tensors, written the way torch-mlir's
ONNX import lowers PyTorch's nn.GRU and nn.LSTM (compare
../shared/bench/frontend/lstm_16x8.linalg.mlir, a real export): one
`scf.for` over the time steps per layer with the states as iter_args, the
input step read with `tensor.extract_slice` of the time-major input, every
gate a `linalg.transpose` of its weight, a filled `linalg.matmul` and a
broadcast bias add into one shared `tensor.empty`, and the output sequence
written step by step with `tensor.insert_slice` into a carried tensor.
After the loop, the last step of the sequence goes through a linear layer
to 10 logits.

Models (input 1x8x16 like lstm_16x8; hidden size 32 and 24):
  gru_16x8.linalg     one GRU layer (PyTorch's gate equations:
                      r = s(Wir x + bir + Whr h + bhr),
                      z = s(Wiz x + biz + Whz h + bhz),
                      n = tanh(Win x + bin + r * (Whn h + bhn)),
                      h' = (1 - z) * n + z * h)
  lstm2_16x8.linalg   two stacked LSTM layers; the second reads the first's
                      output sequence

The weights are PyTorch's default initialisation, uniform in
[-1/sqrt(hidden), 1/sqrt(hidden)], from a generator seeded per model: the same text
every time.

usage: recurrent.py NAME [-o FILE]      (NAME: gru_16x8.linalg, lstm2_16x8.linalg)
"""
import argparse
import random
import struct
import sys

SEQ, INPUT, CLASSES = 8, 16, 10
# The hidden size of each model (the stacked LSTM's is smaller so that its
# arenas fit the firmware runtime's heap in arena-mode=arg|alloc on QEMU).
MODELS = {"gru_16x8.linalg": 32, "lstm2_16x8.linalg": 24}
HIDDEN = 32  # the model being generated (generate() sets it)


class Writer:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.consts = []
        self.body = []
        self.n = 0

    def name(self, stem="v"):
        self.n += 1
        return f"%{stem}{self.n}"

    def weights(self, shape, bound):
        count = 1
        for d in shape:
            count *= d
        data = b"".join(struct.pack("<f", self.rng.uniform(-bound, bound))
                        for _ in range(count))
        name = f"%cst_{len(self.consts)}"
        self.consts.append(f'    {name} = arith.constant dense<"0x{data.hex().upper()}"> : {ttype(shape)}')
        return name


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


MAP2 = "affine_map<(d0, d1) -> (d0, d1)>"
BIAS = "affine_map<(d0, d1) -> (d1)>"


def generic(w, ins, out, body, indent):
    """A parallel 1xH linalg.generic over `ins` (names and maps) into `out`;
    `body(args)` gives the payload lines and the yielded value."""
    res = w.name()
    maps = ", ".join([m for _, m in ins] + [MAP2])
    args = ", ".join(f"%in{i}: f32" for i in range(len(ins))) + ", %out: f32"
    types = ", ".join("tensor<%dxf32>" % HIDDEN if m == BIAS else ttype((1, HIDDEN))
                      for _, m in ins)
    lines = [f"{indent}{res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [\"parallel\", \"parallel\"]}} ins({', '.join(n for n, _ in ins)} : {types}) outs({out} : {ttype((1, HIDDEN))}) {{",
             f"{indent}^bb0({args}):"]
    payload, value = body([f"%in{i}" for i in range(len(ins))])
    lines += [f"{indent}  {l}" for l in payload]
    lines += [f"{indent}  linalg.yield {value} : f32", f"{indent}}} -> {ttype((1, HIDDEN))}"]
    w.body += lines
    return res


def add(a, b):
    return [f"%r = arith.addf {a}, {b} : f32"], "%r"


def sigmoid(x):
    return [f"%n = arith.negf {x} : f32", "%e = math.exp %n : f32",
            "%d = arith.addf %e, %one : f32", "%r = arith.divf %one, %d : f32"], "%r"


def tanh(x):
    return [f"%r = math.tanh {x} : f32"], "%r"


def affine(w, x, cols, weight, bias, empty, fill, indent):
    """bias + x * weight^T, as torch-mlir writes a gate: a transpose of the
    (H x cols) weight slice, a matmul into the shared fill, a bias add."""
    e = w.name()
    t = w.name()
    mm = w.name()
    w.body += [f"{indent}{e} = tensor.empty() : {ttype((cols, HIDDEN))}",
               f"{indent}{t} = linalg.transpose ins({weight} : {ttype((HIDDEN, cols))}) outs({e} : {ttype((cols, HIDDEN))}) permutation = [1, 0] ",
               f"{indent}{mm} = linalg.matmul ins({x}, {t} : {ttype((1, cols))}, {ttype((cols, HIDDEN))}) outs({fill} : {ttype((1, HIDDEN))}) -> {ttype((1, HIDDEN))}"]
    return generic(w, [(mm, MAP2), (bias, BIAS)], empty, lambda a: add(*a), indent)


def slices(w, full, rows, cols, count):
    """The per-gate slices of a stacked (count*rows x cols) weight, or of a
    bias when cols is None, as torch-mlir extracts them before the loop."""
    out = []
    for g in range(count):
        s = w.name("slice")
        if cols is None:
            w.body.append(f"    {s} = tensor.extract_slice {full}[{g * rows}] [{rows}] [1] : tensor<{count * rows}xf32> to tensor<{rows}xf32>")
        else:
            w.body.append(f"    {s} = tensor.extract_slice {full}[{g * rows}, 0] [{rows}, {cols}] [1, 1] : {ttype((count * rows, cols))} to {ttype((rows, cols))}")
        out.append(s)
    return out


def time_index(w, t, indent):
    """The step index as torch-mlir computes it (an i64 normalised into
    [0, SEQ], then back to index)."""
    i = w.name()
    neg = w.name()
    w.body += [f"{indent}{i} = arith.index_cast {t} : index to i64",
               f"{indent}{neg} = arith.cmpi slt, {i}, %c0_i64 : i64"]
    wrapped = w.name()
    shifted = w.name()
    idx = w.name()
    w.body += [f"{indent}{shifted} = arith.addi {i}, %c{SEQ}_i64 : i64",
               f"{indent}{wrapped} = arith.select {neg}, {shifted}, {i} : i64",
               f"{indent}{idx} = arith.index_cast {wrapped} : i64 to index"]
    return idx


def layer(w, kind, seq_in, in_size, tag):
    """One recurrent layer over the time-major sequence `seq_in`
    (SEQ x 1 x in_size); returns the output sequence (SEQ x 1 x HIDDEN)."""
    gates = 3 if kind == "gru" else 4
    bound = HIDDEN ** -0.5
    wi = w.weights((gates * HIDDEN, in_size), bound)
    wh = w.weights((gates * HIDDEN, HIDDEN), bound)
    b = w.weights((2 * gates * HIDDEN,), bound)
    bi_all, bh_all = w.name("slice"), w.name("slice")
    w.body += [f"    {bi_all} = tensor.extract_slice {b}[0] [{gates * HIDDEN}] [1] : tensor<{2 * gates * HIDDEN}xf32> to tensor<{gates * HIDDEN}xf32>",
               f"    {bh_all} = tensor.extract_slice {b}[{gates * HIDDEN}] [{gates * HIDDEN}] [1] : tensor<{2 * gates * HIDDEN}xf32> to tensor<{gates * HIDDEN}xf32>"]
    bi = slices(w, bi_all, HIDDEN, None, gates)
    bh = slices(w, bh_all, HIDDEN, None, gates)
    wis = slices(w, wi, HIDDEN, in_size, gates)
    whs = slices(w, wh, HIDDEN, HIDDEN, gates)
    seq_t = ttype((SEQ, 1, HIDDEN))
    state_t = ttype((1, HIDDEN))
    res = w.name("loop")
    t, seq, h, c = f"%t{tag}", f"%seq{tag}", f"%h{tag}", f"%c{tag}"
    if kind == "gru":
        w.body.append(f"    {res}:2 = scf.for {t} = %c0 to %c{SEQ} step %c1 iter_args({seq} = %zero_seq, {h} = %zero_state) -> ({seq_t}, {state_t}) {{")
    else:
        w.body.append(f"    {res}:3 = scf.for {t} = %c0 to %c{SEQ} step %c1 iter_args({seq} = %zero_seq, {h} = %zero_state, {c} = %zero_state) -> ({seq_t}, {state_t}, {state_t}) {{")
    ind = "      "
    idx = time_index(w, t, ind)
    xs, x = w.name(), w.name()
    w.body += [f"{ind}{xs} = tensor.extract_slice {seq_in}[{idx}, 0, 0] [1, 1, {in_size}] [1, 1, 1] : {ttype((SEQ, 1, in_size))} to {ttype((1, 1, in_size))}",
               f"{ind}{x} = tensor.collapse_shape {xs} [[0, 1], [2]] : {ttype((1, 1, in_size))} into {ttype((1, in_size))}"]
    empty, fill = w.name(), w.name()
    w.body += [f"{ind}{empty} = tensor.empty() : {state_t}",
               f"{ind}{fill} = linalg.fill ins(%cst_zero : f32) outs({empty} : {state_t}) -> {state_t}"]
    if kind == "gru":
        # PyTorch's GRU gate order: r, z, n.
        pre = []
        for g in range(2):
            gi = affine(w, x, in_size, wis[g], bi[g], empty, fill, ind)
            gh = affine(w, h, HIDDEN, whs[g], bh[g], empty, fill, ind)
            s = generic(w, [(gi, MAP2), (gh, MAP2)], empty, lambda a: add(*a), ind)
            pre.append(generic(w, [(s, MAP2)], empty, lambda a: sigmoid(a[0]), ind))
        r, z = pre
        ni = affine(w, x, in_size, wis[2], bi[2], empty, fill, ind)
        nh = affine(w, h, HIDDEN, whs[2], bh[2], empty, fill, ind)
        rn = generic(w, [(r, MAP2), (nh, MAP2)], empty,
                     lambda a: ([f"%r = arith.mulf {a[0]}, {a[1]} : f32"], "%r"), ind)
        s = generic(w, [(ni, MAP2), (rn, MAP2)], empty, lambda a: add(*a), ind)
        n = generic(w, [(s, MAP2)], empty, lambda a: tanh(a[0]), ind)
        new_h = generic(w, [(z, MAP2), (n, MAP2), (h, MAP2)], empty,
                        lambda a: ([f"%m = arith.subf %one, {a[0]} : f32",
                                    f"%p = arith.mulf %m, {a[1]} : f32",
                                    f"%q = arith.mulf {a[0]}, {a[2]} : f32",
                                    "%r = arith.addf %p, %q : f32"], "%r"), ind)
        new_c = None
    else:
        # PyTorch's LSTM gate order: i, f, g, o.
        acts = []
        for g in range(4):
            gi = affine(w, x, in_size, wis[g], bi[g], empty, fill, ind)
            gh = affine(w, h, HIDDEN, whs[g], bh[g], empty, fill, ind)
            s = generic(w, [(gi, MAP2), (gh, MAP2)], empty, lambda a: add(*a), ind)
            act = tanh if g == 2 else sigmoid
            acts.append(generic(w, [(s, MAP2)], empty, lambda a, act=act: act(a[0]), ind))
        i, f, gg, o = acts
        fc = generic(w, [(f, MAP2), (c, MAP2)], empty,
                     lambda a: ([f"%r = arith.mulf {a[0]}, {a[1]} : f32"], "%r"), ind)
        ig = generic(w, [(i, MAP2), (gg, MAP2)], empty,
                     lambda a: ([f"%r = arith.mulf {a[0]}, {a[1]} : f32"], "%r"), ind)
        new_c = generic(w, [(fc, MAP2), (ig, MAP2)], empty, lambda a: add(*a), ind)
        tc = generic(w, [(new_c, MAP2)], empty, lambda a: tanh(a[0]), ind)
        new_h = generic(w, [(o, MAP2), (tc, MAP2)], empty,
                        lambda a: ([f"%r = arith.mulf {a[0]}, {a[1]} : f32"], "%r"), ind)
    exp, ins = w.name(), w.name()
    w.body += [f"{ind}{exp} = tensor.expand_shape {new_h} [[0, 1], [2]] output_shape [1, 1, {HIDDEN}] : {state_t} into {ttype((1, 1, HIDDEN))}",
               f"{ind}{ins} = tensor.insert_slice {exp} into {seq}[{idx}, 0, 0] [1, 1, {HIDDEN}] [1, 1, 1] : {ttype((1, 1, HIDDEN))} into {seq_t}"]
    if new_c is None:
        w.body.append(f"{ind}scf.yield {ins}, {new_h} : {seq_t}, {state_t}")
    else:
        w.body.append(f"{ind}scf.yield {ins}, {new_h}, {new_c} : {seq_t}, {state_t}, {state_t}")
    w.body.append("    }")
    return f"{res}#0"


def generate(model):
    global HIDDEN
    if model not in MODELS:
        raise ValueError(f"unknown model {model}; one of {', '.join(MODELS)}")
    HIDDEN = MODELS[model]
    w = Writer(seed=20 + list(MODELS).index(model))
    w.body += [f"    %e_in = tensor.empty() : {ttype((SEQ, 1, INPUT))}",
               f"    %seq_in = linalg.transpose ins(%arg0 : {ttype((1, SEQ, INPUT))}) outs(%e_in : {ttype((SEQ, 1, INPUT))}) permutation = [1, 0, 2] "]
    if model.startswith("gru"):
        seq = layer(w, "gru", "%seq_in", INPUT, "a")
    else:
        seq1 = layer(w, "lstm", "%seq_in", INPUT, "a")
        seq = layer(w, "lstm", seq1, HIDDEN, "b")
    wl = w.weights((CLASSES, HIDDEN), HIDDEN ** -0.5)
    bl = w.weights((CLASSES,), HIDDEN ** -0.5)
    state_t = ttype((1, HIDDEN))
    w.body += [f"    %last3 = tensor.extract_slice {seq}[{SEQ - 1}, 0, 0] [1, 1, {HIDDEN}] [1, 1, 1] : {ttype((SEQ, 1, HIDDEN))} to {ttype((1, 1, HIDDEN))}",
               f"    %last = tensor.collapse_shape %last3 [[0, 1], [2]] : {ttype((1, 1, HIDDEN))} into {state_t}",
               f"    %e_wl = tensor.empty() : {ttype((HIDDEN, CLASSES))}",
               f"    %wlT = linalg.transpose ins({wl} : {ttype((CLASSES, HIDDEN))}) outs(%e_wl : {ttype((HIDDEN, CLASSES))}) permutation = [1, 0] ",
               f"    %e_out = tensor.empty() : {ttype((1, CLASSES))}",
               f"    %f_out = linalg.fill ins(%cst_zero : f32) outs(%e_out : {ttype((1, CLASSES))}) -> {ttype((1, CLASSES))}",
               f"    %mm_out = linalg.matmul ins(%last, %wlT : {state_t}, {ttype((HIDDEN, CLASSES))}) outs(%f_out : {ttype((1, CLASSES))}) -> {ttype((1, CLASSES))}",
               f"    %logits = linalg.generic {{indexing_maps = [{MAP2}, {BIAS}, {MAP2}], iterator_types = [\"parallel\", \"parallel\"]}} ins(%mm_out, {bl} : {ttype((1, CLASSES))}, tensor<{CLASSES}xf32>) outs(%e_out : {ttype((1, CLASSES))}) {{",
               "    ^bb0(%in0: f32, %in1: f32, %out: f32):",
               "      %r = arith.addf %in0, %in1 : f32",
               "      linalg.yield %r : f32",
               f"    }} -> {ttype((1, CLASSES))}",
               f"    return %logits : {ttype((1, CLASSES))}"]
    head = [f"module {{",
            f"  func.func @torch_jit(%arg0: {ttype((1, SEQ, INPUT))}) -> {ttype((1, CLASSES))} {{",
            "    %c0_i64 = arith.constant 0 : i64",
            f"    %c{SEQ}_i64 = arith.constant {SEQ} : i64",
            "    %cst_zero = arith.constant 0.000000e+00 : f32",
            "    %one = arith.constant 1.000000e+00 : f32",
            "    %c0 = arith.constant 0 : index",
            "    %c1 = arith.constant 1 : index",
            f"    %c{SEQ} = arith.constant {SEQ} : index",
            f"    %zero_state = arith.constant dense<0.000000e+00> : {ttype((1, HIDDEN))}",
            f"    %zero_seq = arith.constant dense<0.000000e+00> : {ttype((SEQ, 1, HIDDEN))}"]
    return "\n".join(head + w.consts + w.body + ["  }", "}", ""])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", choices=list(MODELS))
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    text = generate(args.model)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
