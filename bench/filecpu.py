"""Per-file CPU time of cudalint on public repositories: the slowest files, and the maximum.

Goal 2 of the speed issue: no real file needs more than 2 s of CPU, so the time budget
(``--timeout``, 10 s by default) never decides a result. For every file of each
repository of ``bench/repos.py`` (same list, same ``-I``), in this process after the
imports, ``cudalint.api.check_file`` runs with no budget (``timeout=None``) and the
process's CPU time (user + system) before and after is recorded: parse, model, rules
and fix planning, all of one file. The table lists the slowest files; the last line
is the maximum against the 2 s goal.

    python bench/filecpu.py --root /path/to/clones [--only NAME] [--top 15] [--jsonl out]
    python bench/filecpu.py --root ... --match mat_transpose.cu --match scalarProd_kernel

Run it on an otherwise idle core: CPU time is less disturbed by load than wall time,
but not immune to it (a shared cache, frequency scaling).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repos import REPOS

GOAL_S = 2.0


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="folder holding the clones")
    ap.add_argument("--only", action="append", default=[], help="repository (repeatable)")
    ap.add_argument("--top", type=int, default=15, help="slowest files shown")
    ap.add_argument("--jsonl", help="also write one JSON row per file here")
    ap.add_argument("--match", action="append", default=[],
                    help="only files whose REPO/PATH contains this (repeatable)")
    args = ap.parse_args()

    from cudalint.api import check_file, expand_paths
    from cudalint.options import Options

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    rows: list[dict[str, object]] = []
    out = open(args.jsonl, "w") if args.jsonl else None  # noqa: SIM115 - closed below
    start = os.getcwd()
    try:
        for repo in REPOS:
            if args.only and repo.name not in args.only:
                continue
            root = os.path.join(args.root, repo.name)
            if not os.path.isdir(root):
                print(f"{repo.name}: not cloned under {args.root}", file=sys.stderr)
                continue
            os.chdir(root)
            opts = Options(include_dirs=repo.include, timeout=None)
            for path, err in expand_paths(["."]):
                if err:
                    continue
                shown = f"{repo.name}/{path.removeprefix('./')}"
                if args.match and not any(m in shown for m in args.match):
                    continue
                c0, t0 = _cpu(), time.monotonic()
                rep = check_file(path, opts)
                row = {"repo": repo.name, "file": path, "cpu_s": round(_cpu() - c0, 3),
                       "wall_s": round(time.monotonic() - t0, 3),
                       "accesses": len(rep.results), "error": rep.error}
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
            os.chdir(start)
    finally:
        os.chdir(start)
        if out:
            out.close()
    if not rows:
        return 2
    rows.sort(key=lambda r: -float(r["cpu_s"]))  # type: ignore[arg-type]
    print(f"{'CPU s':>7}  {'wall s':>7}  {'acc':>4}  file")
    for r in rows[: args.top]:
        print(f"{r['cpu_s']:7.2f}  {r['wall_s']:7.2f}  {r['accesses']:4}  "
              f"{r['repo']}/{str(r['file']).removeprefix('./')}")
    over = [r for r in rows if float(r["cpu_s"]) > GOAL_S]  # type: ignore[arg-type]
    total = sum(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type]
    print(f"\n{len(rows)} files, {total:.1f} s CPU in all; max {rows[0]['cpu_s']} s; "
          f"{len(over)} over the {GOAL_S:g} s goal")
    return 0 if not over else 1


if __name__ == "__main__":
    sys.exit(main())
