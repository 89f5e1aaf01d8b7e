"""A select between lanes whose branch is a uniform value (mamba's selective-scan
``s[tid == 0 ? S : tid + 512]``): ``algebra.linear_per_lane`` against evaluation, the
proof against brute force over S, and the residue condition's wording."""

from __future__ import annotations

from dataclasses import replace

from factories import float_access
from hypothesis import given, settings
from hypothesis import strategies as st

from cudalint.ir import INT, LONG, UINT, Binary, Cast, Const, Expr, Select, Sym
from cudalint.model.algebra import linear_in, linear_per_lane
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.evaluate import EVAL_ERRORS, evaluate
from cudalint.model.proof import Shape, _residue_condition, prove

TX = Sym("threadIdx.x", UINT, True)
S = Sym("s", INT)
U = Sym("u", INT)
SM90 = parse_arch("sm_90")


def _sel(c: Expr, a: Expr, b: Expr) -> Expr:
    return Select(c, a, b, LONG)


def _b(op: str, a: Expr, b: Expr) -> Expr:
    return Binary(op, a, b, LONG)  # type: ignore[arg-type]


def exprs() -> st.SearchStrategy[Expr]:
    leaves = st.one_of(
        st.sampled_from([Cast(TX, LONG), Cast(S, LONG), Cast(U, LONG)]),
        st.integers(min_value=-4, max_value=9).map(lambda v: Const(v, LONG)),
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(_b, st.sampled_from(["+", "-", "*", "/", "%", "&", "^"]), children, children),
            st.builds(
                lambda op, a, b, t, o: _sel(Binary(op, a, b, INT), t, o),  # type: ignore[arg-type]
                st.sampled_from(["==", "<"]),
                children,
                children,
                children,
                children,
            ),
        )

    return st.recursive(leaves, extend, max_leaves=10)


def _at(e: Expr, tx: int, s: int, u: int) -> int | None:
    try:
        return evaluate(e, {"threadIdx.x": tx, "s": s, "u": u})
    except EVAL_ERRORS:
        return None


@settings(max_examples=1500, deadline=None)
@given(exprs(), st.integers(min_value=0, max_value=63), st.integers(min_value=-3, max_value=3))
def test_linear_per_lane_is_linear_in_each_lane(e: Expr, tx: int, u: int) -> None:
    """Where linear_per_lane says so, each lane's value is a0 + s * g over every s tried."""
    if not linear_per_lane(e, "s"):
        return
    a0, a1 = _at(e, tx, 0, u), _at(e, tx, 1, u)
    if a0 is None or a1 is None:
        return
    for s in range(-5, 9):
        v = _at(e, tx, s, u)
        if v is not None:
            assert v == a0 + s * (a1 - a0), (e, tx, u, s)


def test_linear_per_lane_forms() -> None:
    tx, s, u = Cast(TX, LONG), Cast(S, LONG), Cast(U, LONG)
    c = Binary("==", TX, Const(0, UINT), INT)
    one_lane = _sel(c, s, _b("+", tx, Const(64, LONG)))
    assert not linear_in(one_lane, "s")  # a select is an opaque function to the polynomial
    assert linear_per_lane(one_lane, "s")
    assert linear_per_lane(_b("*", one_lane, Const(4, LONG)), "s")
    assert linear_per_lane(_sel(c, _sel(Binary("<", TX, Const(9, UINT), INT), s, u), tx), "s")
    # the condition reads s: which branch a lane takes changes with s
    assert not linear_per_lane(_sel(Binary("==", S, Const(3, INT), INT), s, tx), "s")
    # a branch not linear in s
    assert not linear_per_lane(_sel(c, _b("*", s, s), tx), "s")
    assert not linear_per_lane(_sel(c, _b("/", s, Const(2, LONG)), tx), "s")
    # s times a select that reads s
    assert not linear_per_lane(_b("*", one_lane, s), "s")


def _one_lane_cost(s: int, width: int, other: int) -> tuple[int, int]:
    """Brute force: lane 0 at element s, lane l at element l + other, warp 0 of 32."""
    addrs: list[int | None] = [width * (s if lane == 0 else lane + other) for lane in range(32)]
    c = warp_cost(addrs, width, "store", SM90)
    return c.wavefronts, c.ideal


def test_one_lane_select_matches_brute_force() -> None:
    """``s[tid == 0 ? p : tid + 64]`` (4 bytes) and the 8-byte form, one warp: the proof's
    worst is the worst of brute force over p (0..2047 holds every residue and every p
    that brings lane 0 onto another lane's word)."""
    c = Binary("==", TX, Const(0, UINT), UINT)
    for width, other, worst in ((4, 64, (2, 1)), (8, 512, (3, 2))):
        index = Select(c, Cast(S, UINT), Binary("+", TX, Const(other, UINT), UINT), UINT)
        offset = Binary("*", index, Const(width, LONG), LONG)
        access, array = float_access(offset, size=4096)
        if width == 8:
            access = replace(access, width=8)
            array = replace(array, element_type="float2", element_bytes=8, dims=(2048,))
        r = prove(access, array, Shape((32, 1, 1), "launch"), SM90, 4, 0)
        brute = max(_one_lane_cost(p, width, other) for p in range(2048))
        assert brute == worst
        assert r.status == "worst-case", r.reason
        assert (r.wavefronts, r.ideal_wavefronts) == worst


def test_residue_condition_wording() -> None:
    every_but_multiples = set(range(128)) - {0, 32, 64, 96}
    assert _residue_condition("s", every_but_multiples, 128) == "when s % 32 != 0"
    assert _residue_condition("s", {5, 37, 69, 101}, 128) == "when s % 32 == 5"
    assert _residue_condition("s", {5}, 128) == "when s % 128 == 5"
    assert _residue_condition("s", set(range(128)), 128) == "for every value"
    three = {r for r in range(128) if r % 32 in (1, 2, 3)}
    assert _residue_condition("s", three, 128) == "when s % 32 is one of {1, 2, 3}"
    most = {r for r in range(128) if r % 32 not in (0, 1, 2)}
    assert _residue_condition("s", most, 128) == "when s % 32 is none of {0, 1, 2}"
    many = {r for r in range(128) if r % 2 == 0 and r % 64 < 40}
    assert _residue_condition("s", many, 128).endswith(", ...}")
