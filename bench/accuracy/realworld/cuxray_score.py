#!/usr/bin/env python3
"""Score cuxray (the SASS-based peer, PyPI ``cuxray==0.6.0``) on the real-world suite's lines.

Input: the suite's measurement rows, JSON lines, one per launch x CUDA file:line x SASS opcode::

    {"repo": "karpathy/llm.c", "commit": "...", "program": "dev/cuda/softmax_forward.cu",
     "build": ["-O3", "--use_fast_math", "-lcublas", "-lcublasLt", "-std=c++17"],
     "kernel": "softmax_forward_kernel4(float *, const float *, int, int)",
     "mangled": "_Z23softmax_forward_kernel4PfPKfii",            (optional)
     "block": [256, 1, 1], "grid": [32768, 1, 1],
     "file": "dev/cuda/softmax_forward.cu", "line": 261, "op": "LDS",
     "instructions": 123, "wavefronts": 123, "ideal": 123}

Rows as measure.py writes them (``program`` a programs.json id such as
``"llm.c/softmax_forward"``, no ``commit``/``build``) take their build from ``--programs
bench/accuracy/realworld/programs.json``: its ``dir``, ``.cu`` sources and flags, with -O3,
as measure.py builds them (its ``-include stop_at_benchmark.h`` only touches host code).

For each program the script compiles every ``.cu`` of the build to a cubin (``nvcc -cubin
-arch=sm_90 -lineinfo`` plus the build's compile flags, run in the repository root or the
program's ``dir``, link flags dropped), then runs cuxray once per measured block shape
(``--threads X,Y,Z``) and writes one JSON line per (program, kernel, block, file, line)::

    {"tool": "cuxray", "cuxray_version": "0.6.0", "mode": "api", "repo": ..., "commit": ...,
     "program": ..., "kernel": <the row's kernel>, "cuxray_kernel": <mangled name matched>,
     "block": [x, y, z], "file": ..., "line": ...,
     "verdict": "conflicted" | "clean" | "unknown" | "missing" | "error",
     "ways": <cuxray's worst conflict ways at the line> | null,
     "wavefronts": <per-warp wavefronts> | null, "ideal": <per-warp ideal> | null,
     "ops": [{"op", "measured", "sass", "verdicts", "ways", "wavefronts", "ideal"}, ...],
     "reasons": [<why cuxray could not analyse an access>], "notes": [...], "error": null}

Verdicts: ``conflicted`` when cuxray reports any shared access of the line as a conflict;
else ``unknown`` when any is unanalysable; else ``clean``; ``missing`` when cuxray reports
no shared access at that file:line (e.g. ATOMS, which it does not model, or a line its
attribution puts elsewhere); ``error`` when the build or the cuxray run failed (``error``
says why). The line's ``wavefronts``/``ideal`` are per-warp numbers, given only when every
shared SASS access cuxray sees on the line agrees on one value; per op the same rule.

Modes:

``--mode api`` (default) runs, in cuxray's own interpreter, exactly the pipeline of
``cuxray solve``/``report``: ``ingest`` -> ``nvdisasm -c -gi`` -> ``nvdisasm -cfg`` ->
``analyze_accesses(func, block_dims, loop_depths)``, and reads every shared access it
analysed, with its per-lane byte offsets, plus the ones it gave up on (with the reason).
Wavefronts are derived from those offsets with cuxray's own bank model (the sum over its
transaction groups of the distinct words per bank; cuxray itself prints only the worst
group's "ways"), ideal = its number of transaction groups.

``--mode cli`` runs ``cuxray report DIR --json --no-cache --threads X,Y,Z`` as a user
would and reads ``access.by_site``: conflict/clean per line and the worst ways, but no
unknown per line (the CLI only counts those by reason) and at most 30 sites per kernel.

cuxray is looked up like bench/speed.py does: ``--cuxray EXE``, ``$CUXRAY``, ``cuxray`` on
PATH, or ``../cuxray-venv/bin/cuxray`` beside this repository; that venv's
``nvidia/*/bin`` (pip ``nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump``) goes first on PATH and
``CUXRAY_NO_FETCH=1`` is set. Headers a build needs that are not in the CUDA toolkit (e.g.
cuBLAS: pip ``nvidia-cublas``) are found through ``--nvcc-arg -I...``; the venv's
``nvidia/*/include`` directories are added automatically.

Standard library only; cuxray runs as a subprocess.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]

REQUIRED = ("repo", "program", "kernel", "block", "file", "line", "op")

# Runs inside cuxray's interpreter: the pipeline of `cuxray solve` / `report`, per access.
HELPER = r'''
import json, sys
from pathlib import Path
from cuxray import __version__
from cuxray.toolchain import resolve
from cuxray.ingest import ingest
from cuxray.parse import sass, cfgdot
from cuxray.analyze.access import analyze_accesses
from cuxray.report import parse_block_dims, _demangle

args = json.loads(sys.argv[1])
tc = resolve(allow_fetch=False)
dims, _ = parse_block_dims(args["threads"])
wanted = [w.lower() for w in args.get("names") or []]

def wavefronts(vec, width):
    # cuxray's own bank model (analyze.access.bank_conflict_ways), summed over its groups
    group = max(128 // max(width, 4), 8) if width > 4 else 32
    words = max(width // 4, 1)
    total = groups = 0
    for g0 in range(0, len(vec), group):
        by_bank = {}
        for a in vec[g0:g0 + group]:
            for k in range(words):
                w = (a >> 2) + k
                by_bank.setdefault(w & 31, set()).add(w)
        total += max(len(s) for s in by_bank.values())
        groups += 1
    return total, groups

out = {"cuxray_version": __version__, "units": []}
for unit in ingest(Path(args["path"]), tc):
    cubin = str(unit.cubin)
    dis = sass.parse_gi(tc.run("nvdisasm", ["-c", "-gi", cubin]))
    try:
        cfg = cfgdot.parse(tc.run("nvdisasm", ["-cfg", cubin]))
    except Exception:
        cfg = {}
    dem = _demangle(sorted(dis.functions))
    kernels = []
    for name, func in dis.functions.items():
        d = dem.get(name, name)
        if wanted and not any(w in d.lower() or w == name.lower() for w in wanted):
            continue
        depths = cfg[name].loop_depth if name in cfg else {}
        acc = analyze_accesses(func, dims, depths, keep_vecs=True)
        rows = []
        for a in acc["accesses"]:
            if a.get("space") != "shared":
                continue
            wf, ideal = wavefronts(a["_vec"], a["width"])
            rows.append({"opcode": a["opcode"], "file": a["file"], "line": a["line"],
                         "verdict": a["verdict"], "ways": a["conflict_ways"],
                         "width": a["width"], "wavefronts": wf, "ideal": ideal})
        for u in acc["unanalyzed"]:
            space = u.get("space") or ("generic" if u["opcode"].split(".")[0] in ("LD", "ST")
                                       else None)
            if space not in ("shared", "generic"):
                continue
            rows.append({"opcode": u["opcode"], "file": u["file"], "line": u["line"],
                         "verdict": "unknown", "reason": u.get("reason"), "space": space})
        kernels.append({"name": name, "demangled": d, "accesses": rows,
                        "converged": acc["dataflow_converged"],
                        "unreached_blocks": acc["unreached_blocks"]})
    out["units"].append({"label": unit.label, "arch": dis.target, "kernels": kernels})
print(json.dumps(out))
'''


# ----------------------------------------------------------------------------- finding cuxray


@dataclass
class Cuxray:
    exe: str
    python: str | None
    env: dict[str, str]
    includes: list[str]
    version: str = "?"


def find_cuxray(given: str | None) -> Cuxray:
    candidates = [given] if given else [
        os.environ.get("CUXRAY", ""), shutil.which("cuxray") or "",
        str(REPO.parent / "cuxray-venv" / "bin" / "cuxray"),
    ]
    for c in candidates:
        if not c or not Path(c).is_file():
            continue
        exe = str(Path(c).absolute())
        venv = Path(exe).parent.parent
        tools = sorted(str(d) for d in venv.glob("lib/python*/site-packages/nvidia/*/bin"))
        incs = sorted(str(d) for d in venv.glob("lib/python*/site-packages/nvidia/*/include"))
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([*tools, env.get("PATH", "")])
        env["CUXRAY_NO_FETCH"] = "1"
        python = None
        for cand in (Path(exe).parent / "python3", Path(exe).parent / "python"):
            if cand.is_file():
                python = str(cand)
                break
        if python is None:
            first = Path(exe).read_bytes()[:300].split(b"\n", 1)[0].decode(errors="replace")
            if first.startswith("#!"):
                python = first[2:].strip().split()[0]
        cx = Cuxray(exe=exe, python=python, env=env, includes=incs)
        proc = subprocess.run([exe, "--version"], capture_output=True, text=True, env=env,
                              check=False)
        if proc.returncode == 0:
            cx.version = (proc.stdout.strip().split() or ["?"])[-1]
        return cx
    raise SystemExit("cuxray_score: cuxray not found (give --cuxray EXE, or make the venv: "
                     "python3 -m venv ../cuxray-venv && ../cuxray-venv/bin/pip install "
                     "cuxray==0.6.0 nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump)")


# ----------------------------------------------------------------------------- input


@dataclass(frozen=True)
class ProgramKey:
    repo: str
    commit: str
    program: str                 # a .cu path, or a programs.json id
    dir: str                     # where nvcc runs, relative to the checkout
    sources: tuple[str, ...]     # .cu files, relative to dir
    flags: tuple[str, ...]       # device compile flags (link flags dropped)


@dataclass
class LineKey:
    kernel: str
    mangled: str | None
    block: tuple[int, int, int]
    file: str
    line: int
    ops: set[str] = field(default_factory=set)


def read_rows(path: str) -> tuple[list[dict[str, Any]], list[str]]:
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    with contextlib.ExitStack() as stack:
        stream = sys.stdin if path == "-" else \
            stack.enter_context(open(path, encoding="utf-8"))
        for n, text in enumerate(stream, 1):
            text = text.strip()
            if not text:
                continue
            try:
                row = json.loads(text)
            except json.JSONDecodeError as e:
                problems.append(f"{path}:{n}: not JSON ({e.msg})")
                continue
            if not isinstance(row, dict):
                problems.append(f"{path}:{n}: not an object")
                continue
            missing = [k for k in REQUIRED if k not in row]
            if missing:
                problems.append(f"{path}:{n}: missing {', '.join(missing)}")
                continue
            try:
                blk = [int(v) for v in row["block"]]
                row["block"] = tuple([*blk, 1, 1, 1][:3])
                row["line"] = int(row["line"])
                if any(v < 1 for v in row["block"]) or len(blk) > 3:
                    raise ValueError("block")
            except (TypeError, ValueError):
                problems.append(f"{path}:{n}: bad block or line")
                continue
            build = row.get("build", [])
            if not isinstance(build, list) or not all(isinstance(a, str) for a in build):
                problems.append(f"{path}:{n}: build is not a list of strings")
                continue
            rows.append(row)
    return rows, problems


def repo_dir(repos: Path, repo: str) -> Path:
    return repos / repo.replace("/", "+")


# ----------------------------------------------------------------------------- building

# nvcc options that take a separate value and belong to linking / output, not to device code
_DROP_WITH_VALUE = {"-o", "--output-file", "-l", "--library", "-L", "--library-path",
                    "-Xlinker", "--linker-options", "-arch", "--gpu-architecture", "-code",
                    "--gpu-code", "-gencode", "--generate-code", "-odir", "--output-directory",
                    "-MF", "-ccbin", "--compiler-bindir"}
_DROP = {"-c", "--compile", "-cubin", "--cubin", "-ptx", "--ptx", "-lineinfo",
         "--generate-line-info", "-link", "--link", "-run", "--run", "-lib", "--lib",
         "-dlink", "--device-link"}
_DROP_PREFIX = ("-l", "-L", "-o", "-arch=", "--gpu-architecture=", "-code=", "--gpu-code=",
                "-gencode=", "--generate-code=", "-Xlinker=", "--linker-options=",
                "-ccbin=", "--compiler-bindir=")
_KEEP_PREFIX = ("-I", "-D", "-U", "-O", "-std", "-Xcompiler", "-Xptxas", "-Xcudafe")
_SOURCE = (".cu",)
_OBJECT = (".o", ".obj", ".a", ".so", ".lib", ".cpp", ".cc", ".cxx", ".c")


def device_flags(build: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(compile flags, extra .cu sources) of a build's nvcc arguments."""
    flags: list[str] = []
    sources: list[str] = []
    skip = False
    for a in build:
        if skip:
            skip = False
            continue
        if a in _DROP_WITH_VALUE:
            skip = True
            continue
        if a in _DROP:
            continue
        if a.startswith("-"):
            if not a.startswith(_DROP_PREFIX) or a.startswith(_KEEP_PREFIX):
                flags.append(a)
            continue
        if a.endswith(_SOURCE):
            sources.append(a)
        elif a.endswith(_OBJECT):
            continue
        else:
            flags.append(a)  # the value of an option we keep (e.g. -I DIR)
    return flags, sources


