#!/usr/bin/env python3
"""Speed benchmark: cudalint against a bare libclang parse and against nvcc, on one corpus.

In one run, on the same list of files, this measures

  (a)  cudalint end to end as a user runs it: ``python -m cudalint --format json FILES``
       in a subprocess (wall time, Python start and imports included); and, in this
       process after the imports, ``cudalint.api.check_paths`` per file;
  (b)  the floor a naive libclang tool pays: a fresh Python that imports
       ``clang.cindex`` and parses every file with ``Index.create().parse`` (``-x cuda
       --cuda-device-only -nocudainc -nocudalib -std=c++17 -include PRELUDE``, default
       system includes, ``options=0``), timed as a subprocess too so that a/b compares
       like with like; the child also reports its per-file parse times;
  (c)  when ``nvcc`` is on PATH, ``nvcc -cubin -arch=sm_90 -O3`` on each file, one
       process per file as a build would (what a SASS-based peer needs before it starts);
  (d)  when ``cuxray`` (PyPI, with nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump) is
       found, the SASS-based peer end to end: ``nvcc -cubin -lineinfo`` then ``cuxray
       report --json --no-cache`` on the cubin, per file (``--peer-sample N`` times it
       on every k-th file and compares with cudalint on the same files);

plus the single-file latency (``cudalint one.cu`` against ``python -c "import sympy,
clang.cindex"``) and ``-j`` scaling when the CLI has ``-j``. Every measurement is repeated
(``--repeat``, default 5); the table shows the median and the minimum, ratios use the
minimum (best of N). Subprocesses are also timed in CPU seconds (user + system of the
children), which a shared machine disturbs less than wall time; the load average is
recorded before and after. Only the standard library and cudalint's own dependencies
are used.

Usage::

    python bench/speed.py --corpus fixtures
    python bench/speed.py --corpus file --json /tmp/speed-file.json
    python bench/speed.py --corpus ~/src/cuda-samples -I ~/src/cuda-samples/Common
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
ONE_FILE = REPO / "bench" / "corpus" / "kernels300.cu"
SUFFIXES = (".cu", ".cuh")

#: The ten-line prelude of the bare parse: CUDA attributes, builtin variables, and just
#: enough (dim3, cudaConfigureCall) for ``<<<grid, block>>>`` to parse.
PRELUDE = """\
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
extern const __device__ uint3 threadIdx, blockIdx; extern const __device__ dim3 blockDim, gridDim;
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, unsigned long shmem = 0, void *stream = 0);
extern "C" __device__ void __syncthreads();
"""  # noqa: E501

#: The bare-parse child: argv = prelude, then -I dirs as one JSON list, then the files.
#: Prints a JSON object with per-file parse seconds and error-diagnostic counts.
BARE_CHILD = r"""
import json, sys, time
import clang.cindex as ci
prelude, incs, files = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
args = ['-x', 'cuda', '--cuda-device-only', '-nocudainc', '-nocudalib', '-std=c++17']
args += [a for d in incs for a in ('-I', d)] + ['-include', prelude]
index = ci.Index.create()
times, errors = [], []
for f in files:
    t = time.perf_counter()
    tu = index.parse(f, args=args, options=0)
    times.append(time.perf_counter() - t)
    errors.append(sum(1 for d in tu.diagnostics if d.severity >= 3))
print(json.dumps({'times': times, 'errors': errors}))
"""

IMPORT_FLOOR = "import sympy, clang.cindex"


# --------------------------------------------------------------------------- stats


@dataclass
class Timing:
    """Repeated measurements of one thing, in seconds (wall; ``cpu``: CPU of children)."""

    name: str
    samples: list[float] = field(default_factory=list)
    note: str = ""
    cpu: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def best_cpu(self) -> float | None:
        return min(self.cpu) if self.cpu else None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def _fmt_s(seconds: float) -> str:
    if seconds < 1.0:
        return f"{seconds * 1000:8.1f} ms"
    return f"{seconds:8.3f} s "


def _ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}x"


# --------------------------------------------------------------------------- corpus


def collect_all(corpora: Sequence[str]) -> list[Path]:
    """The files of every ``--corpus`` given, each once, in order."""
    found: list[Path] = []
    for corpus in corpora:
        found.extend(f for f in collect(corpus) if f not in found)
    return found


def collect(corpus: str) -> list[Path]:
    if corpus == "fixtures":
        return sorted(FIXTURES.glob("*.cu"))
    if corpus == "file":
        return [ONE_FILE]
    root = Path(corpus).expanduser()
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise SystemExit(f"speed.py: --corpus {corpus!r}: not fixtures, file, or a directory")
    found: list[Path] = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(dirpath) / f for f in sorted(files) if f.endswith(SUFFIXES))
    return sorted(found)


def shown(path: Path) -> str:
    """The path relative to the repository when inside it (shorter command lines)."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- runners


