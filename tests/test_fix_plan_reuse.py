"""Fix planning made cheaper without changing what it finds (issue 15, goals 1 and 4).

- ``fixes.source.tokenize``: one pass, ASCII text matched as ``str``; the tokens (line,
  column, directive flag) checked by hand on a file with every line-numbering case.
- ``fixes.bounds.index_range`` remembers its answers (in the memo its caller keeps) by
  expression, guard and block shapes: a unit launched with another shape gets its own.
- ``fixes.layout``: while a process keeps analyses (the language server's worker; the
  plans are kept on the installed analysis cache, never in a module global), a
  candidate search is reused for an array whose kernels, arrays and launches did not
  change; the fixes equal a one-shot run's, before and after an edit to another kernel,
  and an edit to the array's own kernel searches again.
- ``model.merge._aligned_address``: ``address - delta`` judged from the address's own
  facts, as ``_aligned`` judges the difference itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cudalint import checker
from cudalint.budget import Budget
from cudalint.diagnostics import Diagnostic
from cudalint.fixes import bounds, layout
from cudalint.fixes.source import tokenize
from cudalint.frontend import parse_file
from cudalint.ir import INT, LONG, Binary, Const, Expr, Sym
from cudalint.model import merge
from cudalint.model.analyze import use_analysis_cache
from cudalint.options import Options

# --- the tokenizer ----------------------------------------------------------------------

TOKENS_SOURCE = (
    b"#define N 4\n"  # 1: a directive
    b"/* a\n"  # 2: a comment over two lines
    b"b */ x\\\n"  # 3: then an escaped newline
    b'y "s\\\nt" #z\n'  # 4-5: a string over two lines; '#' not first on its line
    b"  # if A\n"  # 6: '#' first after spaces: a directive
    b"q\n"  # 7
)

#: (kind, text, line, column, directive), by hand from the text above.
TOKENS_EXPECTED = [
    ("punct", "#", 1, 1, True),
    ("ident", "define", 1, 2, True),
    ("ident", "N", 1, 9, True),
    ("number", "4", 1, 11, True),
    ("ident", "x", 3, 6, False),
    ("ident", "y", 4, 1, False),
    ("punct", "#", 5, 4, False),
    ("ident", "z", 5, 5, False),
    ("punct", "#", 6, 3, True),
    ("ident", "if", 6, 5, True),
    ("ident", "A", 6, 8, True),
    ("ident", "q", 7, 1, False),
]


def _shape(source: bytes) -> list[tuple[str, str, int, int, bool]]:
    return [(t.kind, t.text, t.line, t.column, t.directive) for t in tokenize(source)]


def test_tokenize_ascii_by_hand() -> None:
    assert _shape(TOKENS_SOURCE) == TOKENS_EXPECTED
    for t in tokenize(TOKENS_SOURCE):
        assert TOKENS_SOURCE[t.start : t.end].decode() == t.text


def test_tokenize_non_ascii_same_positions() -> None:
    # a non-ASCII byte (matched as bytes): each invalid byte one punct token, replaced
    source = TOKENS_SOURCE + b"\xc3\xa9r\n"
    got = _shape(source)
    assert got[:-3] == TOKENS_EXPECTED
    assert got[-3:] == [
        ("punct", "\ufffd", 8, 1, False),
        ("punct", "\ufffd", 8, 2, False),
        ("ident", "r", 8, 3, False),
    ]
    assert tokenize(source)[-1].start == len(TOKENS_SOURCE) + 2


def test_tokenize_directive_ends_at_unescaped_newline() -> None:
    got = _shape(b"#define F(x) \\\n  x\nx\n")
    assert [(t[1], t[2], t[4]) for t in got] == [
        ("#", 1, True),
        ("define", 1, True),
        ("F", 1, True),
        ("(", 1, True),
        ("x", 1, True),
        (")", 1, True),
        ("x", 2, True),
        ("x", 3, False),
    ]


# --- index ranges by block shape -------------------------------------------------------

RANGE_SOURCE = """\
__global__ void k(float *out) {
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
void launch(float *o) { k<<<1, BLOCK>>>(o); }
"""


def test_index_range_follows_the_launch_shape(tmp_path: Path) -> None:
    ranges = []
    memo: bounds.RangeMemo = {}
    for block in (32, 64, 32):
        f = tmp_path / f"r{block}.cu"
        f.write_text(RANGE_SOURCE.replace("BLOCK", str(block)))
        unit = parse_file(str(f), Options())
        access = unit.accesses[0]
        ranges.append(bounds.index_range(access.indices[-1], access, unit, Options(), memo))
    assert ranges == [(0, 31), (0, 63), (0, 31)]
    assert len(memo) == 2


# --- candidate searches kept between analyses ------------------------------------------

TWO_KERNELS = """\
#define TILE 32

__global__ void first(float *out, const float *in) {
    __shared__ float a[TILE][TILE];
    a[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * TILE + threadIdx.x] = a[threadIdx.x][threadIdx.y];
}

__global__ void second(float *out, const float *in) {
    __shared__ float b[TILE][TILE];
    b[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * TILE + threadIdx.x] = b[COL][threadIdx.y];
}

void launch(float *o, const float *i) {
    first<<<1, dim3(32, 32)>>>(o, i);
    second<<<1, dim3(32, 32)>>>(o, i);
}
"""

#: The second kernel's read before and after the edit: lanes 32 floats apart (a pad of 1
#: makes it conflict-free), then ``b[tx % 8][tx / 8]``: eight rows of four columns, all
#: in banks 0-3, which a pad of 1, 2 or 3 leaves conflicting and a pad of 4 clears
#: (banks ``4 * row + column``). The search must run again, not be reused.
BEFORE = TWO_KERNELS.replace("COL][threadIdx.y]", "threadIdx.x][threadIdx.y]")
AFTER = TWO_KERNELS.replace("COL][threadIdx.y]", "threadIdx.x % 8][threadIdx.x / 8]")


@pytest.fixture
def kept_analyses() -> Iterator[None]:
    use_analysis_cache(True)
    try:
        yield
    finally:
        use_analysis_cache(False)


def _fixes(path: Path, text: str) -> list[tuple[str, int, str | None]]:
    report = checker.check_source(
        str(path), text.encode(), Options(), checker.DEFAULT_SELECTION, Budget(None)
    )
    assert report.error is None, report.error
    diagnostics: list[Diagnostic] = report.diagnostics
    return [(d.code, d.line, repr(d.fix)) for d in diagnostics]


def _searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    search = layout.LayoutPlanner._search

    def counted(self: layout.LayoutPlanner, arrays: list, step: int) -> list:  # type: ignore[type-arg]
        calls.append(arrays[0].name)
        return search(self, arrays, step)

    monkeypatch.setattr(layout.LayoutPlanner, "_search", counted)
    return calls


def test_searches_reused_only_for_unchanged_kernels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_analyses: None
) -> None:
    path = tmp_path / "two.cu"
    use_analysis_cache(False)
    cold = [_fixes(path, BEFORE), _fixes(path, AFTER)]
    assert all(f[2] != "None" for f in cold[0]), cold[0]  # both arrays get a fix
    assert "b[TILE][TILE + 1]" in cold[0][1][2] and "b[TILE][TILE + 4]" in cold[1][1][2]
    assert cold[0][0] == cold[1][0]  # 'a' and its fix are the same in both texts
    use_analysis_cache(True)
    calls = _searches(monkeypatch)
    assert _fixes(path, BEFORE) == cold[0]
    assert sorted(calls) == ["a", "b"]
    calls.clear()
    assert _fixes(path, AFTER) == cold[1]
    assert calls == ["b"]  # 'a''s kernel did not change: its search is reused
    calls.clear()
    assert _fixes(path, BEFORE) == cold[0]
    assert calls == []  # both searches of this text are kept


def test_searches_not_kept_in_a_one_shot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _searches(monkeypatch)
    path = tmp_path / "two.cu"
    _fixes(path, BEFORE)
    _fixes(path, BEFORE)
    assert sorted(calls) == ["a", "a", "b", "b"]
    assert layout.kept_plans() is None


def test_kept_plans_go_with_the_analysis_cache(kept_analyses: None, tmp_path: Path) -> None:
    kept = layout.kept_plans()
    assert kept is not None and layout.kept_plans() is kept
    _fixes(tmp_path / "two.cu", BEFORE)
    assert len(kept.searches) == 2 and kept.ranges
    use_analysis_cache(True)  # a new cache: nothing carried over
    assert layout.kept_plans() is not kept


# --- merge: an address less a constant --------------------------------------------------

TX, TY = Sym("threadIdx.x", INT), Sym("threadIdx.y", INT)


def _offsets() -> list[Expr]:
    def mul(e: Expr, k: int) -> Expr:
        return Binary("*", e, Const(k, LONG), LONG)

    def add(a: Expr, b: Expr) -> Expr:
        return Binary("+", a, b, LONG)

    return [
        Const(0, LONG),
        Const(12, LONG),
        mul(TX, 4),
        add(mul(TX, 4), Const(2, LONG)),
        add(mul(TX, 8), add(mul(TY, 12), Const(6, LONG))),
        mul(Binary("/", TX, Const(2, INT), INT), 4),
        add(mul(Binary("<<", TX, Const(2, INT), INT), 4), Const(4, LONG)),
        Binary("-", mul(TY, 16), Const(4, LONG), LONG),
    ]


@pytest.mark.parametrize("index", range(8))
def test_aligned_address_is_the_difference_judged(index: int) -> None:
    offset = _offsets()[index]
    for delta in range(0, 17):
        for size in (2, 4, 8, 16, 32):
            diff = offset if not delta else Binary("-", offset, Const(delta, LONG), LONG)
            want = merge._aligned(diff, size)
            m = object()  # stands for the access: read only by its id
            got = merge._aligned_address({id(m): offset}, {}, m, size, delta)  # type: ignore[arg-type]
            assert got is want, (index, delta, size)