def program_key(row: dict[str, Any], programs: dict[str, Any] | None) -> ProgramKey:
    """How the row's program was built: the row's own ``build`` (nvcc arguments, relative
    to the repository root, ``program`` the main .cu), else its entry in programs.json
    (measure.py's ``nvcc -O3 -arch=sm_90 -lineinfo FLAGS SOURCES`` run in ``dir``)."""
    prog = (programs or {}).get("programs_by_id", {}).get(row["program"])
    if "build" in row or prog is None:
        flags, extra_src = device_flags(tuple(row.get("build") or ()))
        sources = [row["program"]] + [s for s in extra_src if s != row["program"]]
        return ProgramKey(row["repo"], str(row.get("commit", "")), row["program"], ".",
                          tuple(sources), tuple(flags))
    flags, _ = device_flags(("-O3", *prog.get("flags", [])))
    commit = row.get("commit") or \
        (programs or {}).get("repos", {}).get(row["repo"], {}).get("commit", "")
    return ProgramKey(row["repo"], str(commit), row["program"], prog.get("dir", "."),
                      tuple(s for s in prog.get("sources", []) if s.endswith(_SOURCE)),
                      tuple(flags))


def build_cubins(key: ProgramKey, root: Path, work: Path, nvcc: str, arch: str,
                 extra: list[str], timeout: float) -> tuple[Path, float, list[str]]:
    """Compile every .cu of the program to a cubin in a folder of its own."""
    tag = hashlib.sha256(json.dumps([key.repo, key.commit, key.program, key.dir, key.sources,
                                     key.flags, arch, extra]).encode()).hexdigest()[:16]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", key.program)
    out = work / f"{key.repo.replace('/', '+')}-{stem}-{tag}"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    t0 = time.perf_counter()
    warnings: list[str] = []
    cwd = root / key.dir
    if not key.sources:
        raise RuntimeError(f"{key.program}: no .cu source to compile")
    for n, src in enumerate(key.sources):
        if not (cwd / src).is_file():
            raise RuntimeError(f"{src}: no such file in {cwd}")
        cubin = out / f"{n}-{Path(src).stem}.cubin"
        cmd = [nvcc, "-cubin", f"-arch={arch}", "-lineinfo", *key.flags, *extra, src,
               "-o", str(cubin)]
        try:
            proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"nvcc timed out after {timeout:.0f} s on {src}") from None
        if proc.returncode != 0:
            err = [ln for ln in proc.stderr.splitlines() if "error" in ln.lower()]
            raise RuntimeError(f"nvcc failed on {src} (exit {proc.returncode}): "
                               + " | ".join((err or proc.stderr.splitlines())[:4]))
    return out, time.perf_counter() - t0, warnings


