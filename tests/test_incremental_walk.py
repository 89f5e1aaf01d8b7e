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

from collections.abc import Iterator
from pathlib import Path

import pytest

from cudalint import checker
from cudalint.budget import Budget
from cudalint.frontend import parse as frontend_parse
from cudalint.frontend import walker
from cudalint.frontend.cursors import Function
from cudalint.frontend.reuse import FunctionRun, StableId, WalkReuse
from cudalint.frontend.walker import Walker
from cudalint.ir import Note, Sym, TranslationUnit, walk
from cudalint.options import Options

DOCUMENT = """\
#define THREADS 64
const int ROWS = 2;

__device__ int slot(int t) {
    return t * 2;
}

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
    """The comparison above is not vacuous: with a reuse that ignores the context and
    the host evaluation's keys (every result kept whatever changed around it), each
    dependency step gives a wrong IR."""

    def begin(self: WalkReuse, context: str, wide: str) -> bool:
        self.context, self.wide = context, wide
        return True

    def runs_of(
        self: WalkReuse,
        sid: StableId,
        body: bytes,
        notes_before: tuple[Note, ...],
        macros: tuple[tuple[str, bytes], ...] = (),
    ) -> list[FunctionRun]:
        hit = self.runs.get(sid)
        return [hit] if hit is not None and hit.body == body else []

    monkeypatch.setattr(WalkReuse, "begin", begin)
    monkeypatch.setattr(WalkReuse, "runs_of", runs_of)
    monkeypatch.setattr(walker._Words, "key", lambda self, fn, plan: "blind")
    path = str(tmp_path / "kernels.cu")
    wrong = {what for what, incremental, fresh, _ in _walk_all(path) if incremental != fresh}
    # (a changed launch line drops the host evaluation that names it, whatever the
    # context: ``WalkReuse.follow``)
    assert wrong >= set(DEPENDENCIES) - {"template argument at a launch"}, wrong


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


#: Edits outside kernel bodies (issue 15): lines added and removed, host code changed.
MOVES = """\
#define WIDTH 256
#define PITCH 1

__device__ float twice(float v) {
    return v * 2.0f;
}

__global__ void looped(float *out, int n) {
    __shared__ float acc[1024];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        acc[i] += twice(1.0f);
    }
    __syncthreads();
    out[threadIdx.x] = acc[threadIdx.x];
}

__global__ void tiled(float *out, int pitch) {
    __shared__ float tile[32][33];
    tile[threadIdx.y][threadIdx.x * pitch * PITCH] = 0.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0];
}

int report(int n) {
    return n + 1;
}

void run_tiled(float *out, int rows) {
    tiled<<<1, dim3(32, rows)>>>(out, 1);
}

int main() {
    float *out = 0;
    looped<<<1, WIDTH>>>(out, 1024);
    run_tiled(out, 8);
    report(1);
    return 0;
}
"""

#: (what, old text, new text, functions the edit may run again (None: any)).
MOVE_STEPS: list[tuple[str, str, str, int | None]] = [
    ("blank line above a kernel", "__global__ void looped(", "\n__global__ void looped(", 0),
    ("blank line in a kernel", "    out[threadIdx.x] = acc[", "\n    out[threadIdx.x] = acc[", 1),
    (
        "statement added to main",
        "    float *out = 0;\n",
        "    float *out = 0;\n    report(2);\n",
        0,
    ),
    ("host helper changed", "return n + 1;", "return n + 2;", 0),
    ("blank line removed at the top", "#define PITCH 1\n\n", "#define PITCH 1\n", 0),
    ("#define only a kernel's body reads", "#define PITCH 1", "#define PITCH 2", 1),
    ("launch constant changed", "(out, 1);", "(out, 2);", None),
    ("value main passes to a launch wrapper", "run_tiled(out, 8);", "run_tiled(out, 4);", None),
]


HOST_EVALUATIONS: dict[str, int] = {}


def _walk_steps(
    path: str, document: str, steps: list[tuple[str, str, str, int | None]]
) -> list[tuple[str, TranslationUnit, TranslationUnit, int, int | None]]:
    """Each version's kept and fresh IR, and how many functions the kept walk ran (and
    in ``HOST_EVALUATIONS``, by step, how many functions' launches it evaluated)."""
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    out = []
    text = document
    try:
        doc.parse(options, text.encode())
        for what, old, new, most in steps:
            assert text.count(old) == 1, what
            text = text.replace(old, new)
            done, host_done = doc.walks.runs_done, doc.walks.host_done
            kept = doc.parse(options, text.encode())
            HOST_EVALUATIONS[what] = doc.walks.host_done - host_done
            out.append(
                (what, kept, _fresh(path, options, text.encode()), doc.walks.runs_done - done, most)
            )
    finally:
        doc.close()
    return out


