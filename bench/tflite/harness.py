"""The harness every imported model gets at run time: the model's
signature read from its text, an `helia.unplanned` @main that builds each
input as an `arith.constant dense<"0x...">` of its little-endian bytes,
calls the model and prints every element of every output as an i32, and
the printed lines read back (floats from their bit patterns), in batches
that fit a firmware image."""

import re
import struct

from toolchain import FW_HEAP_BYTES, FW_HEAP_MAX, FW_INPUT_BYTES, Failure


def split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [], {} and strings."""
    parts, depth, cur, quote = [], 0, [], False
    for c in text:
        if c == '"':
            quote = not quote
        if not quote:
            if c in "<([{":
                depth += 1
            elif c in ">)]}":
                depth -= 1
            elif c == sep and depth == 0:
                parts.append("".join(cur))
                cur = []
                continue
        cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def balanced(text, start):
    """Index after the bracket group that opens at text[start]."""
    open_, close = text[start], {"(": ")", "<": ">", "{": "}", "[": "]"}[text[start]]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
    raise Failure("unbalanced brackets in the imported function's signature")


TENSOR = re.compile(r"tensor<([0-9x]*?)x?(i1|i8|i16|i32|i64|f16|f32|f64)>|tensor<(i1|i8|i16|i32|i64|f16|f32|f64)>")


def parse_tensor(text):
    m = TENSOR.search(text)
    if not m:
        raise Failure(f"not a ranked tensor of a known element type: {text.strip()[:80]}")
    if m.group(3):
        return [], m.group(3)
    dims = [int(d) for d in m.group(1).split("x") if d] if m.group(1) else []
    return dims, m.group(2)


def signature(text, name):
    """(argument types, result types) of `func.func @name`; each a (shape,
    element type)."""
    m = re.search(r"func\.func\s+(?:public\s+|private\s+)?@" + re.escape(name) + r"\s*\(", text)
    if not m:
        names = re.findall(r"func\.func\s+(?:public\s+)?@([\w$.]+)\s*\(", text)
        if len(names) != 1:
            raise Failure(f"no func.func @{name} in the imported module "
                          f"(functions: {', '.join(names) or 'none'})")
        name = names[0]
        m = re.search(r"func\.func\s+(?:public\s+)?@" + re.escape(name) + r"\s*\(", text)
    open_ = m.end() - 1
    close = balanced(text, open_)
    args = [parse_tensor(a.split(":", 1)[1]) for a in split_top(text[open_ + 1:close - 1])]
    rest = text[close:]
    results = []
    r = re.match(r"\s*->\s*", rest)
    if r:
        rest = rest[r.end():]
        if rest.startswith("("):
            end = balanced(rest, 0)
            results = [parse_tensor(t) for t in split_top(rest[1:end - 1])]
        else:
            t = re.match(r"tensor<[^>]*>", rest)
            if not t:
                raise Failure("the model's result is not a tensor")
            results = [parse_tensor(t.group(0))]
    return name, args, results


def ttype(shape, elt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


ELT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "f32": 4, "f64": 8}
INT_FORMAT = {"i8": "b", "i16": "h", "i32": "i", "i64": "q"}


def to_hex(values, elt):
    """dense<"0x..."> bytes of integer values (little-endian)."""
    fmt = INT_FORMAT[elt]
    try:
        return struct.pack("<%d%s" % (len(values), fmt), *values).hex().upper()
    except struct.error as e:
        raise Failure(f"an input value does not fit {elt}: {e}")


def print_function(idx, shape, elt):
    """An unplanned function that prints a result as one line of i32s."""
    n = elements(shape)
    t = ttype(shape, elt)
    flat = f"tensor<{n}x{elt}>"
    lines = [f"  func.func @__print{idx}(%t: {t}) attributes {{helia.unplanned}} {{",
             "    %c0 = arith.constant 0 : index",
             "    %c1 = arith.constant 1 : index",
             f"    %last = arith.constant {n - 1} : index"]
    if len(shape) == 0:
        lines.append(f"    %f = tensor.expand_shape %t [] output_shape [1] : {t} into {flat}")
    elif len(shape) == 1:
        lines.append(f"    %f = tensor.cast %t : {t} to {flat}")
    else:
        lines.append(f"    %f = tensor.collapse_shape %t [[{', '.join(str(i) for i in range(len(shape)))}]] : {t} into {flat}")

    def convert(v, out):
        if elt in ("i8", "i16"):
            return [f"      {out} = arith.extsi {v} : {elt} to i32"]
        if elt == "i1":
            return [f"      {out} = arith.extui {v} : i1 to i32"]
        if elt == "i32":
            return [f"      {out} = arith.addi {v}, %zero : i32"]
        if elt == "f32":
            return [f"      {out} = arith.bitcast {v} : f32 to i32"]
        if elt == "f16":
            return [f"      {out}h = arith.bitcast {v} : f16 to i16",
                    f"      {out} = arith.extui {out}h : i16 to i32"]
        raise Failure(f"cannot print a result of {elt}")

    lines.append("    %zero = arith.constant 0 : i32")
    lines.append("    scf.for %i = %c0 to %last step %c1 {")
    lines.append(f"      %v = tensor.extract %f[%i] : {flat}")
    lines += convert("%v", "%w")
    lines.append("      vector.print %w : i32 punctuation <no_punctuation>")
    lines.append("      vector.print punctuation <comma>")
    lines.append("    }")
    lines.append(f"      %v = tensor.extract %f[%last] : {flat}")
    lines += convert("%v", "%w")
    lines.append("      vector.print %w : i32")
    lines.append("    return")
    lines.append("  }")
    return "\n".join(lines)


def harness(text, name, args, results, samples, dealloc=True):
    """The imported module with an @main that calls @name once per sample
    (samples: [[hex bytes of each argument]]) and prints every result.

    dealloc: give each result back after printing it. Planned, every result
    that host code sees is its own copy (docs/Lowering.md); unplanned, a
    result may be a constant's global or an argument's buffer, so the plain
    harness leaves them alone."""
    body = [f"  func.func @{name}_hydrate_constants() attributes {{helia.unplanned}} {{",
            "    return", "  }"]
    for i, (shape, elt) in enumerate(results):
        body.append(print_function(i, shape, elt))
    body += ["  func.func @main() attributes {helia.unplanned} {",
             f"    call @{name}_hydrate_constants() : () -> ()"]
    arg_types = ", ".join(ttype(*a) for a in args)
    res_types = ", ".join(ttype(*r) for r in results)
    for j, sample in enumerate(samples):
        names = []
        for k, ((shape, elt), hexbytes) in enumerate(zip(args, sample)):
            if len(hexbytes) != 2 * elements(shape) * ELT_BYTES[elt]:
                raise Failure(f"input {k} has {len(hexbytes) // 2} bytes, "
                              f"the model's argument {ttype(shape, elt)} {elements(shape) * ELT_BYTES[elt]}")
            body.append(f'    %x{j}_{k} = arith.constant dense<"0x{hexbytes}"> : {ttype(shape, elt)}')
            names.append(f"%x{j}_{k}")
        n = len(results)
        lhs = f"%r{j}:{n} = " if n > 1 else (f"%r{j} = " if n == 1 else "")
        body.append(f"    {lhs}call @{name}({', '.join(names)}) : ({arg_types}) -> ({res_types})")
        for i, r in enumerate(results):
            v = f"%r{j}#{i}" if n > 1 else f"%r{j}"
            body.append(f"    call @__print{i}({v}) : ({ttype(*r)}) -> ()")
            # The result's copy goes back to the heap at once: the firmware
            # runtime's heap is 4 KiB and gives back the last block.
            if dealloc:
                body.append(f"    bufferization.dealloc_tensor {v} : {ttype(*r)}")
    body += ["    return", "  }"]
    # Attribute and location aliases (`#loc3 = loc(...)`) follow the module.
    lines = text.rstrip().split("\n")
    tail = []
    while lines and (lines[-1].startswith("#") or not lines[-1].strip()):
        tail.insert(0, lines.pop())
    module = "\n".join(lines)
    end = module.rfind("}")
    if end < 0:
        raise Failure("the imported text is not a module")
    return module[:end] + "\n".join(body) + "\n}\n" + "".join(l + "\n" for l in tail)


def parse_output(out, expected_lines):
    """The printed lines of integers (runner noise dropped)."""
    lines = []
    for line in out.splitlines():
        line = line.strip()
        if not line or not re.fullmatch(r"-?\d+(, -?\d+)*", line):
            continue
        lines.append([int(v) for v in line.split(", ")])
    if len(lines) != expected_lines:
        raise Failure(f"printed {len(lines)} output lines, expected {expected_lines}")
    return lines


def as_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def decode(lines, results, count):
    """Per sample, per output: the values (floats from their bit patterns)."""
    n = len(results)
    per = []
    for j in range(count):
        sample = []
        for i, (shape, elt) in enumerate(results):
            vals = lines[j * n + i]
            if len(vals) != elements(shape):
                raise Failure(f"sample {j} output {i}: {len(vals)} values printed, "
                              f"expected {elements(shape)}")
            sample.append([as_float(v) for v in vals] if elt == "f32" else vals)
        per.append(sample)
    return per


def batches(results, args_, count):
    """Samples per firmware image: the inputs fit the image's read-only data,
    and the copies of one call's results its heap (each is deallocated after
    it is printed)."""
    in_bytes = sum(elements(s) * ELT_BYTES[e] for s, e in args_)
    # Each copy is a malloc of its bytes and 64 more (the alignment).
    out_bytes = sum((elements(s) * ELT_BYTES[e] + 64 + 15) // 16 * 16 for s, e in results)
    if out_bytes > FW_HEAP_MAX:
        raise Failure(f"the copies of the results ({out_bytes} B) exceed the "
                      f"largest firmware heap ({FW_HEAP_MAX} B)")
    per = max(1, FW_INPUT_BYTES // max(in_bytes, 1))
    heap = max(FW_HEAP_BYTES, (out_bytes + 1023) // 1024 * 1024)
    return [list(range(k, min(k + per, count))) for k in range(0, count, per)], heap