# ----------------------------------------------------------------------------- running cuxray


def base_name(demangled: str) -> str:
    """'void ns::k<32, 4>(int, float *)' -> 'ns::k<32,4>' (whitespace-free, no return type)."""
    s = demangled.strip()
    depth = 0
    cut = len(s)
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and i > 0:
            cut = i
            break
    s = s[:cut]
    # drop a leading return type ("void k<...>"), but not inside template arguments
    depth = 0
    last_space = -1
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            last_space = i
    s = s[last_space + 1:]
    s = re.sub(r"\s+", "", s).lower()
    s = re.sub(r"\((?:unsigned)?(?:int|long|char|short|bool)\)", "", s)
    return re.sub(r"(?<=\d)(?:ul|ull|u|l|ll)\b", "", s)


def plain_name(demangled: str) -> str:
    """The function's identifier alone: 'ns::k<32>' -> 'k'."""
    b = base_name(demangled)
    b = re.sub(r"<.*", "", b)
    return b.rsplit("::", 1)[-1]


def params(demangled: str) -> str:
    """Parameter types, token-sorted so that 'const float *' == 'float const*'."""
    depth, start = 0, -1
    for i, ch in enumerate(demangled):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and i > 0:
            start = i
            break
    s = demangled[start + 1:demangled.rfind(")")] if start >= 0 else ""
    parts = []
    for p in s.split(","):
        toks = sorted(re.findall(r"[A-Za-z_]\w*|\*|&", p))
        parts.append(" ".join(toks))
    return "|".join(parts)


