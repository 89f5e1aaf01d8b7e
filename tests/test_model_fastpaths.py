"""The model's fast paths give exactly what the plain paths give (issue 15, goal 2).

- Signed ``/`` and ``%`` are compiled inline (Python's ``//`` and ``%`` when the dividend
  is non-negative and the divisor positive, the C helpers otherwise): same values and same
  errors as the closure evaluator, which keeps the helpers everywhere.
- ``_worst_over_shifts`` costs each pattern of relative addresses once per shift: same
  outcomes (cost, first worst case, shift) as costing every case.
"""

from __future__ import annotations

import random

import pytest
from factories import float_store

from cudalint.ir import (
    INT,
    LONG,
    THREAD_IDX,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    SharedArray,
    Span,
    Sym,
)
from cudalint.model import proof
from cudalint.model.arch import parse_arch
from cudalint.model.caches import RunCaches
from cudalint.model.evaluate import EvalError, _closure_function, compile_expr, compile_warp
from cudalint.model.warps import Warp


def _outcome(f, *args: int) -> object:  # type: ignore[no-untyped-def]
    try:
        return f(*args)
    except (EvalError, ZeroDivisionError) as e:
        return ("error", type(e).__name__, str(e))


def test_inline_signed_division_matches_the_c_helpers() -> None:
    rng = random.Random(7)
    for t in (INT, LONG):
        a, b = Sym("a", t), Sym("b", t)
        for op in ("/", "%"):
            # nested, so that a temporary of one division feeds another
            expr = Binary(
                "-",
                Binary(op, Binary("+", a, Const(3, t), t), b, t),
                Binary(op, a, Binary("-", b, Const(1, t), t), t),
                t,
            )
            fast = compile_expr(expr, ("a", "b"))
            plain = _closure_function(expr, ("a", "b"))
            for _ in range(4000):
                x = rng.choice(
                    [
                        rng.randint(-40, 40),
                        rng.randint(-(2**40), 2**40),
                        2**31 - 1,
                        -(2**31),
                        2**63 - 1,
                        -(2**63),
                    ]
                )
                y = rng.choice([rng.randint(-9, 9), rng.randint(-(2**35), 2**35), 0, 1, -1])
                assert _outcome(fast, x, y) == _outcome(plain, x, y), (t, op, x, y)


def test_inline_division_per_warp_matches_per_lane() -> None:
    tx = Sym("threadIdx.x", INT)
    s = Sym("s", INT)
    offset = Binary(
        "*",
        Binary(
            "+",
            Binary("/", Binary("-", tx, s, INT), Const(3, INT), INT),
            Binary("%", Binary("-", tx, s, INT), Const(5, INT), INT),
            INT,
        ),
        Const(4, INT),
        INT,
    )
    params = (*proof.LANE_PARAMS, "s")
    warp = compile_warp(offset, None, params, len(proof.LANE_PARAMS))
    assert warp is not None
    lane_fn = _closure_function(offset, params)
    for sv in (-40, -7, 0, 3, 31, 64):
        lanes = [(x, 0, 0, 32, 1, 1, *([0] * (len(proof.LANE_PARAMS) - 6))) for x in range(32)]
        got = warp(lanes, (), (sv,))
        assert got == [lane_fn(*lane, sv) for lane in lanes]


def _reference(cases, shifts, access, arch, mode):  # type: ignore[no-untyped-def]
    """``_worst_over_shifts`` as it was: every case at every shift."""
    p = proof.period(arch, mode, access.width)
    cache: dict[tuple[object, ...], object] = {}
    out = {}
    for r in shifts:
        worst = None
        for case in cases:
            shifted = [None if a is None else a + r for a in case.addresses]
            cost = proof._cost_at(shifted, access, arch, mode, p, cache)  # type: ignore[arg-type]
            if cost is None:
                break
            if worst is None or (cost.ways, cost.wavefronts) > (worst[0].ways, worst[0].wavefronts):
                worst = (cost, case, r)
        else:
            if worst is not None:
                out[r] = worst
    return out


