"""Index algebra with sympy: split a byte offset into a lane part and a uniform part.

An offset ``f(lanes) + g(uniforms)`` is *separable*: the uniform part shifts every lane
by the same amount, and a shift by a multiple of the bank period only renames banks, so
only ``g mod period`` matters. When ``g`` is affine, ``c0 + sum(c_i * u_i)``, the shifts
it can take modulo ``period`` are exactly the multiples of ``gcd(c_i..., period)``.

Operations sympy cannot treat as a polynomial (``/``, ``%``, shifts, bit operations,
comparisons, selects) stay opaque functions of their operands, so a uniform symbol
inside one of them next to a lane symbol makes the offset non-separable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd

import sympy as sp

from cudalint.ir import Cast, Const, Expr, Opaque, Select, Sym, Unary

_FUNCS: dict[str, type[sp.Function]] = {}


def _func(name: str) -> type[sp.Function]:
    f = _FUNCS.get(name)
    if f is None:
        f = sp.Function(name)
        _FUNCS[name] = f
    return f


_OP_NAMES = {
    "/": "cdiv", "%": "cmod", "<<": "shl", ">>": "shr", "&": "band", "|": "bor",
    "^": "bxor", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne",
    "&&": "land", "||": "lor", "min": "cmin", "max": "cmax",
}


def symbol(name: str) -> sp.Symbol:
    return sp.Symbol(name, integer=True)


def to_sympy(expr: Expr) -> sp.Expr:
    """Translate IR to sympy, keeping non-polynomial operations as opaque functions.

    Casts are dropped: every period this module reasons about divides 2^8, so wrapping
    to any integer type keeps the residues it computes.
    """
    if isinstance(expr, Const):
        return sp.Integer(expr.value)
    if isinstance(expr, Sym):
        return symbol(expr.name)
    if isinstance(expr, Cast):
        return to_sympy(expr.operand)
    if isinstance(expr, Unary):
        x = to_sympy(expr.operand)
        if expr.op == "-":
            return -x
        if expr.op == "+":
            return x
        return _func("bnot" if expr.op == "~" else "lnot")(x)
    if isinstance(expr, Select):
        return _func("select")(to_sympy(expr.cond), to_sympy(expr.then), to_sympy(expr.other))
    if isinstance(expr, Opaque):
        # An unknown value: an integer symbol of its own (equal Opaques, equal symbols).
        return sp.Symbol(f"opaque_{_opaque_id(expr)}", integer=True)
    a, b = to_sympy(expr.lhs), to_sympy(expr.rhs)
    if expr.op == "+":
        return a + b
    if expr.op == "-":
        return a - b
    if expr.op == "*":
        return a * b
    return _func(_OP_NAMES[expr.op])(a, b)


_OPAQUE_IDS: dict[Opaque, int] = {}


def _opaque_id(expr: Opaque) -> int:
    return _OPAQUE_IDS.setdefault(expr, len(_OPAQUE_IDS))


@dataclass(frozen=True)
class Split:
    """``offset = lane_part + uniform_part`` when separable."""

    separable: bool
    #: Uniform symbols that appear only in the uniform part.
    uniform_symbols: tuple[str, ...]
    #: Integer coefficients of ``uniform_part`` when it is affine, else None.
    coefficients: tuple[tuple[str, int], ...] | None
    #: Symbols entangled with the lane part (non-separable).
    entangled: tuple[str, ...] = ()

    def shift_step(self, period: int) -> int:
        """The uniform part takes every multiple of this step, modulo ``period``."""
        if self.coefficients is None:
            return 1
        step = period
        for _, c in self.coefficients:
            step = gcd(step, c)
        return step or period


@lru_cache(maxsize=4096)
def split(expr: Expr, lane_names: frozenset[str], uniform_names: frozenset[str]) -> Split:
    """Separate the lane-dependent (or enumerated) symbols from the free uniform ones."""
    e = sp.expand(to_sympy(expr))
    lane_syms = {symbol(n) for n in lane_names}
    uni_syms = {symbol(n) for n in uniform_names}
    uniform_terms = []
    entangled: set[str] = set()
    for term in sp.Add.make_args(e):
        fs = term.free_symbols
        has_lane = bool(fs & lane_syms)
        has_uni = bool(fs & uni_syms)
        if has_lane and has_uni:
            entangled |= {str(s) for s in fs & uni_syms}
        elif has_uni:
            uniform_terms.append(term)
    if entangled:
        return Split(False, (), None, tuple(sorted(entangled)))
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
    return Split(True, names, tuple(coeffs) if coeffs is not None else None)


@lru_cache(maxsize=4096)
def linear_in(expr: Expr, name: str) -> bool:
    """Whether ``expr`` is ``a + name * b`` with ``name`` in neither a nor b, and never
    inside an operation sympy keeps opaque (division, shifts, bit operations, ...)."""
    e = sp.expand(to_sympy(expr))
    s = symbol(name)
    for f in e.atoms(sp.Function):
        if s in f.free_symbols:
            return False
    try:
        poly = sp.Poly(e, s)
    except sp.PolynomialError:
        return False
    return bool(poly.degree() <= 1)
