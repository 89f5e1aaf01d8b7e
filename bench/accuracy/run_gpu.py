#!/usr/bin/env python3
"""Measure the shared-memory wavefronts of every marked access of bench/accuracy/*.cu.

Runs ON a machine with an NVIDIA GPU, the CUDA toolkit and Nsight Compute (ncu).
Standard library only, Python 3.10+.

    python3 bench/accuracy/run_gpu.py --out DIR

For every suite file (`bench/accuracy/*.cu`, each with its own `main()`):

1. builds it with `nvcc -O3 -arch=sm_90 -lineinfo` (an executable and, with the
   same flags, a cubin);
2. reads the SASS: `nvdisasm -gi` on the cubin gives every instruction with its
   CUDA line, `cuobjdump -sass` on the executable confirms that the executable
   holds the same code. Each measured line must hold shared instructions
   (LDS/STS/ATOMS) of the kind and width its marker names; a compiler-merged,
   split or removed access is flagged (`sass_check`), not scored;
3. profiles it twice, one ncu process each (every kernel is launched once):
   - `ncu --clock-control none --metrics <shared ld/st totals>`: the hardware
     counters per kernel (instructions, wavefronts, bank conflicts);
   - `ncu --clock-control none --section SourceCounters --import-source yes -o R`
     then `ncu -i R.ncu-rep --page source --print-source cuda,sass --csv`: per
     CUDA line and SASS instruction, executions, "L1 Wavefronts Shared",
     "... Ideal", "... Excessive", "L1 Conflicts Shared N-Way" (column names are
     read from the CSV header at run time and recorded);
4. writes DIR/<name>.json (default name sm90_h100) and the raw tool output under
   DIR/raw/.

Which number is "measured": every suite kernel holds exactly one measured shared
instruction of its pipe (load kernels fill with stores, store kernels read back
with a load), so the kernel's hardware counters isolate it; those are the numbers
the bank rule in shared/hw was fitted to. They are the primary measurement
(`measured.source = "kernel-totals"`). The per-instruction source counters are
recorded beside them and used when the access is not isolated
(`"source-counters"`); a disagreement between the two is flagged.

Marker syntax, on the line of the access (several measurements on one line are
separated by ` ;; `):

    // measure: ID KIND.WIDTH [warps=W/I,W/I,...] [targs=ARGS] [inst=NAME=VAL] [later]

KIND is load, store or atomic; WIDTH the bytes per lane. `warps=` lists the
per-warp wavefronts/ideal of a block whose warps differ (derived by hand); without
it every warp of the launch performs the same access. `targs=` selects the
template instantiation (as written in the launch `k<ARGS><<<...>>>`), `inst=` is
cudalint's `instantiation` string for the same. `later` marks constructs that a
later cudalint version will support.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import datetime as _dt
import io
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent

HW_METRICS = {
    "ld": (
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    ),
    "st": (
        "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    ),
}
# Tried once; dropped for the rest of the run if this ncu does not know them.
OPTIONAL_HW_METRICS = {
    "atom": (
        "smsp__sass_inst_executed_op_shared_atom.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
    ),
}

SHARED_OPS = {"LDS": "load", "STS": "store", "ATOMS": "atomic"}
KIND_PIPES = {"load": ("ld",), "store": ("st",), "atomic": ("atom", "st", "ld")}


# --------------------------------------------------------------------- markers


@dataclass
class Marker:
    id: str
    file: str  # relative to the repo root, '/' separated
    line: int
    kind: str
    width: int
    kernel: str
    targs: str | None = None
    inst: str | None = None
    warps: list[tuple[int, int]] | None = None
    later: bool = False


MARKER_RE = re.compile(r"//\s*measure:\s*(.*)$")
KERNEL_RE = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(\w+)\s*\(")


def parse_marker_spec(spec: str) -> dict[str, Any]:
    """Parse one `ID KIND.WIDTH [key=value ...] [later]` measurement."""
    tokens = spec.split()
    if len(tokens) < 2:
        raise ValueError(f"marker needs 'ID KIND.WIDTH': {spec!r}")
    ident, kw = tokens[0], tokens[1]
    m = re.fullmatch(r"(load|store|atomic)\.(1|2|4|8|16)", kw)
    if not re.fullmatch(r"[A-Za-z0-9_]+", ident) or not m:
        raise ValueError(f"bad marker {spec!r}")
    out: dict[str, Any] = {"id": ident, "kind": m.group(1), "width": int(m.group(2))}
    for tok in tokens[2:]:
        if tok == "later":
            out["later"] = True
        elif tok.startswith("warps="):
            warps = []
            for item in tok[len("warps=") :].split(","):
                w, i = item.split("/")
                warps.append((int(w), int(i)))
            out["warps"] = warps
        elif tok.startswith("targs="):
            out["targs"] = tok[len("targs=") :]
        elif tok.startswith("inst="):
            out["inst"] = tok[len("inst=") :]
        else:
            raise ValueError(f"unknown marker key {tok!r} in {spec!r}")
    return out


def parse_markers(path: Path, rel: str) -> list[Marker]:
    markers = []
    kernel = ""
    for lineno, text in enumerate(path.read_text().splitlines(), 1):
        k = KERNEL_RE.search(text)
        if k:
            kernel = k.group(1)
        m = MARKER_RE.search(text)
        if not m:
            continue
        for spec in m.group(1).split(";;"):
            d = parse_marker_spec(spec.strip())
            markers.append(Marker(file=rel, line=lineno, kernel=kernel, **d))
    return markers


# -------------------------------------------------------------------- launches


@dataclass
class Launch:
    kernel: str
    targs: str | None
    grid: str
    block: str
    threads: int | None  # per block, when the shape is a literal / constant


LAUNCH_RE = re.compile(r"\b(\w+)\s*(?:<([^<>;]*)>)?\s*<<<(.*?)>>>", re.S)


def _eval_int(expr: str, consts: dict[str, int]) -> int | None:
    expr = expr.strip()
    for name, val in consts.items():
        expr = re.sub(rf"\b{name}\b", str(val), expr)
    if not re.fullmatch(r"[0-9\s+*/()-]+", expr):
        return None
    try:
        return int(eval(expr, {"__builtins__": {}}, {}))  # digits and operators only
    except Exception:
        return None


def _split_top(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def parse_launches(text: str) -> list[Launch]:
    """Kernel launches in source order (each suite main() launches each kernel once)."""
    consts = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"constexpr\s+(?:unsigned\s+)?int\s+(\w+)\s*=\s*(\d+)\s*;", text)
    }
    main = text.find("int main(")
    launches = []
    for m in LAUNCH_RE.finditer(text, main if main >= 0 else 0):
        args = _split_top(m.group(3))
        grid, block = args[0], args[1] if len(args) > 1 else "1"
        threads = None
        d = re.fullmatch(r"dim3\s*\((.*)\)", block)
        if d:
            dims = [_eval_int(x, consts) for x in _split_top(d.group(1))]
            if all(x is not None for x in dims):
                threads = math.prod(dims)  # type: ignore[arg-type]
        else:
            threads = _eval_int(block, consts)
        launches.append(
            Launch(m.group(1), m.group(2).strip() if m.group(2) else None, grid, block, threads)
        )
    return launches


def grid_blocks(launch: Launch, text: str) -> int | None:
    consts = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"constexpr\s+(?:unsigned\s+)?int\s+(\w+)\s*=\s*(\d+)\s*;", text)
    }
    return _eval_int(launch.grid, consts)


# ------------------------------------------------------------------------ names


def name_matches(name: str, kernel: str, targs: str | None) -> bool:
    """Whether a (mangled or demangled) function name is `kernel` (with `targs`)."""
    n = name.strip()
    if n.startswith("_Z"):
        m = re.match(r"_Z(\d+)", n)
        if not m or n[m.end() : m.end() + int(m.group(1))] != kernel:
            return False
        rest = n[m.end() + int(m.group(1)) :]
        if targs is None:
            return not rest.startswith("I")
        wanted = [a.strip() for a in targs.split(",")]
        got = re.findall(r"L[a-z](n?\d+)E", rest)[: len(wanted)]
        return rest.startswith("I") and [g.replace("n", "-") for g in got] == wanted
    pat = rf"(?<![\w:]){re.escape(kernel)}"
    if targs is None:
        return re.search(pat + r"(?![\w<])", n) is not None
    args = r"\s*,\s*".join(re.escape(a.strip()) for a in targs.split(","))
    return re.search(pat + r"\s*<\s*" + args + r"\s*>", n) is not None


# ------------------------------------------------------------------------- SASS


@dataclass
class Instr:
    offset: int
    text: str
    file: str | None = None
    line: int | None = None

    @property
    def opcode(self) -> str:
        toks = self.text.split()
        if toks and toks[0].startswith("@"):
            toks = toks[1:]
        return toks[0] if toks else ""


def shared_kind_width(text: str) -> tuple[str, int] | None:
    """(kind, width in bytes) of a shared-memory SASS instruction, else None."""
    toks = text.replace(";", " ").split()
    if toks and toks[0].startswith("@"):
        toks = toks[1:]
    if not toks:
        return None
    parts = toks[0].split(".")
    kind = SHARED_OPS.get(parts[0])
    if kind is None:
        return None
    mods = set(parts[1:])
    width = 4
    if mods & {"U8", "S8"}:
        width = 1
    elif mods & {"U16", "S16"}:
        width = 2
    elif "64" in mods:
        width = 8
    elif "128" in mods:
        width = 16
    return kind, width


INSTR_RE = re.compile(r"/\*([0-9a-fA-F]{4,})\*/\s+(.*?)\s*;")


def parse_nvdisasm(text: str) -> dict[str, list[Instr]]:
    """Functions of `nvdisasm -gi -c` output, each instruction with its file and line
    (the call site in the kernel's file for inlined functions such as atomicAdd)."""
    funcs: dict[str, list[Instr]] = {}
    cur: list[Instr] | None = None
    file = None
    line = None
    for raw in text.splitlines():
        s = raw.strip()
        m = re.match(r"\.section\s+\.text\.([^,\s]+)", s)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            file = line = None
            continue
        m = re.match(r'//##\s*File\s+"([^"]*)",\s*line\s+(\d+)', s)
        if m:
            file, line = m.group(1), int(m.group(2))
            # `-gi`: an inlined function's line "inlined at" the call site: the
            # outermost call site is the line of the kernel's source.
            sites = re.findall(r'inlined at\s+"([^"]*)",\s*line\s+(\d+)', s)
            if sites:
                file, line = sites[-1][0], int(sites[-1][1])
            continue
        m = INSTR_RE.search(s)
        if m and cur is not None:
            cur.append(Instr(int(m.group(1), 16), m.group(2).strip(), file, line))
    return funcs


def parse_cuobjdump(text: str) -> dict[str, list[Instr]]:
    funcs: dict[str, list[Instr]] = {}
    cur: list[Instr] | None = None
    for raw in text.splitlines():
        m = re.match(r"\s*Function\s*:\s*(\S+)", raw)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = INSTR_RE.search(raw)
        if m and cur is not None:
            cur.append(Instr(int(m.group(1), 16), m.group(2).strip()))
    return funcs


# -------------------------------------------------------------- ncu source CSV


def parse_number(value: str | None) -> float | None:
    if value is None:
        return None
    v = value.strip().replace(",", "")
    if v in ("", "-", "n/a", "N/A"):
        return None
    v = re.sub(r"\s*\(.*\)$", "", v)
    try:
        return float(v)
    except ValueError:
        return None


@dataclass
class SourceRow:
    block: int  # index into SourceReport.functions
    file: str | None  # the "File Path" in force, None when the CSV names none
    line: int | None  # CUDA line: its own, or the CUDA line row it follows
    cells: dict[str, str]


@dataclass
class SourceReport:
    functions: list[str] = field(default_factory=list)  # one per profiled kernel, in order
    headers: dict[int, list[str]] = field(default_factory=dict)  # block -> header
    line_rows: list[SourceRow] = field(default_factory=list)
    sass_rows: list[SourceRow] = field(default_factory=list)


HEX_RE = re.compile(r"^(0x)?[0-9a-fA-F]+$")


def _normalize_header(header: list[str]) -> list[str]:
    out = []
    sources = 0
    first_is_line = bool(header) and header[0].strip() in ("Line No", "Line", "#")
    for h in header:
        h = h.strip()
        if h == "Source":
            sources += 1
            h = "CUDA Source" if sources == 1 and first_is_line else "SASS Source"
        elif h == "# Address":
            h = "Address"
        out.append(h)
    return out


def parse_source_csv(text: str) -> SourceReport:
    """Parse `ncu -i R --page source --print-source cuda,sass --csv`.

    Layout (as Nsight Compute prints it; read defensively): per profiled kernel a
    `"Kernel Name"`/`"Function Name"` row, per source file a `"File Path"` row, a
    header row that starts with "Line No","Source","Address","Source" (CUDA line,
    CUDA text, SASS address, SASS text, then one column per metric), CUDA-line rows
    (a line number, no address), each followed by the SASS rows of that line (an
    address, and the line number or nothing). Rows of an inlined header (e.g. the
    body of atomicAdd) come under that header's "File Path".
    """
    rep = SourceReport()
    block = -1
    file: str | None = None
    header: list[str] | None = None
    current_line: int | None = None
    for row in csv.reader(io.StringIO(text)):
        if not row or all(not c.strip() for c in row):
            continue
        first = row[0].strip()
        if first.startswith("==") and len(row) == 1:
            continue  # ==PROF== / ==WARNING== lines
        if first in ("Kernel Name", "Function Name") and len(row) >= 2:
            name = row[1].strip()
            # a repeated name right after itself is the same kernel's next section
            if block < 0 or rep.functions[block] != name:
                rep.functions.append(name)
                block = len(rep.functions) - 1
            header = None
            current_line = None
            continue
        if first == "File Path" and len(row) >= 2:
            file = row[1].strip()
            current_line = None
            continue
        if first in ("Line No", "Address", "# Address", "Line") and any(
            c.strip() == "Source" for c in row
        ):
            header = _normalize_header(row)
            if block < 0:
                rep.functions.append("")
                block = 0
            rep.headers.setdefault(block, header)
            current_line = None
            continue
        if header is None:
            continue
        cells = {h: (row[i] if i < len(row) else "") for i, h in enumerate(header)}
        addr = cells.get("Address", "").strip()
        line_s = cells.get("Line No", cells.get("Line", "")).strip()
        line = int(line_s) if line_s.isdigit() else None
        is_sass = bool(addr) and addr != "-" and HEX_RE.match(addr) is not None
        if line is not None:
            current_line = line
            if not is_sass:
                rep.line_rows.append(SourceRow(block, file, line, cells))
        if is_sass:
            rep.sass_rows.append(
                SourceRow(block, file, line if line is not None else current_line, cells)
            )
    return rep


def find_column(
    header: list[str], exact: str, *, must: tuple[str, ...] = (), avoid: tuple[str, ...] = ()
) -> str | None:
    for h in header:
        if h == exact:
            return h
    for h in header:
        if h.lower() == exact.lower():
            return h
    if must:
        for h in header:
            low = h.lower()
            if all(w in low for w in must) and not any(w in low for w in avoid):
                return h
    return None


def source_columns(header: list[str]) -> dict[str, str | None]:
    return {
        "executions": find_column(
            header,
            "Instructions Executed",
            must=("instructions executed",),
            avoid=("thread", "predicated"),
        ),
        "thread_executions": find_column(
            header,
            "Thread Instructions Executed",
            must=("thread instructions executed",),
            avoid=("predicated",),
        ),
        "predicated_on_thread_executions": find_column(
            header, "Predicated-On Thread Instructions Executed", must=("predicated", "thread")
        ),
        "wavefronts": find_column(
            header,
            "L1 Wavefronts Shared",
            must=("wavefronts", "shared"),
            avoid=("ideal", "excessive", "%", "global"),
        ),
        "ideal": find_column(
            header, "L1 Wavefronts Shared Ideal", must=("wavefronts", "shared", "ideal")
        ),
        "excessive": find_column(
            header, "L1 Wavefronts Shared Excessive", must=("wavefronts", "shared", "excessive")
        ),
        "nway": find_column(header, "L1 Conflicts Shared N-Way", must=("conflicts", "shared")),
        "address_space": find_column(header, "Address Space", must=("address space",)),
        "access_operation": find_column(header, "Access Operation", must=("access operation",)),
        "access_size": find_column(header, "Access Size", must=("access size",)),
        "sass": "SASS Source" if "SASS Source" in header else None,
    }


def rows_by_address(
    report: SourceReport, block: int, cols: dict[str, str | None], instrs: list[Instr]
) -> list[tuple[Instr, dict[str, str]]] | None:
    """Pair ncu's SASS rows of one kernel (`block`) with the cubin's instructions by offset.

    ncu's addresses may be absolute: offsets are taken from the lowest address of
    the function. Returns None unless nearly every row's opcode agrees with the
    instruction at its offset (then the CSV layout's own attribution is used).
    """
    if not instrs or not cols.get("sass"):
        return None
    rows = [r for r in report.sass_rows if r.block == block]
    addrs = []
    for r in rows:
        a = r.cells.get("Address", "").strip()
        try:
            addrs.append(int(a, 16))
        except ValueError:
            return None
    if not addrs:
        return None
    base = min(addrs)
    at = {i.offset: i for i in instrs}
    pairs = []
    agree = 0
    for a, r in zip(addrs, rows, strict=False):
        ins = at.get(a - base)
        if ins is None:
            continue
        text = r.cells.get(cols["sass"] or "", "")
        toks = text.split()
        if toks and toks[0].startswith("@"):
            toks = toks[1:]
        if toks and toks[0].rstrip(";") == ins.opcode:
            agree += 1
        pairs.append((ins, r.cells))
    if len(rows) == 0 or agree < 0.9 * len(rows):
        return None
    return pairs


# ------------------------------------------------------------- ncu metrics CSV


def parse_metrics_csv(text: str) -> list[dict[str, Any]]:
    """Parse `ncu --metrics ... --csv` (one row per kernel launch and metric).

    Returns one entry per launch in ID order: {"id", "kernel", "block", "grid", "metrics"}.
    Also accepts the wide layout (one row per launch, a column per metric).
    """
    rows = list(csv.reader(io.StringIO(text)))
    start = None
    for i, row in enumerate(rows):
        if row and row[0].strip() == "ID" and any("Kernel Name" in c for c in row):
            start = i
            break
    if start is None:
        return []
    header = [h.strip() for h in rows[start]]
    idx = {h: i for i, h in enumerate(header)}
    launches: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    long = "Metric Name" in idx and "Metric Value" in idx
    for row in rows[start + 1 :]:
        if not row or len(row) < len(header) // 2 or row[0].startswith("=="):
            continue
        if row[0].strip() == "ID":
            continue

        def get(h: str, row: list[str] = row) -> str:
            return row[idx[h]].strip() if h in idx and idx[h] < len(row) else ""

        lid = get("ID")
        if lid not in launches:
            launches[lid] = {
                "id": lid,
                "kernel": get("Kernel Name"),
                "block": get("Block Size"),
                "grid": get("Grid Size"),
                "metrics": {},
            }
            order.append(lid)
        if long:
            launches[lid]["metrics"][get("Metric Name")] = parse_number(get("Metric Value"))
        else:
            for h, i in idx.items():
                if "__" in h and i < len(row):
                    launches[lid]["metrics"][h] = parse_number(row[i])
    order.sort(key=lambda s: (len(s), s))
    return [launches[o] for o in order]


# ------------------------------------------------------------------- tooling


def find_tool(name: str, hint_dirs: list[Path]) -> str | None:
    p = shutil.which(name)
    if p:
        return p
    for d in hint_dirs:
        cand = d / name
        if cand.exists():
            return str(cand)
    for pattern in (
        f"/opt/nvidia/nsight-compute/*/{name}",
        f"/usr/local/cuda*/bin/{name}",
        f"/usr/local/NVIDIA-Nsight-Compute*/{name}",
    ):
        import glob

        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[-1]
    return None


def run(
    cmd: list[str], log: list[dict[str, Any]], timeout: float = 600, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        log.append({"cmd": cmd, "rc": "timeout", "seconds": round(time.monotonic() - t0, 2)})
        return subprocess.CompletedProcess(
            cmd, 124, e.stdout or "", (e.stderr or "") + "\n[timeout]"
        )
    except FileNotFoundError as e:
        log.append({"cmd": cmd, "rc": "not-found", "seconds": 0})
        return subprocess.CompletedProcess(cmd, 127, "", str(e))
    log.append({"cmd": cmd, "rc": p.returncode, "seconds": round(time.monotonic() - t0, 2)})
    return p


def first_line(s: str) -> str:
    for line in s.splitlines():
        if line.strip():
            return line.strip()
    return ""


def environment(tools: dict[str, str | None], log: list[dict[str, Any]]) -> dict[str, Any]:
    env: dict[str, Any] = {"host": platform.node(), "python": platform.python_version()}
    smi = shutil.which("nvidia-smi")
    if smi:
        p = run(
            [
                smi,
                "--query-gpu=name,driver_version,compute_cap,memory.total",
                "--format=csv,noheader",
            ],
            log,
            60,
        )
        parts = [x.strip() for x in first_line(p.stdout).split(",")]
        if len(parts) >= 2:
            env["gpu"] = parts[0]
            env["driver"] = parts[1]
            env["compute_capability"] = parts[2] if len(parts) > 2 else None
            env["gpu_memory"] = parts[3] if len(parts) > 3 else None
        p = run([smi], log, 60)
        m = re.search(r"CUDA Version:\s*([\d.]+)", p.stdout)
        env["driver_cuda_version"] = m.group(1) if m else None
    if tools.get("nvcc"):
        p = run([tools["nvcc"], "--version"], log, 60)  # type: ignore[list-item]
        m = re.search(r"release ([\d.]+), (V[\d.]+)", p.stdout)
        env["cuda_version"] = m.group(1) if m else None
        env["nvcc_version"] = m.group(2) if m else first_line(p.stdout)
    if tools.get("ncu"):
        p = run([tools["ncu"], "--version"], log, 60)  # type: ignore[list-item]
        lines = [x for x in p.stdout.splitlines() if x.strip()]
        env["ncu_version"] = lines[-1].strip() if lines else None
    return env


# ---------------------------------------------------------------------- per file


def rel_path(p: Path) -> str:
    try:
        return p.resolve().relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return p.as_posix()


def same_file(a: str | None, b: str) -> bool:
    if not a:
        return False
    return os.path.basename(a) == os.path.basename(b)


def find_function(funcs: dict[str, list[Instr]], kernel: str, targs: str | None) -> str | None:
    for name in funcs:
        if name_matches(name, kernel, targs):
            return name
    return None


def classify_sass(instrs: list[Instr], kind: str, width: int) -> tuple[str, list[dict[str, Any]]]:
    found = []
    for ins in instrs:
        kw = shared_kind_width(ins.text)
        if kw:
            found.append(
                {"offset": f"0x{ins.offset:04x}", "text": ins.text, "kind": kw[0], "width": kw[1]}
            )
    if not found:
        return "missing", found
    kinds = {f["kind"] for f in found}
    widths = {f["width"] for f in found if f["kind"] == kind}
    if kinds != {kind}:
        return ("kind-mismatch" if kind not in kinds else "mixed-kinds"), found
    if widths != {width}:
        return "width-mismatch", found
    return "ok", found


def hw_totals(launch: dict[str, Any] | None, pipes: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not launch:
        return out
    mets = launch["metrics"]
    for pipe in ("ld", "st", "atom"):
        names = HW_METRICS.get(pipe) or OPTIONAL_HW_METRICS.get(pipe)
        assert names is not None
        vals = [mets.get(n) for n in names]
        if any(v is not None for v in vals):
            out[pipe] = {"instructions": vals[0], "wavefronts": vals[1], "bank_conflicts": vals[2]}
    return out


def counters_disagree(hw: dict[str, Any], sc: dict[str, Any], tol: float = 0.1) -> bool:
    """Whether the hardware totals and the source counters give different per-warp costs."""
    for key in ("wavefronts_raw", "ideal_raw"):
        a, b = hw.get(key), sc.get(key)
        if a is not None and b is not None and abs(a - b) > tol:
            return True
    return False


def is_cas(sass: str) -> bool:
    """ATOMS.CAS (not the float loop's ATOMS.CAST.SPIN)."""
    toks = sass.split()
    if toks and toks[0].startswith("@"):
        toks = toks[1:]
    return bool(toks) and toks[0].split(".")[:2] == ["ATOMS", "CAS"]


def cas_ideal(hw: dict[str, Any], sc: dict[str, Any]) -> dict[str, Any]:
    """ATOMS.CAS costs two wavefronts per lane it serves; the kernel's bank-conflict
    counter counts one conflict per extra pass, so wavefronts minus conflicts reads
    k + 1 for k lanes of one bank. Nsight Compute's per-instruction ideal (2) is the
    ideal: the kernel totals' wavefronts with the source counters' ideal."""
    return {**hw, "ideal_raw": sc["ideal_raw"], "ideal_from": "source-counters"}


def per_warp(total: float | None, execs: float | None) -> float | None:
    if total is None or not execs:
        return None
    return total / execs


def rounded(x: float | None) -> int | None:
    return None if x is None else math.floor(x + 0.5)


def build_file(
    path: Path,
    args: argparse.Namespace,
    tools: dict[str, str | None],
    raw_dir: Path,
    build_dir: Path,
    log: list[dict[str, Any]],
) -> dict[str, Any]:
    """Compile one suite file (executable and cubin) and read its SASS."""
    stem = path.stem
    exe = build_dir / stem
    cubin = build_dir / f"{stem}.cubin"
    flags = ["-O3", f"-arch={args.arch}", "-lineinfo"]
    b: dict[str, Any] = {"exe": exe, "built": False, "errors": [], "lined": {}, "exe_sass": {}}
    nvcc = tools.get("nvcc")
    if nvcc:
        p = run([nvcc, *flags, "-o", str(exe), str(path)], log, 300)
        q = run([nvcc, *flags, "-cubin", "-o", str(cubin), str(path)], log, 300)
        b["built"] = p.returncode == 0
        if p.returncode or q.returncode:
            b["errors"].append("nvcc failed: " + (p.stderr or q.stderr)[-2000:])
            print(f"[{stem}] nvcc FAILED", flush=True)
    else:
        b["errors"].append("nvcc not found")
    # SASS with line numbers (cubin), and the executable's SASS for consistency.
    nvdisasm, cuobjdump = tools.get("nvdisasm"), tools.get("cuobjdump")
    if cubin.exists() and nvdisasm:
        p = run([nvdisasm, "-gi", "-c", str(cubin)], log, 120)
        (raw_dir / f"{stem}.nvdisasm.txt").write_text(p.stdout)
        b["lined"] = parse_nvdisasm(p.stdout)
    if exe.exists() and cuobjdump:
        p = run([cuobjdump, "-sass", str(exe)], log, 120)
        (raw_dir / f"{stem}.cuobjdump.txt").write_text(p.stdout)
        b["exe_sass"] = parse_cuobjdump(p.stdout)
    consistent = None
    if b["lined"] and b["exe_sass"]:
        # opcodes only: cuobjdump prints branch targets as addresses, nvdisasm as labels
        consistent = all(
            [i.opcode for i in b["lined"][f]] == [i.opcode for i in b["exe_sass"].get(f, [])]
            for f in b["lined"]
        )
    b["sass_exe_matches_cubin"] = consistent
    print(f"[{stem}] built: {b['built']}, SASS functions: {len(b['lined'])}", flush=True)
    return b


def profile_metrics(
    path: Path,
    build: dict[str, Any],
    args: argparse.Namespace,
    ncu: str,
    raw_dir: Path,
    log: list[dict[str, Any]],
    state: dict[str, Any],
) -> None:
    """One ncu process: the shared-memory hardware counters of every kernel launch."""
    stem = path.stem
    met_csv = raw_dir / f"{stem}.metrics.csv"
    base = [ncu, "--clock-control", "none", "--cache-control", "none"]
    p = None
    t0 = time.monotonic()
    for with_optional in (True, False):
        if with_optional and not state.get("optional_metrics", True):
            continue
        names = [m for pipe in HW_METRICS.values() for m in pipe]
        if with_optional:
            names += [m for pipe in OPTIONAL_HW_METRICS.values() for m in pipe]
        remaining = args.time_budget - (time.monotonic() - state["t0"])
        cmd = [*base, "--metrics", ",".join(names), "--csv", "--print-units", "base"]
        cmd += ["--log-file", str(met_csv), str(build["exe"])]
        p = run(cmd, log, max(60, min(300, remaining)))
        if p.returncode == 0 or not with_optional:
            break
        print(
            f"[{stem}] ncu --metrics rc {p.returncode}; retrying without the atom metrics",
            flush=True,
        )
        state["optional_metrics"] = False
    assert p is not None
    if p.returncode != 0:
        build["errors"].append(f"ncu --metrics rc {p.returncode}: {(p.stderr or p.stdout)[-2000:]}")
    (raw_dir / f"{stem}.metrics.log").write_text(p.stdout + "\n--- stderr ---\n" + p.stderr)
    print(f"[{stem}] ncu metrics: {time.monotonic() - t0:.1f}s rc={p.returncode}", flush=True)


def profile_source(
    path: Path,
    build: dict[str, Any],
    args: argparse.Namespace,
    ncu: str,
    raw_dir: Path,
    log: list[dict[str, Any]],
    state: dict[str, Any],
) -> None:
    """One ncu process with the SourceCounters section, then its source page as CSV."""
    stem = path.stem
    remaining = args.time_budget - (time.monotonic() - state["t0"])
    if remaining < 60:
        build["errors"].append(f"source counters skipped: time budget ({remaining:.0f}s left)")
        print(f"[{stem}] skipping source counters: time budget", flush=True)
        return
    t0 = time.monotonic()
    rep = raw_dir / stem
    base = [ncu, "--clock-control", "none", "--cache-control", "none"]
    cmd = [*base, "--section", "SourceCounters", "--import-source", "yes", "-f", "-o", str(rep)]
    p = run([*cmd, str(build["exe"])], log, max(60, min(400, remaining)))
    (raw_dir / f"{stem}.profile.log").write_text(p.stdout + "\n--- stderr ---\n" + p.stderr)
    if p.returncode != 0:
        build["errors"].append(
            f"ncu SourceCounters rc {p.returncode}: {(p.stderr or p.stdout)[-2000:]}"
        )
    repfile = Path(str(rep) + ".ncu-rep")
    if repfile.exists():
        page = [ncu, "-i", str(repfile), "--page", "source", "--csv", "--print-source"]
        q = run([*page, "cuda,sass"], log, 300)
        (raw_dir / f"{stem}.source.csv").write_text(q.stdout)
        if q.returncode != 0:
            build["errors"].append(f"ncu -i --page source rc {q.returncode}: {q.stderr[-2000:]}")
        if not parse_source_csv(q.stdout).sass_rows:
            # an ncu without the combined view: the SASS view alone, its rows mapped
            # to CUDA lines through nvdisasm's line table by offset
            print(
                f"[{stem}] no SASS rows in the cuda,sass view; trying --print-source sass",
                flush=True,
            )
            q = run([*page, "sass"], log, 300)
            (raw_dir / f"{stem}.source_sass.csv").write_text(q.stdout)
        if not args.keep_reports:
            repfile.unlink()  # can be large; the CSV holds what is used
    print(
        f"[{stem}] ncu source counters: {time.monotonic() - t0:.1f}s rc={p.returncode}", flush=True
    )


def assemble_file(
    path: Path,
    build: dict[str, Any],
    args: argparse.Namespace,
    raw_dir: Path,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Combine markers, SASS and the profiler's output of one file into access records."""
    rel = rel_path(path)
    stem = path.stem
    text = path.read_text()
    markers = parse_markers(path, rel)
    launches = parse_launches(text)
    info: dict[str, Any] = {
        "markers": len(markers),
        "launches": len(launches),
        "errors": build["errors"],
        "sass_exe_matches_cubin": build["sass_exe_matches_cubin"],
    }
    lined: dict[str, list[Instr]] = build["lined"]
    exe_sass: dict[str, list[Instr]] = build["exe_sass"]
    report = SourceReport()
    metric_launches: list[dict[str, Any]] = []
    src_csv = raw_dir / f"{stem}.source.csv"
    met_csv = raw_dir / f"{stem}.metrics.csv"
    if args.reparse is not None:
        for name in (f"{stem}.source.csv", f"{stem}.source_sass.csv", f"{stem}.metrics.csv"):
            src, dst = Path(args.reparse) / name, raw_dir / name
            if src.exists() and src.resolve() != dst.resolve():
                shutil.copyfile(src, dst)
    if met_csv.exists():
        metric_launches = parse_metrics_csv(met_csv.read_text(errors="replace"))
    if src_csv.exists():
        report = parse_source_csv(src_csv.read_text(errors="replace"))
        info["source_view"] = "cuda,sass"
    sass_csv = raw_dir / f"{stem}.source_sass.csv"
    if not report.sass_rows and sass_csv.exists():
        report = parse_source_csv(sass_csv.read_text(errors="replace"))
        info["source_view"] = "sass"
    info["metrics_launches"] = len(metric_launches)
    info["source_functions"] = len(report.functions)
    info["source_sass_rows"] = len(report.sass_rows)
    if report.headers:
        first_header = next(iter(report.headers.values()))
        info["source_csv_header"] = first_header
        info["source_columns"] = source_columns(first_header)

    # Map launches (source order) to ncu's launch IDs (profiling order).
    launch_by_kernel: dict[tuple[str, str | None], int] = {}
    for i, la in enumerate(launches):
        launch_by_kernel.setdefault((la.kernel, la.targs), i)

    def same_kernel(name: str, kernel: str, targs: str | None) -> bool:
        # the launch in the same position: its name may lack the template arguments
        return name_matches(name, kernel, targs) or (
            targs is not None and name_matches(name, kernel, None)
        )

    def metric_launch(kernel: str, targs: str | None) -> dict[str, Any] | None:
        i = launch_by_kernel.get((kernel, targs))
        if (
            i is not None
            and i < len(metric_launches)
            and same_kernel(metric_launches[i]["kernel"], kernel, targs)
        ):
            return metric_launches[i]
        for ml in metric_launches:
            if name_matches(ml["kernel"], kernel, targs):
                return ml
        return None

    def source_block(kernel: str, targs: str | None) -> int | None:
        i = launch_by_kernel.get((kernel, targs))
        fns = report.functions
        if i is not None and i < len(fns) and same_kernel(fns[i], kernel, targs):
            return i
        for j, f in enumerate(fns):
            if name_matches(f, kernel, targs):
                return j
        return None

    results = []
    for mk in markers:
        rec: dict[str, Any] = {
            "id": mk.id,
            "file": mk.file,
            "line": mk.line,
            "kernel": mk.kernel,
            "kind": mk.kind,
            "width": mk.width,
            "later": mk.later,
            "targs": mk.targs,
            "instantiation": mk.inst,
            "warps_expected": [list(w) for w in mk.warps] if mk.warps else None,
            "notes": [],
        }
        li = launch_by_kernel.get((mk.kernel, mk.targs))
        la = launches[li] if li is not None else None
        if la is None:
            rec["notes"].append("no launch of this kernel found in main()")
        else:
            rec["launch"] = {"grid": la.grid, "block": la.block, "threads_per_block": la.threads}
            blocks_n = grid_blocks(la, text)
            if la.threads and blocks_n:
                rec["launch"]["warps_per_block"] = -(-la.threads // 32)
                rec["launch"]["warps"] = blocks_n * -(-la.threads // 32)

        # SASS check from the compiler's line table.
        fname = find_function(lined, mk.kernel, mk.targs) or find_function(
            exe_sass, mk.kernel, mk.targs
        )
        rec["function"] = fname
        if fname and fname in lined:
            on_line = [i for i in lined[fname] if i.line == mk.line and same_file(i.file, mk.file)]
            status, sass = classify_sass(on_line, mk.kind, mk.width)
            rec["sass_check"] = status
            rec["sass"] = sass
            # every shared instruction of the kernel, for the isolation test
            others = [
                shared_kind_width(i.text)
                for i in lined[fname]
                if shared_kind_width(i.text)
                and not (i.line == mk.line and same_file(i.file, mk.file))
            ]
            rec["other_shared_in_kernel"] = sorted({f"{k}.{w}" for k, w in others if k and w})  # type: ignore[misc]
        else:
            rec["sass_check"] = "no-sass" if not lined else "function-not-found"
            rec["sass"] = []
            rec["other_shared_in_kernel"] = None

        # Hardware totals of the kernel.
        ml = metric_launch(mk.kernel, mk.targs)
        totals = hw_totals(ml, KIND_PIPES[mk.kind])
        rec["kernel_totals"] = totals
        if ml:
            rec["kernel_launch_id"] = ml["id"]
            rec["kernel_name_ncu"] = ml["kernel"]
        hw = None
        other_kinds = {o.split(".")[0] for o in rec["other_shared_in_kernel"] or []}
        if totals and rec["other_shared_in_kernel"] is not None:
            if mk.kind == "load" and "load" not in other_kinds and "atomic" not in other_kinds:
                hw = ("ld", totals.get("ld"))
            elif mk.kind == "store" and "store" not in other_kinds and "atomic" not in other_kinds:
                hw = ("st", totals.get("st"))
            elif mk.kind == "atomic":
                # Atomics are counted under one of the pipes: take the one with
                # instructions whose other shared instructions are absent.
                for pipe, clash in (("atom", set()), ("st", {"store"}), ("ld", {"load"})):
                    t = totals.get(pipe)
                    if t and t.get("instructions") and not (clash & other_kinds):
                        hw = (pipe, t)
                        break
        hw_meas = None
        if hw and hw[1] and hw[1].get("instructions"):
            t = hw[1]
            wf = per_warp(t["wavefronts"], t["instructions"])
            conf = t["bank_conflicts"] or 0.0
            ideal = per_warp((t["wavefronts"] or 0.0) - conf, t["instructions"])
            hw_meas = {
                "pipe": hw[0],
                "executions": t["instructions"],
                "wavefronts_raw": wf,
                "ideal_raw": ideal,
            }

        # Source counters of the measured line.
        sc_meas = None
        sfn = source_block(mk.kernel, mk.targs)
        if sfn is not None:
            cols = source_columns(report.headers.get(sfn, []))

            def here(r: SourceRow, sfn: int = sfn, mk: Marker = mk) -> bool:
                return (
                    r.block == sfn
                    and r.line == mk.line
                    and (r.file is None or same_file(r.file, mk.file))
                )

            rows = [r.cells for r in report.sass_rows if here(r)]
            rec["source_counters_attribution"] = "layout"
            by_addr = rows_by_address(report, sfn, cols, lined.get(fname or "", []))
            if by_addr is not None:
                # ncu's SASS rows mapped through the compiler's line table by offset. ncu
                # prints each SASS row twice per CUDA line, and again under an inlined
                # header's "File Path" (atomicAdd's body): one row per offset.
                seen: set[int] = set()
                rows = []
                for ins, cells in by_addr:
                    if ins.line == mk.line and same_file(ins.file, mk.file) \
                            and ins.offset not in seen:
                        seen.add(ins.offset)
                        rows.append(cells)
                rec["source_counters_attribution"] = "address"
            line_row = next((r.cells for r in report.line_rows if here(r)), {})
            shared_rows = []
            for r in rows:
                sass_text = r.get(cols["sass"] or "", "")
                kw = shared_kind_width(sass_text)
                if kw:
                    shared_rows.append((kw, r))
            attributed = [kw for kw, _ in shared_rows]
            rec["source_counters_sass"] = [
                r.get(cols["sass"] or "", "").strip() for _, r in shared_rows
            ]
            if rec["sass"] and sorted(attributed) != sorted(
                (s["kind"], s["width"]) for s in rec["sass"]
            ):
                rec["notes"].append(
                    "ncu attributes different shared instructions to this line than nvdisasm -gi"
                )
            sel = [r for kw, r in shared_rows if kw[0] == mk.kind] or [r for _, r in shared_rows]

            def col_sum(
                key: str, cols: dict[str, str | None] = cols, sel: list[dict[str, str]] = sel
            ) -> float | None:
                c = cols.get(key)
                if c is None:
                    return None
                vals = [parse_number(r.get(c)) for r in sel]
                vals = [v for v in vals if v is not None]
                return sum(vals) if vals else None

            execs = col_sum("executions")
            wf_total = col_sum("wavefronts")
            ideal_total = col_sum("ideal")
            exc_total = col_sum("excessive")
            if ideal_total is None and wf_total is not None and exc_total is not None:
                ideal_total = wf_total - exc_total
            pred = col_sum("predicated_on_thread_executions")
            if sel:
                sc_meas = {
                    "executions": execs,
                    "wavefronts_total": wf_total,
                    "ideal_total": ideal_total,
                    "excessive_total": exc_total,
                    "wavefronts_raw": per_warp(wf_total, execs),
                    "ideal_raw": per_warp(ideal_total, execs),
                    "threads_per_execution": per_warp(pred, execs),
                }
            rec["source_counters_raw"] = {
                "line_row": {k: v for k, v in line_row.items() if v not in ("", None)},
                "sass_rows": [{k: v for k, v in r.items() if v not in ("", None)} for r in sel],
            }
        rec["hw_counters"] = hw_meas
        rec["source_counters"] = sc_meas

        # The measurement.
        primary = None
        if hw_meas and hw_meas["wavefronts_raw"] is not None:
            primary = ("kernel-totals", hw_meas)
        elif sc_meas and sc_meas["wavefronts_raw"] is not None:
            primary = ("source-counters", sc_meas)
        if primary and primary[0] == "kernel-totals" and sc_meas \
                and sc_meas.get("ideal_raw") is not None \
                and any(is_cas(x["text"]) for x in rec["sass"] or []):
            primary = ("kernel-totals", cas_ideal(primary[1], sc_meas))
        if primary:
            m = primary[1]
            rec["measured"] = {
                "source": primary[0],
                "executions": m["executions"],
                "wavefronts": rounded(m["wavefronts_raw"]),
                "ideal_wavefronts": rounded(m["ideal_raw"]),
                "wavefronts_raw": m["wavefronts_raw"],
                "ideal_raw": m["ideal_raw"],
                **({"ideal_from": m["ideal_from"]} if "ideal_from" in m else {}),
            }
            if (
                not mk.warps  # with warps= the average is the mean of unequal warps
                and m["wavefronts_raw"] is not None
                and abs(m["wavefronts_raw"] - (rounded(m["wavefronts_raw"]) or 0)) > 0.05
            ):
                rec["notes"].append(
                    f"wavefronts per warp not an integer: {m['wavefronts_raw']:.4f}"
                )
            if hw_meas and sc_meas and counters_disagree(hw_meas, sc_meas):
                rec["notes"].append(
                    "hardware kernel totals and per-instruction source counters disagree"
                )
                rec["counters_disagree"] = True
            warps_total = (rec.get("launch") or {}).get("warps")
            if (
                warps_total
                and m["executions"]
                and "loop" not in mk.id
                and m["executions"] != warps_total
            ):
                rec["notes"].append(
                    f"executions {m['executions']:.0f} != warps launched {warps_total}"
                )
        else:
            rec["measured"] = None
        rec["status"] = (
            "ok"
            if rec["measured"] and rec["sass_check"] == "ok"
            else "sass-" + rec["sass_check"]
            if rec["sass_check"] not in ("ok", "no-sass") and rec["measured"]
            else "no-data"
            if not rec["measured"]
            else "ok-unchecked-sass"
        )
        results.append(rec)
    ok = sum(1 for r in results if r["status"] == "ok")
    print(f"[{stem}] {ok}/{len(results)} accesses measured and SASS-checked", flush=True)
    return results, info


def suite_files(args: argparse.Namespace) -> list[Path]:
    if args.files:
        return [Path(f).resolve() for f in args.files]
    return sorted(SCRIPT_DIR.glob("*.cu"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out",
        default=str(SCRIPT_DIR / "results"),
        help="directory for <name>.json and raw/ (default bench/accuracy/results)",
    )
    ap.add_argument("--name", default="sm90_h100", help="results file name without .json")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument(
        "--no-profile", action="store_true", help="build and check the SASS only (no GPU needed)"
    )
    ap.add_argument("--no-source-counters", action="store_true", help="hardware kernel totals only")
    ap.add_argument(
        "--reparse",
        metavar="DIR",
        help="do not run ncu: parse DIR/<stem>.source.csv and .metrics.csv",
    )
    ap.add_argument(
        "--keep-reports", action="store_true", help="keep the .ncu-rep files under raw/"
    )
    ap.add_argument(
        "--keep-build",
        action="store_true",
        help="build under DIR/build instead of a temporary directory",
    )
    ap.add_argument(
        "--time-budget",
        type=float,
        default=420.0,
        help="seconds; source counters are skipped past it",
    )
    ap.add_argument("files", nargs="*", help="suite files (default: bench/accuracy/*.cu)")
    args = ap.parse_args(argv)

    out = Path(args.out)
    raw_dir = out / "raw"
    raw_dir.mkdir(parents=True, exist_ok=True)
    if args.keep_build:
        build_dir = out / "build"
        build_dir.mkdir(parents=True, exist_ok=True)
    else:
        build_dir = Path(tempfile.mkdtemp(prefix="cudalint-accuracy-"))
    log: list[dict[str, Any]] = []
    state: dict[str, Any] = {"t0": time.monotonic()}

    nvcc = find_tool("nvcc", [Path("/usr/local/cuda/bin")])
    bindirs = [Path(nvcc).resolve().parent] if nvcc else []
    bindirs.append(Path("/usr/local/cuda/bin"))
    tools = {
        "nvcc": nvcc,
        "nvdisasm": find_tool("nvdisasm", bindirs),
        "cuobjdump": find_tool("cuobjdump", bindirs),
        "ncu": None if args.no_profile or args.reparse else find_tool("ncu", bindirs),
    }
    print("tools: " + ", ".join(f"{k}={v or 'MISSING'}" for k, v in tools.items()), flush=True)
    if not args.no_profile and not args.reparse and not tools["ncu"]:
        print(
            "error: ncu not found (use --no-profile to build and check SASS only)", file=sys.stderr
        )
        return 2

    env = environment(tools, log)
    print("env: " + json.dumps(env), flush=True)

    files = suite_files(args)
    # Builds in parallel; then the hardware counters of every file (the primary
    # measurement) before the slower source counters, so a tight time budget
    # costs the cross-check, not the measurement.
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        builds = list(
            pool.map(lambda f: build_file(f, args, tools, raw_dir, build_dir, log), files)
        )
    ncu = tools["ncu"]
    if ncu and not args.no_profile and args.reparse is None:
        for f, b in zip(files, builds, strict=True):
            if b["built"]:
                profile_metrics(f, b, args, ncu, raw_dir, log, state)
        if not args.no_source_counters:
            for f, b in zip(files, builds, strict=True):
                if b["built"]:
                    profile_source(f, b, args, ncu, raw_dir, log, state)
    accesses: list[dict[str, Any]] = []
    files_info: dict[str, Any] = {}
    for f, b in zip(files, builds, strict=True):
        recs, info = assemble_file(f, b, args, raw_dir)
        accesses.extend(recs)
        files_info[rel_path(f)] = info

    ids = [a["id"] for a in accesses]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        print(f"error: duplicate measure ids: {dup}", file=sys.stderr)

    result = {
        "format": 1,
        "name": args.name,
        "arch": args.arch,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "environment": env,
        "tools": tools,
        "build_flags": ["-O3", f"-arch={args.arch}", "-lineinfo"],
        "ncu_commands": [
            "ncu --clock-control none --cache-control none --metrics <see metrics> --csv --print-units base --log-file F.metrics.csv ./F",
            "ncu --clock-control none --cache-control none --section SourceCounters --import-source yes -f -o F ./F",
            "ncu -i F.ncu-rep --page source --print-source cuda,sass --csv",
        ],
        "metrics": {
            **HW_METRICS,
            **(OPTIONAL_HW_METRICS if state.get("optional_metrics", True) else {}),
        },
        "per_warp": (
            "measured wavefronts per warp = wavefronts / executed warp-level instructions of "
            "the measured access (the average over all warps of the launch). Kernels are built "
            "so that every warp performs the same access; where they differ (partial last "
            "warps) the marker's warps= list gives each warp's cost, whose mean must equal "
            "the measured average and whose maximum is compared with cudalint's worst warp."
        ),
        "measurement_source": (
            "kernel-totals: hardware counters of the kernel (the access is the only shared "
            "instruction of its pipe in its kernel); source-counters: Nsight Compute's "
            "per-instruction Source Counters for the measured line"
        ),
        "files": files_info,
        "known_limitations": {},
        "accesses": accesses,
        "commands_log": log,
        "seconds": round(time.monotonic() - state["t0"], 1),
    }
    out_file = out / f"{args.name}.json"
    out_file.write_text(json.dumps(result, indent=1, sort_keys=False) + "\n")

    n = len(accesses)
    ok = sum(1 for a in accesses if a["status"] == "ok")
    print(
        f"\n{ok}/{n} accesses measured with a clean SASS check; wrote {out_file} in {result['seconds']}s"
    )
    for a in accesses:
        m = a.get("measured") or {}
        flag = "" if a["status"] == "ok" else f"  [{a['status']}]"
        notes = ("  " + "; ".join(a["notes"])) if a["notes"] else ""
        sass = ",".join(s["text"].split()[0] for s in a.get("sass", [])) or "-"
        print(
            f"  {a['id']:<32} {a['file'].split('/')[-1]}:{a['line']:<4} {sass:<22} "
            f"{m.get('wavefronts', '-')!s:>3}/{m.get('ideal_wavefronts', '-')!s:<3}"
            f" ({m.get('source', '-')}){flag}{notes}"
        )
    return 0 if not dup else 1


if __name__ == "__main__":
    sys.exit(main())
