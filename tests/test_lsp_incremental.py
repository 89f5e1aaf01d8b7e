"""The language server's incremental path (issue 15): its diagnostics are the command line's.

- Through ``cudalint lsp`` (a subprocess, real JSON-RPC): a document edited several times,
  and after every edit the published diagnostics equal those of ``cudalint --format json``
  on the same text: a one-line edit in one kernel, a ``#define`` and a launch shape that
  an unchanged kernel uses, a line inserted above everything, a syntax error and its fix.
- In this process: ``ParsedDocument`` (reparse with a precompiled preamble) gives the IR of
  a fresh parse, also when the main file's directives or an included header change; the
  slice cache (``cudalint.model.slices``) gives ``analyze``'s results, reuses what did not
  change, and rebinds the results to the new unit's accesses.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cudalint.frontend import parse as frontend_parse
from cudalint.model import analyze as analyze_mod
from cudalint.model.slices import AnalysisCache, slices
from cudalint.options import Options

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from lsp_latency import Client  # noqa: E402  (the benchmark's client: a real one)

DOCUMENT = """\
#define TILE 32
#define ROWS 8
#define N 256

__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(threadIdx.y + j) * TILE + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        out[(threadIdx.y + j) * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void reduce(const float *in, float *out) {
    __shared__ float partial[N];
    unsigned tid = threadIdx.x;
    partial[tid] = in[tid];
    __syncthreads();
    for (unsigned s = 1; s < N; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < N)
            partial[index] += partial[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void columns(double *out) {
    __shared__ double cells[32][16];
    cells[threadIdx.x][threadIdx.y] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = cells[threadIdx.x][0];
}

void run(float *a, float *b, double *c) {
    transpose<<<1, dim3(TILE, ROWS)>>>(b, a);
    reduce<<<1, N>>>(a, b);
    columns<<<1, dim3(32, 16)>>>(c);
}
"""


def _replace_line(text: str, contains: str, new: str) -> str:
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if contains in line)
    lines[index] = new
    return "\n".join(lines)


def _edits() -> list[tuple[str, str]]:
    """(what, text) after each edit, in order."""
    out: list[tuple[str, str]] = []
    text = DOCUMENT
    steps = [
        (
            "one-line edit in reduce",
            lambda t: _replace_line(
                t,
                "partial[index] += partial[index + s];",
                "            partial[index] += partial[index + s];  // typing",
            ),
        ),
        (
            "#define used by the unchanged transpose's launch",
            lambda t: _replace_line(t, "#define ROWS 8", "#define ROWS 32"),
        ),
        (
            "launch shape of the unchanged columns",
            lambda t: t.replace("columns<<<1, dim3(32, 16)>>>", "columns<<<1, dim3(16, 32)>>>"),
        ),
        (
            "a line inserted above every kernel",
            lambda t: t.replace(
                "#define N 256\n", "#define N 256\n// a comment that moves every line\n"
            ),
        ),
        (
            "syntax error",
            lambda t: _replace_line(
                t, "unsigned tid = threadIdx.x;", "    unsigned tid = threadIdx.x +;"
            ),
        ),
        (
            "syntax error fixed",
            lambda t: _replace_line(
                t, "unsigned tid = threadIdx.x +;", "    unsigned tid = threadIdx.x;"
            ),
        ),
        (
            "stride of reduce changed",
            lambda t: t.replace("partial[tid] = in[tid];", "partial[2 * tid] = in[tid];"),
        ),
    ]
    for what, step in steps:
        new = step(text)
        assert new != text, what
        text = new
        out.append((what, text))
    return out


def _cli_rows(path: Path, text: str) -> list[tuple[int, int, str, str]]:
    """``cudalint --format json`` on ``text`` as ``path``: each diagnostic of the file as
    the server words it (its message, notes and fix title), sorted."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cudalint",
            "--format",
            "json",
            "--isolated",
            "--no-cache",
            "--exit-zero",
            "--stdin-filename",
            str(path),
            "-",
        ],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=path.parent,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr.decode()
    rows = []
    for d in json.loads(done.stdout)["diagnostics"]:
        if os.path.abspath(d["file"]) != str(path):
            continue
        message = "\n".join([d["message"], *d.get("notes", [])])
        if d.get("fix"):
            message += "\nhelp: " + d["fix"]["title"]
        rows.append((d["line"], d["column"], d["code"], message))
    return sorted(rows)


def _server_rows(diagnostics: list[dict[str, Any]], text: str) -> list[tuple[int, int, str, str]]:
    lines = text.split("\n")
    rows = []
    for d in diagnostics:
        start = d["range"]["start"]
        line = lines[start["line"]]
        # ASCII document: UTF-16 units are bytes; columns are 1-based
        assert line.isascii()
        rows.append((start["line"] + 1, start["character"] + 1, d.get("code", ""), d["message"]))
    return sorted(rows)


def test_server_diagnostics_equal_the_command_line_after_every_edit(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    path = tmp_path / "kernels.cu"
    path.write_text(DOCUMENT, encoding="utf-8")
    uri = path.as_uri()
    client = Client(tmp_path, [])
    try:
        client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": tmp_path.as_uri(),
                "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
                "initializationOptions": {"debounceMs": 0, "isolated": True},
            },
        )
        client.notify("initialized", {})
        client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "cuda-cpp",
                    "version": 1,
                    "text": DOCUMENT,
                }
            },
        )
        _, diagnostics = client.diagnostics(uri, 1)
        previous = _server_rows(diagnostics, DOCUMENT)
        assert previous == _cli_rows(path, DOCUMENT)
        assert {r[2] for r in previous} >= {"CL001", "CL002"}
        changed = []
        for version, (what, text) in enumerate(_edits(), start=2):
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}],
                },
            )
            _, diagnostics = client.diagnostics(uri, version)
            rows = _server_rows(diagnostics, text)
            assert rows == _cli_rows(path, text), what
            if rows != previous:
                changed.append(what)
            previous = rows
        # the edits that matter did change the diagnostics (the comparison saw them)
        assert "#define used by the unchanged transpose's launch" in changed
        assert "launch shape of the unchanged columns" in changed
        assert "syntax error" in changed and "syntax error fixed" in changed
    finally:
        client.close()