def test_worst_over_shifts_costs_each_pattern_once_with_the_same_outcomes() -> None:
    rng = random.Random(3)
    arch = parse_arch("sm_90")
    for width in (4, 8, 16):
        access = Access(
            array="a",
            kernel="k",
            kind="load",
            width=width,
            offset=Const(0),
            span=Span("f.cu", 1, 1, 1, 2),
        )
        for trial in range(30):
            patterns = []
            for _ in range(4):
                stride = rng.choice([1, 2, 4, 8, 16, 32, 33]) * width
                patterns.append([(i * stride) if rng.random() > 0.1 else None for i in range(32)])
            cases = []
            for i in range(60):
                pat = rng.choice(patterns)
                if all(a is None for a in pat):
                    continue
                # the same pattern again, moved by whole bank periods (and once, a
                # misaligned copy that changes the pattern)
                move = rng.randint(0, 9) * 128 + (2 if trial % 7 == 0 and i == 30 else 0)
                lanes = tuple(
                    None if rng.random() < 0.02 else (i, 0, 0, 32, 1, 1) for _ in range(32)
                )
                cases.append(
                    proof._Case(Warp(i, lanes), (), [None if a is None else a + move for a in pat])
                )
            shifts = list(range(0, 128, width)) if trial % 2 else [0, 4 * width]
            got = proof._worst_over_shifts(cases, shifts, access, arch, 4, {})
            want = _reference(cases, shifts, access, arch, 4)
            assert {r: (o.cost, o.case, o.shift) for r, o in got.items()} == want
            # the first worst case is the very same object (its warp is reported)
            assert all(got[r].case is want[r][1] for r in want)


def test_patterns_that_differ_within_a_bank_period_are_both_costed() -> None:
    # 64-byte and 128-byte row strides agree modulo 64 but not modulo the 128-byte
    # period: a 16-way and a 32-way conflict, the second found after the first
    arch = parse_arch("sm_90")
    access = Access(
        array="a", kernel="k", kind="load", width=4, offset=Const(0), span=Span("f.cu", 1, 1, 1, 2)
    )
    lanes = tuple((i, 0, 0, 32, 1, 1) for i in range(32))
    cases = [
        proof._Case(Warp(w, lanes), (), [i * stride + 128 * w for i in range(32)])
        for w, stride in enumerate((64, 64, 128, 128))
    ]
    got = proof._worst_over_shifts(cases, [0, 4, 8], access, arch, 4, {})
    want = _reference(cases, [0, 4, 8], access, arch, 4)
    assert {r: (o.cost, o.case, o.shift) for r, o in got.items()} == want
    assert {o.cost.ways for o in got.values()} == {32}
    assert all(o.case is cases[2] for o in got.values())


# --- the fix re-check's memo of subscript values (proof.CaseMemo) ---------------------------


def _arr(dims: tuple[int, ...]) -> SharedArray:
    return SharedArray(
        key="k::t",
        name="t",
        element_type="float",
        element_bytes=4,
        dims=dims,
        span=Span("f.cu", 1, 1, 1, 2),
        kernel="k",
    )


