#!/usr/bin/env python3
"""Write the pattern table for probe_ldmatrix.cu (stdout: "KIND MASK a0..a31" lines,
then the same rows as JSON to argv[1] if given). Deterministic (seeded)."""
from __future__ import annotations

import json
import random
import sys

FULL = 0xFFFFFFFF
rows: list[dict[str, object]] = []


def add(kind: int, tag: str, addrs: list[int], mask: int = FULL) -> None:
    assert len(addrs) == 32 and all(0 <= a < 32768 for a in addrs), (tag, addrs)
    rows.append({"kind": kind, "tag": tag, "mask": mask, "addr": list(addrs)})


L = range(32)
# ---- ldmatrix / stmatrix row-address tables (16-byte aligned) -------------------
ldm: list[tuple[str, list[int]]] = []
for s in (0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 256, 272, 512):
    ldm.append((f"stride{s}", [l * s for l in L]))
# GEMM-style A-fragment: row = lane % 16, 16-byte chunk = lane / 16, row pitch P bytes
for p in (32, 64, 80, 96, 128, 144, 160, 256, 272):
    ldm.append((f"tile_pitch{p}", [(l % 16) * p + (l // 16) * 16 for l in L]))
# B-fragment style: row = lane % 8 + 8*(lane/16), chunk = (lane/8)%2
for p in (64, 128, 144, 256):
    ldm.append((f"tileB_pitch{p}", [((l % 8) + 8 * (l // 16)) * p + ((l // 8) % 2) * 16 for l in L]))
# XOR swizzles: row r, chunk c -> r*P + ((c ^ f(r)) & 7)*16
for p, k in ((128, 0), (128, 1), (64, 0), (256, 0)):
    ldm.append((f"xor_pitch{p}_k{k}", [(l % 16) * p + ((((l // 16) ^ ((l % 16) >> k)) & (p // 16 - 1)) * 16) for l in L]))
for p in (128, 64):
    ldm.append((f"xor_row_pitch{p}", [l * p + (((l ^ (l >> 3)) & (p // 16 - 1)) * 16) for l in L]))
ldm.append(("cutlass_sw343", [(l % 16) * 128 + ((((l // 16) ^ (l % 8)) & 7) * 16) for l in L]))
# multicast / sharing
ldm.append(("all_same", [0] * 32))
ldm.append(("pairs", [(l // 2) * 16 for l in L]))
ldm.append(("quads", [(l // 4) * 16 for l in L]))
ldm.append(("mod8", [(l % 8) * 16 for l in L]))
ldm.append(("mod8_s128", [(l % 8) * 128 for l in L]))
ldm.append(("mod16_s128", [(l % 16) * 128 for l in L]))
ldm.append(("div8_s128", [(l // 8) * 128 + (l % 8) * 16 for l in L]))
ldm.append(("half_same_bank", [(l % 8) * 128 + (l // 8) * 16 for l in L]))
ldm.append(("lo8_ok_rest_conflict", [l * 16 if l < 8 else l * 128 for l in L]))
ldm.append(("lo16_ok_rest_conflict", [l * 16 if l < 16 else l * 128 for l in L]))
ldm.append(("lo8_conflict_rest_ok", [l * 128 if l < 8 else l * 16 for l in L]))
ldm.append(("two_rows_same_bank", [((l % 2) * 128 + (l // 2) * 16 * 0) + (l // 2) * 256 for l in L]))
ldm.append(("pad8h_pitch144_rows", [l * 144 for l in L]))
ldm.append(("pad16h_pitch160_rows", [l * 160 for l in L]))
rng = random.Random(90)
for i in range(14):
    ldm.append((f"rand{i}", [rng.randrange(0, 4096 // 16) * 16 for _ in L]))
for i in range(4):
    ldm.append((f"rand_small{i}", [rng.randrange(0, 512 // 16) * 16 for _ in L]))

for tag, a in ldm:
    for kind in (1, 2, 4):
        add(kind, tag, a)
for tag, a in ldm:
    if tag.startswith(("stride", "tile_pitch1", "rand1", "mod8", "xor_pitch128_k0", "all_same", "lo8")):
        add(14, tag, a)
for tag, a in ldm[:12] + ldm[-6:]:
    add(11, tag, a)
    add(12, tag, a)
for tag, a in ldm:
    if not tag.startswith("rand") or tag in ("rand0", "rand1", "rand2", "rand3"):
        for kind in (21, 22, 24):
            add(kind, tag, a)

# ---- cp.async: same element tables as the measured STS patterns ----------------
stores = [json.loads(x) for x in open(sys.argv[2])] if len(sys.argv) > 2 else []
for w, kinds in ((4, (104,)), (8, (108,)), (16, (116, 216))):
    sel = [r for r in stores if r["width"] == w]
    if w < 16:
        sel = sel[::2]  # half of them: the 16-byte form gets every one
    for r in sel:
        addrs = [e * w for e in r["element_index"]]
        if max(addrs) >= 32768 or min(addrs) < 0:
            continue
        for kind in kinds:
            if kind == 216 and not str(r["tag"]).startswith("stride"):
                continue
            add(kind, "sts:" + str(r["tag"]), addrs, int(r["active_mask"]))

for r in rows:
    print(r["kind"], r["mask"], *r["addr"])
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
