"""nvcc's access merging (cudalint.model.merge) on synthetic IR, case by case as seen
in SASS with nvcc 13.0 -O3 -arch=sm_90 (issue 4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cudalint.ir import (
    INT,
    LONG,
    UINT,
    Access,
    Binary,
    Const,
    Expr,
    Kernel,
    Launch,
    SharedArray,
    Span,
    Sym,
    TranslationUnit,
)
from cudalint.model.analyze import analyze
from cudalint.model.merge import find_merges
from cudalint.options import Options

T = Sym("threadIdx.x", UINT, True)
K = Sym("k", INT)
SPAN = Span("m.cu", 1, 1, 1, 2)


def idx(*terms: Expr) -> Expr:
    e = terms[0]
    for t in terms[1:]:
        e = Binary("+", e, t, INT)
    return e


def mul(a: Expr, b: Expr) -> Expr:
    return Binary("*", a, b, INT)


def acc(
    index: Expr,
    array: str = "k::s",
    region: int = 0,
    kind: str = "load",
    width: int = 4,
    **kw: object,
) -> Access:
    off = Binary("*", index, Const(width), LONG)
    return Access(
        array,
        "k",
        kind,
        width,
        off,
        SPAN,
        text=f"s[{index}]",  # type: ignore[arg-type]
        region=region,
        **kw,
    )  # type: ignore[arg-type]


def two(c: int = 0) -> Expr:
    return idx(mul(Const(2), T), Const(c)) if c else mul(Const(2), T)


@pytest.mark.parametrize("kind", ["load", "store"])
def test_pair_even_start_merges_to_8_bytes(kind: str) -> None:
    a, b = acc(two(), kind=kind), acc(two(1), kind=kind)
    groups = find_merges([b, a])  # source order does not matter
    assert len(groups) == 1
    assert groups[0].merged.width == 8
    assert groups[0].members == (a, b)


def test_pair_with_uniform_even_offset_merges() -> None:
    two_k = mul(Const(2), K)
    groups = find_merges([acc(idx(two(), two_k)), acc(idx(two(1), two_k))])
    assert [g.merged.width for g in groups] == [8]


def test_four_neighbours_merge_to_16_bytes() -> None:
    four = mul(Const(4), T)
    members = [acc(idx(four, Const(i))) if i else acc(four) for i in range(4)]
    groups = find_merges(members)
    assert [g.merged.width for g in groups] == [16]


@pytest.mark.parametrize(
    "pair",
    [
        pytest.param((acc(two(1)), acc(two(2))), id="odd-start"),
        pytest.param((acc(idx(two(), K)), acc(idx(two(1), K))), id="unknown-parity"),
        pytest.param((acc(two()), acc(two(1), array="k::other")), id="two-arrays"),
        pytest.param((acc(two(), volatile=True), acc(two(1), volatile=True)), id="volatile"),
        pytest.param((acc(two(), region=0), acc(two(1), region=1)), id="barrier-between"),
        pytest.param((acc(two(), region=-1), acc(two(1), region=-1)), id="no-region-info"),
        pytest.param((acc(two()), acc(two(1), kind="store")), id="load-and-store"),
    ],
)
def test_not_merged(pair: tuple[Access, Access]) -> None:
    assert find_merges(list(pair)) == []


def test_float3_members_are_not_merged() -> None:
    three = mul(Const(3), T)
    members = [acc(three), acc(idx(three, Const(1))), acc(idx(three, Const(2)))]
    assert find_merges(members) == []


def test_merged_pair_is_one_conflict_free_8_byte_load() -> None:
    array = SharedArray("k::s", "s", "float", 4, (64,), SPAN)
    a, b = acc(two()), replace(acc(two(1)), order=1)
    tu = TranslationUnit(
        "m.cu", (Kernel("k", SPAN),), (array,), (a, b), (Launch("k", (32, 1, 1), SPAN),)
    )
    results = analyze(tu, Options())
    # 32 lanes x 8 contiguous bytes: two half-warp phases, one wavefront each (ways 1)
    assert [(r.wavefronts, r.ideal_wavefronts, r.merged_width) for r in results] == [
        (2, 2, 8),
        (2, 2, 8),
    ]
    # without region information the same two loads are each 2-way
    tu2 = replace(tu, accesses=(replace(a, region=-1), replace(b, region=-1)))
    assert [(r.wavefronts, r.ideal_wavefronts) for r in analyze(tu2, Options())] == [(2, 1), (2, 1)]
