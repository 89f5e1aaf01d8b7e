"""The warp symmetries and the no-wrap arithmetic give exactly the full enumeration's
results (issue 15, goal 2).

- ``proof._affine_cases``: where each warp is 32 consecutive threadIdx.x and the offset is
  affine in it, a slot is evaluated at lanes 0 and 1 only, and a slot that repeats an
  earlier one (same active lanes and step, first address equal modulo the bank period)
  is not costed again (``proof._CaseList``);
- ``proof._repeats_left_out``: the same for evaluated cases; ``proof._compressed``: for
  the fix re-check's memo, from the subscripts' patterns, once per frame;
- ``evaluate.interval``: where no operation can wrap, plain integer arithmetic;
- ``stride_loops._exits``: remembered, and worked out once per distinct lane values;
- ``proof._in_bounds``: a window start that keeps the same lanes as an earlier one is skipped.

Each is compared with the plain path (the fast paths switched off) on offsets that take
it and offsets that must not (wraps, ``%`` of the lane, partial warps, other shapes).
"""

from __future__ import annotations

import itertools
import random

import pytest

from cudalint.ir import (
    BLOCK_DIM,
    INT,
    LONG,
    THREAD_IDX,
    UINT,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    SharedArray,
    Span,
    Sym,
)
from cudalint.model import proof, stride_loops
from cudalint.model.arch import parse_arch
from cudalint.model.caches import RunCaches
from cudalint.model.evaluate import EVAL_ERRORS, compile_expr, interval
from cudalint.model.warps import known_shape_warps

_TX = Cast(Sym(THREAD_IDX[0], UINT, lane_dependent=True), INT)
_TY = Cast(Sym(THREAD_IDX[1], UINT, lane_dependent=True), INT)
_BX = Cast(Sym(BLOCK_DIM[0], UINT), INT)


def _b(op: str, a: Expr, b: Expr, t=INT) -> Binary:  # type: ignore[no-untyped-def]
    return Binary(op, a, b, t)


def _c(v: int, t=INT) -> Const:  # type: ignore[no-untyped-def]
    return Const(v, t)


def _offsets() -> list[tuple[str, Expr, Expr | None]]:
    s = Sym("s", INT)
    k = Sym("k@L3:i", INT)  # a loop's iteration count: sampled where entangled
    row = _b("%", _b("+", _TX, _TY), _c(8))
    col = _b("+", _b("*", _b("/", _TX, _c(4)), _c(4)), _b("/", _TY, _c(2)))
    lane = _b("%", _TX, _c(32))
    return [
        ("row33", _b("*", _b("+", _b("*", _TX, _c(33)), _TY), _c(4)), None),
        ("row32", _b("*", _b("+", _b("*", _TX, _c(32)), _TY), _c(4)), None),
        ("guarded", _b("*", _b("*", _TX, _c(2)), _c(4)), _b("<", _TX, _c(24))),
        (
            "two-sided",
            _b("*", _TX, _c(8)),
            _b("&&", _b(">=", _b("+", _TX, s), _c(40)), _b("<", _TX, _b("*", _TY, _c(4)))),
        ),
        (
            "uniform-guard",
            _b("*", _b("+", _TX, _b("*", s, _c(32))), _c(4)),
            _b("==", _b("%", s, _c(3)), _c(1)),
        ),
        (
            "shifted",
            _b("*", _b("+", _b("*", _TY, _c(128)), _b("+", _TX, _b("*", k, _BX))), _c(4)),
            None,
        ),
        ("lane-mod", _b("*", _b("+", lane, _b("*", k, _c(32))), _c(4)), None),
        ("swizzle", _b("*", _b("+", _b("*", row, _c(32)), _b("^", col, row)), _c(4)), None),
        ("stride-s", _b("*", _b("*", _TX, s), _c(4)), None),
        ("sampled", _b("*", _b("%", _b("*", _TX, _b("+", k, _c(1))), _c(64)), _c(4)), None),
        ("wraps", _b("*", _b("+", _b("*", _TX, _c(1 << 28)), _TY), _c(4)), None),
        ("long", Cast(_b("*", Cast(_TX, LONG), _c(1 << 33, LONG), LONG), LONG), None),
        ("negative", _b("*", _b("-", _c(31), _TX), _c(4)), None),
        ("div-by-s", _b("*", _b("/", _TX, s), _c(4)), None),
    ]


