#!/usr/bin/env python3
"""Repository scan (issue 15, goal 3): cudalint against a bare libclang parse of the same
files with the same flags, its peak memory, and ``-j 2`` against ``-j 1``; in one run.

For each repository of ``bench/repos.py`` (same ``-I``, ``--exclude`` and ``-p``
compilation database as ``bench/identity.py``), each round runs, one after the other:

``bare``
    a fresh Python that builds the run's file list exactly as the command line does (it
    runs ``cudalint.cli.main`` with the same arguments, its ``run_tasks`` replaced), then
    parses every file cudalint parses (its sources, and a header found in a folder only
    when no parsed source includes it) with ``Index.create().parse`` and the same clang
    arguments (``frontend.parse.clang_args`` of each file's options: the hermetic
    headers, ``-I``, ``-D``, the shim as ``-include`` from memory; ``options=0``, no
    precompiled header), and nothing else: no walk, no model;
``j1``, ``j2``, ...
    ``cudalint --format json --show-all --isolated --no-cache -j N [-I ...] .`` at the root.

Every command is timed in wall seconds and in CPU seconds of its whole process tree (this
process is made a child subreaper, so the ``-j`` workers and multiprocessing's fork
server, orphaned when they outlive their parent, are reaped here and counted). Memory is
sampled every 50 ms from ``/proc`` over the process tree: the largest sum of the tree's
PSS (proportional set size: pages shared between forked processes counted once),
the largest sum of RSS, and the largest RSS of one process. The load average is
recorded before and after every command; ratios are taken within one round.

    python bench/scan.py --root /work/repos --only cuda-samples --only llm.c --rounds 2
    python bench/scan.py --root ... --jobs 1 --jobs 2 --no-bare --json out.json
    python bench/scan.py --root ... --cudalint "python -m cudalint" --pythonpath /frozen/copy

Linux only (``/proc``, ``prctl``).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import threading
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repos import REPOS, Repo, write_compdb

PR_SET_CHILD_SUBREAPER = 36

#: The bare parse, in a fresh interpreter: argv = the cudalint command line's arguments.
#: Prints one JSON object: files parsed, CPU and wall seconds of the parse loop alone.
BARE_CHILD = r"""
import json, os, sys, time
import clang.cindex as ci
import cudalint.cli as cli
from cudalint.discovery import is_header
from cudalint.frontend import parse as P, shim

def bare(tasks, jobs=1, progress=None, **kw):
    index = ci.Index.create()
    c0, w0 = time.process_time(), time.perf_counter()
    files, included = 0, set()
    todo = [t for t in tasks if t.error is None]
    first = [t for t in todo if not (t.discovered and is_header(t.path))]
    later = [t for t in todo if t.discovered and is_header(t.path)]
    for group in (first, later):
        for t in group:
            key = os.path.normcase(os.path.abspath(t.path))
            if group is later and key in included:
                continue  # cudalint does not parse it either (manager.covered_report)
            args = P.clang_args(t.options)
            tu = index.parse(t.path, args=args, unsaved_files=shim.unsaved_files(), options=0)
            files += 1
            for inc in tu.get_includes():
                if inc.include is not None:
                    included.add(os.path.normcase(os.path.abspath(inc.include.name)))
            del tu
    print(json.dumps({"files": files, "loop_cpu": time.process_time() - c0,
                      "loop_wall": time.perf_counter() - w0}))
    sys.stdout.flush()
    os._exit(0)

cli.run_tasks = bare
sys.exit(cli.main(sys.argv[1:]))
"""


def _subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _children_of() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(name))
    return kids


def _tree(root: int) -> list[int]:
    kids = _children_of()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, ()))
    return out


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of ``pid`` so far (0 when gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _mem(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of ``pid`` in bytes (0, 0 when gone)."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return rss, pss


class Sampler(threading.Thread):
    """Peak memory of the process tree under this process, every ``period`` s."""

    def __init__(self, period: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.period = period
        self.stop = threading.Event()
        self.pss = self.rss = self.one = 0
        self.procs = 0
        #: the last CPU seconds seen of each process of the tree, and its parent's pid
        self.cpu: dict[int, float] = {}
        self.top = 0

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.is_set():
            pids = [p for p in _tree(me) if p != me]
            if pids and not self.top:
                self.top = pids[0]  # the command's own process
            rss = pss = one = 0
            for p in pids:
                r, s = _mem(p)
                rss, pss, one = rss + r, pss + s, max(one, r)
                c = _cpu_of(p)
                if c:
                    self.cpu[p] = max(self.cpu.get(p, 0.0), c)
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            self.one, self.procs = max(self.one, one), max(self.procs, len(pids))
            self.stop.wait(self.period)


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _reap_all() -> None:
    """Wait for every orphan reparented to this subreaper."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)


def timed(cmd: list[str], cwd: str, env: dict[str, str]) -> dict[str, Any]:
    load0 = os.getloadavg()[0]
    cpu0 = _cpu_children()
    sampler = Sampler()
    sampler.start()
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    _reap_all()
    wall = time.monotonic() - t0
    sampler.stop.set()
    sampler.join()
    cpu = _cpu_children() - cpu0
    mib = 1 << 20
    # the command's own process, and the others (workers, helpers), largest first: on an
    # idle machine -j N takes about main + the busiest worker (sampled: each may miss
    # its last 50 ms)
    main = sampler.cpu.pop(sampler.top, 0.0)
    others = sorted(sampler.cpu.values(), reverse=True)
    return {"cpu_main": round(main, 2), "cpu_others": [round(c, 2) for c in others],
            "wall": round(wall, 2), "cpu": round(cpu, 2), "rc": proc.returncode,
            "peak_pss_mib": round(sampler.pss / mib, 1),
            "peak_rss_sum_mib": round(sampler.rss / mib, 1),
            "peak_rss_one_mib": round(sampler.one / mib, 1), "procs": sampler.procs,
            "load": [round(load0, 2), round(os.getloadavg()[0], 2)],
            "stdout": proc.stdout, "stderr": proc.stderr[-2000:]}