def match_kernel(row_kernel: str, mangled: str | None,
                 kernels: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str | None]:
    if mangled:
        for k in kernels:
            if k["name"] == mangled:
                return k, None
    want = base_name(row_kernel)
    cands = [k for k in kernels if base_name(k["demangled"]) == want]
    if not cands and "<" not in want:
        cands = [k for k in kernels if plain_name(k["demangled"]) == want.rsplit("::", 1)[-1]]
    cands = list({k["name"]: k for k in reversed(cands)}.values())  # one per symbol, first
    if len(cands) > 1 and "(" in row_kernel:
        narrowed = [k for k in cands if params(k["demangled"]) == params(row_kernel)]
        cands = narrowed or cands
    if len(cands) == 1:
        return cands[0], None
    if not cands:
        return None, f"kernel {row_kernel!r} not in cuxray's output"
    return None, (f"kernel {row_kernel!r} is ambiguous: "
                  + ", ".join(k["name"] for k in cands[:4]))


def run_api(cx: Cuxray, cubins: Path, block: tuple[int, int, int], names: list[str],
            timeout: float) -> dict[str, Any]:
    if not cx.python:
        raise RuntimeError("cannot find cuxray's interpreter for --mode api")
    arg = json.dumps({"path": str(cubins), "threads": ",".join(map(str, block)),
                      "names": names})
    proc = subprocess.run([cx.python, "-c", HELPER, arg], capture_output=True, text=True,
                          env=cx.env, timeout=timeout, check=False)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["(no message)"]
        raise RuntimeError(f"cuxray analysis failed (exit {proc.returncode}): {tail[0]}")
    doc: dict[str, Any] = json.loads(proc.stdout)
    return doc