#: CPU seconds (user + system) of the children run by ``run_timed`` so far.
CHILD_CPU = [0.0]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(
    cmd: Sequence[str],
    *,
    ok: Callable[[int], bool] = lambda rc: rc == 0,
    env: dict[str, str] | None = None,
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    c0 = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run(list(cmd), cwd=REPO, capture_output=True, check=False, env=env)
    elapsed = time.perf_counter() - t
    CHILD_CPU[0] += _children_cpu() - c0
    if not ok(proc.returncode):
        tail = proc.stderr.decode(errors="replace")[-2000:]
        raise RuntimeError(f"{' '.join(cmd[:6])} ... exited {proc.returncode}\n{tail}")
    return elapsed, proc


def cli_runner(cmd: Sequence[str]) -> Callable[[], float]:
    """A timed run of a cudalint command line (exit 1: warnings, 2: a file not analyzed)."""
    return lambda: run_timed(cmd, ok=lambda rc: rc in (0, 1, 2))[0]


def repeat(name: str, n: int, fn: Callable[[], float], note: str = "") -> Timing:
    timing = Timing(name, note=note)
    for _ in range(n):
        c0 = CHILD_CPU[0]
        timing.samples.append(fn())
        if CHILD_CPU[0] > c0:
            timing.cpu.append(CHILD_CPU[0] - c0)
    return timing


def find_cuxray(given: str | None) -> tuple[str | None, dict[str, str] | None]:
    """The cuxray executable and the environment to run it in (its venv's nvdisasm and
    cuobjdump first on PATH, no toolchain download), or (None, None)."""
    candidates = [given] if given else [
        os.environ.get("CUXRAY", ""), shutil.which("cuxray") or "",
        str(REPO.parent / "cuxray-venv" / "bin" / "cuxray"),
    ]
    for c in candidates:
        if c and Path(c).is_file():
            exe = str(Path(c).resolve().parent / Path(c).name)
            venv = Path(c).parent.parent
            tools = sorted(str(d) for d in venv.glob("lib/python*/site-packages/nvidia/*/bin"))
            env = dict(os.environ)
            env["PATH"] = os.pathsep.join([*tools, env.get("PATH", "")])
            env["CUXRAY_NO_FETCH"] = "1"
            return exe, env
    if given:
        raise SystemExit(f"speed.py: --cuxray {given!r}: not a file")
    return None, None


def cuxray_version(exe: str, env: dict[str, str]) -> str:
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, env=env,
                          check=False)
    return (proc.stdout or proc.stderr).strip().splitlines()[-1] if proc.returncode == 0 else "?"


def sample(items: Sequence[Any], n: int | None) -> list[int]:
    """Indices of ``n`` items spread evenly over ``items`` (all when n is None or >= len)."""
    if n is None or n >= len(items):
        return list(range(len(items)))
    step = len(items) / n
    return sorted({int(k * step) for k in range(n)})


def cli_has_jobs(python: str) -> bool:
    proc = subprocess.run(
        [python, "-m", "cudalint", "--help"], cwd=REPO, capture_output=True, text=True, check=False
    )
    text = proc.stdout
    return " -j" in text or "--jobs" in text


def nvcc_version(nvcc: str) -> str:
    proc = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if "release" in ln]
    return lines[-1].strip() if lines else "unknown"


def machine_info(python: str, nvcc: str | None) -> dict[str, Any]:
    from importlib import metadata

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        usable = os.cpu_count() or 0
    return {
        "platform": platform.platform(),
        "cpu": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "python": platform.python_version(),
        "python_executable": python,
        "libclang-ng": version("libclang-ng"),
        "sympy": version("sympy"),
        "cudalint": version("cudalint"),
        "nvcc": nvcc_version(nvcc) if nvcc else "not on PATH",
    }


