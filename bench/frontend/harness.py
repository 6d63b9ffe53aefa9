"""The harness bench/frontend/run.py gives every model at run time (the
shared files are never edited): an `helia.unplanned` @main that runs
@torch_jit on the deterministic input and prints every result as its bit
patterns."""

import re


def signature(text):
    m = re.search(r"func\.func @torch_jit\((%\w+): tensor<([^>]*)>\) -> (.*?) \{", text)
    if not m:
        raise RuntimeError("no @torch_jit(%arg: tensor<...>) -> ... in the model")
    in_shape = m.group(2)
    results = re.findall(r"tensor<([^>]*)>", m.group(3))
    return in_shape, results


def harness(text, printer="memref"):
    """The model with an @main that runs it on the deterministic input and
    prints every result as its bit patterns: with printMemrefI32
    (`printer="memref"`, the MLIR runner library) or as one `vector.print`
    of i32 per result (`printer="vector"`, which the firmware runtime of
    examples/firmware prints too)."""
    in_shape, results = signature(text)
    dims = [int(d) for d in in_shape.split("x")[:-1]]
    elt = in_shape.split("x")[-1]
    n = 1
    for d in dims:
        n *= d
    values = ", ".join(repr(((i * 7) % 17 - 8) / 8) for i in range(n))
    lines = ["  func.func private @printMemrefI32(tensor<*xi32>)",
             "  func.func @main() attributes {helia.unplanned} {",
             "    call @torch_jit_hydrate_constants() : () -> ()",
             f"    %in = arith.constant dense<[{values}]> : tensor<{n}x{elt}>",
             f"    %x = tensor.reshape %in(%shape) : (tensor<{n}x{elt}>, tensor<{len(dims)}xindex>) -> tensor<{in_shape}>"]
    shape = ", ".join(str(d) for d in dims)
    lines.insert(4, f"    %shape = arith.constant dense<[{shape}]> : tensor<{len(dims)}xindex>")
    types = ", ".join(f"tensor<{r}>" for r in results)
    names = ", ".join(f"%r#{i}" for i in range(len(results))) if len(results) > 1 else "%r"
    lines.append(f"    %r{':' + str(len(results)) if len(results) > 1 else ''} = call @torch_jit(%x) : (tensor<{in_shape}>) -> ({types})")
    for i, r in enumerate(results):
        rv = f"%r#{i}" if len(results) > 1 else "%r"
        rshape = r.rsplit("x", 1)[0]
        rank = len(rshape.split("x"))
        dims_ = ", ".join(f"d{k}" for k in range(rank))
        its = ", ".join(['"parallel"'] * rank)
        lines.append(f"    %e{i} = tensor.empty() : tensor<{rshape}xi32>")
        lines.append(f"    %b{i} = linalg.generic {{indexing_maps = [affine_map<({dims_}) -> ({dims_})>, affine_map<({dims_}) -> ({dims_})>], iterator_types = [{its}]}} ins({rv} : tensor<{r}>) outs(%e{i} : tensor<{rshape}xi32>) {{")
        lines.append(f"    ^bb0(%v: {r.rsplit('x', 1)[1]}, %o: i32):")
        lines.append(f"      %c = arith.bitcast %v : {r.rsplit('x', 1)[1]} to i32")
        lines.append(f"      linalg.yield %c : i32")
        lines.append(f"    }} -> tensor<{rshape}xi32>")
        if printer == "vector":
            n = 1
            for d in rshape.split("x"):
                n *= int(d)
            if rank == 1:
                lines.append(f"    %f{i} = tensor.cast %b{i} : tensor<{n}xi32> to tensor<{n}xi32>")
            else:
                lines.append(f"    %f{i} = tensor.collapse_shape %b{i} [[{', '.join(str(k) for k in range(rank))}]] : tensor<{rshape}xi32> into tensor<{n}xi32>")
            lines.append(f"    %z{i} = arith.constant 0 : index")
            lines.append(f"    %p{i} = arith.constant 0 : i32")
            lines.append(f"    %v{i} = vector.transfer_read %f{i}[%z{i}], %p{i} : tensor<{n}xi32>, vector<{n}xi32>")
            lines.append(f"    vector.print %v{i} : vector<{n}xi32>")
            continue
        lines.append(f"    %u{i} = tensor.cast %b{i} : tensor<{rshape}xi32> to tensor<*xi32>")
        lines.append(f"    call @printMemrefI32(%u{i}) : (tensor<*xi32>) -> ()")
    lines += ["    return", "  }",
              "  func.func @torch_jit_hydrate_constants() attributes {helia.unplanned} {",
              "    return", "  }"]
    end = text.rstrip().rfind("}")
    return text[:end] + "\n".join(lines) + "\n}\n"
