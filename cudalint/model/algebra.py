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

from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd
from typing import TYPE_CHECKING

from cudalint.ir import Binary, Cast, Const, Expr, Opaque, Select, Sym, Unary
from cudalint.model.evaluate import free_symbols
from cudalint.model.poly import linear_in as poly_linear_in
from cudalint.model.poly import uniform_split

if TYPE_CHECKING:
    import sympy as sp

#: sympy's function symbols by name (one per operator of _OP_NAMES: bounded). Process-wide
#: like the lru_caches below, whose sympy results hold them.
_FUNCS: dict[str, type[sp.Function]] = {}


def _func(name: str) -> type[sp.Function]:
    f = _FUNCS.get(name)
    if f is None:
        import sympy as sp

        f = sp.Function(name)
        _FUNCS[name] = f
    return f


_OP_NAMES = {
    "/": "cdiv", "%": "cmod", "<<": "shl", ">>": "shr", "&": "band", "|": "bor",
    "^": "bxor", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne",
    "&&": "land", "||": "lor", "min": "cmin", "max": "cmax",
}


def symbol(name: str) -> sp.Symbol:
    import sympy as sp

    return sp.Symbol(name, integer=True)


def to_sympy(expr: Expr) -> sp.Expr:
    """Translate IR to sympy, keeping non-polynomial operations as opaque functions.

    Casts are dropped: every period this module reasons about divides 2^8, so wrapping
    to any integer type keeps the residues it computes.
    """
    import sympy as sp

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
        return _func({"~": "bnot", "!": "lnot"}.get(expr.op, expr.op))(x)
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


#: The number in each opaque value's sympy symbol (equal Opaques, equal numbers). It
#: stays process-wide, never cleared: the lru_caches below keep results computed with
#: these numbers, and a number given again to another value would merge two unknowns.
#: (It grows by one entry per distinct opaque value a process sees.)
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


#: Terms sympy's ``expand`` may produce, estimated from the IR before calling it (a
#: product of sums expands to the product of their term counts; 20 nested ``(a+b)*``
#: would be a million). Beyond it the offset is treated as not separable, and the
#: proof falls back to sampling, which needs no sympy.
MAX_EXPANDED_TERMS = 2000


def expansion_size(expr: Expr, cap: int = MAX_EXPANDED_TERMS) -> int:
    """An upper bound on the terms ``sp.expand(to_sympy(expr))`` creates (stops at cap+1)."""
    try:
        return _expansion_size_cached(expr, cap)
    except RecursionError:  # too deep to hash as a cache key
        return _expansion_size(expr, cap)


@lru_cache(maxsize=8192)
def _expansion_size_cached(expr: Expr, cap: int) -> int:
    return _expansion_size(expr, cap)


def _expansion_size(expr: Expr, cap: int) -> int:
    inner = 0
    memo: dict[int, int] = {}

    def terms(e: Expr) -> int:
        nonlocal inner
        hit = memo.get(id(e))
        if hit is not None:
            return hit
        n: int
        if isinstance(e, Cast):
            n = terms(e.operand)
        elif isinstance(e, Unary):
            n = terms(e.operand)
            if e.op not in ("-", "+"):
                inner += n
                n = 1
        elif isinstance(e, Select):
            inner += terms(e.cond) + terms(e.then) + terms(e.other)
            n = 1
        elif isinstance(e, Binary):
            a, b = terms(e.lhs), terms(e.rhs)
            if e.op in ("+", "-"):
                n = a + b
            elif e.op == "*":
                n = a * b
            else:  # an opaque function: its arguments are expanded on their own
                inner += a + b
                n = 1
        else:
            n = 1
        n = min(n, cap + 1)
        inner = min(inner, cap + 1)
        memo[id(e)] = n
        return n

    return min(terms(expr) + inner, cap + 1)


