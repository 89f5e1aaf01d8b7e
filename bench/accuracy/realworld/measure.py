#!/usr/bin/env python3
"""Measure the shared-memory wavefronts of real programs, per CUDA line, on a GPU.

Runs ON a machine with an NVIDIA GPU, the CUDA toolkit and Nsight Compute.
Standard library only (Python 3.8+). From the cudalint repository root, after
stage.py has put the sources under bench/accuracy/realworld/_src:

    python3 bench/accuracy/realworld/measure.py --out DIR [--only REGEX] [--budget S]

For every program of programs.json (and each of its argument lists):

1. builds it in its own folder with `nvcc -O3 -arch=sm_90 -lineinfo` plus the
   program's flags (the flags its README or Makefile gives), in parallel;
2. runs it under `ncu --section SourceCounters --section LaunchStats
   --import-source yes` with a kernel filter (the `__global__` functions of the
   program's own sources; library kernels are not profiled). Benchmark programs
   (`stop_at_benchmark`) are built with `-include stop_at_benchmark.h`, which
   ends them at their first cudaEventRecord, after every validation launch;
   programs that repeat launches (`first_invocation_only`) have each kernel
   profiled at its first invocation;
3. exports, per profiled launch, the kernel's demangled name and block/grid
   dimensions (`--page raw`) and its source page (`--page source --print-source
   cuda,sass`), and keeps every SASS instruction with shared-memory wavefronts
   or a shared opcode;
4. writes DIR/rows.jsonl: one row per launch x CUDA file:line x SASS opcode with
   `instructions` (warp-level executions), `wavefronts` and `ideal` (sums over
   the launch), and DIR/log.json (tool versions, commands, errors). A row of a
   helper of the repository inlined into a kernel carries `site`, the chain of
   calls (innermost first, `file:line < file:line`) it was inlined through, from
   the build's `nvdisasm -gi` line table: each call of the helper is its own row.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from run_gpu import find_tool as run_gpu_find_tool  # noqa: E402
from run_gpu import parse_source_csv, source_columns  # noqa: E402

SHARED_OPS = ("LDS", "STS", "ATOMS", "LDSM", "STSM", "LDGSTS", "REDS")


def sh(cmd: list[str], cwd: Path | None, timeout: float, log: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except FileNotFoundError as e:
        p = subprocess.CompletedProcess(cmd, 127, "", str(e))
    except subprocess.TimeoutExpired as e:
        p = subprocess.CompletedProcess(cmd, 124, e.stdout or "", (e.stderr or "") + "\n[timeout]")
        if isinstance(p.stdout, bytes):
            p.stdout = p.stdout.decode(errors="replace")
        if isinstance(p.stderr, bytes):
            p.stderr = p.stderr.decode(errors="replace")
    log.append({"cmd": cmd, "cwd": str(cwd) if cwd else None, "rc": p.returncode,
                "s": round(time.monotonic() - t0, 2)})
    return p


def find_tool(name: str) -> str:
    """`name` from the CUDA toolkit or Nsight Compute: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin,
    then run_gpu's usual install folders."""
    cuda_home = os.environ.get("CUDA_HOME", "")
    hints = [Path(cuda_home) / "bin"] if cuda_home else []
    found = run_gpu_find_tool(name, [*hints, Path("/usr/local/cuda/bin")])
    if not found:
        raise SystemExit(f"measure: {name} not found")
    return found


def slug(prog: dict[str, Any], args: list[str]) -> str:
    s = prog["id"] + ("__" + "_".join(args) if args else "")
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s)


def build(prog: dict[str, Any], src_root: Path, bin_dir: Path, nvcc: str, log: list[dict[str, Any]]) -> tuple[Path | None, str]:
    cwd = src_root / prog["repo"].replace("/", "+") / prog["dir"]
    exe = bin_dir / slug(prog, [])
    cmd = [nvcc, "-O3", "-arch=sm_90", "-lineinfo", *prog["flags"]]
    if prog.get("stop_at_benchmark"):
        cmd += ["-include", str(HERE / "stop_at_benchmark.h")]
    cmd += [*prog["sources"], "-o", str(exe), *prog["libs"]]
    p = sh(cmd, cwd, 600, log)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout)[-3000:]
    return exe, ""