def cudalint_args(repo: Repo, jobs: int | None, db: str | None) -> list[str]:
    args = ["--format", "json", "--show-all", "--isolated", "--no-cache"]
    if jobs is not None:
        args += ["-j", str(jobs)]
    for inc in repo.include:
        args += ["-I", inc]
    for ex in repo.exclude:
        args += ["--exclude", ex]
    if db is not None:
        args += ["-p", db]
    return [*args, *repo.extra, "."]


def _total(got: dict[tuple[str, str], dict[str, Any]], repos: list[Repo], run: str,
           key: str) -> float:
    return sum(float(got[(r.name, run)].get(key, 0.0)) for r in repos if (r.name, run) in got)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="folder holding the clones")
    ap.add_argument("--only", action="append", default=[], help="repository name (repeatable)")
    ap.add_argument("--jobs", action="append", type=int, default=[],
                    help="-j values to run (repeatable; default 1 and 2)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--no-bare", action="store_true", help="skip the bare parse")
    ap.add_argument("--cudalint", default=f"{shlex.quote(sys.executable)} -m cudalint",
                    help="the command to run (default: this Python's -m cudalint)")
    ap.add_argument("--pythonpath", default=None,
                    help="PYTHONPATH for cudalint and the bare parse (a frozen copy)")
    ap.add_argument("--label", default="", help="a name for this tree in the table")
    ap.add_argument("--json", metavar="OUT", help="also write every row as JSON")
    args = ap.parse_args()
    jobs = args.jobs or [1, 2]
    if not _subreaper():
        print("warning: not a subreaper: the CPU of orphaned workers is not counted",
              file=sys.stderr)
    env = dict(os.environ)
    env.pop("CUDALINT_CACHE_DIR", None)
    if args.pythonpath:
        env["PYTHONPATH"] = args.pythonpath
    cudalint = shlex.split(args.cudalint)
    repos = [r for r in REPOS if not args.only or r.name in args.only]
    rows: list[dict[str, Any]] = []
    print(f"{'round':>5} {'repo':<14} {'run':<5} {'wall s':>7} {'CPU s':>7} "
          f"{'PSS MiB':>8} {'RSS sum':>8} {'RSS one':>8} {'files':>5} load")
    for rnd in range(1, args.rounds + 1):
        for repo in repos:
            path = os.path.join(args.root, repo.name)
            db = write_compdb(repo, path) if repo.subtrees else None
            try:
                runs: list[tuple[str, list[str]]] = []
                if not args.no_bare:
                    runs.append(("bare", [sys.executable, "-c", BARE_CHILD,
                                          *cudalint_args(repo, None, db)]))
                runs += [(f"j{j}", [*cudalint, *cudalint_args(repo, j, db)]) for j in jobs]
                for name, cmd in runs:
                    row = timed(cmd, path, env)
                    files = ""
                    if name == "bare":
                        try:
                            info = json.loads(row["stdout"].strip().splitlines()[-1])
                            row.update(info)
                            files = str(info["files"])
                        except (ValueError, IndexError, KeyError):
                            row["error"] = row["stderr"]
                    elif row["rc"] not in (0, 1):
                        row["error"] = row["stderr"]
                    row.pop("stdout")
                    row.update({"round": rnd, "repo": repo.name, "run": name,
                                "label": args.label})
                    rows.append(row)
                    print(f"{rnd:>5} {repo.name:<14} {name:<5} {row['wall']:>7.2f} "
                          f"{row['cpu']:>7.2f} {row['peak_pss_mib']:>8.1f} "
                          f"{row['peak_rss_sum_mib']:>8.1f} {row['peak_rss_one_mib']:>8.1f} "
                          f"{files:>5} {row['load'][0]:.1f}-{row['load'][1]:.1f}"
                          + (f"  ERROR rc={row['rc']}" if "error" in row else ""), flush=True)
            finally:
                if db is not None:
                    shutil.rmtree(db, ignore_errors=True)
    # ratios within each round, summed over the repositories
    print()
    for rnd in range(1, args.rounds + 1):
        got = {(r["repo"], r["run"]): r for r in rows if r["round"] == rnd}
        cpu = {run: _total(got, repos, run, "cpu") for run in ("bare", "j1", "j2")}
        parts = [f"round {rnd}:"]
        if not args.no_bare and 1 in jobs:
            loop = _total(got, repos, "bare", "loop_cpu")
            parts.append(f"j1/bare CPU {cpu['j1'] / max(cpu['bare'], 1e-9):.2f}x"
                         f" (bare loop only {cpu['j1'] / max(loop, 1e-9):.2f}x)")
        if 1 in jobs and 2 in jobs:
            wall1, wall2 = _total(got, repos, "j1", "wall"), _total(got, repos, "j2", "wall")
            # what runs beside the busiest worker (the other one) is off the critical path
            beside = sum(sorted(got[(r.name, "j2")]["cpu_others"], reverse=True)[1:2][0]
                         for r in repos if (r.name, "j2") in got
                         and len(got[(r.name, "j2")]["cpu_others"]) >= 2)
            parts.append(f"-j 2 wall speed-up {wall1 / max(wall2, 1e-9):.2f}x"
                         f" (CPU j2/j1 {cpu['j2'] / max(cpu['j1'], 1e-9):.2f}x; CPU critical"
                         f" path {cpu['j1'] / max(cpu['j2'] - beside, 1e-9):.2f}x)")
        print("  ".join(parts))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
