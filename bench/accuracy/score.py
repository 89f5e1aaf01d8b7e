#!/usr/bin/env python3
"""Score cudalint against the shared-memory wavefronts measured on a GPU.

    python bench/accuracy/score.py [--results bench/accuracy/results/sm90_h100.json]
                                   [--min-exact N] [--write] [--json]

Runs `cudalint --format json --show-all --arch <arch of the results>` on the suite
files named in the results file (from the repository root, so the paths match),
pairs every measured access with cudalint's record of the same file, line and kind
(and template instantiation, when the marker names one), and compares wavefronts
and ideal wavefronts per warp:

- the measurement is the average over all warps of the launch. Where the marker
  lists per-warp costs (`warps=`, partial last warps) the average must equal their
  mean (else the benchmark's derivation is wrong: `bench-mismatch`, not scored) and
  the worst of them is the target; otherwise every warp is the same and the
  average is the target. cudalint reports the worst warp.
- outcomes: `exact` (wavefronts and ideal equal), `mismatch` (wavefronts differ),
  `ideal-differs` (wavefronts equal, ideal not), `unknown` (cudalint could not
  decide), `missing` (no cudalint record on that line). Accesses without a valid
  measurement (`not-measured`: no data, or the SASS check failed) are listed but
  not scored.

Exit status: 1 when `--min-exact N` is given and fewer than N accesses are exact,
2 when the results file or cudalint cannot be read, else 0.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent
DEFAULT_RESULTS = SCRIPT_DIR / "results" / "sm90_h100.json"

KIND_ORDER = {"load": 0, "store": 1, "atomic": 2}
# Counter noise on a per-warp average (a few percent of spurious conflicts were seen
# on H100 in kernels that store and then load one array); per-warp lists of a
# block differ in their means by at least 1/4 wavefront.
AVERAGE_TOLERANCE = 0.1


@dataclass
class Row:
    id: str
    file: str
    line: int
    kind: str
    width: int
    later: bool
    outcome: str
    measured: tuple[int, int] | None  # target: worst warp (wavefronts, ideal)
    predicted: tuple[int | None, int | None] | None
    status: str | None = None  # cudalint's status
    reason: str | None = None  # cudalint's reason, or why not scored
    limitation: str | None = None  # from the results file's known_limitations


SCORED = ("exact", "mismatch", "ideal-differs", "unknown", "missing")


def norm_path(p: str) -> str:
    path = Path(p)
    if not path.is_absolute():
        path = REPO_ROOT / path
    return os.path.normpath(str(path))


def target_of(access: dict[str, Any]) -> tuple[tuple[int, int] | None, str | None]:
    """The worst-warp (wavefronts, ideal) a measured access stands for, or why none."""
    m = access.get("measured")
    if not m or m.get("wavefronts") is None:
        return None, "no measurement"
    if access.get("status") not in ("ok", "ok-unchecked-sass"):
        return None, f"measurement flagged: {access.get('status')}"
    warps = access.get("warps_expected")
    if warps:
        mean_w = sum(w for w, _ in warps) / len(warps)
        mean_i = sum(i for _, i in warps) / len(warps)
        raw_w = m.get("wavefronts_raw", m["wavefronts"])
        raw_i = m.get("ideal_raw", m.get("ideal_wavefronts"))
        if abs(raw_w - mean_w) > AVERAGE_TOLERANCE or (
            raw_i is not None and abs(raw_i - mean_i) > AVERAGE_TOLERANCE
        ):
            return None, (
                f"bench-mismatch: measured average {raw_w:.3f}/{raw_i} per warp, "
                f"per-warp list {warps} averages {mean_w:.3f}/{mean_i:.3f}"
            )
        worst = max(warps, key=lambda wi: wi[0])
        return (worst[0], worst[1]), None
    return (m["wavefronts"], m["ideal_wavefronts"]), None


def pick_record(access: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any] | None:
    f = norm_path(access["file"])
    cands = [
        r
        for r in records
        if r.get("line") == access["line"]
        and r.get("kind") == access["kind"]
        and norm_path(r.get("file", "")) == f
    ]
    inst = access.get("instantiation")
    if inst is not None:
        cands = [
            r
            for r in cands
            if (r.get("instantiation") or "").replace(" ", "") == inst.replace(" ", "")
        ]
    if not cands:
        return None
    same_width = [r for r in cands if r.get("width") == access["width"]]
    pool = same_width or cands
    # several records of one kind on one line: the worst one stands for the line
    return max(pool, key=lambda r: (r.get("wavefronts") is not None, r.get("wavefronts") or 0))


def score(results: dict[str, Any], records: list[dict[str, Any]]) -> list[Row]:
    limits = results.get("known_limitations") or {}
    rows = []
    for a in results.get("accesses", []):
        target, why = target_of(a)
        base = dict(
            id=a["id"],
            file=a["file"],
            line=a["line"],
            kind=a["kind"],
            width=a["width"],
            later=bool(a.get("later")),
            limitation=limits.get(a["id"]),
        )
        if target is None:
            outcome = (
                "bench-mismatch" if why and why.startswith("bench-mismatch") else "not-measured"
            )
            rows.append(Row(outcome=outcome, measured=None, predicted=None, reason=why, **base))
            continue
        rec = pick_record(a, records)
        if rec is None:
            rows.append(
                Row(
                    outcome="missing",
                    measured=target,
                    predicted=None,
                    reason="no cudalint record",
                    **base,
                )
            )
            continue
        pred = (rec.get("wavefronts"), rec.get("ideal_wavefronts"))
        if rec.get("status") == "unknown" or pred[0] is None:
            outcome = "unknown"
        elif pred[0] != target[0]:
            outcome = "mismatch"
        elif pred[1] != target[1]:
            outcome = "ideal-differs"
        else:
            outcome = "exact"
        rows.append(
            Row(
                outcome=outcome,
                measured=target,
                predicted=pred,
                status=rec.get("status"),
                reason=rec.get("reason"),
                **base,
            )
        )
    return rows


def summary(rows: list[Row]) -> dict[str, Any]:
    def count(sel: list[Row]) -> tuple[int, int]:
        scored = [r for r in sel if r.outcome in SCORED]
        return sum(r.outcome == "exact" for r in scored), len(scored)

    exact, total = count(rows)
    core = count([r for r in rows if not r.later])
    later = count([r for r in rows if r.later])
    by: dict[str, int] = {}
    for r in rows:
        by[r.outcome] = by.get(r.outcome, 0) + 1
    return {
        "exact": exact,
        "total": total,
        "core_exact": core[0],
        "core_total": core[1],
        "later_exact": later[0],
        "later_total": later[1],
        "not_scored": len(rows) - total,
        "outcomes": by,
    }


def run_cudalint(files: list[str], arch: str) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "cudalint",
        "--format",
        "json",
        "--show-all",
        "--arch",
        arch,
        *files,
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
    if p.returncode not in (0, 1) and not p.stdout.strip():
        raise RuntimeError(f"cudalint failed (exit {p.returncode}): {p.stderr[-2000:]}")
    try:
        return json.loads(p.stdout)  # type: ignore[no-any-return]
    except json.JSONDecodeError as e:
        raise RuntimeError(
            f"cudalint printed no JSON (exit {p.returncode}): {e}; {p.stderr[-2000:]}"
        ) from e


def suite_files(results: dict[str, Any]) -> list[str]:
    files = sorted({a["file"] for a in results.get("accesses", [])})
    return [f for f in files if (REPO_ROOT / f).exists()]


def score_file(
    results_path: Path, records: list[dict[str, Any]] | None = None
) -> tuple[dict[str, Any], list[Row], dict[str, Any]]:
    results = json.loads(Path(results_path).read_text())
    cl: dict[str, Any] = {}
    if records is None:
        cl = run_cudalint(suite_files(results), results.get("arch", "sm_90"))
        records = cl.get("accesses", [])
    rows = score(results, records)
    return results, rows, {**summary(rows), "cudalint_errors": cl.get("errors", [])}


def fmt(pair: tuple[Any, Any] | None) -> str:
    if pair is None:
        return "-"
    w, i = pair
    return f"{'?' if w is None else w}/{'?' if i is None else i}"


def print_report(
    results: dict[str, Any], rows: list[Row], summ: dict[str, Any], out: Any = sys.stdout
) -> None:
    env = results.get("environment", {})
    print(
        f"accuracy against {env.get('gpu', '?')} ({results.get('arch')}, driver {env.get('driver', '?')}, "
        f"CUDA {env.get('cuda_version', '?')}, {env.get('ncu_version', 'ncu ?')}, measured {results.get('date', '?')})",
        file=out,
    )
    print(
        f"exact: {summ['exact']} / {summ['total']} scored accesses "
        f"(core {summ['core_exact']}/{summ['core_total']}, later {summ['later_exact']}/{summ['later_total']}; "
        f"{summ['not_scored']} not scored)",
        file=out,
    )
    misses = [r for r in rows if r.outcome != "exact"]
    if misses:
        print(
            f"\n{'id':<30} {'outcome':<14} {'measured':>9} {'predicted':>9}  status / reason",
            file=out,
        )
    for r in sorted(misses, key=lambda r: (r.later, r.outcome, r.file, r.line)):
        tag = " [later]" if r.later else ""
        detail = r.status or ""
        if r.reason:
            detail += (": " if detail else "") + r.reason
        if r.limitation:
            detail += f"  (known limitation: {r.limitation})"
        print(
            f"{r.id:<30} {r.outcome:<14} {fmt(r.measured):>9} {fmt(r.predicted):>9}  "
            f"{Path(r.file).name}:{r.line}{tag} {detail}",
            file=out,
        )
    for e in summ.get("cudalint_errors") or []:
        print(f"cudalint error: {e.get('file')}: {e.get('message')}", file=out)


def write_back(
    results_path: Path, results: dict[str, Any], rows: list[Row], summ: dict[str, Any]
) -> None:
    by_id = {r.id: r for r in rows}
    for a in results.get("accesses", []):
        r = by_id.get(a["id"])
        if r is None:
            continue
        a["predicted"] = (
            None
            if r.predicted is None
            else {
                "wavefronts": r.predicted[0],
                "ideal_wavefronts": r.predicted[1],
                "status": r.status,
                "reason": r.reason,
            }
        )
        a["outcome"] = r.outcome
    version = None
    try:
        from cudalint import __version__ as version  # type: ignore[no-redef]
    except Exception:
        pass
    results["score"] = {
        **{k: v for k, v in summ.items() if k != "cudalint_errors"},
        "cudalint_version": version,
        "scored_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    results_path.write_text(json.dumps(results, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Score cudalint against measured shared-memory wavefronts."
    )
    ap.add_argument(
        "--results", default=str(DEFAULT_RESULTS), help="results file written by run_gpu.py"
    )
    ap.add_argument(
        "--min-exact", type=int, default=None, help="exit 1 when fewer accesses are exact"
    )
    ap.add_argument(
        "--write",
        action="store_true",
        help="store cudalint's predictions and the score in the results file",
    )
    ap.add_argument("--json", action="store_true", help="print the rows and the summary as JSON")
    ap.add_argument(
        "--records", help="use cudalint JSON output from this file instead of running cudalint"
    )
    args = ap.parse_args(argv)

    path = Path(args.results)
    if not path.exists():
        print(f"error: no results file {path}", file=sys.stderr)
        return 2
    records = None
    if args.records:
        records = json.loads(Path(args.records).read_text()).get("accesses", [])
    try:
        results, rows, summ = score_file(path, records)
    except (RuntimeError, json.JSONDecodeError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"summary": summ, "rows": [asdict(r) for r in rows]}, indent=1))
    else:
        print_report(results, rows, summ)
    if args.write:
        write_back(path, results, rows, summ)
    if args.min_exact is not None and summ["exact"] < args.min_exact:
        print(f"FAIL: {summ['exact']} exact < --min-exact {args.min_exact}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
