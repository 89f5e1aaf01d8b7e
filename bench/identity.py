"""Check that cudalint's JSON output on real repositories is unchanged.

Runs ``cudalint --format json --show-all --isolated [-j N] [--timeout S] [-I ...] .`` at the
root of each repository of ``bench/repos.py`` (same list, same ``-I`` and ``--exclude``,
and its ``-p`` compilation database for a repository's subtrees unless ``--no-compdb``)
and either saves the output (``--save DIR``: one ``<repo>.json`` per repository, plus the
exit status) or compares it with a saved run (``--against DIR``), printing one line per
repository, ``identical`` or ``different``, and for a difference the first differing
entries (diagnostics, accesses, errors and summary compared separately, keyed by file, line,
column, array, kernel and instantiation, so that a change shows as the entry that changed,
not as a shifted list).

    python bench/identity.py --root /path/to/clones --save before/        # baseline
    python bench/identity.py --root /path/to/clones --against before/     # after a change
    python bench/identity.py --root ... --against before/ -j 2            # same output with -j 2?
    python bench/identity.py --root ... --against a/ --other b/           # two saved runs

Exit status: 0 when every compared repository is identical, 1 when one differs, 2 when a
run failed or a saved file is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repos import REPOS, Repo

_KEY_FIELDS = ("file", "line", "column", "code", "kernel", "array", "kind", "instantiation",
               "bank_mode", "warp", "arch")


def command(repo: Repo, cudalint: list[str], jobs: int, timeout: float | None) -> list[str]:
    cmd = [*cudalint, "--format", "json", "--show-all", "--isolated", "-j", str(jobs)]
    if timeout is not None:
        cmd += ["--timeout", str(timeout)]
    for inc in repo.include:
        cmd += ["-I", inc]
    for ex in repo.exclude:
        cmd += ["--exclude", ex]
    return [*cmd, *repo.extra, "."]


def run(repo: Repo, root: str, cudalint: list[str], jobs: int,
        timeout: float | None, compdb: bool = True) -> dict[str, Any]:
    cmd = command(repo, cudalint, jobs, timeout)
    path = os.path.join(root, repo.name)
    db = None
    if compdb and getattr(repo, "subtrees", ()):
        # the folders bench/repos.py builds with their own flags (-p, as it does)
        from repos import write_compdb

        db = write_compdb(repo, path)
        cmd[-1:-1] = ["-p", db]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=path, capture_output=True, text=True, check=False)
    finally:
        if db is not None:
            shutil.rmtree(db, ignore_errors=True)
    wall = time.monotonic() - t0
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = None
    return {"command": cmd, "returncode": proc.returncode, "wall_s": round(wall, 2),
            "output": doc, "stderr": proc.stderr[-2000:]}


def _key(entry: Any) -> str:
    if isinstance(entry, dict):
        return json.dumps([entry.get(k) for k in _KEY_FIELDS], default=str)
    return json.dumps(entry, sort_keys=True, default=str)


_ABSENT = object()


def _shown(entry: dict[str, Any], field: str) -> str:
    return json.dumps(entry[field])[:160] if field in entry else "(no such field)"


def diff(old: Any, new: Any, limit: int = 5) -> list[str]:
    """The first ``limit`` differences between two cudalint JSON documents."""
    out: list[str] = []
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [] if old == new else [f"document: {type(old).__name__} vs {type(new).__name__}"]
    for section in sorted(set(old) | set(new)):
        a, b = old.get(section), new.get(section)
        if a == b:
            continue
        if not (isinstance(a, list) and isinstance(b, list)):
            out.append(f"{section}: {json.dumps(a)[:300]} -> {json.dumps(b)[:300]}")
            continue
        if len(a) != len(b):
            out.append(f"{section}: {len(a)} entries -> {len(b)}")
        ka: dict[str, list[Any]] = {}
        kb: dict[str, list[Any]] = {}
        for e in a:
            ka.setdefault(_key(e), []).append(e)
        for e in b:
            kb.setdefault(_key(e), []).append(e)
        for k in list(ka) + [k for k in kb if k not in ka]:
            ea, eb = ka.get(k, []), kb.get(k, [])
            if ea == eb:
                continue
            if len(ea) == 1 and len(eb) == 1 and isinstance(ea[0], dict):
                fields = [f for f in sorted(set(ea[0]) | set(eb[0]))
                          if ea[0].get(f, _ABSENT) != eb[0].get(f, _ABSENT)]
                detail = "; ".join(f"{f}: {_shown(ea[0], f)} -> {_shown(eb[0], f)}"
                                   for f in fields[:4])
                out.append(f"{section} {k}: {detail}")
            else:
                out.append(f"{section} {k}: {len(ea)} entries -> {len(eb)}"
                           + (f" (old {json.dumps(ea[0])[:200]})" if ea else "")
                           + (f" (new {json.dumps(eb[0])[:200]})" if eb else ""))
            if len(out) >= limit:
                return out
        if [_key(e) for e in a] != [_key(e) for e in b] and not out:
            out.append(f"{section}: same entries, different order")
    return out[:limit]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", help="folder holding the clones (needed unless --other)")
    ap.add_argument("--cudalint", default="cudalint", help="command to run (split on spaces)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=None,
                    help="pass --timeout S (default: cudalint's own default budget)")
    ap.add_argument("--only", action="append", default=[], help="repository name (repeatable)")
    ap.add_argument("--save", metavar="DIR", help="write <repo>.json here")
    ap.add_argument("--against", metavar="DIR", help="compare with the run saved here")
    ap.add_argument("--other", metavar="DIR",
                    help="with --against: compare two saved runs instead of running")
    ap.add_argument("--limit", type=int, default=5, help="differences shown per repository")
    ap.add_argument("--no-compdb", action="store_true",
                    help="leave out the -p compilation database bench/repos.py writes for a "
                         "repository's subtrees (for baselines saved without it)")
    args = ap.parse_args()
    if not args.save and not args.against:
        ap.error("give --save DIR and/or --against DIR")
    if not args.other and not args.root:
        ap.error("--root is needed to run cudalint")
    repos = [r for r in REPOS if not args.only or r.name in args.only]
    status = 0
    for repo in repos:
        if args.other:
            try:
                with open(os.path.join(args.other, repo.name + ".json")) as f:
                    res = json.load(f)
            except OSError:
                print(f"{repo.name:26} missing in {args.other}")
                status = max(status, 2)
                continue
        else:
            if not os.path.isdir(os.path.join(args.root, repo.name)):
                print(f"{repo.name:26} not cloned under {args.root}")
                continue
            res = run(repo, args.root, args.cudalint.split(), args.jobs, args.timeout,
                      compdb=not args.no_compdb)
            if res["output"] is None:
                print(f"{repo.name:26} run failed (exit {res['returncode']}): "
                      f"{res['stderr'][-300:]}")
                status = max(status, 2)
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, repo.name + ".json"), "w") as f:
                json.dump(res, f, indent=1, sort_keys=True)
        line = f"{repo.name:26} exit {res['returncode']} {res.get('wall_s', 0):7.1f} s"
        if args.against:
            try:
                with open(os.path.join(args.against, repo.name + ".json")) as f:
                    old = json.load(f)
            except OSError:
                print(f"{line}  no saved run in {args.against}")
                status = max(status, 2)
                continue
            d = diff(old["output"], res["output"], args.limit)
            if old["returncode"] != res["returncode"]:
                d.insert(0, f"exit status {old['returncode']} -> {res['returncode']}")
            print(f"{line}  {'identical' if not d else 'different'}")
            for x in d:
                print("    " + x)
            if d:
                status = max(status, 1)
        else:
            print(f"{line}  saved")
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
