#!/usr/bin/env python3
"""Share of shared accesses proved / worst-case / unknown, and the model's time per access.

    python bench/model_stats.py fixtures/                      # a directory or files
    python bench/model_stats.py --json out.json /path/to/cuda-samples -I .../Common

For every file: parse (frontend), then time the model on each access record (block
shapes and bank modes as the pipeline chooses them, nvcc's merges included), and
count the statuses. Prints the shares, the unknown reasons grouped, and the median
and worst model time per access. Files that fail to parse are counted, not fatal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from cudalint.frontend import FrontendError, parse_file
from cudalint.model import proof
from cudalint.model.analyze import analyze
from cudalint.options import Options


def files_under(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.suffix in (".cu", ".cuh") and q.is_file())
        else:
            out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("-I", dest="include", action="append", default=[])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--json", help="write the numbers here too")
    args = ap.parse_args(argv)
    options = Options(arch=args.arch, include_dirs=tuple(args.include))

    statuses: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    times: list[float] = []
    slowest: list[tuple[float, str]] = []
    failed = 0
    files = files_under(args.paths)
    # time each prove() call: wrap the function the pipeline calls
    original = proof.prove

    def timed(*a: object, **k: object) -> object:
        t = time.perf_counter()
        r = original(*a, **k)  # type: ignore[arg-type]
        dt = time.perf_counter() - t
        times.append(dt)
        acc = a[0]
        slowest.append((dt, f"{acc.span.file}:{acc.span.line}"))  # type: ignore[attr-defined]
        return r

    proof.prove = timed  # type: ignore[assignment]
    try:
        for f in files:
            try:
                tu = parse_file(str(f), options)
            except FrontendError:
                failed += 1
                continue
            for r in analyze(tu, options):
                statuses[r.status] += 1
                if r.status == "unknown" and r.reason:
                    reasons[r.reason.split("'")[0][:60]] += 1
    finally:
        proof.prove = original  # type: ignore[assignment]

    total = sum(statuses.values()) or 1
    print(f"{len(files)} files ({failed} unreadable), {sum(statuses.values())} access records")
    for s in ("proved", "worst-case", "unknown"):
        print(f"  {s:10s} {statuses[s]:6d}  {100 * statuses[s] / total:5.1f}%")
    if times:
        print(f"model time per prove(): median {statistics.median(times) * 1e3:.2f} ms, "
              f"worst {max(times) * 1e3:.1f} ms ({max(slowest)[1]}), n={len(times)}")
    print("unknown, by reason:")
    for reason, n in reasons.most_common(15):
        print(f"  {n:5d}  {reason}")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "files": len(files), "unreadable": failed, "statuses": statuses,
            "median_ms": statistics.median(times) * 1e3 if times else None,
            "worst_ms": max(times) * 1e3 if times else None,
            "unknown_reasons": reasons.most_common(),
        }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
