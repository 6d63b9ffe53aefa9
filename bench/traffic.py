#!/usr/bin/env python3
"""Measures the memory traffic of one inference of a model on QEMU's
Cortex-M55 (mps3-an547): bytes read and written, and accesses, per memory,
per arena and (with --slots) per slot of the plan.

The model (.tflite, or a .mlir module) is compiled with helia-compile for
platform mps3_an547, linked with the start-up code of examples/firmware and
a generated main that initialises the model (hydration included), writes a
deterministic input, and calls <prefix>_model_run between two marker
functions, helia_traffic_begin and helia_traffic_end. The image runs under
qemu-system-arm with the helia-traffic TCG plugin (tools/helia-traffic),
which counts only between the markers: the inference, its stack and the
runtime it calls, not the start-up, init or the input's writes. The ranges
the plugin attributes to come from the image and the plan:

  memories  the board's memories: the plan's MEMORY block (plan.ld) and the
            board script's regions that continue one (the reserved tail of
            DTCM that holds the application's data and stack)
  arenas    the image's <prefix>_arena_* objects (the symbol table)
  slots     each tensor's bytes in its arena (the JSON plan's bindings;
            tensors that share storage share a slot); stream slots too
  other     every other allocated section (.text, .data, .bss, .stack, ...)

usage: bench/traffic.py MODEL... [--build build] [--prefix model] [--slots] [--weights K]
           [--json | --markdown] [--runs N] [--rules FILE]
           [--memory-limit M=B]... [--compile-option OPT]... [--keep DIR]
           [--profile FILE [--replan [--replan-candidates O,O]]]

Prints the tables (or, with --json, the same as JSON: docs/Placement.md,
"Measuring traffic"; with --markdown one table of every model, as in
docs/benchmarks.md). --profile FILE also writes the run's traffic profile
(measured bytes per buffer, for helia-compile --traffic-profile), adding
runs with every constant pinned into each of --profile-memories; --replan
then plans the model again with --objective=traffic and that profile,
measures that plan and the plans of the --replan-candidates objectives, and
reports the one of fewest weighted cycles (docs/Placement.md, "Placement by
measured traffic"). Exits 1 with a message when a step fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LLVM = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")
FIRMWARE = os.path.join(ROOT, "examples", "firmware")
BOARD = os.path.join(FIRMWARE, "mps3_an547.ld")
TARGET = ["--target=thumbv8.1m.main-none-eabi", "-mcpu=cortex-m55",
          "-mfloat-abi=hard", "-O2", "-ffreestanding", "-nostdlib"]
QEMU = ["qemu-system-arm", "-M", "mps3-an547", "-cpu", "cortex-m55",
        "-nographic", "-semihosting-config", "enable=on,target=native",
        "-kernel"]
COUNTS = ("read_bytes", "write_bytes", "reads", "writes")
# helia-compile's --objective values (docs/Placement.md, "objective=traffic").
OBJECTIVES = ("default", "traffic", "exact", "hand", "fast-share")


class Failure(Exception):
    pass


def run(cmd, what, **kwargs):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    except FileNotFoundError:
        raise Failure(f"{cmd[0]} not found")
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: timed out")
    if p.returncode != 0:
        raise Failure(f"{what} failed (exit {p.returncode}):\n{p.stderr.strip()}")
    return p


# --- The firmware ------------------------------------------------------------

def header_api(header, prefix):
    """Inputs and outputs of the model API in the generated header: for each,
    whether the context holds a pointer (a tensor) and its element count."""
    text = open(header).read()
    up = prefix.upper()

    def ports(kind):
        count = int(re.search(rf"#define {up}_{kind.upper()}_COUNT (\d+)", text).group(1))
        result = []
        for i in range(count):
            size = re.search(rf"#define {up}_{kind.upper()}_{i}_SIZE (\d+)u", text)
            pointer = re.search(rf"\b{prefix}_{kind}_{i}_t \*{kind}_{i};", text)
            result.append((int(size.group(1)) if size else 1, bool(pointer)))
        return result
    return ports("input"), ports("output")


def driver_source(prefix, inputs, outputs, runs):
    """A main that runs the model `runs` times between the markers and
    prints the status and an FNV-1a checksum of the outputs' bytes."""
    lines = [
        f'#include "{prefix}.h"',
        "void printString(const char *s);",
        "void printU64(uint64_t u);",
        "void printNewline(void);",
        "/* The plugin counts from the first instruction of begin to the first",
        "   of end (tools/helia-traffic, start= and stop=). */",
        "__attribute__((noinline, used)) void helia_traffic_begin(void) { __asm volatile(\"\"); }",
        "__attribute__((noinline, used)) void helia_traffic_end(void) { __asm volatile(\"\"); }",
        "int main(void) {",
        f"  {prefix}_model_context_t ctx;",
        f"  int32_t status = {prefix}_model_init(&ctx);",
        "  if (status != 0) {",
        '    printString("helia-traffic: init failed with status ");',
        "    printU64((uint64_t)status);",
        "    printNewline();",
        "    return 1;",
        "  }",
    ]
    for i, (size, pointer) in enumerate(inputs):
        # Element k is ((k * 7) % 17 - 8): small values of every type.
        if pointer:
            # An input the plan gives no slot is the caller's buffer.
            lines.append(f"  static {prefix}_input_{i}_t buffer_{i}[{size}] "
                         "__attribute__((section(\".app.sram\"), aligned(16)));")
            lines.append(f"  if (!ctx.input_{i})")
            lines.append(f"    ctx.input_{i} = buffer_{i};")
            lines.append(f"  for (uint32_t k = 0; k < {size}u; ++k)")
            lines.append(f"    ctx.input_{i}[k] = ({prefix}_input_{i}_t)((int)(k * 7 % 17) - 8);")
        else:
            lines.append(f"  ctx.input_{i} = ({prefix}_input_{i}_t)1;")
    lines += [
        "  helia_traffic_begin();",
        f"  for (int r = 0; r < {runs} && status == 0; ++r)",
        f"    status = {prefix}_model_run(&ctx);",
        "  helia_traffic_end();",
        "  uint32_t hash = 2166136261u;",
    ]
    for i, (size, pointer) in enumerate(outputs):
        ref = f"ctx.output_{i}" if pointer else f"&ctx.output_{i}"
        lines.append(f"  for (uint32_t k = 0; k < {size}u * sizeof(*{ref}); ++k)")
        lines.append(f"    hash = (hash ^ ((const uint8_t *)({ref}))[k]) * 16777619u;")
    lines += [
        '  printString("helia-traffic: status ");',
        "  printU64((uint64_t)status);",
        '  printString(" checksum ");',
        "  printU64(hash);",
        "  printNewline();",
        "  return status != 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def build_image(args, work):
    """helia-compile, the driver, the link. Returns (prefix, plan, elf)."""
    compile_cmd = [os.path.join(args.build, "bin", "helia-compile"), args.model,
                   "--platform=mps3_an547", f"--prefix={args.prefix}",
                   "-o", work, "--quiet"]
    if args.rules:
        compile_cmd.append(f"--rules={args.rules}")
    for limit in args.memory_limit:
        compile_cmd.append(f"--memory-limit={limit}")
    compile_cmd += args.compile_option
    run(compile_cmd, "helia-compile")
    prefix = args.prefix
    # The board script includes the fragment as plan.ld.
    with open(os.path.join(work, f"{prefix}.ld")) as src, \
            open(os.path.join(work, "plan.ld"), "w") as dst:
        dst.write(src.read())
    inputs, outputs = header_api(os.path.join(work, f"{prefix}.h"), prefix)
    main_c = os.path.join(work, "traffic_main.c")
    with open(main_c, "w") as f:
        f.write(driver_source(prefix, inputs, outputs, args.runs))
    objects = [os.path.join(work, f"{prefix}.o")]
    sources = [(os.path.join(FIRMWARE, s + ".c"), True) for s in ("startup", "runtime", "aeabi")]
    # expf/tanhf for float networks whose math is not approximated.
    sources += [(os.path.join(HERE, "tflite", "libm.c"), False), (main_c, False)]
    for src, runtime in sources:
        obj = os.path.join(work, os.path.basename(src)[:-2] + ".o")
        run([args.clang] + TARGET + (["-fno-builtin"] if runtime else []) +
            ["-Wno-main-return-type", "-I", work, "-c", src, "-o", obj],
            f"clang ({os.path.basename(src)})")
        objects.append(obj)
    elf = os.path.join(work, "image.elf")
    run([args.lld, "-L", work, "-T", BOARD] + objects + ["-o", elf], "ld.lld")
    return prefix, json.load(open(os.path.join(work, f"{prefix}.plan.json"))), elf


# --- The ranges --------------------------------------------------------------

def memory_regions(script):
    """name -> (origin, length) of a linker script's MEMORY block."""
    text = open(script).read()
    block = re.search(r"MEMORY\s*\{(.*?)\}", text, re.S)
    regions = {}
    if block:
        for m in re.finditer(r"(\w+)\s*(?:\([^)]*\))?\s*:\s*ORIGIN\s*=\s*(\w+)\s*,"
                             r"\s*LENGTH\s*=\s*(\w+)", block.group(1)):
            length = m.group(3)
            scale = {"K": 1024, "M": 1024 * 1024}.get(length[-1:].upper(), 1)
            regions[m.group(1)] = (int(m.group(2), 0),
                                   int(length[:-1] if scale > 1 else length, 0) * scale)
    return regions


def elf_tables(elf):
    out = run([os.path.join(LLVM, "bin", "llvm-readelf"), "--elf-output-style=JSON",
               "-S", "-s", elf], "llvm-readelf").stdout
    data = json.loads(out)[0]
    sections = [s["Section"] for s in data["Sections"]]
    symbols = [s["Symbol"] for s in data["Symbols"]]
    return sections, symbols


def tensor_name(t):
    """A tensor's name in the plan, or its id when it has none."""
    return t["name"] or f"tensor {t['tensor_id']}"


def ranges_of(prefix, plan, elf, slots):
    """The plugin's ranges: [(level, begin, end, name)] and, per slot name,
    its tensors (for the report)."""
    plan_regions = memory_regions(os.path.join(os.path.dirname(elf), "plan.ld"))
    board_regions = memory_regions(BOARD)
    memories = []
    for mem in plan["memories"]:
        region = plan_regions.get(mem["name"].upper())
        if region is None:
            raise Failure(f"plan.ld has no region for memory '{mem['name']}'")
        begin, end = region[0], region[0] + region[1]
        # The memory's reserved tail is the region of the board script that
        # starts where the plan's region ends (docs/Firmware.md).
        for origin, length in board_regions.values():
            if origin == end:
                end = origin + length
        memories.append((mem["name"], begin, end))
    result = [("memory", b, e, n) for n, b, e in memories]

    sections, symbols = elf_tables(elf)
    by_symbol = {}
    for a in plan["arenas"]:
        by_symbol[f"{prefix}_arena_{a['memory']}_{a['name']}"] = a["name"]
        if a["staged"]:
            by_symbol[f"{prefix}_arena_{a['source_memory']}_{a['name']}_source"] = \
                a["name"] + "_source"
    arena_at = {}
    for s in symbols:
        name = s["Name"]["Name"]
        if name in by_symbol and s["Size"] > 0:
            arena_at[by_symbol[name]] = s["Value"]
            result.append(("arena", s["Value"], s["Value"] + s["Size"], by_symbol[name]))
    missing = [a["name"] for a in plan["arenas"] if a["name"] not in arena_at and a["size"]]
    if missing:
        raise Failure(f"the image has no symbol for arena(s) {', '.join(missing)}: "
                      "only the image's own arenas are measured (the default "
                      "arena-mode=global, not arg or alloc)")

    tensors_of = {}
    if slots:
        arena_name = {a["region_id"]: a["name"] for a in plan["arenas"]}
        size_of = {}
        for t in plan["tensors"]:
            b = t.get("binding")
            if b is not None:
                key = (arena_name[b["region_id"]], b["offset"], t["size"])
                size_of[key] = t["size"]
                names = tensors_of.setdefault(key, [])
                if tensor_name(t) not in names:
                    names.append(tensor_name(t))
        by_id = {(t["function"], t["tensor_id"]): t for t in plan["tensors"]}
        for s in plan.get("streams", []):
            t = by_id[(s["function"], s["tensor_id"])]
            key = (arena_name[s["region_id"]], s["slot_offset"], t["size"])
            tensors_of.setdefault(key, []).append(tensor_name(t) + " (stream)")
        for (arena, offset, size), names in sorted(tensors_of.items(),
                                                   key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
            if arena in arena_at and size > 0:
                begin = arena_at[arena] + offset
                result.append(("slot", begin, begin + size, names[0]))

    arena_sections = {s["Name"]["Name"] for s in sections
                      if s["Name"]["Name"].startswith(".helia.")}
    for s in sections:
        flags = {f["Name"] for f in s["Flags"]["Flags"]}
        name = s["Name"]["Name"]
        if "SHF_ALLOC" in flags and s["Size"] > 0 and name not in arena_sections:
            result.append(("area", s["Address"], s["Address"] + s["Size"], name))
    begin = next((s["Value"] for s in symbols if s["Name"]["Name"] == "helia_traffic_begin"), None)
    end = next((s["Value"] for s in symbols if s["Name"]["Name"] == "helia_traffic_end"), None)
    if begin is None or end is None:
        raise Failure("the image has no helia_traffic_begin/end markers")
    return result, tensors_of, begin & ~1, end & ~1


# --- Measuring and reporting -------------------------------------------------

def arena_role(arena):
    """scratch, persistent, constant, stream (the stream pool) or source (the
    read-only blob a staged arena is hydrated from)."""
    if arena is None:
        return "source"
    return "stream" if arena["stream"] else arena["role"]


def measure(args, work):
    prefix, plan, elf = build_image(args, work)
    ranges, tensors_of, begin, end = ranges_of(prefix, plan, elf,
                                               args.slots or args.weights or args.profile)
    ranges_file = os.path.join(work, "traffic.ranges")
    with open(ranges_file, "w") as f:
        f.write("# <level> <begin> <end> <name> (tools/helia-traffic)\n")
        for level, b, e, name in ranges:
            f.write(f"{level} 0x{b:08x} 0x{e:08x} {name}\n")
    out_json = os.path.join(work, "traffic.json")
    plugin = args.plugin or os.path.join(args.build, "lib", "helia-traffic.so")
    if not os.path.exists(plugin):
        raise Failure(f"{plugin} not found (make build builds it)")
    p = run(QEMU + [elf, "-plugin", f"{plugin},ranges={ranges_file},out={out_json},"
                    f"start=0x{begin:x},stop=0x{end:x}"], "qemu-system-arm",
            timeout=args.timeout)
    # QEMU writes the semihosting output to its stderr.
    m = re.search(r"helia-traffic: status (\d+) checksum (\d+)", p.stderr)
    if not m or m.group(1) != "0":
        raise Failure(f"the run did not succeed:\n{p.stderr.strip()}")
    measured = json.load(open(out_json))
    if measured["counted"]["windows"] != 1:
        raise Failure(f"the markers were reached {measured['counted']['windows']} times, not once")

    arenas_by_name = {a["name"]: a for a in plan["arenas"]}
    arenas = []
    for a in measured["arenas"]:
        plan_arena = arenas_by_name.get(a["name"])
        entry = {"name": a["name"], "memory": a["memory"],
                 "role": arena_role(plan_arena),
                 "address": a["begin"], "size": a["end"] - a["begin"]}
        entry.update({k: a[k] for k in COUNTS})
        entry["slots"] = []
        if args.slots or args.weights or args.profile:
            spans = [(s["offset"], s["offset"] + s["size"]) for s in a["slots"]]
            for s, (lo, hi) in zip(a["slots"], spans):
                key = (a["name"], s["offset"], s["size"])
                shared = sum(1 for l2, h2 in spans if l2 < hi and lo < h2) > 1
                slot = {"name": s["name"], "offset": s["offset"], "size": s["size"],
                        "tensors": tensors_of.get(key, [s["name"]]),
                        "shares_bytes": shared}
                slot.update({k: s[k] for k in COUNTS})
                entry["slots"].append(slot)
        arenas.append(entry)
    memories = []
    costs = {m["name"]: m for m in plan["memories"]}
    for mem in measured["memories"]:
        entry = {"name": mem["name"], "address": mem["begin"], "size": mem["end"] - mem["begin"]}
        entry.update({k: mem[k] for k in COUNTS})
        entry["cycles"] = weighted_cycles(costs.get(mem["name"]), mem)
        entry["outside_arenas"] = mem["outside_arenas"]
        memories.append(entry)
    other = [dict({"name": o["name"], "memory": o["memory"], "address": o["begin"],
                   "size": o["end"] - o["begin"]}, **{k: o[k] for k in COUNTS})
             for o in measured["other"]]
    result = {
        "model": os.path.basename(args.model),
        "platform": "mps3_an547",
        "counted": f"{args.runs} call(s) of {prefix}_model_run",
        "runs": args.runs,
        "checksum": int(m.group(2)),
        "total": measured["total"],
        "cycles": sum(m["cycles"] for m in memories),
        "unmapped": measured["unmapped"],
        "memories": memories,
        "arenas": arenas,
        "other": other,
    }
    if args.weights:
        result["weights"] = weight_ranking(arenas, args.weights)
    if args.profile:
        write_profile(args, plan, measured, work)
    if not args.slots:
        for a in arenas:
            a["slots"] = []
    return result


def weighted_cycles(memory, counts):
    """The cycles of a memory's measured bytes at the plan's access costs
    (docs/Placement.md, "Access costs"): whole accesses of access_bytes
    bytes each way, read_cycles and write_cycles each. A memory the plan
    does not list (none on mps3_an547) costs one cycle per 4-byte access."""
    read, write, width = ((memory["read_cycles"], memory["write_cycles"],
                           memory["access_bytes"]) if memory else (1, 1, 4))
    return (-(-counts["read_bytes"] // width) * read +
            -(-counts["write_bytes"] // width) * write)


def pad_in_place_choice(work, prefix):
    """'always' or 'never': the helia-pad-in-place variant helia-compile
    kept (its report's last lines), so that a re-plan keeps the same
    tensors."""
    text = open(os.path.join(work, f"{prefix}.plan.txt")).read()
    m = re.search(r"scratch \d+ bytes, (with|without) helia-pad-in-place", text)
    return "always" if m and m.group(1) == "with" else "never"


def write_profile(args, plan, measured, work):
    """The traffic profile of this run (Planner/TrafficProfile.h,
    docs/Placement.md): per buffer whose slot holds it alone, the bytes and
    accesses measured. Slots that share bytes with another buffer (scratch
    reused by lifetime) and stream slots are left out: their counts mix
    several buffers, and the planner keeps the static model for them."""
    arena_name = {a["region_id"]: a["name"] for a in plan["arenas"]}
    members, slot_of = {}, {}
    for t in plan["tensors"]:
        members.setdefault(t["buffer"], []).append(t)
        b = t.get("binding")
        if b is not None and t["size"] > 0:
            slot_of.setdefault((arena_name[b["region_id"]], b["offset"], t["size"]),
                               set()).add(t["buffer"])
    streamed = {t["buffer"] for t in plan["tensors"] if t["residency"] == "stream"}
    entries = []
    for a in measured["arenas"]:
        spans = [(s["offset"], s["offset"] + s["size"]) for s in a["slots"]]
        for s, (lo, hi) in zip(a["slots"], spans):
            buffers = slot_of.get((a["name"], s["offset"], s["size"]), set())
            overlapping = sum(1 for l2, h2 in spans if l2 < hi and lo < h2)
            if len(buffers) != 1 or overlapping > 1:
                continue
            buffer = next(iter(buffers))
            if buffer in streamed:
                continue
            tensors = sorted(members[buffer], key=lambda t: t["tensor_id"])
            root = tensors[0]
            entry = {"function": root["function"], "tensor_id": root["tensor_id"],
                     "members": [t["tensor_id"] for t in tensors],
                     "name": root["name"], "kind": root["kind"], "size": root["size"],
                     "memory": a["memory"]}
            entry.update({k: s[k] for k in COUNTS})
            entries.append(entry)
    entries.sort(key=lambda e: (plan["functions"].index(e["function"]), e["tensor_id"]))
    counts_of = {f: 0 for f in plan["functions"]}
    for t in plan["tensors"]:
        counts_of[t["function"]] += 1
    profile = {
        "format": "helia-traffic-profile", "version": 1,
        "model": os.path.basename(args.model), "platform": plan["platform"],
        "runs": args.runs,
        "compile": {"pad_in_place": pad_in_place_choice(work, args.prefix)},
        "functions": [{"name": f, "tensors": counts_of[f]} for f in plan["functions"]],
        "tensors": entries,
    }
    with open(args.profile, "w") as f:
        json.dump(profile, f, indent=1)
        f.write("\n")


def weight_ranking(arenas, count):
    """The `count` weights with the most bytes read per inference, most
    first (ties by name): heliaAOT's hand method pins the first ones that
    fit the fast memory. Weights read in place or from their pinned copy;
    a streamed weight's traffic is its stream slot's."""
    weights = [dict(s, arena=a["name"], memory=a["memory"])
               for a in arenas if a["role"] == "constant" for s in a["slots"]]
    weights.sort(key=lambda w: (-w["read_bytes"], w["name"], w["offset"]))
    ranking, total = [], 0
    for w in weights[:count]:
        total += w["size"]
        ranking.append({"name": w["name"], "tensors": w["tensors"], "arena": w["arena"],
                        "memory": w["memory"], "size": w["size"],
                        "read_bytes": w["read_bytes"], "reads": w["reads"],
                        "cumulative_size": total})
    return ranking


def table(title, header, rows):
    print(title)
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("  " + "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    print()


def counts(d):
    return [d[k] for k in COUNTS]


def print_report(result, slots):
    print(f"helia traffic: {result['model']} on {result['platform']}, "
          f"{result['counted']}, output checksum {result['checksum']:#010x}\n")
    head = ["read bytes", "write bytes", "reads", "writes"]
    table("Memories", ["memory"] + head + ["outside arenas (r/w bytes)"],
          [[m["name"]] + counts(m) +
           [f"{m['outside_arenas']['read_bytes']}/{m['outside_arenas']['write_bytes']}"]
           for m in result["memories"]])
    table("Arenas", ["arena", "memory", "role", "bytes"] + head,
          [[a["name"], a["memory"], a["role"], a["size"]] + counts(a)
           for a in result["arenas"]])
    if slots:
        for a in result["arenas"]:
            if a["slots"]:
                table(f"Slots of {a['name']} (* shares bytes with another slot)",
                      ["slot", "offset", "bytes"] + head,
                      [[(s["name"] if len(s["name"]) <= 48 else "..." + s["name"][-45:]) +
                        (" *" if s["shares_bytes"] else ""), s["offset"], s["size"]] + counts(s)
                       for s in a["slots"]])
    if "weights" in result:
        table("Weights by bytes read per inference (pin the first ones that fit)",
              ["#", "weight", "memory", "bytes", "read bytes", "read / byte", "bytes so far"],
              [[i + 1, w["name"] if len(w["name"]) <= 48 else "..." + w["name"][-45:],
                w["memory"], w["size"], w["read_bytes"],
                f"{w['read_bytes'] / w['size']:.1f}", w["cumulative_size"]]
               for i, w in enumerate(result["weights"])])
    table("Outside the arenas (sections of the image)", ["section", "memory", "bytes"] + head,
          [[o["name"], o["memory"], o["size"]] + counts(o) for o in result["other"]])
    u = result["unmapped"]
    print(f"Total: {result['total']['read_bytes']} bytes read, "
          f"{result['total']['write_bytes']} written, {result['total']['reads']} reads, "
          f"{result['total']['writes']} writes; outside every memory: "
          f"{u['read_bytes']} read, {u['write_bytes']} written")
    print(f"Weighted: {result['cycles']} cycles at the plan's access costs")
    if "replan" in result:
        print("Re-plan: " + ", ".join(f"{c['name']} {c['cycles']}"
                                      for c in result["replan"]["candidates"]) +
              f" cycles; kept {result['replan']['chosen']}")


def print_markdown(results):
    print("| model | where | read bytes | write bytes | reads | writes |")
    print("|---|---|---:|---:|---:|---:|")
    for r in results:
        rows = [(f"memory {m['name']}", m) for m in r["memories"] if m["reads"] or m["writes"]]
        rows += [(f"arena {a['name']} ({a['role']})", a) for a in r["arenas"]]
        rows += [(f"{o['name']} ({o['memory']})", o) for o in r["other"] if o["reads"] or o["writes"]]
        for i, (where, c) in enumerate(rows):
            print(f"| {r['model'] if i == 0 else ''} | {where} | " +
                  " | ".join(str(v) for v in counts(c)) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", metavar="model", help=".tflite or .mlir model")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--plugin", help="the plugin (default BUILD/lib/helia-traffic.so)")
    ap.add_argument("--prefix", default="model")
    ap.add_argument("--slots", action="store_true", help="also per slot of each arena")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--markdown", action="store_true",
                    help="one markdown table of every model's memories, arenas and stack")
    ap.add_argument("--weights", type=int, default=0, metavar="K",
                    help="also rank the K weights with the most bytes read")
    ap.add_argument("--runs", type=int, default=1, help="inferences to count (default 1)")
    ap.add_argument("--rules", help="a rules file for helia-compile")
    ap.add_argument("--memory-limit", action="append", default=[],
                    help="<memory>=<bytes> for helia-compile (repeatable)")
    ap.add_argument("--compile-option", action="append", default=[],
                    help="another helia-compile option, e.g. --compile-option=--stream-pool=dtcm")
    ap.add_argument("--profile", metavar="FILE",
                    help="write the traffic profile of the run (measured bytes per "
                         "buffer) for helia-compile --traffic-profile")
    ap.add_argument("--profile-memories", default="dtcm,sram", metavar="M,M",
                    help="with --profile: also measure every constant pinned into "
                         "each of these memories (default dtcm,sram; '' for none)")
    ap.add_argument("--replan", action="store_true",
                    help="with --profile: plan again with --objective=traffic and "
                         "the profile, measure that plan and the --replan-candidates', "
                         "and report the one of fewest weighted cycles instead")
    ap.add_argument("--replan-candidates", default="default,fast-share,hand,traffic",
                    metavar="O,O",
                    help="with --replan, also measure the plans of these objectives and "
                         "report the one of fewest weighted cycles (default: "
                         "default,fast-share,hand,traffic; empty: the profiled plan alone)")
    ap.add_argument("--keep", help="keep the image and the plugin's files in this directory")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--clang", default="clang-22")
    ap.add_argument("--lld", default="ld.lld-22")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.keep and len(args.models) > 1:
        ap.error("--keep takes one model")
    if args.profile and len(args.models) > 1:
        ap.error("--profile takes one model")
    if args.replan and not args.profile:
        ap.error("--replan needs --profile FILE")
    for objective in [o for o in args.replan_candidates.split(",") if o]:
        if objective not in OBJECTIVES:
            ap.error(f"--replan-candidates: '{objective}' is not an objective of "
                     f"helia-compile ({', '.join(OBJECTIVES)})")
    results = []

    def profile_memories(work, first):
        """Measures the plan again with every constant pinned into each of
        --profile-memories (no memory limit) and adds those constants'
        entries to the profile: the lowered code reads some weights more
        often in one memory than in another."""
        profile = json.load(open(args.profile))
        choice = profile["compile"]["pad_in_place"]
        for memory in [m for m in args.profile_memories.split(",") if m]:
            rules = os.path.join(work, f"pin-{memory}.json")
            with open(rules, "w") as f:
                json.dump([{"type": "constant",
                            "attributes": {"constant_destination_memory": memory}}], f)
            run_args = argparse.Namespace(**vars(args))
            run_args.rules = rules
            run_args.memory_limit = []
            run_args.profile = os.path.join(work, f"profile-{memory}.json")
            run_args.compile_option = [o for o in args.compile_option
                                       if not o.startswith(("--objective=", "--pad-in-place="))]
            run_args.compile_option.append(f"--pad-in-place={choice}")
            try:
                measure(run_args, work)
            except Failure as e:
                print(f"traffic.py: note: {args.model}: no profile with every constant "
                      f"in {memory}: {str(e).splitlines()[0]}", file=sys.stderr)
                continue
            extra = json.load(open(run_args.profile))
            profile["tensors"] += [e for e in extra["tensors"]
                                   if e["kind"] == "constant" and e["memory"] == memory]
        with open(args.profile, "w") as f:
            json.dump(profile, f, indent=1)
            f.write("\n")
        return first

    def measure_in(work):
        if not args.replan:
            result = measure(args, work)
            return profile_memories(work, result) if args.profile else result
        # Measure, write the profile, then plan by it and measure that plan.
        first = profile_memories(work, measure(args, work))
        choice = json.load(open(args.profile))["compile"]["pad_in_place"]
        replan = argparse.Namespace(**vars(args))
        replan.profile = None
        replan.compile_option = [o for o in args.compile_option
                                 if not o.startswith("--objective=")] + [
            "--objective=traffic", f"--traffic-profile={os.path.abspath(args.profile)}",
            f"--pad-in-place={choice}"]
        result = measure(replan, work)
        result["profile"] = args.profile
        objectives = [o[len("--objective="):] for o in args.compile_option
                      if o.startswith("--objective=")]
        known = {(objectives[-1] if objectives else "default"): first}
        return choose_measured(args, work, result, known)

    def choose_measured(args, work, profiled, known):
        """The profile prices each buffer by its own accesses, but part of
        the traffic belongs to the code of the whole plan (the register
        spills of the stack move with every placement, docs/Placement.md):
        measure the plans of the --replan-candidates objectives too and keep
        the lowest weighted cycles, the profiled plan on a tie. Every plan
        must print the profiled plan's checksum. `known`: runs already
        made, by objective (the run the profile was written from)."""
        runs = [("profiled", profiled)]
        for objective in [o for o in args.replan_candidates.split(",") if o]:
            if objective in known:
                runs.append((objective, known[objective]))
                continue
            run_args = argparse.Namespace(**vars(args))
            run_args.profile = None
            run_args.compile_option = [o for o in args.compile_option
                                       if not o.startswith(("--objective=", "--traffic-profile="))]
            run_args.compile_option.append(f"--objective={objective}")
            where = os.path.join(work, f"candidate-{objective}")
            os.makedirs(where, exist_ok=True)
            runs.append((objective, measure(run_args, where)))
        for name, r in runs[1:]:
            if r["checksum"] != profiled["checksum"]:
                raise Failure(f"the plan of --objective={name} prints checksum "
                              f"0x{r['checksum']:08x}, the profiled plan 0x{profiled['checksum']:08x}")
        chosen, result = min(runs, key=lambda nr: nr[1]["cycles"])
        result = dict(result, profile=args.profile)
        result["replan"] = {"chosen": chosen,
                            "candidates": [{"name": n, "cycles": r["cycles"]} for n, r in runs]}
        return result

    try:
        for model in args.models:
            args.model = model
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                results.append(measure_in(os.path.abspath(args.keep)))
            else:
                with tempfile.TemporaryDirectory() as work:
                    results.append(measure_in(work))
    except Failure as e:
        print(f"traffic.py: error: {args.model}: {e}", file=sys.stderr)
        sys.exit(1)
    if args.markdown:
        print_markdown(results)
    elif args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
    else:
        for i, result in enumerate(results):
            if i:
                print()
            print_report(result, args.slots)


if __name__ == "__main__":
    main()
