#!/usr/bin/env python3
"""Pattern table and result rows for the cp.async timing probe (cp_async_timing.cu).

    gen_cp_async_timing.py table TABLE.txt
        write the destination tables ("TAG a0 .. a31", byte offsets); deterministic.
    gen_cp_async_timing.py rows OUTDIR DEST.jsonl [GRIDS]
        read OUTDIR/time.txt (probe time), OUTDIR/calib.txt + OUTDIR/ncu_calib.csv
        (probe calib under ncu) and write one JSON row per pattern x op x source mode x
        grid (only the grids in the comma list GRIDS when given; the committed
        tests/data/hw/sm90_cp_async_timing.jsonl keeps 16 and 132: grid 1 agreed with
        132 within 5.3%, median 0.1%).

Self-contained (runs on the device machine with a bare python3). The two rules it
predicts with, per quarter-warp (lanes 8q..8q+7), summed over the quarters:
  ca_rule  every lane's 4 words count separately (no multicast): the most
           (lane, word) pairs one bank takes (fits the 41 16-byte .ca rows of
           tests/data/hw/sm90_cp_async.jsonl);
  sts_rule the most distinct words one bank takes (the STS.128 rule).
"""
from __future__ import annotations

import csv
import io
import json
import random
import sys
from pathlib import Path

L = range(32)
OPS = {0: "cp.async.ca", 1: "cp.async.cg", 2: "st.shared.v4"}
SRC = {0: "lane", 1: "same", 2: "rows64"}


def quarter_cost(addrs: list[int], q: int, distinct: bool) -> int:
    per_bank: dict[int, list[int]] = {}
    for lane in range(8 * q, 8 * q + 8):
        a = addrs[lane]
        for w in range(a // 4, a // 4 + 4):
            per_bank.setdefault(w % 32, []).append(w)
    return max(len(set(ws)) if distinct else len(ws) for ws in per_bank.values())


def ca_rule(addrs: list[int]) -> int:
    return sum(quarter_cost(addrs, q, distinct=False) for q in range(4))


def sts_rule(addrs: list[int]) -> int:
    return sum(quarter_cost(addrs, q, distinct=True) for q in range(4))


def degree(d: int, quarter_pitch: int = 1024) -> list[int]:
    """Each quarter's 8 lanes on 8 // d bank groups, d distinct 128-byte rows each."""
    per = 8 // d
    return [(n // 8) * quarter_pitch + ((n % 8) // per) * 128 + ((n % 8) % per) * 16 for n in L]


def patterns() -> list[tuple[str, list[int]]]:
    pats: list[tuple[str, list[int]]] = []
    for d in (1, 2, 4, 8):
        pats.append((f"deg{d}", degree(d)))
    pats.append(("deg4_qshift", degree(4, 1024 + 16)))
    for s in (32, 48, 64, 96, 128, 144, 256):
        pats.append((f"stride{s}", [n * s for n in L]))
    pats.append(("xor_rows", [n * 128 + ((n ^ (n >> 3)) % 8) * 16 for n in L]))
    pats.append(("mod8_s16", [(n % 8) * 16 for n in L]))     # quarters share words
    pats.append(("mod8_s128", [(n % 8) * 128 for n in L]))
    # lanes sharing a destination: the .ca rule and the STS rule part here
    pats.append(("same32", [0] * 32))
    pats.append(("pairs", [(n // 2) * 16 for n in L]))
    pats.append(("quads", [(n // 4) * 16 for n in L]))
    pats.append(("one_pair", [0 if n % 8 < 2 else (n % 8) * 16 + (n // 8) * 128 for n in L]))
    pats.append(("two_words_one_bank", [(n // 8) * 256 + ((n % 8) // 4) * 128 for n in L]))
    pats.append(("q0_deg8", [n * 128 if n < 8 else n * 16 for n in L]))
    # four conflict-free 128-byte lines (one per quarter) at growing distances
    for p in (128, 256, 512, 1024, 2048, 4096):
        pats.append((f"lines4_pitch{p}", [(n // 8) * p + (n % 8) * 16 for n in L]))
    pats.append(("lines4_pitch128_at384", [384 + (n // 8) * 128 + (n % 8) * 16 for n in L]))
    # tiles of 64-byte rows (4 lanes a row): dense, padded, wide, XOR-swizzled
    for p in (64, 80, 128):
        pats.append((f"rows64_pitch{p}", [(n // 4) * p + (n % 4) * 16 for n in L]))
    pats.append(("rows64_xor", [(n // 4) * 64 + (((n % 4) ^ ((n // 4) >> 1)) % 4) * 16 for n in L]))
    rng = random.Random(2026)
    for i in range(6):
        pats.append((f"rand{i}", [rng.randrange(0, 4096 // 16) * 16 for _ in L]))
    for i in range(3):
        pats.append((f"rand_small{i}", [rng.randrange(0, 512 // 16) * 16 for _ in L]))
    return pats


def write_table(path: str) -> None:
    with open(path, "w") as f:
        for tag, a in patterns():
            assert len(a) == 32 and all(0 <= x <= 16384 - 16 and x % 16 == 0 for x in a), tag
            f.write(tag + " " + " ".join(map(str, a)) + "\n")


def ncu_values(text: str) -> dict[int, dict[str, float]]:
    """launch ID -> metric -> value, from `ncu --csv --metrics ...`."""
    start = text.find('"ID"')
    out: dict[int, dict[str, float]] = {}
    if start < 0:
        return out
    for r in csv.DictReader(io.StringIO(text[start:])):
        try:
            v = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            continue
        out.setdefault(int(r["ID"]), {})[r["Metric Name"]] = v
    return out


def write_rows(outdir: str, dest: str, grids: set[int] | None = None) -> None:
    od = Path(outdir)
    tabs = dict(patterns())
    ncu: dict[tuple[str, int, int], dict[str, float]] = {}
    calib = od / "calib.txt"
    if calib.exists() and (od / "ncu_calib.csv").exists():
        vals = ncu_values((od / "ncu_calib.csv").read_text())
        for line in calib.read_text().splitlines():
            p = line.split()
            if len(p) == 5 and p[0] == "LAUNCH":
                ncu[(p[2], int(p[3]), int(p[4]))] = vals.get(int(p[1]), {})
    n_instr = 32 * 2 * 8  # calib: one block of 32 warps, 2 iterations of 8 copies
    rows = []
    for line in (od / "time.txt").read_text().splitlines():
        p = line.split()
        if len(p) != 8 or p[0] not in tabs:
            continue
        tag, op, src, grid = p[0], int(p[1]), int(p[2]), int(p[3])
        if grids is not None and grid not in grids:
            continue
        a = tabs[tag]
        m = ncu.get((tag, op, src), {})
        metric = ("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum" if op < 2
                  else "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
        wf = m.get(metric)
        rows.append({
            "op": OPS[op], "width": 16, "src": SRC[src], "grid": grid,
            "dst_address": a, "tag": tag,
            "cycles_per_instruction": float(p[4]),
            "cycles_min": float(p[5]), "cycles_max": float(p[6]), "sms": int(p[7]),
            "predicted_wavefronts": ca_rule(a), "sts_rule_wavefronts": sts_rule(a),
            "ncu_wavefronts": None if wf is None else round(wf / n_instr, 3),
        })
    with open(dest, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} rows -> {dest}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        write_table(sys.argv[2])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "rows":
        write_rows(sys.argv[2], sys.argv[3],
                   {int(g) for g in sys.argv[4].split(",")} if len(sys.argv) == 5 else None)
    else:
        sys.exit(__doc__)
