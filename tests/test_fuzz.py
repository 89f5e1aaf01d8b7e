"""Fuzzing with hypothesis, on a small budget so that it runs in CI on every change.

* The frontend and the whole pipeline get the fixture files mutated byte by byte, token
  by token and line by line: no exception may escape ``check_file``, and every report
  must be well-formed and render in every output format.
* The model gets random index expressions (every operator the IR has, casts, selects,
  huge and negative constants, division by zero, deep nesting) under random block
  shapes, architectures and widths: ``prove`` must return a well-formed result.

Each test is bounded by ``max_examples`` (and ``deadline=None``: a slow example is not
a failure, a wrong or crashing one is). Run more with ``CUDALINT_FUZZ_EXAMPLES=2000``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cudalint.api import FileReport, check_file
from cudalint.ir import (
    INT,
    LONG,
    UINT,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Opaque,
    OpaqueKind,
    Select,
    SharedArray,
    Span,
    Sym,
    Unary,
)
from cudalint.model.arch import parse_arch
from cudalint.model.proof import Shape, prove
from cudalint.options import Options
from cudalint.output import RenderOptions, render

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures").glob("*.cu"))
EXAMPLES = int(os.environ.get("CUDALINT_FUZZ_EXAMPLES", "0")) or None

#: Tokens spliced into sources: CUDA keywords, punctuation that unbalances, macros.
TOKENS = [
    b"__shared__",
    b"__global__",
    b"__device__",
    b"extern",
    b"template<int N>",
    b"threadIdx.x",
    b"blockDim.x",
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b";",
    b",",
    b"<<<",
    b">>>",
    b"#define X",
    b'#include "nowhere.h"',
    b"#if 0",
    b"#endif",
    b"\\\n",
    b"/*",
    b"*/",
    b"//",
    b'"',
    b"'",
    b"0x7fffffff",
    b"-1",
    b"1 << 40",
    b"/ 0",
    b"% 0",
    b"reinterpret_cast<float4*>(",
    b"*",
    b"&",
    b"->",
    b"::",
    b'asm volatile("ld.shared.f32 %0, [%1];")',
    b"\xff\xfe",
    b"\xe9",
    b"\r\n",
    b"\t",
    b"for (int i = 0; i < 4; i++)",
    b"if (threadIdx.x < 16)",
    b"__syncthreads();",
    b"atomicAdd(&",
    b"float4",
    b"__half",
    b"volatile",
    b"return;",
    b"goto L;",
]


@st.composite
def mutated_sources(draw: st.DrawFn) -> tuple[str, bytes]:
    path = draw(st.sampled_from(FIXTURES))
    data = path.read_bytes()
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(
            st.sampled_from(
                ["flip", "delete", "insert", "dup_line", "drop_line", "swap_lines", "truncate"]
            )
        )
        if kind in ("dup_line", "drop_line", "swap_lines") and len(lines) > 1:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup_line":
                lines.insert(i, lines[j])
            elif kind == "drop_line":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            continue
        data = b"\n".join(lines)
        if not data:
            break
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and at < len(data):
            data = data[:at] + bytes([draw(st.integers(1, 255))]) + data[at + 1 :]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 40)) :]
        elif kind == "insert":
            data = data[:at] + b" " + draw(st.sampled_from(TOKENS)) + b" " + data[at:]
        elif kind == "truncate":
            data = data[:at]
        lines = data.split(b"\n")
    return path.name, b"\n".join(lines)


def assert_well_formed(report: FileReport) -> None:
    assert report.error is None or (isinstance(report.error, str) and report.error)
    if report.error is not None and report.unit is None:
        assert report.results == [] and report.diagnostics == []
    for r in report.results:
        assert r.status in ("proved", "worst-case", "unknown")
        if r.status == "unknown":
            assert r.reason and r.wavefronts is None
        else:
            assert r.wavefronts is not None and r.ideal_wavefronts is not None
            assert r.wavefronts >= r.ideal_wavefronts >= 1
            assert r.status == "proved" or r.reason
        assert r.access.width in (1, 2, 4, 8, 16) or r.status == "unknown"
    keys = [(d.file, d.line, d.column) for d in report.diagnostics]
    assert keys == sorted(keys)
    for d in report.diagnostics:
        assert d.line >= 1 and d.column >= 1 and d.message
    for fmt in ("text", "json", "sarif", "github"):
        out = render(fmt, [report], RenderOptions(show_all=True))
        assert isinstance(out, str)
        if fmt in ("json", "sarif"):
            json.loads(out)


@settings(
    max_examples=EXAMPLES or 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(source=mutated_sources())
def test_frontend_survives_mutated_fixtures(source: tuple[str, bytes]) -> None:
    name, data = source
    report = check_file(f"fuzz/{name}", Options(timeout=5), contents=data)
    assert report.error is None or "internal error" not in report.error, report.error
    assert_well_formed(report)


# --- the model -------------------------------------------------------------------------------

SPAN = Span("fuzz.cu", 1, 1, 1, 2)
TYPES = [INT, UINT, LONG, IntType(64, False), IntType(16, True), IntType(8, False)]
LEAVES = st.one_of(
    st.sampled_from(
        [
            Sym("threadIdx.x", UINT, True),
            Sym("threadIdx.y", UINT, True),
            Sym("threadIdx.z", UINT, True),
            Sym("blockIdx.x", UINT),
            Sym("blockDim.x", UINT),
            Sym("n", INT),
            Sym("stride", UINT),
        ]
    ),
    st.builds(
        Const,
        st.one_of(
            st.integers(-40, 40),
            st.sampled_from(
                [
                    0,
                    31,
                    32,
                    33,
                    1 << 30,
                    (1 << 31) - 1,
                    -(1 << 31),
                    (1 << 32) - 1,
                    1 << 40,
                    -(1 << 63),
                    2654435761,
                ]
            ),
        ),
        st.sampled_from(TYPES),
    ),
    st.builds(lambda: Opaque(OpaqueKind.LOAD, "value loaded from 'idx'", (), INT)),
)
BINARY = [
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "min",
    "max",
]


def _extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    return st.one_of(
        st.builds(Binary, st.sampled_from(BINARY), children, children, st.sampled_from(TYPES)),
        st.builds(Unary, st.sampled_from(["-", "~", "!", "+"]), children, st.sampled_from(TYPES)),
        st.builds(Cast, children, st.sampled_from(TYPES)),
        st.builds(Select, children, children, children, st.sampled_from(TYPES)),
        st.builds(lambda e: Opaque(OpaqueKind.CALL, "call to 'f'", (e,), INT), children),
    )


index_exprs = st.recursive(LEAVES, _extend, max_leaves=12)


def _deep(depth: int, op: str) -> Expr:
    e: Expr = Sym("threadIdx.x", UINT, True)
    for i in range(depth):
        e = Binary(op, e, Const(i % 5 + 1, INT), INT)  # type: ignore[arg-type]
    return e


def _wide_product(factors: int) -> Expr:
    """``(tx + n + 1) * (tx + n + 2) * ...``: expands to 3^factors terms."""
    e: Expr = Const(1, INT)
    for i in range(factors):
        term = Binary(
            "+",
            Binary("+", Sym("threadIdx.x", UINT, True), Sym("n", INT), INT),
            Const(i + 1, INT),
            INT,
        )
        e = Binary("*", e, term, INT)
    return e


ADVERSARIAL = st.sampled_from(
    [
        _deep(300, "+"),
        _deep(300, "*"),
        _deep(120, "^"),
        _deep(60, "%"),
        _wide_product(14),
        Binary(
            "/", Sym("threadIdx.x", UINT, True), Binary("-", Sym("n", INT), Sym("n", INT), INT), INT
        ),
    ]
)


def _prove(
    index: Expr,
    guard: Expr | None,
    width: int,
    kind: str,
    shape: tuple[int, int, int] | None,
    arch: str,
    mode: int,
) -> None:
    offset = Binary("*", Cast(index, LONG), Const(width, LONG), LONG)
    array = SharedArray("k::s", "s", "float", width, (1 << 16,), SPAN)
    access = Access("k::s", "k", kind, width, offset, SPAN, guard=guard)  # type: ignore[arg-type]
    r = prove(access, array, Shape(shape, "launch" if shape else "assumed"), parse_arch(arch), mode)
    assert r.status in ("proved", "worst-case", "unknown")
    if r.status == "unknown":
        assert r.reason and r.wavefronts is None
    else:
        assert r.wavefronts is not None and r.ideal_wavefronts is not None
        assert r.wavefronts >= r.ideal_wavefronts >= 1


@settings(max_examples=EXAMPLES or 60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.one_of(index_exprs, ADVERSARIAL),
    guard=st.one_of(st.none(), index_exprs),
    width=st.sampled_from([1, 2, 4, 8, 16, 3]),
    kind=st.sampled_from(["load", "store", "atomic"]),
    shape=st.sampled_from([None, (32, 1, 1), (16, 16, 1), (100, 1, 1), (7, 3, 2)]),
    arch=st.sampled_from([("sm_90", 4), ("sm_35", 4), ("sm_35", 8), ("sm_20", 4)]),
)
def test_model_survives_random_index_expressions(
    index: Expr,
    guard: Expr | None,
    width: int,
    kind: str,
    shape: tuple[int, int, int] | None,
    arch: tuple[str, int],
) -> None:
    _prove(index, guard, width, kind, shape, arch[0], arch[1])
