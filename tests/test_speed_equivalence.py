"""The fast paths give exactly what the code they replace gave (issue 7, "Speed").

- ``cudalint.model.poly`` (the expanded form built from the IR) against sympy's
  ``expand(to_sympy(expr))`` for ``split``, ``linear_in`` and merge's constant
  differences and alignment;
- ``compile_warp`` (one call per warp, constants passed in) against ``compile_expr``
  called lane by lane: values, inactive lanes and errors;
- the bank rule's ``_phase_cost`` against the plain bank -> row -> lanes tables;
- remembered hashes of IR objects stay out of pickles (``-j`` workers hash strings
  differently).
"""

from __future__ import annotations

import pickle
import random

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from cudalint.ir import (
    INT,
    LONG,
    UINT,
    Binary,
    Cast,
    Const,
    Expr,
    Opaque,
    OpaqueKind,
    Select,
    Sym,
    Unary,
)
from cudalint.model import poly
from cudalint.model.arch import parse_arch
from cudalint.model.banks import NUM_BANKS, _phase_cost, _units, warp_cost
from cudalint.model.evaluate import EVAL_ERRORS, compile_expr, compile_warp
from cudalint.model.results import BankConflict

LANE = ("threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z")
UNIFORM = ("blockIdx.x", "k", "n")
SYMS = [Sym(n, UINT, n.startswith("threadIdx")) for n in LANE[:2]] + [Sym(n, INT) for n in UNIFORM]
OPS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "==", "&&", "min"]
OPAQUE = Opaque(OpaqueKind.LOAD, "a load", (Sym("k", INT),))


def exprs() -> st.SearchStrategy[Expr]:
    leaves = st.one_of(
        st.integers(-40, 40).map(lambda v: Const(v, INT)),
        st.sampled_from(SYMS),
        st.just(OPAQUE),
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(
                lambda op, a, b, t: Binary(op, a, b, t),
                st.sampled_from(OPS),
                children,
                children,
                st.sampled_from([INT, UINT, LONG]),
            ),
            st.builds(lambda op, a: Unary(op, a, INT), st.sampled_from(["-", "~", "!"]), children),
            st.builds(lambda a: Cast(a, LONG), children),
            st.builds(lambda c, a, b: Select(c, a, b, INT), children, children, children),
        )

    return st.recursive(leaves, extend, max_leaves=12)


# --- the sympy reference (the code poly replaced) -----------------------------------------


def _ref_expand(e: Expr) -> object:
    from cudalint.model.algebra import to_sympy

    return sp.expand(to_sympy(e))


def _ref_split(e: Expr, lanes: frozenset[str], unis: frozenset[str]) -> tuple[object, ...]:
    from cudalint.model.algebra import symbol

    lane_syms = {symbol(n) for n in lanes}
    uni_syms = {symbol(n) for n in unis}
    uniform_terms = []
    entangled: set[str] = set()
    for term in sp.Add.make_args(_ref_expand(e)):
        fs = term.free_symbols
        if fs & lane_syms and fs & uni_syms:
            entangled |= {str(s) for s in fs & uni_syms}
        elif fs & uni_syms:
            uniform_terms.append(term)
    if entangled:
        return tuple(sorted(entangled)), (), None
    g = sp.Add(*uniform_terms)
    names = tuple(sorted(str(s) for s in g.free_symbols & uni_syms))
    coeffs: list[tuple[str, int]] | None = []
    for term in sp.Add.make_args(g):
        if term == 0:
            continue
        c, rest = term.as_coeff_Mul()
        if isinstance(rest, sp.Symbol) and rest in uni_syms and c.is_integer:
            assert coeffs is not None
            coeffs.append((str(rest), int(c)))
        else:
            coeffs = None
            break
    return (), names, tuple(sorted(coeffs)) if coeffs is not None else None


def _ref_linear(e: Expr, name: str) -> bool:
    from cudalint.model.algebra import symbol

    x = _ref_expand(e)
    s = symbol(name)
    if any(s in f.free_symbols for f in x.atoms(sp.Function)):  # type: ignore[attr-defined]
        return False
    try:
        return bool(sp.Poly(x, s).degree() <= 1)
    except sp.PolynomialError:
        return False


def _ref_aligned(e: Expr, n: int) -> bool:
    for term in sp.Add.make_args(_ref_expand(e)):
        coeff, _ = term.as_coeff_Mul()
        if not coeff.is_Integer or int(coeff) % n:
            return False
    return True


@settings(max_examples=150, deadline=None)
@given(exprs(), exprs())
def test_poly_matches_sympy(a: Expr, b: Expr) -> None:
    lanes = frozenset(LANE[:2])
    unis = frozenset(UNIFORM)
    assert poly.uniform_split(a, lanes, unis) == _ref_split(a, lanes, unis)
    for name in (*LANE[:2], *UNIFORM):
        assert poly.linear_in(a, name) == _ref_linear(a, name)
    for n in (2, 4, 8, 16):
        assert poly.all_coefficients_multiple_of(a, n) == _ref_aligned(a, n)
    d = (_ref_expand(b) - _ref_expand(a)).expand()  # type: ignore[operator]
    assert poly.difference(a, b) == (int(d) if d.is_Integer else None)
    assert poly.difference(a, Binary("+", a, Const(12, INT), INT)) == 12


