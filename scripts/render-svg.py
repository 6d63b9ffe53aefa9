#!/usr/bin/env python3
"""Checks helia's SVG plan picture against its JSON plan and renders it.

  render-svg.py --svg plan.svg --json plan.json [--png plan.png]
                [--chromium /usr/bin/chromium]

1. Every rectangle of the SVG is one tensor of the JSON plan (or one stream
   slot), in the arena the plan says, with the plan's offset and size as its
   y and height (each arena's plot is in byte units), and every tensor and
   stream slot of the plan has exactly one rectangle.
2. With --png, headless Chromium renders the SVG to a PNG; the PNG is
   decoded (zlib, no third-party module) and must not be blank: several
   colours, a fair share of non-white pixels, and every tensor colour of the
   SVG present in the pixels.

Prints one line per check and exits non-zero on the first failure.
"""

import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SVG_NS = "{http://www.w3.org/2000/svg}"


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def check_rects(svg_path, plan):
    root = ET.parse(svg_path).getroot()
    arenas = plan["arenas"]
    panels = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "arena"]
    if len(panels) != len(arenas):
        fail(f"{len(panels)} arena panels, the plan has {len(arenas)} arenas")

    expected = {}
    for t in plan["tensors"]:
        key = (t["binding"]["region_id"], t["function"], t["tensor_id"], False)
        expected[key] = (t["offset"], t["size"], t)
    sizes = {(t["function"], t["tensor_id"]): t["size"] for t in plan["tensors"]}
    for s in plan.get("streams", []):
        key = (s["region_id"], s["function"], s["tensor_id"], True)
        expected[key] = (s["slot_offset"], sizes[(s["function"], s["tensor_id"])], None)

    seen = set()
    for panel in panels:
        region = int(panel.get("data-region"))
        arena = arenas[region]
        if panel.get("data-name") != arena["name"]:
            fail(f"panel {region} is '{panel.get('data-name')}', "
                 f"the plan's arena {region} is '{arena['name']}'")
        plots = [p for p in panel.iter(SVG_NS + "svg") if p.get("class") == "plot"]
        if len(plots) != 1:
            fail(f"arena '{arena['name']}' has {len(plots)} plots")
        view = [int(v) for v in plots[0].get("viewBox").split()]
        if view[3] != max(arena["size"], 1):
            fail(f"arena '{arena['name']}' is drawn {view[3]} bytes high, "
                 f"the plan says {arena['size']}")
        for rect in plots[0].iter(SVG_NS + "rect"):
            classes = rect.get("class", "").split()
            if "tensor" not in classes:
                continue
            key = (region, rect.get("data-function"),
                   int(rect.get("data-tensor-id")), "stream-slot" in classes)
            if key not in expected:
                fail(f"rectangle {key} is no tensor of the plan")
            if key in seen:
                fail(f"rectangle {key} is drawn twice")
            seen.add(key)
            offset, size, tensor = expected[key]
            y, height = int(rect.get("y")), int(rect.get("height"))
            if (y, height) != (offset, size):
                fail(f"rectangle {key} at offset {y} size {height}, "
                     f"the plan says offset {offset} size {size}")
            if y + height > view[3]:
                fail(f"rectangle {key} ends at {y + height}, past its arena")
            if tensor and arena["role"] == "scratch":
                steps = tensor["last_step"] - tensor["first_step"] + 1
                if int(rect.get("width")) != steps:
                    fail(f"rectangle {key} spans {rect.get('width')} steps, "
                         f"the plan says {steps}")
    missing = sorted(set(expected) - seen)
    if missing:
        fail(f"{len(missing)} tensors of the plan have no rectangle, "
             f"e.g. {missing[0]}")
    streams = sum(1 for k in seen if k[3])
    print(f"svg: {len(panels)} arenas, {len(seen)} rectangles match the plan "
          f"({len(seen) - streams} tensors, {streams} stream slots)")
    fills = {rect.get("fill") for rect in root.iter(SVG_NS + "rect")
             if "tensor" in rect.get("class", "").split()}
    width = math.ceil(float(root.get("width")))
    height = math.ceil(float(root.get("height")))
    return width, height, sorted(fills)


def decode_png(path):
    """Returns (width, height, channels, rows) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"unsupported PNG: depth {depth}, colour type {colour}, "
             f"interlace {interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def render(svg_path, png_path, chromium, width, height):
    profile = tempfile.mkdtemp(prefix="helia-chromium-")
    try:
        command = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars",
            f"--user-data-dir={profile}", f"--screenshot={png_path}",
            f"--window-size={width},{height}",
            "file://" + os.path.abspath(svg_path),
        ]
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if result.returncode != 0 or not os.path.exists(png_path):
        sys.stderr.write(result.stdout.decode(errors="replace"))
        fail(f"chromium exited with {result.returncode} and no screenshot")


def check_png(png_path, width, height, fills):
    w, h, bpp, rows = decode_png(png_path)
    if (w, h) != (width, height):
        fail(f"screenshot is {w}x{h}, expected {width}x{height}")
    colours, inked = set(), 0
    for line in rows:
        for x in range(0, len(line), bpp):
            pixel = bytes(line[x:x + 3])
            colours.add(pixel)
            if pixel != b"\xff\xff\xff":
                inked += 1
    share = inked / (w * h)
    if len(colours) < 8 or share < 0.05:
        fail(f"screenshot looks blank: {len(colours)} colours, "
             f"{share:.1%} non-white pixels")
    wanted = {bytes.fromhex(f.lstrip("#")) for f in fills}
    absent = sorted(f for f in fills if bytes.fromhex(f.lstrip("#")) not in colours)
    if absent:
        fail(f"tensor colours {', '.join(absent)} do not appear in the screenshot")
    print(f"png: {w}x{h}, {len(colours)} colours, "
          f"{share:.0%} non-white, all {len(wanted)} tensor colours drawn")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--png", help="render with Chromium to this file")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()

    with open(args.json) as f:
        plan = json.load(f)
    width, height, fills = check_rects(args.svg, plan)
    if args.png:
        render(args.svg, args.png, args.chromium, width, height)
        check_png(args.png, width, height, fills)


if __name__ == "__main__":
    main()