INSTR_RE = re.compile(r"/\*([0-9a-fA-F]{4,})\*/\s+\S")
FRAME_RE = re.compile(r'//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?')


def parse_inline_chains(text: str) -> dict[str, dict[int, list[tuple[str, int]]]]:
    """`nvdisasm -gi` -> function (mangled) -> instruction offset -> frames, innermost first."""
    out: dict[str, dict[int, list[tuple[str, int]]]] = {}
    func: dict[int, list[tuple[str, int]]] | None = None
    chain: list[tuple[str, int]] = []
    fresh = True
    for line in text.splitlines():
        st = line.strip()
        if st.startswith(".text.") and st.endswith(":"):
            func = out.setdefault(st[len(".text."):-1], {})
            chain, fresh = [], True
            continue
        m = FRAME_RE.search(st)
        if m:
            if fresh:
                chain, fresh = [], False
            if not chain:
                chain.append((m.group(1), int(m.group(2))))
            if m.group(3):
                chain.append((m.group(3), int(m.group(4))))
            continue
        m = INSTR_RE.search(st)
        if m and func is not None:
            func[int(m.group(1), 16)] = list(chain)
            fresh = True
    return out


def inline_chains(exe: Path, tools: dict[str, str], log: list[dict[str, Any]]) -> dict[str, dict[int, list[tuple[str, int]]]]:
    d = Path(str(exe) + ".cubins")
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    sh([tools["cuobjdump"], "-xelf", "all", str(exe)], d, 120, log)
    out: dict[str, dict[int, list[tuple[str, int]]]] = {}
    for cubin in sorted(d.glob("*.cubin")):
        p = sh([tools["nvdisasm"], "-gi", str(cubin)], None, 300, log)
        for k, v in parse_inline_chains(p.stdout).items():
            out.setdefault(k, {}).update(v)
    return out


def parse_raw(text: str) -> list[dict[str, Any]]:
    """`ncu -i R --page raw --csv`: one row per profiled launch (after a units row)."""
    rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("==")]
    if not rows:
        return []
    head = rows[0]
    out = []
    for r in rows[1:]:
        d = dict(zip(head, r))
        if not d.get("ID", "").strip().isdigit():
            continue  # the units row
        out.append(d)
    return out


def dims(d: dict[str, Any], prefix: str) -> list[int] | None:
    try:
        return [int(float(d[f"{prefix}_{c}"].replace(",", ""))) for c in "xyz"]
    except (KeyError, ValueError):
        return None


def num(s: str | None) -> float:
    if not s:
        return 0.0
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