def test_edits_outside_kernel_bodies_run_only_what_they_change(tmp_path: Path) -> None:
    """A line added or removed moves the kept runs (their spans and the lines in symbol
    names such as ``k@L9:i``) instead of running them again; host code changed runs no
    kernel again; the IR equals a fresh walk's each time."""
    previous = None
    for what, kept, fresh, ran, most in _walk_steps(str(tmp_path / "moves.cu"), MOVES, MOVE_STEPS):
        assert kept == fresh, what
        assert fresh != previous or what == "host helper changed", what
        previous = fresh
        if most is not None:
            assert ran <= most, f"{what}: {ran} functions run again"
        if what.startswith("blank line"):
            assert HOST_EVALUATIONS[what] == 0, what  # the launches moved, not evaluated
        if what == "statement added to main":
            # main's own launch; run_tiled's callers changed, its contexts did not
            assert HOST_EVALUATIONS[what] == 1, what
        looped = [a for a in fresh.accesses if a.kernel == "looped"]
        assert any(isinstance(x, Sym) and "@L" in x.name for a in looped for x in walk(a.offset)), (
            what
        )


#: Host code that device code reads: a constexpr function (a kernel's array extent and
#: index; three checks keep it: its text says constexpr, device code names it, a kernel
#: inlines it). A kernel calling a host function (refused by clang, while the user types).
READ_BY_DEVICE = """\
constexpr int rows_of() {
    return 32;
}

int host_scale(int v) {
    return v * 2;
}

__global__ void sized(float *out) {
    __shared__ float t[rows_of()][32];
    t[threadIdx.x % rows_of()][0] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[0][threadIdx.x];
}

__global__ void misuses(float *out) {
    __shared__ float cells[4096];
    cells[host_scale(threadIdx.x)] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = cells[threadIdx.x];
}

void run(float *out) {
    sized<<<1, 32>>>(out);
    misuses<<<1, 32>>>(out);
}
"""

READ_STEPS: list[tuple[str, str, str, int | None]] = [
    ("constexpr host function", "return 32;", "return 16;", None),
]


def test_host_code_that_device_code_reads_is_never_reused_stale(tmp_path: Path) -> None:
    """A host function's body is left out of what kernels' runs depend on only where no
    device code can read it: not a constexpr one, not one device code names (nor one
    holding a device lambda)."""
    previous = None
    for what, kept, fresh, _, _ in _walk_steps(
        str(tmp_path / "read.cu"), READ_BY_DEVICE, READ_STEPS
    ):
        assert kept == fresh, what
        assert fresh != previous, what
        previous = fresh


STORE_KERNEL = """\
__global__ void k(float *out) {
    __shared__ float s[4096];
    s[EXPR] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
void run(float *o) { k<<<1, 32>>>(o); }
"""


def _kernel(expr: str) -> str:
    return STORE_KERNEL.replace("EXPR", expr)


#: Edits a review found the walk kept stale (each passed from scratch): directives of
#: every form in a body left out of the context, a name made by token pasting, a value
#: that reads its own line number.
DIRECTIVE_CASES: list[tuple[str, str, str, str]] = [
    (
        "function-like #define in a host body",
        "void h() {\n#define IDX(t) ((t) * 2)\n}\n" + _kernel("IDX(threadIdx.x)"),
        "((t) * 2)",
        "((t) * 32)",
    ),
    (
        "continued #define in a host body",
        "void h() {\n#define IDX(t) \\\n  ((t) * 2)\n}\n" + _kernel("IDX(threadIdx.x)"),
        "((t) * 2)",
        "((t) * 32)",
    ),
    (
        "empty #define in a host body",
        "void h() {\n}\n"
        + _kernel("threadIdx.x").replace(
            "    s[threadIdx.x] = 1.0f;\n",
            "#ifdef WIDE\n    s[threadIdx.x * 32] = 1.0f;\n"
            "#else\n    s[threadIdx.x] = 1.0f;\n#endif\n",
        ),
        "void h() {\n}",
        "void h() {\n#define WIDE\n}",
    ),
    (
        "#undef in a host body",
        "#define IDX(t) ((t) * 32)\nvoid h() {\n  int a = 0;\n}\n" + _kernel("IDX(threadIdx.x)"),
        "  int a = 0;",
        "#undef IDX\n#define IDX(t) (t)",
    ),
    (
        "a #define in a kernel that launches nothing",
        "__global__ void d(float *o) {\n#define IDX(t) ((t) * 2)\n  o[0] = 1.0f;\n}\n"
        + _kernel("IDX(threadIdx.x)"),
        "* 2)",
        "* 32)",
    ),
    (
        "a macro named by token pasting",
        "#define WIDTH 2\n#define CAT(a, b) a##b\n" + _kernel("threadIdx.x * CAT(WID, TH)"),
        "#define WIDTH 2",
        "#define WIDTH 32",
    ),
    (
        "__LINE__ after a line added",
        "\n" + _kernel("threadIdx.x * (1 + __LINE__ % 2)"),
        "__global__",
        "\n__global__",
    ),
]