def _array(size: int = 1 << 20) -> SharedArray:
    return SharedArray(
        key="k::t",
        name="t",
        element_type="float",
        element_bytes=4,
        dims=(size // 4,),
        span=Span("f.cu", 1, 1, 1, 2),
        kernel="k",
    )


def _access(offset: Expr, guard: Expr | None, width: int = 4) -> Access:
    return Access(
        array="k::t",
        kernel="k",
        kind="load",
        width=width,
        offset=offset,
        guard=guard,
        span=Span("f.cu", 2, 1, 2, 9),
    )


_SHAPES = [
    proof.Shape(None, "assumed"),
    proof.Shape((64, 1, 1), "launch"),
    proof.Shape((32, 8, 1), "launch"),
    proof.Shape((16, 16, 1), "launch"),
    proof.Shape((48, 1, 1), "launch"),
    proof.Shape((96, 2, 1), "launch"),
]


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch every fast path of this change off."""
    monkeypatch.setattr(proof, "_affine_cases", lambda *a, **k: None)
    monkeypatch.setattr(proof, "_repeats_left_out", lambda cases, p: cases)
    monkeypatch.setattr(proof, "_distinct_linear", lambda cases, slopes, p: (cases, slopes))
    monkeypatch.setattr(proof, "interval", lambda *a, **k: None)
    monkeypatch.setattr(stride_loops, "interval", lambda *a, **k: None)


_QUICK = ((None, 96), (("sm_90", 4, 4), ("sm_35", 4, 4)))
_FULL = ((None, 0, 96), (("sm_90", 4, 4), ("sm_90", 4, 16), ("sm_35", 8, 4), ("sm_35", 4, 4)))


def _prove_all(
    memo: proof.CaseMemo | None = None,
    grid: tuple[object, ...] = _QUICK,
    shapes: list[proof.Shape] | None = None,
) -> list[object]:
    out: list[object] = []
    run = RunCaches()  # one analysis run: the sampled cases are shared between proofs
    bases, archs = grid
    cases = itertools.product(_offsets(), shapes or _SHAPES, bases, archs)  # type: ignore[call-overload]
    for (name, offset, guard), shape, base, (arch_name, mode, width) in cases:
        if shape.dims is not None and shape.dims[2] != 1 and width == 16:
            continue
        arch = parse_arch(arch_name)
        access = _access(offset, guard, width)
        if memo is None:
            r = proof._prove(access, _array(), shape, arch, mode, base, run)
        else:
            with run.reusing(memo):
                r = proof._prove(access, _array(), shape, arch, mode, base, run)
        out.append((name, shape, base, arch_name, mode, width, r))
    return out


def _compare(
    monkeypatch: pytest.MonkeyPatch,
    grid: tuple[object, ...],
    shapes: list[proof.Shape] | None = None,
) -> list[object]:
    taken = {"affine": 0, "left out": 0}
    real_affine, real_left_out = proof._affine_cases, proof._repeats_left_out

    def affine(*args, **kw):  # type: ignore[no-untyped-def]
        got = real_affine(*args, **kw)
        if got is not None and len(got) < proof._case_count(got):
            taken["affine"] += 1
        return got

    def left_out(cases, p):  # type: ignore[no-untyped-def]
        got = real_left_out(cases, p)
        taken["left out"] += got is not cases
        return got

    with monkeypatch.context() as m:
        m.setattr(proof, "_affine_cases", affine)
        m.setattr(proof, "_repeats_left_out", left_out)
        fast = _prove_all(grid=grid, shapes=shapes)
    # the fix re-check's memo: the first visit of a frame, then the memoized subscripts
    memo = proof.CaseMemo()
    first = _prove_all(memo, grid, shapes)
    again = _prove_all(memo, grid, shapes)
    with monkeypatch.context() as m:
        _plain(m)
        plain = _prove_all(grid=grid, shapes=shapes)
    for want, got_fast, got_first, got_again in zip(plain, fast, first, again, strict=True):
        assert got_fast == want
        assert got_first == want
        assert got_again == want
    # the fast paths were taken, and left cases out, not only the plain ones
    assert taken["affine"] > 20 and taken["left out"] > 5
    assert any(f.groups for f in memo.frames.values())
    # not a comparison of empty or uniform results: conflicts, conditions and unknowns
    statuses = {r.status for *_, r in plain}  # type: ignore[attr-defined]
    ways = {r.ways for *_, r in plain if r.ways is not None}  # type: ignore[attr-defined]
    assert statuses == {"proved", "worst-case", "unknown"}
    assert {1.0, 32.0} <= ways
    return plain


def test_fast_paths_give_the_plain_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    # three known shapes: the assumed one (368 warps) and the rest are in the slow test
    assert len(_compare(monkeypatch, _QUICK, _SHAPES[1:3] + _SHAPES[4:5])) > 150


@pytest.mark.slow
def test_fast_paths_give_the_plain_proofs_on_every_shape_and_arch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert len(_compare(monkeypatch, _FULL)) > 1000


def _random_expr(rng: random.Random, names: list[str], depth: int) -> Expr:
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.6:
            return Sym(rng.choice(names), INT)
        return Const(rng.choice([0, 1, 2, 3, 7, 32, 33, 1 << 20, 1 << 30, -5]), INT)
    op = rng.choice(["+", "-", "*", "/", "%", "<", "&&", "cast", "neg", "<<", ">>", "&", "|", "^"])
    if op == "cast":
        return Cast(_random_expr(rng, names, depth - 1), rng.choice([INT, UINT, LONG]))
    if op == "neg":
        from cudalint.ir import Unary

        return Unary("-", _random_expr(rng, names, depth - 1), INT)
    t = rng.choice([INT, INT, LONG, UINT])
    return Binary(op, _random_expr(rng, names, depth - 1), _random_expr(rng, names, depth - 1), t)


def test_plain_arithmetic_where_interval_shows_no_wrap() -> None:
    rng = random.Random(11)
    names = ["a", "b", "c"]
    shown = 0
    for _ in range(3000):
        e = _random_expr(rng, names, 4)
        env = {
            n: sorted(
                (
                    rng.randint(-50, 1 << rng.choice([4, 12, 20, 31])),
                    rng.randint(0, 1 << rng.choice([4, 12, 20, 31])),
                )
            )
            for n in names
        }
        box = interval(e, {n: (lo, hi) for n, (lo, hi) in env.items()})
        if box is None:
            continue
        shown += 1
        wrapped, plain = compile_expr(e, tuple(names)), compile_expr(e, tuple(names), True)
        for _ in range(20):
            point = [rng.choice([lo, hi, rng.randint(lo, hi)]) for lo, hi in env.values()]
            try:
                want = wrapped(*point)
            except EVAL_ERRORS:  # pragma: no cover - interval shows no division by zero
                raise AssertionError((e, point)) from None
            assert plain(*point) == want, (e, point)
            assert box[0] <= want <= box[1]
    assert shown > 300


def test_stride_loop_exits_are_the_per_lane_loop() -> None:
    tx, bx = _TX, _BX
    k = "k@L9:i"
    ks = Sym(k, INT)
    conjs = [
        _b("<", _b("+", tx, _b("*", ks, bx)), _c(200)),
        _b("<", _b("*", ks, bx), _b("+", tx, _c(50))),  # the last lane loops longest
        _b("<", _b("+", _b("%", tx, _c(32)), _b("*", ks, _c(32))), _c(100)),
        _b("<", _b("*", _b("+", tx, _b("*", ks, bx)), _c(1 << 29)), _c(1 << 30)),  # wraps
    ]

    def reference(conj, warps):  # type: ignore[no-untyped-def]
        fn = compile_expr(conj, (*THREAD_IDX, *BLOCK_DIM, k))
        out: dict[tuple[int, ...], int] = {}
        for w in warps:
            for lane in w.lanes:
                if lane is None:
                    continue
                n = 0
                try:
                    while fn(*lane, n):
                        n += 1
                        if n > stride_loops.MAX_ITERATIONS:
                            return None
                except EVAL_ERRORS:
                    return None
                out[lane[3:6]] = max(out.get(lane[3:6], 0), n)
        return out

    for conj in conjs:
        for shape in ((64, 1, 1), (32, 4, 1), (48, 2, 1), (256, 1, 1)):
            warps = known_shape_warps(shape)
            want = reference(conj, warps)
            run = RunCaches()
            assert stride_loops._exits(run, conj, k, warps) == want
            assert stride_loops._exits(run, conj, k, list(warps)) == want  # remembered
            assert len(run.exits) == 1


def test_in_bounds_costs_each_window_once_with_the_same_answer() -> None:
    rng = random.Random(5)
    for (arch_name, mode), width in itertools.product(
        (("sm_90", 4), ("sm_35", 4), ("sm_35", 8)), (4, 8, 16)
    ):
        arch = parse_arch(arch_name)
        access = _access(Const(0), None, width)
        for trial in range(120):
            if trial % 2:
                stride = rng.choice([128, 256, 384, 512, 132, 64]) * (width // 4 or 1)
                addrs: list[int | None] = [
                    i * stride if rng.random() > 0.1 else None for i in range(32)
                ]
            else:
                # one pattern of 4 lanes repeated every 160 bytes (not a multiple of
                # 256): windows alike but for where the banks fall
                pat = sorted(rng.sample(range(0, 96, width), 4))
                addrs = [(i // 4) * 160 + pat[i % 4] for i in range(32)]
            if all(a is None for a in addrs):
                continue
            size = rng.choice([128, 256, 1024, 2048, 4096])
            got = proof._in_bounds(addrs, access, arch, mode, size)
            # the reference: every window
            present = [a for a in addrs if a is not None]
            best = None
            if max(present) + width - min(present) > size:
                for x in sorted(set(present)):
                    window = [
                        a if a is not None and x <= a and a + width <= x + size else None
                        for a in addrs
                    ]
                    if not any(a is not None for a in window):
                        continue
                    c = proof.warp_cost(window, width, "load", arch, mode, "combined")
                    if best is None or (c.ways, c.wavefronts) > (best[0].ways, best[0].wavefronts):
                        best = (c, window)
            assert got == best


def test_in_bounds_finds_the_worse_of_two_windows_alike_but_for_the_rows() -> None:
    # Kepler's 4-byte mode: lanes 128 bytes apart share a bank; in one 256-byte row they
    # take one pass, in two rows two. Pairs (0, 128) every 384 bytes: the window at 0 is
    # one row, the one at 384 two, the same pair of lanes moved by 384 (not 256)
    arch = parse_arch("sm_35")
    access = _access(Const(0), None, 4)
    addrs: list[int | None] = [384 * (i // 2) + 128 * (i % 2) for i in range(32)]
    got = proof._in_bounds(addrs, access, arch, 4, 256)
    assert got is not None
    assert got[0].wavefronts == 2
    assert got[1][2:4] == [384, 512]
