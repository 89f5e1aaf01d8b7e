#!/usr/bin/env python3
"""Score cudalint per CUDA line against the real-world H100 measurements.

    python3 bench/accuracy/realworld/score.py --repos DIR [--cudalint CMD] [--json OUT]

DIR holds a checkout of each repository of programs.json at its pinned commit
(named NAME or OWNER+NAME). cudalint runs the way a user runs it: at the
repository's root, `cudalint --format json --show-all --isolated [-I ...] .`
with the `-I` the repository needs (programs.json, `cudalint_args`).

The unit scored is a CUDA line executed by one kernel (all its launches: every
block size and argument list the programs really run, template instantiations
together): the hardware's verdict is its worst launch. A line is *conflicted*
when its shared-memory wavefronts are at least 1.1x the ideal (summed over the
line's SASS instructions), *clean* when at most 1.05x; lines in between are not
scored. Where every shared SASS instruction of the line has the same integral
wavefronts and ideal per executed warp-instruction, the line also has an exact
per-warp cost, compared with cudalint's worst record on the line.

cudalint's records on a line are those of the same kernel (by name); a line of
a `__device__` helper that cudalint analyses as its own unit takes the records
of that line whatever their kernel. A line with no record of its own that calls
a helper takes the records of the helper's accesses made through that call
(`called_at`): ncu puts some of an inlined helper's instructions on the call's
line (bitonic sort's `Comparator(s_key[pos], ...)`). Only some: a call line
measured clean where cudalint says the helper conflicts through that call is not
scored (the conflicting instructions may be on the helper's lines), while one
measured conflicted is found or missed as usual. Its verdict: *conflicted* if any record has
more wavefronts than ideal, *unknown* if a record is unknown and none is
conflicted, *clean* otherwise, *missing* without any record.

A helper of the repository inlined into a kernel through several calls is measured
per call (measure.py's `site`: the chain of calls, innermost first), and each
(line, kernel, call chain) is a unit of its own, scored against cudalint's records
made through that call (`called_at`): ncu's line sum of a clean call and a
conflicted one is neither.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

HERE = Path(__file__).resolve().parent
DEFAULT_ROWS = HERE / "results" / "sm90_h100.jsonl"
CONFLICTED, CLEAN = 1.1, 1.05


def kernel_base(demangled: str) -> str:
    """`void ns::k<128, 8>(float *, int)` -> `k`."""
    s = demangled.strip()
    depth, cut = 0, len(s)
    for i, ch in enumerate(s):  # drop the parameter list: the first '(' outside <>
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = i
            break
    s = s[:cut]
    s = re.sub(r"<.*>$", "", s).strip()
    return s.split()[-1].split("::")[-1] if s else s


def template_args(demangled: str) -> list[str] | None:
    """`void k<int, (unsigned int)256, true>(int *)` -> ['int', '256', 'true']."""
    s = demangled.strip()
    depth, start, end = 0, -1, -1
    for i, ch in enumerate(s):
        if ch == "<":
            if depth == 0 and start < 0:
                start = i
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0 and start >= 0:
                end = i
                break
        elif ch == "(" and depth == 0:
            break
    if start < 0 or end < 0:
        return None
    parts, depth, cur = [], 0, ""
    for ch in s[start + 1:end]:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [norm_targ(p) for p in parts]


def norm_targ(v: str) -> str:
    v = re.sub(r"^\((?:unsigned |signed )?\w+\)", "", v.strip())  # (unsigned int)256
    v = re.sub(r"(?<=\d)[uUlL]+$", "", v)
    return v.replace(" ", "")


def instantiation_matches(inst: str | None, targs: list[str] | None) -> bool:
    """cudalint's `T=int, blockSize=256` against the measured kernel's template arguments."""
    if not inst or targs is None:
        return False
    vals = [norm_targ(kv.split("=", 1)[1]) for kv in inst.split(", ") if "=" in kv]
    return vals == targs[:len(vals)] and len(vals) == len(targs)


def load_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]


def measured_lines(rows: Iterable[dict[str, Any]]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """(repo, file, line, kernel, site) -> the worst launch's totals and per-op costs.
    `site`: the calls a repository helper's line was inlined through (measure.py's
    `site`, innermost first), "" for a kernel's own line or a row measured without it."""
    per_launch: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        k = (r["repo"], r["file"], r["line"], kernel_base(r["kernel"]), r.get("site", ""),
             r["program"], tuple(r["args"]), r["launch"])
        per_launch[k].append(r)
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for k, ops in per_launch.items():
        w = sum(o["wavefronts"] for o in ops)
        i = sum(o["ideal"] for o in ops)
        if i <= 0:
            continue
        per = {(o["wavefronts"] / o["instructions"], o["ideal"] / o["instructions"])
               for o in ops if o["instructions"] > 0 and o["ideal"] > 0}
        exact = None
        if len(per) == 1:
            wf, idl = next(iter(per))
            if wf == int(wf) and idl == int(idl):
                exact = (int(wf), int(idl))
        cand = {"ratio": w / i, "wavefronts": w, "ideal": i, "exact": exact,
                "targs": template_args(ops[0]["kernel"]),
                "block": ops[0]["block"], "kernel": ops[0]["kernel"], "program": ops[0]["program"],
                "args": ops[0]["args"], "ops": sorted({o["op"] for o in ops})}
        key = k[:5]
        prev = out.get(key)
        if prev is None or cand["ratio"] > prev["ratio"]:
            if prev is not None:
                cand["launches"] = prev.get("launches", 1) + 1
            out[key] = cand
        else:
            prev["launches"] = prev.get("launches", 1) + 1
    return out