def run_cli(cx: Cuxray, cubins: Path, block: tuple[int, int, int],
            timeout: float) -> dict[str, Any]:
    cmd = [cx.exe, "report", str(cubins), "--json", "--no-cache",
           "--threads", ",".join(map(str, block))]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=cx.env, timeout=timeout,
                          check=False)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["(no message)"]
        raise RuntimeError(f"cuxray report failed (exit {proc.returncode}): {tail[0]}")
    rep = json.loads(proc.stdout)
    out: dict[str, Any] = {"cuxray_version": rep.get("cuxray_version"), "units": []}
    for unit in rep.get("units", []):
        kernels = []
        for k in unit.get("kernels", []):
            acc = k.get("access") or {}
            rows = [{"opcode": None, "file": s["file"], "line": s["line"],
                     "verdict": s["verdict"], "ways": s["conflict_ways"], "count": s["count"]}
                    for s in acc.get("by_site", []) if s.get("space") == "shared"]
            kernels.append({"name": k["name"], "demangled": k.get("demangled") or k["name"],
                            "accesses": rows, "converged": acc.get("dataflow_converged"),
                            "unreached_blocks": acc.get("unreached_blocks"),
                            "truncated": len(acc.get("by_site", [])) >= 30,
                            "unanalyzed_by_reason": acc.get("unanalyzed_by_reason")})
        out["units"].append({"label": unit.get("label"), "arch": unit.get("arch"),
                             "kernels": kernels})
    return out


# ----------------------------------------------------------------------------- per-line verdicts


