#!/usr/bin/env python3
"""Turn a run_gpu.py measurement of wmma.cu into tests/data/hw/sm90_wmma.jsonl.

    python3 bench/accuracy/run_gpu.py --no-source-counters --out DIR bench/accuracy/wmma.cu
    python3 bench/accuracy/wmma_rows.py DIR > tests/data/hw/sm90_wmma.jsonl

One row per case of gen_wmma.py: the fragment (use, shape, element type, layout, ldm),
the SASS its call compiles to (nvdisasm -gi, on the call's line), and the kernel's
hardware totals of the measured pipe per warp. ncu's ``smsp__sass_inst_executed_op_
shared_ld`` does not count LDSM (its wavefronts and conflicts are counted), so the
instructions per warp are the SASS count on the line.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    out = Path(sys.argv[1])
    gen, rg = _load("gen_wmma"), _load("run_gpu")
    data = json.loads((out / "sm90_h100.json").read_text())
    lined = rg.parse_nvdisasm((out / "raw" / "wmma.nvdisasm.txt").read_text())
    launches = {m["kernel"].split("(")[0]: m
                for m in rg.parse_metrics_csv((out / "raw" / "wmma.metrics.csv").read_text())}
    rec = {a["id"]: a for a in data["accesses"]}
    for ident, use, m, n, k, etype, _mtype, layout, ldm, op, _w in gen.CASES:
        a = rec[ident]
        fname = rg.find_function(lined, f"wm_{ident}", None)
        sass = [i.opcode for i in lined.get(fname or "", []) if i.line == a["line"]
                and i.opcode.startswith(("LDS", "STS", "LD.", "ST."))]  # LDSM too
        pipe = "ld" if op == "load" else "st"
        tot = rg.hw_totals(launches.get(f"wm_{ident}"), (pipe,)).get(pipe) or {}
        warps = a["launch"]["warps"]
        wf, conf = tot.get("wavefronts"), tot.get("bank_conflicts") or 0
        row = {
            "use": use, "shape": [m, n, k], "type": etype.replace("wmma::precision::", ""),
            "layout": layout, "ldm": ldm, "op": op, "sass": sass,
            "wavefronts": None if wf is None else round(wf / warps),
            "ideal_wavefronts": None if wf is None else round((wf - conf) / warps),
            "case": ident,
        }
        print(json.dumps(row))


if __name__ == "__main__":
    main()