# --------------------------------------------------------------------------- benchmark


def bench(args: argparse.Namespace) -> dict[str, Any]:
    files = collect_all(args.corpus)
    if not files:
        raise SystemExit(f"speed.py: no .cu/.cuh files in {args.corpus!r}")
    names = [shown(f) for f in files]
    lines = 0
    for f in files:
        with open(f, "rb") as fh:
            lines += fh.read().count(b"\n")
    python = args.python
    nvcc = None if args.no_nvcc else shutil.which("nvcc")
    info = machine_info(python, nvcc)
    incs = [str(Path(d).expanduser().resolve()) for d in args.include]
    inc_flags = [a for d in incs for a in ("-I", d)]
    n = args.repeat
    timings: dict[str, Timing] = {}
    extra: dict[str, Any] = {"load_before": os.getloadavg()}
    cuxray, cuxray_env = (None, None) if args.no_cuxray else find_cuxray(args.cuxray)
    if cuxray and cuxray_env:
        info["cuxray"] = cuxray_version(cuxray, cuxray_env)

    def say(msg: str) -> None:
        if not args.quiet:
            print(f"  .. {msg}", file=sys.stderr, flush=True)

    # (a) cudalint end to end, as a user runs it. Exit 1 = warnings, 2 = a file failed.
    cli = [python, "-m", "cudalint", "--format", "json", *inc_flags, *names]
    say(f"(a) cudalint CLI on {len(names)} files x{n}")
    first = subprocess.run(cli, cwd=REPO, capture_output=True, check=False)
    if first.returncode not in (0, 1, 2):
        raise SystemExit(
            f"speed.py: cudalint exited {first.returncode}:\n"
            + first.stderr.decode(errors="replace")[-2000:]
        )
    report = json.loads(first.stdout)
    extra["cudalint_errors"] = len(report.get("errors", []))
    extra["cudalint_diagnostics"] = len(report.get("diagnostics", []))
    timings["a_cli"] = repeat("cudalint CLI (subprocess)", n, cli_runner(cli))

    # (a') in process, after imports: check_paths one file at a time.
    per_file: list[list[float]] = [[] for _ in files]
    if not args.no_inprocess:
        say("(a') cudalint.api.check_paths in process")
        t0 = time.perf_counter()
        from cudalint.api import check_paths
        from cudalint.options import Options

        extra["inprocess_import_s"] = time.perf_counter() - t0
        options = Options(include_dirs=tuple(incs))
        t0 = time.perf_counter()
        check_paths([str(files[0])], options)  # warms libclang's Index and lazy imports
        extra["inprocess_first_call_s"] = time.perf_counter() - t0

        def inprocess_once() -> float:
            # each file's analysis is a run of its own (cudalint.model.caches.RunCaches):
            # no proof of the previous repeat is reused
            total = 0.0
            for i, f in enumerate(files):
                t = time.perf_counter()
                check_paths([str(f)], options)
                dt = time.perf_counter() - t
                per_file[i].append(dt)
                total += dt
            return total

        timings["a_inproc"] = repeat("cudalint check_paths (in-process)", n, inprocess_once)

    # (b) bare libclang-ng parse, in a fresh Python, same files.
    say("(b) bare libclang parse subprocess")
    with tempfile.TemporaryDirectory(prefix="cudalint-speed-") as tmp:
        prelude = Path(tmp) / "prelude.h"
        prelude.write_text(PRELUDE)
        bare = [python, "-c", BARE_CHILD, str(prelude), json.dumps(incs), *names]
        bare_parse: list[float] = []

        def bare_once() -> float:
            dt, proc = run_timed(bare)
            out = json.loads(proc.stdout)
            bare_parse.append(sum(out["times"]))
            extra["bare_files_with_errors"] = sum(1 for e in out["errors"] if e)
            extra["bare_per_file_s"] = out["times"]
            return dt

        timings["b_cli"] = repeat("bare libclang parse (subprocess)", n, bare_once)
        timings["b_inproc"] = Timing("bare libclang parse (in child, parse only)", bare_parse)

        # (c) nvcc, one process per file.
        if nvcc:
            say(f"(c) nvcc -cubin on {len(names)} files x{args.nvcc_repeat}")
            failed: set[str] = set()

            def nvcc_once() -> float:
                total = 0.0
                for i, name in enumerate(names):
                    out = str(Path(tmp) / f"f{i}.cubin")
                    cmd = [
                        nvcc,
                        "-cubin",
                        "-arch=sm_90",
                        "-O3",
                        *inc_flags,
                        "-x",
                        "cu",
                        "-o",
                        out,
                        name,
                    ]
                    dt, proc = run_timed(cmd, ok=lambda rc: True)
                    if proc.returncode != 0:
                        failed.add(name)
                    total += dt
                return total

            timings["c_nvcc"] = repeat(
                "nvcc -cubin, one process per file", args.nvcc_repeat, nvcc_once
            )
            extra["nvcc_failed"] = sorted(failed)

        # (d) the SASS-based peer end to end: nvcc -cubin -lineinfo, then cuxray report.
        if nvcc and cuxray and cuxray_env:
            picked = sample(names, args.peer_sample)
            subset = [names[i] for i in picked]
            say(f"(d) nvcc + cuxray on {len(subset)} files x{args.nvcc_repeat}")
            peer_failed: set[str] = set()
            env = cuxray_env

            def peer_once() -> float:
                total = 0.0
                for i, name in zip(picked, subset, strict=True):
                    out = str(Path(tmp) / f"p{i}.cubin")
                    cmd = [nvcc, "-cubin", "-arch=sm_90", "-O3", "-lineinfo", *inc_flags,
                           "-x", "cu", "-o", out, name]
                    dt, proc = run_timed(cmd, ok=lambda rc: True)
                    total += dt
                    if proc.returncode != 0:
                        peer_failed.add(name)
                        continue
                    dt, proc = run_timed([cuxray, "report", "--json", "--no-cache", out],
                                         ok=lambda rc: True, env=env)
                    total += dt
                    if proc.returncode != 0:
                        peer_failed.add(name)
                return total

            timings["d_peer"] = repeat(
                f"nvcc -cubin + cuxray report ({len(subset)} files)", args.nvcc_repeat,
                peer_once,
            )
            extra["peer_files"] = len(subset)
            extra["peer_failed"] = sorted(peer_failed)
            if len(subset) < len(names):
                cli_sub = [python, "-m", "cudalint", "--format", "json", *inc_flags, *subset]
                timings["a_peer_subset"] = repeat(
                    f"cudalint CLI on the same {len(subset)} files", n, cli_runner(cli_sub)
                )

    # Single-file latency: `cudalint one.cu` against the bare start of Python + imports.
    say("single-file latency")
    one = shown(Path(args.one).expanduser())
    exe = Path(python).parent / "cudalint"
    one_cmd = [str(exe)] if exe.exists() else [python, "-m", "cudalint"]
    one_cmd = [*one_cmd, one]
    timings["one_cli"] = repeat(
        f"cudalint {Path(one).name}", n, lambda: run_timed(one_cmd, ok=lambda rc: rc in (0, 1))[0]
    )
    timings["one_floor"] = repeat(
        f'python -c "{IMPORT_FLOOR}"', n, lambda: run_timed([python, "-c", IMPORT_FLOOR])[0]
    )
    timings["py_start"] = repeat("python -c pass", n, lambda: run_timed([python, "-c", "pass"])[0])

    # -j scaling, when the CLI has it.
    if cli_has_jobs(python):
        say("-j scaling")
        for j in (1, 2, info["cpus_usable"]):
            key = f"j{j}"
            if key in timings:
                continue
            cmd = [python, "-m", "cudalint", "--format", "json", "-j", str(j), *inc_flags, *names]
            timings[key] = repeat(f"cudalint -j {j}", n, cli_runner(cmd))
            # the workers' CPU is not counted (they are not this process's children)
            timings[key].cpu.clear()
    else:
        extra["jobs"] = "skipped: `cudalint --help` lists no -j"

    if per_file[0]:
        slowest = sorted(range(len(files)), key=lambda i: -min(per_file[i]))[:5]
        extra["slowest_inprocess"] = [(names[i], min(per_file[i])) for i in slowest]
    extra["load_after"] = os.getloadavg()
    return {
        "corpus": " + ".join(args.corpus),
        "files": len(files),
        "lines": lines,
        "one_file": one,
        "repeat": n,
        "machine": info,
        "timings": {
            k: asdict(t) | {"best": t.best, "median": t.median} for k, t in timings.items()
        },
        "extra": extra,
        "_timings": timings,
    }