@pytest.mark.parametrize(
    "what,document,old,new", DIRECTIVE_CASES, ids=[c[0] for c in DIRECTIVE_CASES]
)
def test_directives_in_left_out_bodies_are_never_reused_stale(
    tmp_path: Path, what: str, document: str, old: str, new: str
) -> None:
    """Every directive in a body the context leaves out stays in the context, a pasted
    name makes no macro local, and ``__LINE__`` turns reuse off: the kept walk equals a
    fresh one, and the edit does change the result."""
    options = Options()
    path = str(tmp_path / "case.cu")
    doc = frontend_parse.ParsedDocument(path)
    try:
        before = doc.parse(options, document.encode())
        text = document.replace(old, new)
        kept = doc.parse(options, text.encode())
    finally:
        doc.close()
    fresh = _fresh(path, options, text.encode())
    assert kept == fresh, what
    assert fresh != _fresh(path, options, document.encode()) or before != fresh, what


def test_a_header_kernel_keeps_its_own_line_numbers(tmp_path: Path) -> None:
    """A kernel defined in a header: the lines in its symbols' names are the header's,
    which a line added to the main file does not move."""
    header = tmp_path / "hk.cuh"
    header.write_text(
        "#pragma once\n"
        "__global__ void hk(float *out, int n) {\n"
        "    __shared__ float acc[1024];\n"
        "    for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
        "        acc[i * 2] += 1.0f;\n"
        "    }\n"
        "    out[threadIdx.x] = acc[threadIdx.x];\n"
        "}\n"
    )
    main = f'\n\n\n#include "{header}"\n\nvoid run(float *o) {{ hk<<<1, 32>>>(o, 1024); }}\n'
    options = Options()
    path = str(tmp_path / "main.cu")
    doc = frontend_parse.ParsedDocument(path)
    try:
        doc.parse(options, main.encode())
        text = main.replace("\n\n\n#include", "\n\n#include")
        kept = doc.parse(options, text.encode())
    finally:
        doc.close()
    assert kept == _fresh(path, options, text.encode())


SET_DOCUMENT = """\
__global__ void k(float *out) {
    __shared__ float s[2048];
    s[threadIdx.x * 2] = out[0];
}

void run(float *out, int n) {
    k<<<1, n < 256 ? n : 256>>>(out);
}
"""


def test_a_kept_launch_set_names_its_launch_where_it_now_is(tmp_path: Path) -> None:
    """A bounded set's note names its launch (``the 256 block shapes the launch at
    f.cu:7 allows``): a line added in the kernel above moves the launch; the kept note moves with
    it, as a walk from scratch gives it (it kept the old line before)."""
    path = str(tmp_path / "sets.cu")
    options = Options()
    doc = frontend_parse.ParsedDocument(path)
    try:
        first = doc.parse(options, SET_DOCUMENT.encode())
        assert any(launch.bound and "sets.cu:7" in launch.bound for launch in first.launches)
        moved = SET_DOCUMENT.replace("out[0];\n", "out[0];\n\n")
        kept = doc.parse(options, moved.encode())
        assert doc.walks.host_reused >= 1
    finally:
        doc.close()
    fresh = _fresh(path, options, moved.encode())
    assert any(launch.bound and "sets.cu:8" in launch.bound for launch in fresh.launches)
    assert kept == fresh