@lru_cache(maxsize=4096)
def split(expr: Expr, lane_names: frozenset[str], uniform_names: frozenset[str]) -> Split:
    """Separate the lane-dependent (or enumerated) symbols from the free uniform ones."""
    if expansion_size(expr) > MAX_EXPANDED_TERMS:
        return Split(False, (), None, tuple(sorted(uniform_names)))
    # The expanded form is built from the IR (cudalint.model.poly), as
    # ``sp.expand(to_sympy(expr))`` would give it, without importing sympy.
    entangled, names, coeffs = uniform_split(expr, lane_names, uniform_names)
    if entangled:
        return Split(False, (), None, entangled)
    return Split(True, names, coeffs)


@lru_cache(maxsize=4096)
def linear_in(expr: Expr, name: str) -> bool:
    """Whether ``expr`` is ``a + name * b`` with ``name`` in neither a nor b, and never
    inside an operation sympy keeps opaque (division, shifts, bit operations, ...)."""
    if expansion_size(expr) > MAX_EXPANDED_TERMS:
        return False
    return poly_linear_in(expr, name)


#: At most this many ways of resolving the selects :func:`linear_per_lane` tries.
_MAX_RESOLUTIONS = 16


def linear_per_lane(expr: Expr, name: str) -> bool:
    """Whether, for every lane (every value of every other symbol), ``expr`` is
    ``a + name * b``: :func:`linear_in`, or so once each select whose branches read
    ``name`` and whose condition does not is replaced by either branch (``tid == 0 ? s :
    tid + 64`` is ``s`` in one lane and ``tid + 64`` in the others: the condition,
    fixed by the lane, picks one linear form). Every combination of branches must be
    linear, so that the lane's form is, whichever it is."""
    if linear_in(expr, name):
        return True
    try:
        forms = _resolved_selects(name, [expr])
    except RecursionError:
        return False
    return forms is not None and all(linear_in(f, name) for f in forms)


def _resolved_selects(name: str, forms: list[Expr]) -> list[Expr] | None:
    """``forms`` with their selects that read ``name`` in a branch replaced by
    their branches, one form per combination (None: a condition reads ``name``, or
    more than _MAX_RESOLUTIONS forms)."""
    out: list[Expr] = []
    for form in forms:
        sel = _select_reading(form, name)
        if sel is None:
            out.append(form)
            continue
        if name in _names_of(sel.cond):
            return None
        both = [_with(form, sel, sel.then), _with(form, sel, sel.other)]
        got = _resolved_selects(name, both)
        if got is None:
            return None
        out.extend(got)
        if len(out) > _MAX_RESOLUTIONS:
            return None
    return out


def _names_of(e: Expr) -> set[str]:
    return {s.name for s in free_symbols(e)}


def _select_reading(e: Expr, name: str) -> Select | None:
    """The outermost select of ``e`` that reads ``name`` (in any part), if any."""
    if name not in _names_of(e):
        return None
    if isinstance(e, Select):
        return e
    if isinstance(e, Unary | Cast):
        return _select_reading(e.operand, name)
    if isinstance(e, Binary):
        return _select_reading(e.lhs, name) or _select_reading(e.rhs, name)
    return None


def _with(e: Expr, old: Expr, new: Expr) -> Expr:
    """``e`` with the node ``old`` (by identity) replaced by ``new``."""
    if e is old:
        return new
    if isinstance(e, Unary | Cast):
        op = _with(e.operand, old, new)
        return e if op is e.operand else replace(e, operand=op)
    if isinstance(e, Binary):
        lhs, rhs = _with(e.lhs, old, new), _with(e.rhs, old, new)
        return e if lhs is e.lhs and rhs is e.rhs else replace(e, lhs=lhs, rhs=rhs)
    if isinstance(e, Select):
        c, t, o = _with(e.cond, old, new), _with(e.then, old, new), _with(e.other, old, new)
        if c is e.cond and t is e.then and o is e.other:
            return e
        return replace(e, cond=c, then=t, other=o)
    return e