# --------------------------------------------------------------------------- report


def _cpu(tm: Timing | None) -> float | None:
    return tm.best_cpu if tm is not None else None


def render(result: dict[str, Any]) -> str:
    t: dict[str, Timing] = result["_timings"]
    ex: dict[str, Any] = result["extra"]
    m: dict[str, Any] = result["machine"]
    nfiles: int = result["files"]
    out: list[str] = []
    out.append(
        f"corpus {result['corpus']}: {nfiles} files, {result['lines']} lines; "
        f"repeat {result['repeat']} (median / min; ratios from min)"
    )
    out.append(
        f"machine: {m['cpu_count']} CPUs ({m['cpus_usable']} usable), "
        f"Python {m['python']}, libclang-ng {m['libclang-ng']}, sympy {m['sympy']}, "
        f"cudalint {m['cudalint']}, nvcc {m['nvcc']}, cuxray {m.get('cuxray', 'not found')}"
    )
    la, lb = ex.get("load_before"), ex.get("load_after")
    if la and lb:
        out.append(
            "load average (1/5/15 min): before " + " ".join(f"{x:.2f}" for x in la)
            + ", after " + " ".join(f"{x:.2f}" for x in lb)
            + (f" on {m['cpus_usable']} CPUs: other work shares them, prefer the CPU columns"
               if max(la[0], lb[0]) > 0.5 * (m["cpus_usable"] or 1) else "")
        )
    out.append("")
    out.append(
        f"{'measurement':50} {'median':>11} {'min':>11} {'files/s':>8} {'CPU min':>11}"
    )
    rows = ["a_cli", "a_inproc", "b_cli", "b_inproc", "c_nvcc", "d_peer", "a_peer_subset"]
    for key in rows:
        if key in t:
            tm = t[key]
            files = ex.get("peer_files", nfiles) if key in ("d_peer", "a_peer_subset") else nfiles
            fps = files / tm.best if tm.best else 0.0
            cpu = _fmt_s(tm.best_cpu) if tm.best_cpu is not None else f"{'-':>11}"
            out.append(
                f"{tm.name:50} {_fmt_s(tm.median)} {_fmt_s(tm.best)} {fps:8.1f} {cpu}"
            )
    out.append("")
    a, b = t["a_cli"].best, t["b_cli"].best
    c = t["c_nvcc"].best if "c_nvcc" in t else None
    out.append(f"{'':46} {'wall':>8} {'CPU':>8}")
    out.append(
        f"a/b  cudalint CLI / bare parse subprocess  {_ratio(a, b):>8} "
        f"{_ratio(_cpu(t['a_cli']), _cpu(t['b_cli'])):>8}   (target <= 1.0)"
    )
    if "a_inproc" in t:
        out.append(
            f"a'/b' in-process analysis / parse only     "
            f"{_ratio(t['a_inproc'].best, t['b_inproc'].best):>8}"
        )
    out.append(
        f"c/a  nvcc / cudalint CLI                   {_ratio(c, a):>8} "
        f"{_ratio(_cpu(t.get('c_nvcc')), _cpu(t['a_cli'])):>8}"
        + ("" if c is not None else "   (nvcc not on PATH: skipped)")
    )
    if "d_peer" in t:
        base = t.get("a_peer_subset", t["a_cli"])
        out.append(
            f"d/a  nvcc + cuxray / cudalint CLI          {_ratio(t['d_peer'].best, base.best):>8} "
            f"{_ratio(_cpu(t['d_peer']), _cpu(base)):>8}   (target >= 5)"
            + (f"  on {ex['peer_files']} of {nfiles} files" if "a_peer_subset" in t else "")
        )
    else:
        out.append("d/a  nvcc + cuxray: skipped (needs nvcc and cuxray; see bench/README.md)")
    out.append("")
    one, floor, start = t["one_cli"], t["one_floor"], t["py_start"]
    out.append(f"single file ({result['one_file']}):")
    for tm in (one, floor, start):
        cpu = _fmt_s(tm.best_cpu) if tm.best_cpu is not None else ""
        out.append(f"  {tm.name:42} {_fmt_s(tm.median)} {_fmt_s(tm.best)}  CPU {cpu}")
    out.append(
        f"  ratio cudalint / import floor           {_ratio(one.best, floor.best):>8} "
        f"{_ratio(_cpu(one), _cpu(floor)):>8} CPU   (target <= 1.3)"
    )
    jobs = [k for k in t if k.startswith("j") and k[1:].isdigit()]
    if jobs:
        base_j = t["j1"].best
        for k in jobs:
            target = "   (target >= 1.7 at -j 2 on 2 cores)" if k == "j2" else ""
            out.append(
                f"  -j {k[1:]:>3}: {_fmt_s(t[k].best)}  speed-up {_ratio(base_j, t[k].best)}"
                f"{target}"
            )
    else:
        out.append(f"-j scaling: {ex.get('jobs')}")
    out.append("")
    if "inprocess_import_s" in ex:
        out.append(
            f"python import of cudalint.api (in this process): "
            f"{_fmt_s(ex['inprocess_import_s']).strip()}; first check_paths call: "
            f"{_fmt_s(ex['inprocess_first_call_s']).strip()}"
        )
    nvcc_failed = ex.get("nvcc_failed")
    out.append(
        f"cudalint: {ex['cudalint_diagnostics']} diagnostics, "
        f"{ex['cudalint_errors']} files not analyzed; bare parse: "
        f"{ex.get('bare_files_with_errors', 0)} files with clang errors"
        + (f"; nvcc failed on {len(nvcc_failed)}" if nvcc_failed is not None else "")
        + (f"; nvcc + cuxray failed on {len(ex['peer_failed'])} (their time still counts)"
           if "peer_failed" in ex else "")
    )
    if nvcc_failed:
        out.append(
            "  nvcc failed on: "
            + ", ".join(nvcc_failed[:10])
            + (" ..." if len(nvcc_failed) > 10 else "")
        )
    if "slowest_inprocess" in ex:
        slow = ", ".join(f"{name} {s * 1000:.0f} ms" for name, s in ex["slowest_inprocess"])
        out.append(f"slowest in-process: {slow}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--corpus",
        action="append",
        default=None,
        help="fixtures (fixtures/*.cu), file (bench/corpus/kernels300.cu), or a "
        "directory searched recursively for .cu/.cuh (default: fixtures); repeat it "
        "to measure several as one corpus",
    )
    p.add_argument("--repeat", type=int, default=5, help="repetitions per measurement")
    p.add_argument(
        "--nvcc-repeat",
        type=int,
        default=None,
        help="repetitions of the nvcc pass (default: --repeat; nvcc is slow)",
    )
    p.add_argument("--no-nvcc", action="store_true",
                   help="skip (c) and (d) even when nvcc exists")
    p.add_argument("--cuxray", metavar="EXE", default=None,
                   help="cuxray executable for (d) (default: $CUXRAY, cuxray on PATH, or "
                   "../cuxray-venv/bin/cuxray beside the repository)")
    p.add_argument("--no-cuxray", action="store_true", help="skip (d)")
    p.add_argument("--peer-sample", type=int, default=None, metavar="N",
                   help="time (d) on N files spread over the corpus (and cudalint on the "
                   "same N) instead of all")
    p.add_argument("--no-inprocess", action="store_true",
                   help="skip (a'), the in-process pass (halves the time on large corpora)")
    p.add_argument(
        "--one",
        default=str(ONE_FILE),
        help="file for the single-file latency case (default: kernels300.cu)",
    )
    p.add_argument(
        "-I",
        dest="include",
        action="append",
        default=[],
        help="include directory passed to all three tools (repeatable)",
    )
    p.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter with cudalint installed (default: this one)",
    )
    p.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if not args.corpus:
        args.corpus = ["fixtures"]
    if args.repeat < 1:
        p.error("--repeat must be >= 1")
    if args.nvcc_repeat is None:
        args.nvcc_repeat = args.repeat
    result = bench(args)
    print(render(result))
    if args.json:
        data = {k: v for k, v in result.items() if not k.startswith("_")}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
