"""The walker's reuse between versions of a document (issue 15, ``cudalint.frontend.reuse``).

A document kept by the language server's worker (``ParsedDocument``) is edited step by
step; after every step its IR and its diagnostics equal those of a parse and analysis
from scratch. The steps change what an unchanged kernel depends on: a ``#define`` and a
constant in a launch's ``dim3``, a template argument at a launch, a ``__device__``
helper's body, a host helper whose value is the block size, a constant a launch passes
to a kernel parameter, a line inserted above everything; a comment typed into a kernel
reuses the other kernels' runs and the host evaluation. A reuse that ignored the context
(``WalkReuse.begin`` keeping every result) gives a different IR on every dependency step:
the comparison would catch it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cudalint import checker
from cudalint.budget import Budget
from cudalint.frontend import parse as frontend_parse
from cudalint.frontend.cursors import Function
from cudalint.frontend.reuse import WalkReuse
from cudalint.frontend.walker import Walker
from cudalint.ir import TranslationUnit
from cudalint.options import Options

DOCUMENT = """\
#define THREADS 64
const int ROWS = 2;

__device__ int slot(int t) { return t * 2; }

template <int STRIDE>
__global__ void strided(float *out) {
    __shared__ float buf[2048];
    buf[threadIdx.x * STRIDE] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void helper_user(float *out) {
    __shared__ float cells[4096];
    cells[slot(threadIdx.x)] = 0.0f;
    __syncthreads();
    out[threadIdx.x] = cells[threadIdx.x];
}

__global__ void rows(float *out, int pitch) {
    __shared__ float grid[8][512];
    grid[threadIdx.y][threadIdx.x * pitch] = 0.0f;
    __syncthreads();
    out[threadIdx.x] = grid[0][threadIdx.x];
}

int threads_for(int n) { return n < 1024 ? 32 : 64; }

void run(float *out) {
    dim3 block(THREADS, ROWS);
    strided<2><<<1, THREADS>>>(out);
    helper_user<<<1, threads_for(10)>>>(out);
    rows<<<1, block>>>(out, 1);
}
"""

#: (what, old text, new text): applied in order, each to the text the previous left.
STEPS: list[tuple[str, str, str]] = [
    (
        "comment typed in strided",
        "buf[threadIdx.x * STRIDE] = 1.0f;",
        "buf[threadIdx.x * STRIDE] = 1.0f;  // typing",
    ),
    ("#define in a launch's dim3", "#define THREADS 64", "#define THREADS 32"),
    ("constant in a launch's dim3", "const int ROWS = 2;", "const int ROWS = 4;"),
    ("template argument at a launch", "strided<2><<<", "strided<4><<<"),
    ("device helper's body", "return t * 2;", "return t * 3;"),
    ("host helper giving the block size", "? 32 : 64;", "? 64 : 64;"),
    ("constant passed to a kernel parameter", "(out, 1);", "(out, 2);"),
    (
        "line inserted above everything",
        "#define THREADS 32\n",
        "#define THREADS 32\n// a line that moves every kernel\n",
    ),
    (
        "comment typed in rows",
        "grid[threadIdx.y][threadIdx.x * pitch] = 0.0f;",
        "grid[threadIdx.y][threadIdx.x * pitch] = 0.0f;  // more",
    ),
]

#: Steps whose IR must differ from the previous version's (what the comparison must see).
DEPENDENCIES = [what for what, _, _ in STEPS if not what.startswith("comment")]


def versions() -> Iterator[tuple[str, bytes]]:
    text = DOCUMENT
    yield "open", text.encode()
    for what, old, new in STEPS:
        assert text.count(old) == 1, what
        text = text.replace(old, new)
        yield what, text.encode()


def _fresh(path: str, options: Options, data: bytes) -> TranslationUnit:
    doc = frontend_parse.ParsedDocument(path)
    try:
        return doc.parse(options, data)
    finally:
        doc.close()


def _walk_all(path: str) -> list[tuple[str, TranslationUnit, TranslationUnit, WalkReuse]]:
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    out = []
    try:
        for what, data in versions():
            out.append((what, doc.parse(options, data), _fresh(path, options, data), doc.walks))
    finally:
        doc.close()
    return out


def test_incremental_ir_equals_a_fresh_walk_after_every_edit(tmp_path: Path) -> None:
    path = str(tmp_path / "kernels.cu")
    walks = _walk_all(path)
    previous: TranslationUnit | None = None
    for what, incremental, fresh, _ in walks:
        assert incremental == fresh, what
        if what in DEPENDENCIES:
            assert previous is not None and fresh != previous, f"{what}: the IR did not change"
        previous = fresh
    # a comment in a kernel reuses the host evaluation and the other kernels' runs
    reuse = walks[-1][3]
    assert reuse.host_reused >= 2 and reuse.runs_reused >= 4


def test_edits_each_change_something_a_blind_reuse_would_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison above is not vacuous: with a reuse that ignores the context (every
    result kept whatever changed around it), each dependency step gives a wrong IR."""
    original: Callable[[WalkReuse, str], bool] = WalkReuse.begin

    def blind(self: WalkReuse, context: str) -> bool:
        if self.context is None:
            return original(self, context)
        return True

    monkeypatch.setattr(WalkReuse, "begin", blind)
    path = str(tmp_path / "kernels.cu")
    wrong = {what for what, incremental, fresh, _ in _walk_all(path) if incremental != fresh}
    # (a changed ``#define`` makes the document parse from scratch, which empties the
    # cache: no reuse to catch there)
    assert wrong >= set(DEPENDENCIES) - {"#define in a launch's dim3"}, wrong


def test_incremental_diagnostics_equal_the_full_pipeline(tmp_path: Path) -> None:
    path = str(tmp_path / "kernels.cu")
    options = Options()

    def rows(report: checker.FileReport) -> list[tuple[object, ...]]:
        assert report.error is None, report.error
        return [
            (d.code, d.file, d.line, d.column, d.end_line, d.end_column, d.message, d.notes, d.fix)
            for d in report.diagnostics
        ]

    store = frontend_parse.keep_documents(2)
    try:
        kept = []
        for _, data in versions():
            report = checker.check_source(
                path, data, options, checker.DEFAULT_SELECTION, Budget(None)
            )
            kept.append(rows(report))
        assert store is not None
        walks = store.document(path).walks
        assert walks.runs_reused > 0 and walks.host_reused > 0
    finally:
        frontend_parse.keep_documents(None)
    full = [
        rows(checker.check_source(path, data, options, checker.DEFAULT_SELECTION, Budget(None)))
        for _, data in versions()
    ]
    assert kept == full
    assert len({tuple(r) for r in full}) >= 4  # the edits changed the diagnostics


def test_a_function_whose_scan_fails_is_left_out_as_from_scratch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A walk that reuses results scans functions on first use; one whose scan fails is
    left out with a note, as a walk from scratch does (that walk starts again without
    reuse), and the other functions' runs are reused on the next edits. Here a kernel's
    scan fails once a comment is typed into it (the reused context is unchanged then)."""
    original = Walker.scan_function

    def failing(self: Walker, fn: Function) -> None:
        if fn.body is not None and "typing" in self.slice(fn.body.extent):
            raise ValueError("a construct the walker does not expect")
        original(self, fn)

    monkeypatch.setattr(Walker, "scan_function", failing)
    path = str(tmp_path / "kernels.cu")
    walks = _walk_all(path)
    for what, incremental, fresh, _ in walks:
        assert incremental == fresh, what
        left_out = any("could not analyze 'strided'" in n.message for n in fresh.notes)
        assert left_out == (what != "open"), what
    assert walks[-1][3].runs_reused > 0