def verdict_measured(ratio: float) -> str:
    return "conflicted" if ratio >= CONFLICTED else "clean" if ratio <= CLEAN else "marginal"


def run_cudalint(cmd: list[str], root: Path, extra: list[str]) -> dict[str, Any]:
    full = [*cmd, "--format", "json", "--show-all", "--isolated", "--max-unknown", "100", *extra, "."]
    p = subprocess.run(full, cwd=root, capture_output=True, text=True)
    try:
        doc: dict[str, Any] = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"score: {shlex.join(full)} in {root}: rc {p.returncode}: {p.stderr[-2000:]}")
    return doc


def replay_ir(ir_dir: Path, repo: str) -> dict[str, Any]:
    """cudalint's JSON document for `repo`, from its committed IR (see snapshot.py)."""
    import gzip

    from cudalint import irjson

    path = ir_dir / (repo.replace("/", "+") + ".json.gz")
    return irjson.check_ir(gzip.decompress(path.read_bytes()).decode(), show_all=True)


def op_kind(op: str) -> str:
    return ("atomic" if op.startswith(("ATOMS", "REDS")) else "store" if op.startswith(("STS", "STSM"))
            else "load")


def statement_records(recs: list[dict[str, Any]], line: int, ops: list[str]) -> list[dict[str, Any]]:
    """Records for a measured line that holds none: nvcc puts an access's instruction on
    another line of its statement (the right-hand side of a two-line assignment, the
    last line of a subscript), cudalint on the line where the access starts. An access
    whose span covers the line, else the one access of the same kind that ends one or
    two lines above it (none if that is ambiguous): a store whose subscript takes two
    lines and whose value two more (SGEMM_CUDA's `reinterpret_cast<float4 *>(&Bs[...])[0]
    = reinterpret_cast<float4 *>(&B[...])[0];` over four lines) is charged to the last."""
    cover = [r for r in recs if r["line"] < line <= r.get("end_line", r["line"])]
    if cover:
        return cover
    kinds = {op_kind(o) for o in ops}
    near = [r for r in recs if line - 2 <= r.get("end_line", r["line"]) < line
            and r.get("kind") in kinds]
    starts = {r["line"] for r in near}
    return near if len(starts) == 1 else []