def measure_run(prog: dict[str, Any], args: list[str], exe: Path, src_root: Path, raw_dir: Path,
                ncu: str, log: list[dict[str, Any]], timeout: float,
                chains: dict[str, dict[int, list[tuple[str, int]]]]) -> tuple[list[dict[str, Any]], list[str]]:
    errors: list[str] = []
    name = slug(prog, args)
    rep = Path("/tmp/cudalint-realworld-rep") / name
    rep.parent.mkdir(exist_ok=True)
    kern = "|".join(prog["kernels"])
    cmd = [ncu, "--clock-control", "none", "--section", "SourceCounters", "--section", "LaunchStats",
           "--import-source", "yes", "--kernel-name-base", "function", "--launch-count", "300", "-f", "-o", str(rep)]
    if prog.get("first_invocation_only"):
        cmd += ["--kernel-id", f"::regex:^({kern}):1"]
    else:
        cmd += ["--kernel-name", f"regex:^({kern})"]
    cwd = src_root / prog["repo"].replace("/", "+") / prog["dir"]
    p = sh([*cmd, str(exe), *args], cwd, timeout, log)
    (raw_dir / f"{name}.run.log").write_text(p.stdout[-20000:] + "\n--- stderr ---\n" + p.stderr[-20000:])
    if p.returncode != 0:
        errors.append(f"run rc {p.returncode}: {p.stderr[-800:]}")
    repfile = Path(str(rep) + ".ncu-rep")
    if not repfile.exists():
        errors.append("no report")
        return [], errors
    q = sh([ncu, "-i", str(repfile), "--page", "raw", "--csv", "--print-kernel-base", "demangled",
            "--metrics", "launch__block_dim_x,launch__block_dim_y,launch__block_dim_z,"
            "launch__grid_dim_x,launch__grid_dim_y,launch__grid_dim_z"], None, 300, log)
    launches = parse_raw(q.stdout)
    (raw_dir / f"{name}.raw.csv").write_text(q.stdout)
    qm = sh([ncu, "-i", str(repfile), "--page", "raw", "--csv", "--print-kernel-base", "mangled",
             "--metrics", "launch__block_dim_x"], None, 300, log)
    mangled = [d.get("Kernel Name", "") for d in parse_raw(qm.stdout)]
    rows: list[dict[str, Any]] = []
    prefix = str(src_root / prog["repo"].replace("/", "+")) + "/"

    def one(i: int) -> tuple[int, str]:
        r = sh([ncu, "-i", str(repfile), "--page", "source", "--csv", "--print-source", "cuda,sass",
                "--launch-skip", str(i), "--launch-count", "1"], None, 300, log)
        return i, r.stdout

    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        pages = dict(ex.map(one, range(len(launches))))
    for i, launch in enumerate(launches):
        text = pages.get(i, "")
        if i < 3:
            (raw_dir / f"{name}.{i}.source.csv").write_text(text)
        srep = parse_source_csv(text)
        agg: dict[tuple[str, int, str, str], list[float]] = {}
        func = chains.get(mangled[i] if i < len(mangled) else "", {})
        addrs = []
        for r in srep.sass_rows:
            try:
                addrs.append(int(r.cells.get("Address", "").strip(), 16))
            except ValueError:
                pass
        base = min(addrs) if addrs else 0
        for blk in set(r.block for r in srep.sass_rows):
            cols = source_columns(srep.headers.get(blk, []))
            for r in srep.sass_rows:
                if r.block != blk or r.line is None or not r.file:
                    continue
                sass = r.cells.get(cols["sass"] or "", "").split()
                if sass and sass[0].startswith("@"):
                    sass = sass[1:]
                op = sass[0].rstrip(";") if sass else "?"
                wf = num(r.cells.get(cols["wavefronts"] or ""))
                ideal = num(r.cells.get(cols["ideal"] or ""))
                ex_ = num(r.cells.get(cols["executions"] or ""))
                if wf <= 0 and not op.startswith(SHARED_OPS):
                    continue
                f, line, via = os.path.normpath(r.file), r.line, ""
                try:
                    off = int(r.cells.get("Address", "").strip(), 16) - base
                except ValueError:
                    off = -1
                frames = func.get(off, [])
                if frames and (Path(frames[0][0]).name != Path(f).name or frames[0][1] != line):
                    frames = []  # the chain does not describe this row: no call sites
                rest = frames[1:]
                if not f.startswith(prefix):
                    # inlined from a toolkit header (atomicAdd, wmma, cuda::memcpy_async):
                    # the cost belongs to the innermost frame in the repository
                    for i, (cf, cl) in enumerate(frames[1:], 1):
                        cf = os.path.normpath(cf)
                        if cf.startswith(prefix):
                            via = f"{Path(f).name}:{line}"
                            f, line, rest = cf, cl, frames[i + 1:]
                            break
                # the calls (innermost first) through which a helper of the repository
                # was inlined: ncu sums every call's instructions on the helper's line
                site = " < ".join(
                    f"{os.path.normpath(cf)[len(prefix):]}:{cl}" for cf, cl in rest
                    if os.path.normpath(cf).startswith(prefix))
                f = f[len(prefix):] if f.startswith(prefix) else f
                a = agg.setdefault((f, line, op, via, site), [0.0, 0.0, 0.0])
                a[0] += ex_
                a[1] += wf
                a[2] += ideal
        for (f, line, op, via, site), (ex_, wf, ideal) in sorted(agg.items()):
            extra = {"via": via} if via else {}
            if site:
                extra["site"] = site
            rows.append({**extra,
                "repo": prog["repo"], "program": prog["id"], "args": args,
                "kernel": launch.get("Kernel Name", ""), "launch": i,
                "block": dims(launch, "launch__block_dim"), "grid": dims(launch, "launch__grid_dim"),
                "file": f, "line": line, "op": op,
                "instructions": int(ex_), "wavefronts": int(wf), "ideal": int(ideal),
            })
    if not launches:
        errors.append("no profiled launches")
    if not rows and launches:
        errors.append("no shared-memory rows")
    return rows, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", default="", help="regex on program ids")
    ap.add_argument("--budget", type=float, default=540.0, help="seconds; no new run starts after")
    ap.add_argument("--run-timeout", type=float, default=240.0)
    ap.add_argument("--parallel", type=int, default=3, help="programs run at once")
    ap.add_argument("--build-only", action="store_true", help="build, report build errors, stop")
    ap.add_argument("--src", type=Path, default=HERE / "_src")
    ap.add_argument("--manifest", type=Path, default=HERE / "programs.json")
    a = ap.parse_args()
    t0 = time.monotonic()
    man = json.loads(a.manifest.read_text())
    progs = [p for p in man["programs"] if re.search(a.only, p["id"])]
    a.out.mkdir(parents=True, exist_ok=True)
    raw = Path("/tmp/cudalint-realworld-raw")
    raw.mkdir(exist_ok=True)
    bins = Path("/tmp/cudalint-realworld-bin")
    bins.mkdir(exist_ok=True)
    nvcc = find_tool("nvcc")
    ncu = "" if a.build_only else find_tool("ncu")
    log: list[dict[str, Any]] = []
    status: dict[str, Any] = {}
    versions = {t: sh([t, "--version"], None, 60, log).stdout.strip().splitlines()[-1:] for t in (nvcc, ncu) if t}
    smi = sh(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], None, 60, log).stdout.strip()
    with concurrent.futures.ThreadPoolExecutor(min(16, os.cpu_count() or 4)) as ex:
        built = dict(zip([p["id"] for p in progs], ex.map(lambda p: build(p, a.src, bins, nvcc, log), progs)))
    print(f"built {sum(1 for e, _ in built.values() if e)}/{len(progs)} in {time.monotonic() - t0:.0f}s", flush=True)
    if a.build_only:
        for pid, (exe, err) in built.items():
            print(f"[{pid}] {'ok' if exe else 'FAILED: ' + err[-600:]}")
        return 0 if all(e for e, _ in built.values()) else 1
    rows: list[dict[str, Any]] = []
    jobs = []
    for p in progs:
        exe, err = built[p["id"]]
        if exe is None:
            status[p["id"]] = {"build_error": err}
            print(f"[{p['id']}] build failed: {err[-300:]}", flush=True)
            continue
        jobs += [(p, args, exe) for args in p["runs"]]

    def job(item: tuple[dict[str, Any], list[str], Path]) -> None:
        p, args, exe = item
        key = slug(p, args)
        if time.monotonic() - t0 > a.budget:
            status[key] = {"skipped": "budget"}
            return
        t1 = time.monotonic()
        r, errs = measure_run(p, args, exe, a.src, raw, ncu, log, a.run_timeout, chains[p["id"]])
        rows.extend(r)
        status[key] = {"rows": len(r), "errors": errs, "s": round(time.monotonic() - t1, 1)}
        print(f"[{key}] {len(r)} rows {time.monotonic() - t1:.0f}s {errs[:1]}", flush=True)

    tools = {"cuobjdump": find_tool("cuobjdump"), "nvdisasm": find_tool("nvdisasm")}
    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        exes = {p["id"]: exe for p, _, exe in jobs}
        chains = dict(zip(exes, ex.map(lambda e: inline_chains(e, tools, log), exes.values())))
    # ncu serialises the profiled kernels of concurrent processes; the programs'
    # own host work (references, validation) overlaps
    with concurrent.futures.ThreadPoolExecutor(a.parallel) as ex:
        list(ex.map(job, jobs))
    rows.sort(key=lambda r: (r["program"], r["args"], r["launch"], r["file"], r["line"], r["op"]))
    with open(a.out / "rows.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    (a.out / "log.json").write_text(json.dumps({"gpu": smi, "versions": versions, "status": status, "commands": log}, indent=1))
    subprocess.run(["tar", "-czf", str(a.out / "raw.tar.gz"), "-C", str(raw.parent), raw.name])
    print(f"{len(rows)} rows, {time.monotonic() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