# --- in this process ---------------------------------------------------------------------


@pytest.fixture
def documents() -> Any:
    store = frontend_parse.keep_documents(4)
    try:
        yield store
    finally:
        frontend_parse.keep_documents(None)


def test_reparsed_document_gives_the_ir_of_a_fresh_parse(tmp_path: Path, documents: Any) -> None:
    header = tmp_path / "shape.h"
    header.write_text("#define ROWS 8\n")
    path = tmp_path / "kernels.cu"
    options = Options()
    versions = [
        '#include "shape.h"\n' + t.replace("#define ROWS 8\n", "").replace("#define ROWS 32\n", "")
        for t in [DOCUMENT, *(t for _, t in _edits())]
    ]
    doc = documents.document(str(path))
    for text in versions:
        data = text.encode()
        frontend_parse._documents = None
        fresh = frontend_parse.parse_file(str(path), options, contents=data)
        frontend_parse._documents = documents
        assert frontend_parse.parse_file(str(path), options, contents=data) == fresh
    assert (doc.parses, doc.reparses) == (1, len(versions) - 1)
    # the included header changes on disk: a fresh parse, with the header's new value
    header.write_text("#define ROWS 16\n")
    os.utime(header, ns=(1, 1))
    parses = doc.parses
    data = versions[-1].encode()
    unit = frontend_parse.parse_file(str(path), options, contents=data)
    assert doc.parses == parses + 1
    frontend_parse._documents = None
    assert frontend_parse.parse_file(str(path), options, contents=data) == unit
    assert any(launch.block == (32, 16, 1) for launch in unit.launches)


def test_slice_cache_gives_the_results_of_analyze() -> None:
    options = Options()
    cache = AnalysisCache(analyze_mod._analyze)
    texts = [DOCUMENT, *(t for _, t in _edits())]
    for text in texts:
        unit = frontend_parse.parse_file("/tmp/kernels.cu", options, contents=text.encode())
        full = analyze_mod._analyze(unit, options)
        cached = cache(unit, options)
        assert cached == full
        # results name the new unit's access objects (rules compare by identity)
        ids = {id(a) for a in unit.accesses}
        assert all(id(r.access) in ids for r in cached)
    # every edit but the syntax error changed one kernel's inputs at most a few times
    assert cache.reused >= len(texts)
    unit = frontend_parse.parse_file("/tmp/kernels.cu", options, contents=DOCUMENT.encode())
    assert {tuple(sorted({a.kernel for a in s.accesses})) for s in slices(unit)} == {
        ("transpose",),
        ("reduce",),
        ("columns",),
    }


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "fixtures").glob("*.cu")))
def test_slices_of_fixtures_analyse_as_the_whole(name: str) -> None:
    path = ROOT / "fixtures" / name
    options = dataclasses.replace(Options(), timeout=None)
    unit = frontend_parse.parse_file(str(path), options)
    cache = AnalysisCache(analyze_mod._analyze)
    assert cache(unit, options) == analyze_mod._analyze(unit, options)


#: A real file whose reparse (precompiled preamble) made libclang list its includes
#: incompletely and out of order: ``#include``s after the first line of code.
BITONIC = Path("/work/repos/cuda-samples/Samples/0_Introduction/mergeSort/bitonic.cu")


@pytest.mark.skipif(not BITONIC.is_file(), reason="needs the cuda-samples clone")
def test_reparse_keeps_the_includes_libclang_leaves_out(documents: Any) -> None:
    common = BITONIC.parents[3] / "Common"
    options = dataclasses.replace(Options(), include_dirs=(str(common),))
    source = BITONIC.read_bytes()
    frontend_parse._documents = None
    fresh = frontend_parse.parse_file(str(BITONIC), options, contents=source + b"// x\n")
    frontend_parse._documents = documents
    frontend_parse.parse_file(str(BITONIC), options, contents=source)
    reparsed = frontend_parse.parse_file(str(BITONIC), options, contents=source + b"// x\n")
    assert documents.document(str(BITONIC)).reparses == 1
    assert reparsed == fresh
    assert len(reparsed.includes) == 3


def test_slice_cache_keeps_source_order_when_kernels_interleave() -> None:
    options = Options()
    unit = frontend_parse.parse_file("/tmp/kernels.cu", options, contents=DOCUMENT.encode())
    by_kernel: dict[str, list[Any]] = {}
    for a in unit.accesses:
        by_kernel.setdefault(a.kernel, []).append(a)
    # one access of each kernel in turn: the slices' results must be interleaved back
    mixed: list[Any] = []
    while any(by_kernel.values()):
        for accesses in by_kernel.values():
            if accesses:
                mixed.append(accesses.pop(0))
    unit = dataclasses.replace(unit, accesses=tuple(mixed))
    assert AnalysisCache(analyze_mod._analyze)(unit, options) == analyze_mod._analyze(unit, options)