def predict(records: list[dict[str, Any]]) -> dict[str, Any]:
    if not records:
        return {"verdict": "missing"}
    conflicted = [r for r in records if r.get("wavefronts") is not None
                  and r.get("ideal_wavefronts") is not None and r["wavefronts"] > r["ideal_wavefronts"]]
    known = [r for r in records if r.get("wavefronts") is not None and r.get("ideal_wavefronts") is not None]
    worst = max(known, key=lambda r: (r["wavefronts"], -r["ideal_wavefronts"]), default=None)
    v = ("conflicted" if conflicted else
         "unknown" if any(r.get("status") == "unknown" for r in records) else "clean")
    return {"verdict": v,
            "exact": (worst["wavefronts"], worst["ideal_wavefronts"]) if worst else None,
            "status": sorted({r.get("status", "?") for r in records}),
            "reasons": sorted({r["reason"] for r in records if r.get("reason")})[:3],
            "block": worst.get("block_dim") if worst else None}


def call_chain(record: dict[str, Any]) -> str:
    """A record's `called_at` in measure.py's `site` form."""
    return " < ".join(f"{c['file']}:{c['line']}" for c in record.get("called_at") or [])


def of_site(recs: list[dict[str, Any]], site: str) -> list[dict[str, Any]]:
    """The records of a helper's line made through the calls `site` names: the whole
    chain, else the innermost call (cudalint may know calls outside the repository's
    measured frames); where none matches, only records made without a call (a helper
    analysed as its own unit): another call's records do not describe this one."""
    if not site:
        return recs
    exact = [r for r in recs if call_chain(r) == site]
    if exact:
        return exact
    inner = site.split(" < ")[0]
    first = [r for r in recs if call_chain(r).split(" < ")[0] == inner]
    return first or [r for r in recs if not r.get("called_at")]