def norm_op(op: str | None) -> str:
    """SASS opcode without the default 32-bit width token: 'LDS.32' == 'LDS'."""
    if not op:
        return ""
    parts = op.upper().split(".")
    return ".".join([parts[0]] + [p for p in parts[1:] if p != "32"])


def norm_file(f: str | None, root: Path) -> str | None:
    if not f:
        return None
    p = Path(f)
    if not p.is_absolute():
        p = root / p
    p = Path(os.path.normpath(p))
    for r in {root, root.resolve()}:
        try:
            return p.relative_to(r).as_posix()
        except ValueError:
            pass
    try:
        return Path(os.path.realpath(p)).relative_to(root.resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def agree(values: list[tuple[int, int]]) -> tuple[int | None, int | None]:
    vals = set(values)
    if len(vals) == 1:
        wf, ideal = vals.pop()
        return wf, ideal
    return None, None


def line_result(accs: list[dict[str, Any]], measured_ops: set[str],
                mode: str) -> dict[str, Any]:
    """Verdict of one kernel's file:line from cuxray's accesses there."""
    measured_norm = {norm_op(o) for o in measured_ops}
    generic = {o for o in measured_norm if o.split(".")[0] in ("LD", "ST")}
    use = [a for a in accs if a.get("space") != "generic" or generic]
    verdicts = {a["verdict"] for a in use}
    if "conflict" in verdicts:
        verdict = "conflicted"
    elif "unknown" in verdicts:
        verdict = "unknown"
    elif "clean" in verdicts:
        verdict = "clean"
    else:
        verdict = "missing"
    ways = max((a["ways"] for a in use if a.get("ways") is not None), default=None)
    res: dict[str, Any] = {"verdict": verdict, "ways": ways, "wavefronts": None,
                           "ideal": None}
    reasons = sorted({a["reason"] for a in use if a.get("reason")})
    if reasons:
        res["reasons"] = reasons
    if mode == "api":
        known = [(a["wavefronts"], a["ideal"]) for a in use if a["verdict"] != "unknown"]
        if known and len(known) == len(use):
            res["wavefronts"], res["ideal"] = agree(known)
        ops: dict[str, list[dict[str, Any]]] = {}
        for a in use:
            ops.setdefault(norm_op(a["opcode"]), []).append(a)
        op_rows = []
        for op in sorted(set(ops) | measured_norm):
            items = ops.get(op, [])
            vc: dict[str, int] = {}
            for a in items:
                vc[a["verdict"]] = vc.get(a["verdict"], 0) + 1
            known = [(a["wavefronts"], a["ideal"]) for a in items if a["verdict"] != "unknown"]
            wf, ideal = agree(known) if known and len(known) == len(items) else (None, None)
            op_rows.append({"op": op, "measured": op in measured_norm, "sass": len(items),
                            "verdicts": vc,
                            "ways": max((a["ways"] for a in items if "ways" in a),
                                        default=None),
                            "wavefronts": wf, "ideal": ideal})
        res["ops"] = op_rows
    # CLI: by_site has neither opcode nor width, and its 'ways' is the worst transaction
    # group's, so no per-warp wavefronts are claimed for it.
    return res


# ----------------------------------------------------------------------------- main

Blocks = dict[tuple[int, int, int], dict[tuple[str, int, str], LineKey]]


def group_rows(rows: list[dict[str, Any]],
               catalog: dict[str, Any] | None = None) -> dict[ProgramKey, Blocks]:
    """program -> block -> (kernel, line, file) -> the measured ops there."""
    programs: dict[ProgramKey, Blocks] = {}
    for r in rows:
        key = program_key(r, catalog)
        lines = programs.setdefault(key, {}).setdefault(r["block"], {})
        at = (str(r["kernel"]), r["line"], str(r["file"]))
        entry = lines.get(at)
        if entry is None:
            entry = lines[at] = LineKey(str(r["kernel"]), r.get("mangled"), r["block"],
                                        str(r["file"]), r["line"])
        entry.ops.add(str(r["op"]))
    return programs


@dataclass
class Scorer:
    args: argparse.Namespace
    cx: Cuxray
    nvcc: str
    extra: list[str]
    out: Any

    def say(self, msg: str) -> None:
        if not self.args.quiet:
            print(f"cuxray_score: {msg}", file=sys.stderr, flush=True)

    def write(self, rec: dict[str, Any]) -> None:
        self.out.write(json.dumps(rec) + "\n")

    def fail(self, base: dict[str, Any], blocks: Blocks, msg: str) -> None:
        for blk, lines in blocks.items():
            for lk in lines.values():
                self.write({**base, "kernel": lk.kernel, "cuxray_kernel": None,
                            "block": list(blk), "file": lk.file, "line": lk.line,
                            "verdict": "error", "ways": None, "wavefronts": None,
                            "ideal": None, "error": msg})

    def analyse(self, cubins: Path, blk: tuple[int, int, int],
                names: list[str]) -> tuple[dict[str, Any], float]:
        t0 = time.perf_counter()
        if self.args.mode == "api":
            doc = run_api(self.cx, cubins, blk, names, self.args.timeout)
        else:
            doc = run_cli(self.cx, cubins, blk, self.args.timeout)
        return doc, time.perf_counter() - t0

    def program(self, key: ProgramKey, blocks: Blocks) -> dict[str, Any]:
        args = self.args
        root = repo_dir(args.repos, key.repo)
        ps: dict[str, Any] = {"repo": key.repo, "commit": key.commit, "program": key.program,
                              "dir": key.dir, "sources": list(key.sources),
                              "flags": list(key.flags), "build_s": None, "runs": [],
                              "error": None}
        base = {"tool": "cuxray", "cuxray_version": self.cx.version, "mode": args.mode,
                "repo": key.repo, "commit": key.commit, "program": key.program}
        try:
            if not root.is_dir():
                raise RuntimeError(f"no checkout at {root}")
            if args.check_commit and key.commit:
                head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                      capture_output=True, text=True, check=False)
                if not head.stdout.strip().startswith(key.commit[:7]):
                    raise RuntimeError(f"{root} is at {head.stdout.strip()[:12]}, "
                                       f"rows are of {key.commit[:12]}")
            cubins, secs, _w = build_cubins(key, root, args.work, self.nvcc, args.arch,
                                            self.extra, args.timeout)
        except (RuntimeError, OSError) as e:
            ps["error"] = str(e)
            self.say(f"{key.repo} {key.program}: {e}")
            self.fail(base, blocks, str(e))
            return ps
        ps["build_s"] = round(secs, 2)
        self.say(f"{key.repo} {key.program}: built in {secs:.1f} s")
        everything = [lk for lines in blocks.values() for lk in lines.values()]
        names = sorted({plain_name(lk.kernel) for lk in everything}
                       | {lk.mangled for lk in everything if lk.mangled})
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = {blk: ex.submit(self.analyse, cubins, blk, names) for blk in blocks}
            for blk, fut in futs.items():
                run: dict[str, Any] = {"block": list(blk), "seconds": None, "error": None}
                ps["runs"].append(run)
                try:
                    doc, secs = fut.result()
                except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                    run["error"] = str(e)
                    self.say(f"{key.program} block {blk}: {e}")
                    self.fail(base, {blk: blocks[blk]}, str(e))
                    continue
                run["seconds"] = round(secs, 2)
                kernels = [k for u in doc["units"] for k in u["kernels"]]
                run["kernels"] = len(kernels)
                self.say(f"{key.program} block {','.join(map(str, blk))}: "
                         f"{len(kernels)} kernels in {secs:.1f} s")
                for lk in blocks[blk].values():
                    self.write(self.line(base, root, blk, lk, kernels))
        self.out.flush()
        return ps

    def line(self, base: dict[str, Any], root: Path, blk: tuple[int, int, int],
             lk: LineKey, kernels: list[dict[str, Any]]) -> dict[str, Any]:
        k, why = match_kernel(lk.kernel, lk.mangled, kernels)
        rec: dict[str, Any] = {**base, "kernel": lk.kernel,
                               "cuxray_kernel": k["name"] if k else None,
                               "block": list(blk), "file": lk.file, "line": lk.line}
        if k is None:
            rec.update({"verdict": "error", "ways": None, "wavefronts": None,
                        "ideal": None, "error": why})
            return rec
        here = [a for a in k["accesses"]
                if a["line"] == lk.line and norm_file(a["file"], root) == lk.file]
        rec.update(line_result(here, lk.ops, self.args.mode))
        notes = []
        if blk[0] % 32:
            notes.append("blockDim.x % 32 != 0: cuxray models warp 0 only")
        if k.get("converged") is False:
            notes.append("cuxray's dataflow did not converge")
        if k.get("unreached_blocks") and rec["verdict"] in ("missing", "unknown"):
            notes.append(f"{k['unreached_blocks']} basic block(s) unreached by cuxray")
        if k.get("truncated") and rec["verdict"] == "missing":
            notes.append("cuxray report lists at most 30 sites per kernel")
        if notes:
            rec["notes"] = notes
        rec["error"] = None
        return rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", help="measurement rows, JSON lines ('-' for stdin)")
    ap.add_argument("--repos", required=True, type=Path,
                    help="folder holding <owner>+<name>/ checkouts at the rows' commits")
    ap.add_argument("-o", "--out", default="-", help="JSON lines out (default stdout)")
    ap.add_argument("--summary", default=None, help="write timings and errors as JSON here")
    ap.add_argument("--programs", type=Path, default=None,
                    help="measure.py's programs.json: builds of rows without 'build'")
    ap.add_argument("--cuxray", default=None, help="cuxray executable (default: see above)")
    ap.add_argument("--mode", choices=("api", "cli"), default="api")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--arch", default="sm_90", help="device architecture (default sm_90, H100)")
    ap.add_argument("--nvcc-arg", action="append", default=[],
                    help="extra nvcc argument (repeatable), e.g. -I/path/to/cublas/include")
    ap.add_argument("--work", type=Path, default=Path("/tmp/cuxray_score"),
                    help="folder for the cubins (default /tmp/cuxray_score)")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per nvcc or cuxray run (default 600)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="cuxray runs at once (default 1)")
    ap.add_argument("--check-commit", action="store_true",
                    help="fail a program whose checkout is not at the row's commit")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)

    try:
        rows, problems = read_rows(args.rows)
    except OSError as e:
        print(f"cuxray_score: {args.rows}: {e.strerror}", file=sys.stderr)
        return 2
    if not args.quiet:
        for p in problems:
            print(f"cuxray_score: skipped row: {p}", file=sys.stderr)
    if not rows:
        print("cuxray_score: no measurement rows", file=sys.stderr)
        return 2
    if not args.repos.is_dir():
        print(f"cuxray_score: --repos {args.repos}: not a folder", file=sys.stderr)
        return 2
    programs = None
    if args.programs:
        try:
            programs = json.loads(args.programs.read_text())
            programs["programs_by_id"] = {p["id"]: p for p in programs.get("programs", [])}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as e:
            print(f"cuxray_score: --programs {args.programs}: {e}", file=sys.stderr)
            return 2
    cx = find_cuxray(args.cuxray)
    nvcc = shutil.which(args.nvcc) or args.nvcc
    try:
        nv = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=False)
        nvcc_version = (nv.stdout.strip().splitlines() or ["?"])[-1]
    except OSError:
        nvcc_version = "not found"
    summary: dict[str, Any] = {"cuxray_version": cx.version, "mode": args.mode,
                               "arch": args.arch, "nvcc": nvcc_version,
                               "skipped_rows": problems, "programs": []}
    try:
        args.work.mkdir(parents=True, exist_ok=True)
        with contextlib.ExitStack() as stack:
            out = sys.stdout if args.out == "-" else \
                stack.enter_context(open(args.out, "w", encoding="utf-8"))
            sc = Scorer(args, cx, nvcc, list(args.nvcc_arg) + [f"-I{d}" for d in cx.includes],
                        out)
            sc.say(f"cuxray {cx.version} ({cx.exe}), mode {args.mode}, nvcc {nvcc} "
                   f"({nvcc_version}), {args.arch}")
            for key, blocks in group_rows(rows, programs).items():
                summary["programs"].append(sc.program(key, blocks))
        if args.summary:
            Path(args.summary).write_text(json.dumps(summary, indent=2) + "\n")
    except OSError as e:
        print(f"cuxray_score: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
