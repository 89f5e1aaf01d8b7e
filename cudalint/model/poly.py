"""Exact integer polynomials over IR expressions, without sympy.

The algebra the model needs (:mod:`~cudalint.model.algebra`'s ``split`` and
``linear_in``, :mod:`~cudalint.model.merge`'s constant differences and alignment) only
ever asks about the *expanded* form of an offset: its terms, their integer coefficients
and the symbols in each. This module builds that form directly from the IR, as sympy's
``expand(to_sympy(expr))`` would, at a fraction of the cost and without importing sympy
(about half a second of every run that needed it):

- ``+``, ``-`` and ``*`` are expanded; casts are dropped (as ``to_sympy`` does);
- every other operation (``/``, ``%``, shifts, bit operations, comparisons, selects,
  ``!``, ``~``) is an opaque *atom* of its operands, whose arguments are expanded too
  (sympy's ``expand`` is deep), so equal operations on equal expanded arguments are one
  atom;
- an ``Opaque`` value is an atom of its own (equal Opaques, one atom), reading no symbol.

A polynomial is a ``dict`` from monomials to non-zero integer coefficients; a monomial is
a frozenset of ``(atom, power)`` pairs (the empty monomial is the constant term). Atoms
are hashable tuples: ``("s", name)``, ``("o", opaque)`` or ``("f", op, (args...))`` with
each argument a frozen polynomial. ``tests/test_poly.py`` checks the answers against
sympy on every offset of the fixtures and on random expressions.
"""

from __future__ import annotations

from functools import lru_cache

from cudalint.ir import Binary, Cast, Const, Expr, Opaque, Select, Sym, Unary

Atom = tuple[object, ...]
Mono = frozenset[tuple[Atom, int]]
Poly = dict[Mono, int]

_ONE: Mono = frozenset()

#: Operations kept as atoms, named as ``algebra.to_sympy`` names its sympy functions.
_OP_NAMES = {
    "/": "cdiv", "%": "cmod", "<<": "shl", ">>": "shr", "&": "band", "|": "bor",
    "^": "bxor", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne",
    "&&": "land", "||": "lor", "min": "cmin", "max": "cmax",
}


def _const(value: int) -> Poly:
    return {_ONE: value} if value else {}


def _atom(atom: Atom) -> Poly:
    return {frozenset({(atom, 1)}): 1}


def _add(a: Poly, b: Poly, sign: int = 1) -> Poly:
    out = dict(a)
    for m, c in b.items():
        v = out.get(m, 0) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def _mono_mul(x: Mono, y: Mono) -> Mono:
    if not x:
        return y
    if not y:
        return x
    powers = dict(x)
    for atom, k in y:
        powers[atom] = powers.get(atom, 0) + k
    return frozenset(powers.items())


def _mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in a.items():
        for m2, c2 in b.items():
            m = _mono_mul(m1, m2)
            v = out.get(m, 0) + c1 * c2
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    return out


def _frozen(p: Poly) -> frozenset[tuple[Mono, int]]:
    return frozenset(p.items())


@lru_cache(maxsize=8192)
def _expand_cached(expr: Expr) -> tuple[tuple[Mono, int], ...]:
    return tuple(_build(expr).items())


def _expand(expr: Expr) -> tuple[tuple[Mono, int], ...]:
    try:
        return _expand_cached(expr)
    except RecursionError:  # too deep to hash as a cache key: build it uncached
        return tuple(_build(expr).items())


def expand(expr: Expr) -> Poly:
    """The expanded polynomial of ``expr`` (a fresh dict the caller may change)."""
    return dict(_expand(expr))


def _children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, Unary | Cast):
        return (e.operand,)
    if isinstance(e, Binary):
        return (e.lhs, e.rhs)
    if isinstance(e, Select):
        return (e.cond, e.then, e.other)
    return ()  # Const, Sym, and Opaque (an atom: its inputs are not looked into)


def _build(root: Expr) -> Poly:
    """Bottom-up without recursion (offsets can nest deeper than Python's stack)."""
    done: dict[int, Poly] = {}
    stack: list[tuple[Expr, bool]] = [(root, False)]
    while stack:
        e, ready = stack.pop()
        if id(e) in done:
            continue
        kids = _children(e)
        if kids and not ready:
            stack.append((e, True))
            stack.extend((k, False) for k in kids if id(k) not in done)
            continue
        done[id(e)] = _combine(e, [done[id(k)] for k in kids])
    return done[id(root)]


