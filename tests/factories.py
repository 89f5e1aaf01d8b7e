"""Hand-built IR and model results for the CLI, rule and output tests.

These tests must not depend on the real frontend and model: ``install_fake_pipeline``
replaces ``cudalint.checker.parse_file`` / ``cudalint.checker.analyze`` with lookups in the
tables below, keyed by the file's base name.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cudalint.checker
import cudalint.frontend
import cudalint.model.analyze
from cudalint.frontend import FrontendError
from cudalint.ir import (
    THREAD_IDX,
    Access,
    AccessKind,
    Binary,
    Const,
    Expr,
    Kernel,
    Launch,
    Note,
    SharedArray,
    Span,
    Sym,
    TranslationUnit,
)
from cudalint.model.results import AccessResult, BankConflict
from cudalint.options import Options

TRANSPOSE = """\
#define TILE 32

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * 1024 + x];
    __syncthreads();
    out[y * 1024 + x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in)
{
    transpose<<<dim3(32, 32), dim3(32, 8)>>>(out, in);
}
"""

# A tab-indented access, a non-ASCII comment before it, and a parameter stride.
STRIDED = """\
#include "missing.cuh"

__global__ void strided(float *out, int stride)
{
\t__shared__ double s[1024];
\t/* é */ out[threadIdx.x] = s[threadIdx.x * stride];
\tout[threadIdx.x] += s[perm(threadIdx.x)];
}
"""

CLEAN = """\
__global__ void clean(float *out)
{
    __shared__ float s[32];
    s[threadIdx.x] = 1.0f;
    out[threadIdx.x] = s[threadIdx.x];
}
"""


def float_store(offset: Expr, name: str = "a", size: int = 256) -> tuple[Access, SharedArray]:
    """A store of 4-byte ``float`` into ``__shared__ float name[size]`` of kernel ``k``
    at byte ``offset``: one access and its array, for model tests."""
    return float_access(offset, name, size)


def float_access(
    offset: Expr,
    name: str = "a",
    size: int = 256,
    kind: AccessKind = "store",
    guard: Expr | None = None,
) -> tuple[Access, SharedArray]:
    """A 4-byte ``kind`` access (under ``guard``) to ``__shared__ float name[size]`` of
    kernel ``k`` at byte ``offset``: one access and its array, for model tests."""
    array = SharedArray(
        key=f"k::{name}",
        name=name,
        element_type="float",
        element_bytes=4,
        dims=(size,),
        span=Span("f.cu", 1, 1, 1, 2),
        kernel="k",
    )
    access = Access(
        array=array.key,
        kernel="k",
        kind=kind,
        width=4,
        offset=offset,
        span=Span("f.cu", 2, 1, 2, 9),
        guard=guard,
    )
    return access, array


def locate(source: str, text: str, file: str, occurrence: int = 0) -> Span:
    """The span of the ``occurrence``-th ``text`` in ``source`` (1-based, UTF-8 bytes)."""
    data = source.encode()
    needle = text.encode()
    start = -1
    for _ in range(occurrence + 1):
        start = data.index(needle, start + 1)
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return Span(file, line, column, line, column + len(needle))


TX = Sym(THREAD_IDX[0], lane_dependent=True)
TY = Sym(THREAD_IDX[1], lane_dependent=True)


def transpose_unit(file: str = "transpose.cu") -> tuple[TranslationUnit, list[AccessResult]]:
    src = TRANSPOSE
    tile = SharedArray(
        key="transpose::tile",
        name="tile",
        element_type="float",
        element_bytes=4,
        dims=(32, 32),
        span=locate(src, "tile[TILE][TILE]", file),
        kernel="transpose",
    )
    store = Access(
        array=tile.key,
        kernel="transpose",
        kind="store",
        width=4,
        offset=Binary("*", Binary("+", Binary("*", TY, Const(32)), TX), Const(4)),
        span=locate(src, "tile[threadIdx.y][threadIdx.x]", file),
        text="tile[threadIdx.y][threadIdx.x]",
    )
    load = Access(
        array=tile.key,
        kernel="transpose",
        kind="load",
        width=4,
        offset=Binary("*", Binary("+", Binary("*", TX, Const(32)), TY), Const(4)),
        span=locate(src, "tile[threadIdx.x][threadIdx.y]", file),
        text="tile[threadIdx.x][threadIdx.y]",
    )
    unit = TranslationUnit(
        file=file,
        kernels=(Kernel("transpose", locate(src, "transpose(float", file)),),
        arrays=(tile,),
        accesses=(store, load),
        launches=(Launch("transpose", (32, 8, 1), locate(src, "transpose<<<", file)),),
    )
    common = dict(
        arch="sm_90",
        bank_mode=4,
        status="proved",
        reason=None,
        block_dim=(32, 8, 1),
        block_dim_source="launch",
    )
    results = [
        AccessResult(access=store, wavefronts=1, ideal_wavefronts=1, warp=0, **common),  # type: ignore[arg-type]
        AccessResult(
            access=load,
            wavefronts=32,
            ideal_wavefronts=1,
            warp=0,
            conflict=BankConflict(
                bank=0,
                words=tuple(32 * i for i in range(32)),
                lanes=tuple((i,) for i in range(32)),
            ),
            **common,  # type: ignore[arg-type]
        ),
    ]
    return unit, results


def strided_unit(file: str = "strided.cu") -> tuple[TranslationUnit, list[AccessResult]]:
    src = STRIDED
    s = SharedArray(
        key="strided::s",
        name="s",
        element_type="double",
        element_bytes=8,
        dims=(1024,),
        span=locate(src, "s[1024]", file),
        kernel="strided",
    )
    stride = Sym("stride", lane_dependent=False)
    load = Access(
        array=s.key,
        kernel="strided",
        kind="load",
        width=8,
        offset=Binary("*", Binary("*", TX, stride), Const(8)),
        span=locate(src, "s[threadIdx.x * stride]", file),
    )
    unknown = Access(
        array=s.key,
        kernel="strided",
        kind="load",
        width=8,
        offset=Const(0),
        span=locate(src, "s[perm(threadIdx.x)]", file),
        unknown_reason="index depends on a call to 'perm'",
    )
    unit = TranslationUnit(
        file=file,
        kernels=(Kernel("strided", locate(src, "strided(", file)),),
        arrays=(s,),
        accesses=(load, unknown),
        notes=(
            Note("error", "'missing.cuh' file not found", locate(src, '"missing.cuh"', file)),
            Note("note", "something skipped", None),
        ),
    )
    results = [
        # sm_35, both bank modes: a possible conflict in 4-byte mode, 1.5-way in 8-byte mode.
        AccessResult(
            access=load,
            arch="sm_35",
            bank_mode=4,
            status="worst-case",
            wavefronts=32,
            ideal_wavefronts=1,
            reason="when stride % 16 == 0",
            reason_kind="condition",
            block_dim=None,
            block_dim_source="assumed",
            conflict=BankConflict(bank=0, words=(0, 2), lanes=((0, 16), (1, 17))),
        ),
        AccessResult(
            access=load,
            arch="sm_35",
            bank_mode=8,
            status="proved",
            wavefronts=3,
            ideal_wavefronts=2,
            reason=None,
            block_dim=None,
            block_dim_source="assumed",
            conflict=BankConflict(bank=3, words=(3, 35, 67), lanes=((3,), (4,), (5,))),
        ),
        AccessResult(
            access=unknown,
            arch="sm_35",
            bank_mode=4,
            status="unknown",
            wavefronts=None,
            ideal_wavefronts=None,
            reason="index depends on a call to 'perm'",
            block_dim=None,
            block_dim_source="assumed",
        ),
    ]
    return unit, results


def clean_unit(file: str = "clean.cu") -> tuple[TranslationUnit, list[AccessResult]]:
    src = CLEAN
    s = SharedArray(
        key="clean::s",
        name="s",
        element_type="float",
        element_bytes=4,
        dims=(32,),
        span=locate(src, "s[32]", file),
        kernel="clean",
    )
    accesses = (
        Access(
            array=s.key,
            kernel="clean",
            kind="store",
            width=4,
            offset=Binary("*", TX, Const(4)),
            span=locate(src, "s[threadIdx.x]", file),
        ),
        Access(
            array=s.key,
            kernel="clean",
            kind="load",
            width=4,
            offset=Binary("*", TX, Const(4)),
            span=locate(src, "s[threadIdx.x]", file, occurrence=1),
        ),
    )
    unit = TranslationUnit(
        file=file,
        arrays=(s,),
        accesses=accesses,
        kernels=(Kernel("clean", locate(src, "clean(", file)),),
    )
    results = [
        AccessResult(
            access=a,
            arch="sm_90",
            bank_mode=4,
            status="proved",
            wavefronts=1,
            ideal_wavefronts=1,
            reason=None,
            block_dim=(32, 1, 1),
            block_dim_source="cli",
        )
        for a in accesses
    ]
    return unit, results


SOURCES = {"transpose.cu": TRANSPOSE, "strided.cu": STRIDED, "clean.cu": CLEAN}
UNITS: dict[str, Callable[[str], tuple[TranslationUnit, list[AccessResult]]]] = {
    "transpose.cu": transpose_unit,
    "strided.cu": strided_unit,
    "clean.cu": clean_unit,
}


def write_sources(directory: Path, names: tuple[str, ...] = tuple(SOURCES)) -> None:
    for name in names:
        (directory / name).write_text(SOURCES[name], encoding="utf-8")


class FakePipeline:
    """Stands in for the frontend and the model; records what it was asked."""

    def __init__(self) -> None:
        self.parsed: list[str] = []
        self.options: list[Options] = []
        self._results: dict[str, list[AccessResult]] = {}

    def parse_file(
        self, path: str, options: Options, contents: bytes | None = None
    ) -> TranslationUnit:
        self.parsed.append(path)
        self.options.append(options)
        name = os.path.basename(path)
        if name == "broken.cu":
            raise FrontendError("libclang could not parse the file")
        if name == "crash.cu":
            raise ZeroDivisionError("division by zero")
        if name not in UNITS:
            return TranslationUnit(file=path)
        unit, results = UNITS[name](path)
        self._results[path] = results
        return unit

    def analyze(
        self, tu: TranslationUnit, options: Options, run: object = None
    ) -> list[AccessResult]:
        return self._results.get(tu.file, [])


def install_fake_pipeline(monkeypatch: pytest.MonkeyPatch) -> FakePipeline:
    fake = FakePipeline()
    # the serial run analyses in a forked child, where what the fake records is lost
    monkeypatch.setenv("CUDALINT_IN_PROCESS", "1")
    # The fix planner binds the prover at its import: imported first under the fake, it
    # would keep the fake for the rest of the session (no fix for any later real file).
    for module in ("cudalint.fixes.packing", "cudalint.fixes.recheck"):
        importlib.import_module(module)
    # where the per-file pipeline (cudalint.checker) finds them, whether it imports
    # them at its own import or on first use
    monkeypatch.setattr(cudalint.frontend, "parse_file", fake.parse_file)
    monkeypatch.setattr(cudalint.model.analyze, "analyze", fake.analyze)
    monkeypatch.setattr(cudalint.checker, "parse_file", fake.parse_file, raising=False)
    monkeypatch.setattr(cudalint.checker, "analyze", fake.analyze, raising=False)
    return fake


# --- running the command line in-process ------------------------------------------------------


def run_cli(
    capsys: pytest.CaptureFixture[str], *argv: str, isolated: bool = False, strict: bool = False
) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``cudalint ARGV`` run in this process.

    ``isolated``: with ``--isolated`` (no configuration file is read). No run may print a
    traceback; with ``strict`` none may report an internal error either. The ``cli``
    fixture (conftest.py) is this function with the test's ``capsys``."""
    from cudalint.cli import main

    code = main(["--isolated", *argv] if isolated else list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if strict:
        assert "internal error" not in out + err
    return code, out, err


# --- shared by the pre-commit and README tests --------------------------------------------

#: A transpose whose read of tile[32][32] is 32-way (lanes threadIdx.x = 0..31 read words
#: 32*i: all bank 0), and its padded twin (tile[32][33]: words 33*i, banks i, none).
TRANSPOSE_CONFLICT = """\
__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) { transpose<<<1, dim3(32, 32)>>>(out, in); }
"""
TRANSPOSE_CLEAN = TRANSPOSE_CONFLICT.replace("tile[32][32]", "tile[32][33]")


def git(cwd: Path, *args: str) -> str:
    """``git ARGS`` in ``cwd`` with a fixed identity and no signing; its stdout. Fails the
    test with git's stderr when git fails."""
    proc = subprocess.run(
        [
            "git",
            "-c",
            "user.name=cudalint tests",
            "-c",
            "user.email=tests@invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc.stdout


def code_blocks(text: str, lang: str) -> list[str]:
    """The fenced ``lang`` code blocks of a Markdown text."""
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


def count_calls(monkeypatch: pytest.MonkeyPatch, cls: Any, name: str) -> Counter[str]:
    """Counts the calls of method ``name`` of ``cls`` (by that name) from here on."""
    seen: Counter[str] = Counter()
    inner = getattr(cls, name)

    def counted(self: Any, *args: Any) -> Any:
        seen[name] += 1
        return inner(self, *args)

    monkeypatch.setattr(cls, name, counted)
    return seen
