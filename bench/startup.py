#!/usr/bin/env python3
"""Start-up benchmark: cudalint on one file, as the pre-commit hook runs it (issue 15, goal 4).

What the goal compares, defined precisely (every command is a fresh process, timed by
its wall-clock time and its CPU time, user + system, from ``os.wait4``):

``py``
    ``python -c pass``: the interpreter's own start (``site`` included, as a console
    script has it).
``floor``
    ``python -c "import clang.cindex"``: Python's start **with the imports cudalint
    needs**. The analysis of a file needs one package beyond the standard library,
    libclang's bindings (the model, the rules and the renderers are cudalint's own code
    on the standard library; sympy is not on the analysis path, pycparser only reads
    ``// cudalint:`` annotation expressions). This is the floor the goal names.
``parse``
    ``python`` that imports ``clang.cindex`` and parses the file once with exactly the
    clang arguments and in-memory shim headers cudalint's frontend uses (its
    ``clang_args`` and ``shim.unsaved_files``, with KeepGoing; no precompiled shim):
    the least any libclang-based tool pays for the file. Not a target; it says how much
    of a cold run is the parse itself.
``cold``
    the hook's command, ``cudalint --format=concise FILE`` (``entry`` and the README's
    ``args`` from ``.pre-commit-hooks.yaml``), with a fresh, empty cache directory
    (``--cache-dir``): the first commit of a changed file.
``hit``
    the same command with the cache directory of a previous run of the same file: the
    hook over files that did not change (``pre-commit run --all-files``, a re-run after
    another hook failed, CI with a restored cache). The console script's front door
    (``cudalint/frontdoor.py``) answers it from the earlier run's output; each round
    runs it twice and times the second, since the first after an edit to cudalint (or
    to a file) is a miss that records the run again.
``nocache``
    the same command with ``--no-cache``.

Ratios (medians over ``--repeat`` rounds; every round runs every command once, in turn,
so that a change in the machine's load hits all of them alike): ``hit/floor`` and
``cold/floor`` (the goal: <= 1.3), and ``cold/parse``. Where ``nvcc`` (PATH or
/usr/local/cuda/bin) and cuxray (``bench/speed.py``'s ``find_cuxray``) are found,
``--peer`` also times ``nvcc -cubin -arch=sm_90 -O3 -lineinfo`` + ``cuxray report --json
--no-cache`` on each file and prints ``peer/cold`` (the goal: >= 5).

Usage::

    python bench/startup.py                                  # examples/transpose.cu, kernels300.cu
    python bench/startup.py --file F.cu -I DIR --repeat 15   # any file, with its -I
    python bench/startup.py --peer --json /tmp/startup.json  # also nvcc + cuxray
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_FILES = (REPO / "examples" / "transpose.cu", REPO / "bench" / "corpus" / "kernels300.cu")

#: The parse floor's child: argv = a JSON file with the path, arguments and unsaved files.
PARSE_CHILD = r"""
import json, sys
import clang.cindex as ci
with open(sys.argv[1], encoding="utf-8") as f:
    job = json.load(f)
tu = ci.Index.create().parse(job["path"], args=job["args"],
                             unsaved_files=[tuple(u) for u in job["unsaved"]], options=0x200)