def _func(name: str, args: list[Poly]) -> Poly:
    return _atom(("f", name, tuple(_frozen(a) for a in args)))


def _combine(e: Expr, kids: list[Poly]) -> Poly:
    if isinstance(e, Const):
        return _const(e.value)
    if isinstance(e, Sym):
        return _atom(("s", e.name))
    if isinstance(e, Opaque):
        return _atom(("o", e))
    if isinstance(e, Cast):
        return kids[0]
    if isinstance(e, Unary):
        if e.op == "-":
            return _add({}, kids[0], -1)
        if e.op == "+":
            return kids[0]
        return _func({"~": "bnot", "!": "lnot"}.get(e.op, e.op), kids)
    if isinstance(e, Select):
        return _func("select", kids)
    if e.op == "+":
        return _add(kids[0], kids[1])
    if e.op == "-":
        return _add(kids[0], kids[1], -1)
    if e.op == "*":
        return _mul(kids[0], kids[1])
    return _func(_OP_NAMES[e.op], kids)


@lru_cache(maxsize=8192)
def _atom_names(atom: Atom) -> frozenset[str]:
    if atom[0] == "s":
        return frozenset({atom[1]})  # type: ignore[arg-type]
    if atom[0] == "o":
        return frozenset()
    out: set[str] = set()
    args: tuple[frozenset[tuple[Mono, int]], ...] = atom[2]  # type: ignore[assignment]
    for arg in args:
        for mono, _ in arg:
            out |= mono_names(mono)
    return frozenset(out)


def mono_names(mono: Mono) -> frozenset[str]:
    """The symbol names a monomial reads."""
    out: frozenset[str] = frozenset()
    for atom, _ in mono:
        out |= _atom_names(atom)
    return out


def constant(p: Poly) -> int | None:
    """The value of ``p`` when it is a constant, else None."""
    if not p:
        return 0
    if len(p) == 1 and _ONE in p:
        return p[_ONE]
    return None


def difference(a: Expr, b: Expr) -> int | None:
    """``b - a`` when it is a constant (sympy: ``expand(b - a).is_Integer``)."""
    return constant(_add(expand(b), expand(a), -1))


def all_coefficients_multiple_of(expr: Expr, n: int) -> bool:
    """Whether every term's integer coefficient (the constant included) is a multiple of n."""
    return all(c % n == 0 for _, c in _expand(expr))


def linear_in(expr: Expr, name: str) -> bool:
    """``expr`` is ``a + name * b`` with ``name`` in neither a nor b nor any atom."""
    sym = ("s", name)
    for mono, _ in _expand(expr):
        for atom, power in mono:
            if atom == sym:
                if power > 1:
                    return False
            elif atom[0] == "f" and name in _atom_names(atom):
                return False
    return True


def uniform_split(
    expr: Expr, lane_names: frozenset[str], uniform_names: frozenset[str]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, int], ...] | None]:
    """(entangled, uniform names, coefficients) as ``algebra.split`` defines them:
    uniform symbols sharing a term with a lane symbol; the uniform symbols of the purely
    uniform terms; their integer coefficients when those terms are ``c * u`` only."""
    entangled: set[str] = set()
    uniform_terms: list[tuple[Mono, int]] = []
    for mono, c in _expand(expr):
        names = mono_names(mono)
        if names & lane_names:
            if names & uniform_names:
                entangled |= names & uniform_names
        elif names & uniform_names:
            uniform_terms.append((mono, c))
    if entangled:
        return tuple(sorted(entangled)), (), None
    used: set[str] = set()
    for mono, _ in uniform_terms:
        used |= mono_names(mono) & uniform_names
    coeffs: list[tuple[str, int]] | None = []
    for mono, c in uniform_terms:
        if len(mono) == 1:
            ((atom, power),) = mono
            if power == 1 and atom[0] == "s" and atom[1] in uniform_names:
                assert coeffs is not None
                coeffs.append((str(atom[1]), c))
                continue
        coeffs = None
        break
    if coeffs is not None:
        coeffs.sort()
    return (), tuple(sorted(used)), tuple(coeffs) if coeffs is not None else None