def score(measured: dict[tuple[Any, ...], dict[str, Any]],
          accesses: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Compare; `accesses` maps a repository to cudalint's access records (file relative to its root)."""
    by_line: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for repo, recs in accesses.items():
        for r in recs:
            by_line[(repo, r["file"], r["line"])].append(r)
    by_span: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for (repo, file, _), recs in by_line.items():
        by_span[(repo, file)] += recs
    # a helper's records by the line of the call that inlined it (`called_at`, innermost)
    by_call: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for repo, recs in accesses.items():
        for r in recs:
            calls = r.get("called_at") or []
            if calls:
                by_call[(repo, calls[0]["file"], calls[0]["line"])].append(r)
    lines = []
    for key, m in sorted(measured.items()):
        repo, file, line, kern = key[:4]
        site = key[4] if len(key) > 4 else ""
        mv = verdict_measured(m["ratio"])
        recs = by_line.get((repo, file, line), [])
        if not recs:
            recs = statement_records(by_span.get((repo, file), []), line, m["ops"])
        recs = of_site(recs, site)
        via_call = False
        if not recs:
            # ncu put the inlined helper's instructions on the call's line
            recs = by_call.get((repo, file, line), [])
            via_call = bool(recs)
        mine = [r for r in recs if r.get("kernel") == kern]
        if not mine:  # a helper analysed as its own unit
            mine = [r for r in recs]
        same = [r for r in mine if instantiation_matches(r.get("instantiation"), m["targs"])]
        if same:  # the instantiation the hardware ran
            mine = same
        p = predict(mine)
        outcome = {
            ("conflicted", "conflicted"): "found", ("conflicted", "clean"): "missed",
            ("clean", "conflicted"): "false-alarm", ("clean", "clean"): "correct",
        }.get((mv, p["verdict"]), p["verdict"] if p["verdict"] in ("unknown", "missing") else "not-scored")
        if mv == "marginal" or (via_call and outcome == "false-alarm"):
            # A call's line holds only the part of the inlined helper that ncu left on
            # it (bitonic sort's second `Comparator(...)` call: two of its loads per
            # warp; the rest on the helper's lines), so a clean measurement there does
            # not refute what cudalint says of the helper's accesses through the call.
            outcome = "not-scored"
        exact_ok = None
        if m["exact"] is not None and p.get("exact") is not None and outcome != "not-scored":
            exact_ok = tuple(p["exact"]) == tuple(m["exact"])
        lines.append({"repo": repo, "file": file, "line": line, "kernel": kern, "site": site,
                      "measured": mv, "ratio": round(m["ratio"], 3), "measured_exact": m["exact"],
                      "block": m["block"], "ops": m["ops"], "predicted": p["verdict"],
                      "predicted_exact": p.get("exact"), "status": p.get("status"),
                      "reasons": p.get("reasons"),
                      "outcome": outcome, "exact_ok": exact_ok})
    return {"lines": lines, "summary": summarize(lines)}


def summarize(lines: list[dict[str, Any]]) -> dict[str, Any]:
    scored = [ln for ln in lines if ln["outcome"] != "not-scored"]
    c = defaultdict(int)
    for ln in scored:
        c[ln["outcome"]] += 1
    conflicted = [ln for ln in scored if ln["measured"] == "conflicted"]
    ex = [ln for ln in scored if ln["exact_ok"] is not None]
    return {
        "lines": len(scored), "conflicted_lines": len(conflicted),
        "found": c["found"], "missed": c["missed"], "false_alarms": c["false-alarm"],
        "correct_clean": c["correct"], "unknown": c["unknown"], "missing": c["missing"],
        "conflicted_unknown_or_missing": sum(1 for ln in conflicted if ln["outcome"] in ("unknown", "missing")),
        "exact": sum(1 for ln in ex if ln["exact_ok"]), "exact_of": len(ex),
        "not_scored": len(lines) - len(scored),
    }


def score_cuxray(measured: dict[tuple[Any, ...], dict[str, Any]],
                 cux: list[dict[str, Any]]) -> dict[str, Any]:
    """The same lines scored for cuxray's verdicts (cuxray_score.py's output, which
    ran cuxray with each measured launch's block shape)."""
    by_unit: dict[tuple[str, str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in cux:
        by_unit[(r["repo"], r["file"], r["line"], kernel_base(r["kernel"]))].append(r)
    lines = []
    for key, m in sorted(measured.items()):
        mv = verdict_measured(m["ratio"])
        rs = by_unit.get(key[:4], [])
        vs = {r["verdict"] for r in rs}
        v = ("conflicted" if "conflicted" in vs else "unknown" if "unknown" in vs or "error" in vs
             else "clean" if "clean" in vs else "missing")
        outcome = {
            ("conflicted", "conflicted"): "found", ("conflicted", "clean"): "missed",
            ("clean", "conflicted"): "false-alarm", ("clean", "clean"): "correct",
        }.get((mv, v), v if v in ("unknown", "missing") else "not-scored")
        if mv == "marginal":
            outcome = "not-scored"
        same = [r for r in rs if r.get("block") == m["block"] and r.get("wavefronts") is not None]
        exact_ok = None
        if m["exact"] is not None and same and outcome != "not-scored":
            exact_ok = (same[0]["wavefronts"], same[0]["ideal"]) == tuple(m["exact"])
        lines.append({"repo": key[0], "file": key[1], "line": key[2], "kernel": key[3],
                      "site": key[4] if len(key) > 4 else "", "measured": mv, "predicted": v, "outcome": outcome, "exact_ok": exact_ok})
    return {"lines": lines, "summary": summarize(lines)}


RANK = {"found": 2, "correct": 2, "unknown": 1, "missing": 1, "missed": 0, "false-alarm": 0}


def line_key(ln: dict[str, Any]) -> str:
    site = ln.get("site") or ""
    return f"{ln['repo']}|{ln['file']}|{ln['line']}|{ln['kernel']}" + (f"|{site}" if site else "")


def expected_document(res: dict[str, Any]) -> dict[str, Any]:
    """What results/expected.json keeps: per scored line its outcome and exactness."""
    return {"summary": res["summary"],
            "lines": {line_key(ln): {"outcome": ln["outcome"], "exact_ok": ln["exact_ok"]}
                      for ln in res["lines"] if ln["outcome"] != "not-scored"}}


def regressions(res: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Lines scored worse than the committed expectation (and measured lines it lacks)."""
    out = []
    now = {line_key(ln): ln for ln in res["lines"] if ln["outcome"] != "not-scored"}
    for key, exp in sorted(expected["lines"].items()):
        ln = now.get(key)
        if ln is None:
            out.append(f"{key}: expected {exp['outcome']}, now not scored")
            continue
        if RANK[ln["outcome"]] < RANK[exp["outcome"]]:
            out.append(f"{key}: {exp['outcome']} -> {ln['outcome']} (measured {ln['measured']} "
                       f"x{ln['ratio']}, cudalint {ln['predicted']} {ln['predicted_exact']} "
                       f"{(ln.get('reasons') or [''])[0][:120]})")
        elif exp["exact_ok"] and not ln["exact_ok"]:
            out.append(f"{key}: exact per-warp cost lost: measured {ln['measured_exact']}, "
                       f"cudalint {ln['predicted_exact']}")
    for key in sorted(set(now) - set(expected["lines"])):
        out.append(f"{key}: measured line missing from the expectation (regenerate it)")
    return out


def find_checkout(base: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for cand in (base / f"{owner}+{name}", base / name):
        if cand.is_dir():
            return cand
    sys.exit(f"score: no checkout of {repo} under {base}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--repos", type=Path, help="checkouts: run cudalint as a user does")
    src.add_argument("--ir", type=Path, help="replay the committed IR (results/ir) instead")
    ap.add_argument("--rows", type=Path, default=DEFAULT_ROWS)
    ap.add_argument("--manifest", type=Path, default=HERE / "programs.json")
    ap.add_argument("--cudalint", default="cudalint", help="command (split like a shell)")
    ap.add_argument("--json", type=Path, help="write every scored line and the summary here")
    ap.add_argument("--cuxray", type=Path, help="also score cuxray_score.py's verdicts (JSON lines)")
    ap.add_argument("--write-expected", type=Path, help="write the per-line expectation CI checks")
    ap.add_argument("--check-expected", type=Path, help="exit 1 on lines scored worse than this")
    ap.add_argument("--show", default="", help="print lines with these outcomes (comma list)")
    a = ap.parse_args()
    man = json.loads(a.manifest.read_text())
    measured = measured_lines(load_rows(a.rows))
    accesses: dict[str, list[dict[str, Any]]] = {}
    times: dict[str, float] = {}
    for repo, info in man["repos"].items():
        if not any(k[0] == repo for k in measured):
            continue
        t0 = time.monotonic()
        if a.ir:
            doc = replay_ir(a.ir, repo)
        else:
            doc = run_cudalint(shlex.split(a.cudalint), find_checkout(a.repos, repo), info["cudalint_args"])
        times[repo] = round(time.monotonic() - t0, 1)
        accesses[repo] = doc.get("accesses", [])
    res = score(measured, accesses)
    res["cudalint_seconds"] = times
    s = res["summary"]
    print(json.dumps(s))
    if a.cuxray:
        cux = score_cuxray(measured, load_rows(a.cuxray))
        res["cuxray"] = cux["summary"]
        print("cuxray", json.dumps(cux["summary"]))
    show = {x for x in a.show.split(",") if x}
    for ln in res["lines"]:
        if ln["outcome"] in show:
            at = f" (via {ln['site']})" if ln.get("site") else ""
            print(f"{ln['outcome']:12} {ln['repo']}:{ln['file']}:{ln['line']}{at} {ln['kernel']} "
                  f"measured {ln['measured']} x{ln['ratio']} {ln['measured_exact']} block {ln['block']} "
                  f"{','.join(ln['ops'])}; cudalint {ln['predicted']} {ln['predicted_exact']} {ln['status']} "
                  f"{(ln.get('reasons') or [''])[0][:160]}")
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")
    if a.write_expected:
        a.write_expected.write_text(json.dumps(expected_document(res), indent=1, sort_keys=True) + "\n")
    if a.check_expected:
        bad = regressions(res, json.loads(a.check_expected.read_text()))
        for b in bad:
            print("REGRESSION", b)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