"""


def timed(cmd: Sequence[str], env: dict[str, str] | None = None,
          ok: Sequence[int] = (0,)) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run of ``cmd``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in ok:
        raise SystemExit(f"startup.py: {' '.join(cmd)} exited {proc.returncode}:\n"
                         f"{err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def parse_job(path: str, includes: Sequence[str], tmp: str) -> str:
    """Write the parse floor's job for ``path`` (cudalint's own clang arguments and shim)."""
    from cudalint.frontend import parse, shim
    from cudalint.options import Options

    options = Options(include_dirs=tuple(includes))
    with open(path, "rb") as f:
        source = f.read().decode("utf-8", "surrogateescape")
    job = {"path": path, "args": parse.clang_args(options),
           "unsaved": [[path, source], *([p, t] for p, t in shim.unsaved_files())]}
    out = os.path.join(tmp, "parse-" + str(abs(hash(path))) + ".json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(job, f)
    return out


def cudalint_command(python: str) -> list[str]:
    """The console script the hook runs (``entry: cudalint``), else ``python -m cudalint``."""
    exe = Path(python).parent / "cudalint"
    return [str(exe)] if exe.exists() else [python, "-m", "cudalint"]


def peer_commands(path: str, tmp: str) -> list[tuple[list[str], dict[str, str] | None]] | None:
    """nvcc + cuxray on ``path`` (each command with its environment), or None."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import speed
    finally:
        sys.path.pop(0)
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    cuxray, env = speed.find_cuxray(None)
    if nvcc is None or cuxray is None:
        return None
    cubin = os.path.join(tmp, Path(path).stem + ".cubin")
    return [([nvcc, "-cubin", "-arch=sm_90", "-O3", "-lineinfo", "-o", cubin, path], None),
            ([cuxray, "report", "--json", "--no-cache", cubin], env)]


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def measure(path: str, args: argparse.Namespace, tmp: str) -> dict[str, Any]:
    python = args.python
    inc = [f"-I{d}" for d in args.include]
    hook = [*(args.cudalint or cudalint_command(python)), "--format=concise", *inc, path]
    warm_dir = os.path.join(tmp, "warm-cache")
    timed([*hook, f"--cache-dir={warm_dir}"], ok=(0, 1))  # fills the cache; also warms disk
    job = parse_job(path, args.include, tmp)
    cmds: dict[str, list[str]] = {
        "py": [python, "-c", "pass"],
        "floor": [python, "-c", "import clang.cindex"],
        "parse": [python, "-c", PARSE_CHILD, job],
        "hit": [*hook, f"--cache-dir={warm_dir}"],
        "nocache": [*hook, "--no-cache"],
    }
    runs: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []}
                                               for k in [*cmds, "cold"]}
    for r in range(args.repeat):
        order = [*cmds, "cold"]
        for name in order[r % len(order):] + order[:r % len(order)]:
            if name == "cold":
                cold_dir = os.path.join(tmp, f"cold-{r}")
                wall, cpu = timed([*hook, f"--cache-dir={cold_dir}"], ok=(0, 1))
                shutil.rmtree(cold_dir, ignore_errors=True)
            else:
                if name == "hit":  # refill: an edit to cudalint since makes every entry stale
                    timed(cmds[name], ok=(0, 1))
                wall, cpu = timed(cmds[name], ok=(0, 1))
            runs[name]["wall"].append(wall)
            runs[name]["cpu"].append(cpu)
    out: dict[str, Any] = {"file": path, "repeat": args.repeat,
                           "median": {k: {m: median(v) for m, v in d.items()}
                                      for k, d in runs.items()},
                           "runs": runs}
    if args.peer:
        peer = peer_commands(path, tmp)
        if peer is None:
            out["peer"] = "skipped: nvcc or cuxray not found (see bench/README.md)"
        else:
            walls, cpus = [], []
            try:
                for _ in range(args.peer_repeat):
                    w = c = 0.0
                    for cmd, env in peer:
                        dw, dc = timed(cmd, env=env)
                        w, c = w + dw, c + dc
                    walls.append(w)
                    cpus.append(c)
            except SystemExit as exc:  # nvcc cannot build the file (a missing header)
                out["peer"] = f"failed: {str(exc).splitlines()[0][:200]}"
            else:
                out["median"]["peer"] = {"wall": median(walls), "cpu": median(cpus)}
    return out


def ratio(m: dict[str, dict[str, float]], a: str, b: str, k: str) -> str:
    if a not in m or b not in m or not m[b][k]:
        return "-"
    return f"{m[a][k] / m[b][k]:.2f}x"


def render(results: Sequence[dict[str, Any]], load: tuple[float, float]) -> str:
    lines = [f"load average before / after: {load[0]:.2f} / {load[1]:.2f} "
             f"on {os.cpu_count()} CPUs; medians of {results[0]['repeat']} rounds "
             "(wall s / CPU s)"]
    names = ("py", "floor", "parse", "hit", "cold", "nocache", "peer")
    for res in results:
        m = res["median"]
        lines.append(f"\n{res['file']}")
        for n in names:
            if n in m:
                lines.append(f"  {n:<8} {m[n]['wall']:7.3f} s  {m[n]['cpu']:7.3f} s")
        if isinstance(res.get("peer"), str):
            lines.append(f"  peer     {res['peer']}")
        for a, b, goal in (("hit", "floor", "<= 1.3"), ("cold", "floor", "<= 1.3"),
                           ("cold", "parse", ""), ("peer", "cold", ">= 5"),
                           ("peer", "hit", "")):
            if a in m:
                lines.append(f"  {a}/{b:<6} wall {ratio(m, a, b, 'wall'):>7}  "
                             f"CPU {ratio(m, a, b, 'cpu'):>7}  {('goal ' + goal) if goal else ''}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--file", action="append", default=None,
                   help="file to run on (repeatable; default: examples/transpose.cu and "
                   "bench/corpus/kernels300.cu)")
    p.add_argument("-I", dest="include", action="append", default=[], help="include directory")
    p.add_argument("--repeat", type=int, default=11, help="rounds (default 11)")
    p.add_argument("--peer", action="store_true", help="also time nvcc + cuxray")
    p.add_argument("--peer-repeat", type=int, default=3)
    p.add_argument("--python", default=sys.executable,
                   help="interpreter with cudalint installed (default: this one)")
    p.add_argument("--cudalint", metavar="EXE", type=lambda v: [v], default=None,
                   help="the cudalint command to time (default: the console script beside "
                   "--python); e.g. a script that runs another checkout, for before/after")
    p.add_argument("--json", metavar="OUT", help="write every run's numbers here")
    args = p.parse_args(argv)
    files = [str(Path(f)) for f in (args.file or [str(f) for f in DEFAULT_FILES])]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="cudalint-startup-") as tmp:
        results = [measure(f, args, tmp) for f in files]
    text = render(results, (load_before, os.getloadavg()[0]))
    sys.stdout.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