def _offsets() -> list[tuple[Expr, Expr | None, tuple[int, ...]]]:
    from cudalint.fixes.recheck import rebuild_offset

    tx = Sym(THREAD_IDX[0], INT, lane_dependent=True)
    ty = Sym(THREAD_IDX[1], INT, lane_dependent=True)
    s = Sym("s", INT)
    row = Binary("%", Binary("+", tx, ty, INT), Const(8, INT), INT)
    col = Binary(
        "+",
        Binary("*", Binary("/", tx, Const(4, INT), INT), Const(4, INT), INT),
        Binary("/", ty, Const(2, INT), INT),
        INT,
    )
    swz = Binary("^", col, row, INT)
    # a lane whose divisor is zero (threadIdx.x == 5) fails wherever the guard lets it run
    bad = Binary("/", Const(64, INT), Binary("-", tx, Const(5, INT), INT), INT)
    guard = Binary("<", tx, Const(24, INT), INT)
    out: list[tuple[Expr, Expr | None, tuple[int, ...]]] = []
    for pad in (0, 1, 2, 4, 8):
        dims = (32, 32 + pad)
        out.append((rebuild_offset((row, col), dims, 4, 0), None, dims))
        out.append((rebuild_offset((row, col), dims, 4, 0), guard, dims))
        out.append((rebuild_offset((row, swz), dims, 4, 0), None, dims))
        out.append((rebuild_offset((tx, Binary("+", ty, s, INT)), dims, 4, 0), None, dims))
        out.append((rebuild_offset((row, bad), dims, 4, 0), None, dims))
    # a row stride that overflows int: the plain combination must not be used
    big = (32, 1 << 28)
    out.append((rebuild_offset((Cast(row, INT), col), big, 4, 0), None, big))
    wrapped = Binary(
        "*", Binary("+", Binary("*", row, Const(1 << 28, INT), INT), col, INT), Const(4, INT), INT
    )
    out.append((wrapped, None, big))
    return out


def test_memo_of_subscripts_gives_the_plain_proofs() -> None:
    arch = parse_arch("sm_90")
    shapes = [proof.Shape((32, 8, 1), "launch"), proof.Shape(None, "assumed")]
    memo = proof.CaseMemo()
    compared = 0
    for shape in shapes:
        for offset, guard, dims in _offsets():
            array = _arr(dims)
            access = Access(
                array=array.key,
                kernel="k",
                kind="load",
                width=4,
                offset=offset,
                guard=guard,
                span=Span("f.cu", 2, 1, 2, 9),
            )
            for base in (None, 0, 96):
                plain = proof._prove(access, array, shape, arch, 4, base)
                run = RunCaches()
                with run.reusing(memo):
                    reused = proof._prove(access, array, shape, arch, 4, base, run)
                    again = proof._prove(access, array, shape, arch, 4, base, run)
                assert run.memo is None  # only while reusing
                assert reused == plain, (offset, guard, base, shape)
                assert again == plain
                compared += 1
    assert compared == 2 * len(_offsets()) * 3
    assert memo.frames  # the memo was used, not bypassed
    assert any(len(f.columns) > 1 for f in memo.frames.values())


def test_sampled_cases_are_shared_between_accesses_with_the_same_offset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arch = parse_arch("sm_90")
    tx = Sym(THREAD_IDX[0], INT, lane_dependent=True)
    k = Sym("k@L3:i", INT)  # a loop's iteration count: sampled
    offset = Binary(
        "*",
        Binary("%", Binary("*", tx, Binary("+", k, Const(1, INT), INT), INT), Const(64, INT), INT),
        Const(4, INT),
        INT,
    )
    other = Binary(
        "*",
        Binary("%", Binary("*", tx, Binary("+", k, Const(2, INT), INT), INT), Const(64, INT), INT),
        Const(4, INT),
        INT,
    )
    shape = proof.Shape((64, 1, 1), "launch")
    runs = [
        (name, off, base)
        for name, off in (("a", offset), ("b", offset), ("c", other), ("a", offset), ("b", offset))
        for base in (0, 32)
    ]

    def prove_all() -> list[object]:
        out = []
        run = RunCaches()  # one analysis run: its sampled cases are shared
        for name, off, base in runs:
            access, array = float_store(off, name)
            out.append(proof._prove(access, array, shape, arch, 4, base, run))
        return out

    built = 0
    real = proof._build_cases

    def counting(*args):  # type: ignore[no-untyped-def]
        nonlocal built
        built += 1
        return real(*args)

    monkeypatch.setattr(proof, "_build_cases", counting)
    shared = prove_all()
    assert all(r.reason and "not a proof" in r.reason for r in shared)  # the sampled path
    shared_builds = built
    monkeypatch.setattr(proof, "_sampled_cases", counting)
    built = 0
    plain = prove_all()
    assert shared == plain
    assert shared_builds * 4 < built  # two offsets evaluated once each, not ten proofs