def test_poly_takes_deep_expressions() -> None:
    e: Expr = SYMS[0]
    for _ in range(3000):
        e = Binary("+", e, Const(1), INT)
    assert poly.difference(SYMS[0], e) == 3000
    assert poly.linear_in(e, "threadIdx.x")


# --- compile_warp against compile_expr, lane by lane --------------------------------------


def _per_lane(
    offset: Expr,
    guard: Expr | None,
    params: tuple[str, ...],
    lanes: list[tuple[int, ...] | None],
    rest: tuple[int, ...],
) -> object:
    try:
        off = compile_expr(offset, params)
        grd = compile_expr(guard, params) if guard is not None else None
        out: list[int | None] = []
        for lane in lanes:
            if lane is None:
                out.append(None)
                continue
            args = (*lane, *rest)
            out.append(None if grd is not None and not grd(*args) else off(*args))
        return out
    except EVAL_ERRORS as e:
        return (type(e), str(e))


def _per_warp(
    offset: Expr,
    guard: Expr | None,
    params: tuple[str, ...],
    lanes: list[tuple[int, ...] | None],
    rest: tuple[int, ...],
) -> object:
    try:
        fn = compile_warp(offset, guard, params, len(LANE))
        assert fn is not None
        return fn(lanes, rest[:1], rest[1:])
    except EVAL_ERRORS as e:
        return (type(e), str(e))


@settings(max_examples=200, deadline=None)
@given(exprs(), st.one_of(st.none(), exprs()), st.integers(0, 2**31))
def test_compile_warp_matches_compile_expr(offset: Expr, guard: Expr | None, seed: int) -> None:
    if poly_opaque(offset) or (guard is not None and poly_opaque(guard)):
        return  # opaque values are replaced by symbols before the model evaluates
    rng = random.Random(seed)
    params = (*LANE, *UNIFORM)
    lanes: list[tuple[int, ...] | None] = [
        None if rng.random() < 0.1 else (t, rng.randrange(4), 0, 32, 4, 1) for t in range(32)
    ]
    rest = tuple(rng.randrange(-5, 70) for _ in UNIFORM)
    assert _per_warp(offset, guard, params, lanes, rest) == _per_lane(
        offset, guard, params, lanes, rest
    )


def poly_opaque(e: Expr) -> bool:
    from cudalint.model.evaluate import contains_opaque

    return contains_opaque(e) is not None


def test_compile_warp_shares_code_between_constants() -> None:
    t = SYMS[0]
    f4 = compile_warp(Binary("*", Binary("+", t, Const(4)), Const(4), LONG), None, LANE, 6)
    f9 = compile_warp(Binary("*", Binary("+", t, Const(9)), Const(4), LONG), None, LANE, 6)
    assert f4 is not None and f9 is not None
    lanes = [(i, 0, 0, 32, 1, 1) for i in range(3)]
    assert f4(lanes, (), ()) == [16, 20, 24]
    assert f9(lanes, (), ()) == [36, 40, 44]


# --- the bank rule's phase cost against the plain tables -----------------------------------


def _ref_phase_cost(
    addresses: list[int | None], width: int, lanes: tuple[int, int], bank_bytes: int, row_bytes: int
) -> tuple[int, BankConflict | None]:
    banks: dict[int, dict[int, list[int]]] = {}
    for lane in range(lanes[0], lanes[1]):
        a = addresses[lane]
        if a is None:
            continue
        for u in _units(a, width, bank_bytes):
            rows = banks.setdefault(u % NUM_BANKS, {})
            users = rows.setdefault(u * bank_bytes // row_bytes, [])
            if not users or users[-1] != lane:
                users.append(lane)
    if not banks:
        return 0, None
    bank, rows = max(banks.items(), key=lambda kv: (len(kv[1]), -kv[0]))
    if len(rows) <= 1:
        return len(rows), None
    ordered = sorted(rows.items())
    return len(rows), BankConflict(
        bank, tuple(r for r, _ in ordered), tuple(tuple(ls) for _, ls in ordered)
    )


def test_phase_cost_matches_the_plain_tables() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        width = rng.choice([1, 2, 4, 8, 16])
        stride = rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 33, 64, 256])
        base = rng.randrange(0, 4096)
        addrs: list[int | None] = [
            None
            if rng.random() < 0.1
            else (base + lane * stride * width if rng.random() < 0.6 else rng.randrange(2048))
            for lane in range(32)
        ]
        for bank_bytes, row_bytes in ((4, 4), (4, 256), (8, 256)):
            for phase in ((0, 32), (0, 16), (8, 16)):
                assert _phase_cost(addrs, width, phase, bank_bytes, row_bytes) == (
                    _ref_phase_cost(addrs, width, phase, bank_bytes, row_bytes)
                )
    arch = parse_arch("sm_90")
    assert warp_cost([4 * 32 * i for i in range(32)], 4, "load", arch).wavefronts == 32


# --- remembered hashes ---------------------------------------------------------------------


def test_remembered_hash_is_not_pickled() -> None:
    e = Binary("*", Binary("+", SYMS[0], Const(3)), Const(4), LONG)
    h = hash(e)
    assert hash(Binary("*", Binary("+", SYMS[0], Const(3)), Const(4), LONG)) == h
    data = pickle.dumps(e)
    assert b"_hash" not in data
    back = pickle.loads(data)
    assert back == e and hash(back) == h
