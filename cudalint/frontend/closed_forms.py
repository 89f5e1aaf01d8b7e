"""Loop-carried values in closed form: the algebra the executor's loops use.

A loop variable updated the same way in every iteration (``v += c``, ``v <<= 1``,
``(v + c) & 63``) is written as an expression of the loop's iteration number; these are
the pure functions on IR expressions that decide whether an update has such a form and
build it (``Executor.carried``, ``Executor.closed_form`` and ``Executor.iteration`` in
:mod:`cudalint.frontend.execute` run the loops and call them), and how many iterations a
counter can make. Nothing here reads clang.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from cudalint.frontend.consteval import fold
from cudalint.ir import (
    THREAD_IDX,
    Binary,
    Cast,
    Const,
    Expr,
    Induction,
    IntType,
    Select,
    Sym,
    Unary,
    next_value,
    walk,
)

#: The longest cycle (in iterations) a periodic loop-carried value is enumerated over: the
#: model enumerates at most 64 values of a loop variable.
MAX_CYCLE = 64


def nodes(e: Expr) -> list[Expr]:
    """Every node of ``e`` (Opaque inputs included), parents before children."""
    return list(walk(e))


def mentions(e: Expr, v: Sym) -> bool:
    return any(x == v for x in nodes(e) if isinstance(x, Sym))


def subst(e: Expr, v: Sym, new: Expr) -> Expr:
    """``e`` with the symbol ``v`` replaced by ``new`` (folded where constants meet)."""
    if isinstance(e, Sym):
        return new if e == v else e
    if isinstance(e, Const):
        return e
    if isinstance(e, Unary):
        return fold(Unary(e.op, subst(e.operand, v, new), e.type))
    if isinstance(e, Cast):
        return fold(Cast(subst(e.operand, v, new), e.type))
    if isinstance(e, Binary):
        return fold(Binary(e.op, subst(e.lhs, v, new), subst(e.rhs, v, new), e.type))
    if isinstance(e, Select):
        return fold(Select(subst(e.cond, v, new), subst(e.then, v, new),
                           subst(e.other, v, new), e.type))
    return replace(e, inputs=tuple(subst(i, v, new) for i in e.inputs))


def coefficient(e: Expr, v: Sym, bits: int) -> int | None:
    """``a`` when ``e`` equals ``a*v + c`` modulo ``2**bits`` for a ``c`` without ``v``:
    ``v`` reached only through ``+``, ``-`` and conversions at least ``bits`` wide (each
    of them a ring homomorphism modulo ``2**bits``). None otherwise."""
    if e == v:
        return 1
    if not mentions(e, v):
        return 0
    if isinstance(e, Cast):
        return coefficient(e.operand, v, bits) if e.type.bits >= bits else None
    if isinstance(e, Unary) and e.op in ("-", "+") and e.type.bits >= bits:
        a = coefficient(e.operand, v, bits)
        return None if a is None else (-a if e.op == "-" else a)
    if isinstance(e, Binary) and e.op in ("+", "-") and e.type.bits >= bits:
        a = coefficient(e.lhs, v, bits)
        b = coefficient(e.rhs, v, bits)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b
    return None


def peel(e: Expr, bits: int) -> Expr:
    """``e`` without conversions that keep at least ``bits`` bits."""
    while isinstance(e, Cast) and e.type.bits >= bits:
        e = e.operand
    return e


def as_type(e: Expr, t: IntType) -> Expr:
    return e if e.type == t else fold(Cast(e, t))


def affine(start: Expr, it: Expr, step: Expr, t: IntType) -> Expr:
    """``start + it * step`` in type ``t``."""
    s = as_type(step, t)
    if isinstance(s, Const) and s.value == 0:
        return as_type(start, t)
    i = as_type(it, t)
    prod = i if s == Const(1, t) else fold(Binary("*", i, s, t))
    v = as_type(start, t)
    if isinstance(v, Const) and v.value == 0:
        return prod
    return fold(Binary("+", v, prod, t))


def bounds(e: Expr) -> tuple[int, int | None] | None:
    """(low, high) of ``e`` when it is provably at least ``low`` >= 0 (high None: no known
    upper bound); None when it may be negative or cudalint cannot tell."""
    if isinstance(e, Const):
        return (e.value, e.value) if e.value >= 0 else None
    if isinstance(e, Sym):
        if e.name in THREAD_IDX:
            return (0, 1023)
        if e.name.startswith(("blockIdx.", "blockDim.", "gridDim.")) or not e.type.signed:
            return (0, None)
        return None
    limit = (1 << (e.type.bits - 1)) - 1
    if isinstance(e, Cast):
        b = bounds(e.operand)
        if b is None or (b[1] is None and e.type.signed) or (b[1] or 0) > limit:
            return None
        return b
    if not isinstance(e, Binary):
        return None
    if e.op == "&":
        lb, rb = bounds(e.lhs), bounds(e.rhs)
        his = [b[1] for b in (lb, rb) if b is not None and b[1] is not None]
        return (0, min(his)) if his else ((0, None) if lb and rb else None)
    lb, rb = bounds(e.lhs), bounds(e.rhs)
    if lb is None or rb is None:
        return None
    (l1, h1), (l2, h2) = lb, rb
    out: tuple[int, int | None] | None = None
    if e.op == "+":
        out = (l1 + l2, None if h1 is None or h2 is None else h1 + h2)
    elif e.op == "*":
        out = (l1 * l2, None if h1 is None or h2 is None else h1 * h2)
    elif e.op == "<<" and isinstance(e.rhs, Const) and e.rhs.value < e.type.bits:
        out = (l1 << e.rhs.value, None if h1 is None else h1 << e.rhs.value)
    elif e.op == ">>" and isinstance(e.rhs, Const):
        out = (l1 >> e.rhs.value, None if h1 is None else h1 >> e.rhs.value)
    elif e.op == "%" and isinstance(e.rhs, Const) and e.rhs.value > 0:
        out = (0, e.rhs.value - 1 if h1 is None else min(h1, e.rhs.value - 1))
    elif e.op == "|" and h1 is not None and h2 is not None:
        out = (max(l1, l2), (1 << max(h1, h2).bit_length()) - 1)
    if out is None or (out[1] is not None and out[1] > limit):
        return None
    return out


def within(e: Expr, hi: int) -> bool:
    """Whether ``e`` is provably in ``[0, hi]``."""
    b = bounds(e)
    return b is not None and b[1] is not None and b[1] <= hi


def trip_count(d: Induction) -> int | None:
    """How many iterations a counter with constant start, step and bound makes."""
    if not (isinstance(d.start, Const) and isinstance(d.step, Const)
            and isinstance(d.bound, Const)) or d.cmp is None or d.op not in ("+", "-"):
        return None
    v, s, b = d.start.value, d.step.value, d.bound.value
    cmp = d.cmp
    delta = s if d.op == "+" else -s

    def holds(x: int) -> bool:
        return {"<": x < b, "<=": x <= b, ">": x > b, ">=": x >= b, "!=": x != b}[cmp]

    n = 0
    while holds(v):
        n += 1
        v += delta
        if n > 100_000 or delta == 0:
            return None
    return n


def known_parts(d: Induction) -> bool:
    """Whether a counter's start, step and bound are constants or the block shape: the
    model enumerates its values for each block shape."""
    return d.cmp is not None and d.bound is not None and all(
        isinstance(x, Const) or (isinstance(x, Sym) and x.name.startswith("blockDim."))
        for part in (d.start, d.step, d.bound) if part is not None
        for x in nodes(part) if not isinstance(x, Binary | Unary | Cast))


def geometric_shift(d: Induction, t: IntType) -> tuple[bool, int] | None:
    """(left, c) for a counter that is shifted by ``c`` bits each iteration (``s <<= c``,
    ``s *= 2^c``, ``s >>= c``, ``s /= 2^c`` from a start that is not negative), so that
    its value in iteration ``k`` is ``start << c*k`` or ``start >> c*k``; None otherwise."""
    if not isinstance(d.step, Const):
        return None
    f = d.step.value
    if d.op in ("<<", ">>"):
        c = f if 0 < f < t.bits else None
    elif d.op in ("*", "/"):
        c = f.bit_length() - 1 if f > 1 and f & (f - 1) == 0 else None
    else:
        return None
    if c is None or (d.op == "/" and t.signed and bounds(d.start) is None):
        return None
    return d.op in ("<<", "*"), c


def known_start(counter: Sym) -> bool:
    """Whether a doubling or halving counter has a known start and step and a bound that
    stops it before its type overflows or it reaches 0 (:func:`geometric_trips`), but a
    bound cudalint does not know (``for (d = 2; d < n; d <<= 1)``): the model then
    enumerates every value it could take (``cudalint.model.proof._geometric_reach``)."""
    d = counter.induction
    if d is None or d.bound is None or lane_dependent(d.bound):
        return False
    known = replace(d, bound=Const(0, counter.type))
    return known_parts(known) and geometric_trips(counter) is not None


def geometric_trips(counter: Expr | None) -> int | None:
    """The most iterations a loop whose counter is doubled or halved can run, whatever
    its start and bound: ``for (d = n >> 1; d > 0; d >>= 1)`` reaches 0 after at most
    32 halvings of a 32-bit value; ``for (d = 2; d < n; d <<= 1)`` overflows after at
    most 32 doublings (undefined for a signed counter, an endless loop for an unsigned
    one: a program that ends stops before). None for any other counter or test."""
    if not isinstance(counter, Sym) or counter.induction is None:
        return None
    d = counter.induction
    geo = geometric_shift(d, counter.type)
    if geo is None or d.cmp is None or d.bound is None:
        return None
    left, c = geo
    if left:
        ok = d.cmp in ("<", "<=")
    else:
        # halving ends where the counter reaches 0 (a non-negative start: geometric_shift)
        b = bounds(d.bound)
        ok = (d.cmp in (">", "!=") and isinstance(d.bound, Const) and d.bound.value == 0) or (
            d.cmp in (">", ">=") and b is not None and b[0] >= 0)
    if not ok:
        return None
    # a non-negative value of the type has bits - signed bits: as many halvings reach 0,
    # and as many doublings of a start of at least 1 reach the top bit
    return -(-(counter.type.bits - int(counter.type.signed)) // c)



#: The most values of a counter :func:`stopped` enumerates to find where a loop leaves.
MAX_STOP_VALUES = 4096


def const_values(d: Induction, t: IntType, limit: int = MAX_STOP_VALUES) -> list[int] | None:
    """The values of a counter whose start, step and bound are constants, in order; None
    where they are not, the sequence makes no progress, leaves ``t`` or is longer than
    ``limit``."""
    if not (isinstance(d.start, Const) and isinstance(d.step, Const)
            and isinstance(d.bound, Const)) or d.cmp is None or d.index:
        return None
    v, s, b = d.start.value, d.step.value, d.bound.value
    lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
    cmp = d.cmp

    def holds(x: int) -> bool:
        return {"<": x < b, "<=": x <= b, ">": x > b, ">=": x >= b, "!=": x != b}[cmp]

    out: list[int] = []
    while holds(v):
        if not lo <= v <= hi or len(out) >= limit:
            return None
        out.append(v)
        nv = next_value(d.op, v, s)
        if nv == v:
            return None
        v = nv
    return out


def stopped(counter: Sym, stop: Expr) -> Sym | None:
    """``counter`` with its sequence cut after the first value at which ``stop`` (the
    condition under which the body leaves the loop: a ``break`` or ``return``) holds,
    where ``stop`` reads no value but the counter and constants: the iterations past it
    never run (``for (j = 0; j < 64; ++j) { ...; if (j == 8) break; }`` runs j = 0..8,
    what follows the ``break`` in the body only up to 7, by its own guard). None where
    the loop does not stop early for a known value, or the counter's values are not all
    known, or the cut sequence cannot be written as a bound."""
    d = counter.induction
    if d is None:
        return None
    if any(isinstance(x, Sym) and x != counter for x in nodes(stop)) or any(
            not isinstance(x, Const | Sym | Unary | Binary | Cast | Select)
            for x in nodes(stop)):
        return None  # reads a value cudalint does not know: any iteration may run
    values = const_values(d, counter.type)
    if values is None:
        return None
    last: int | None = None
    for v in values:
        c = fold(subst(stop, counter, Const(v, counter.type)))
        if not isinstance(c, Const):
            return None
        if c.value:
            last = v
            break
    if last is None or last == values[-1]:
        return None
    cut = values[:values.index(last) + 1]
    rising = all(a < b for a, b in itertools.pairwise(cut))
    falling = all(a > b for a, b in itertools.pairwise(cut))
    if not (rising or falling):
        return None
    new = replace(d, cmp="<=" if rising else ">=", bound=Const(last, counter.type))
    if const_values(new, counter.type) != cut:
        return None
    return replace(counter, induction=new)


def with_counter(e: Expr, old: Sym, new: Sym) -> Expr:
    """``e`` with the symbol ``old`` replaced by ``new``, also inside the inductions of
    other loop variables that read it (an inner loop's start or bound)."""
    if isinstance(e, Sym):
        if e == old:
            return new
        d = e.induction
        if d is None or not any(mentions(p, old) or _reads_in_induction(p, old)
                                for p in (d.start, d.step, d.bound) if p is not None):
            return e
        return replace(e, induction=replace(
            d, start=with_counter(d.start, old, new), step=with_counter(d.step, old, new),
            bound=None if d.bound is None else with_counter(d.bound, old, new)))
    if isinstance(e, Const):
        return e
    if isinstance(e, Unary | Cast):
        operand = with_counter(e.operand, old, new)
        return e if operand is e.operand else replace(e, operand=operand)
    if isinstance(e, Binary):
        lhs, rhs = with_counter(e.lhs, old, new), with_counter(e.rhs, old, new)
        return e if lhs is e.lhs and rhs is e.rhs else replace(e, lhs=lhs, rhs=rhs)
    if isinstance(e, Select):
        parts = (with_counter(e.cond, old, new), with_counter(e.then, old, new),
                 with_counter(e.other, old, new))
        if parts == (e.cond, e.then, e.other):
            return e
        return replace(e, cond=parts[0], then=parts[1], other=parts[2])
    inputs = tuple(with_counter(i, old, new) for i in e.inputs)
    return e if inputs == e.inputs else replace(e, inputs=inputs)


def _reads_in_induction(e: Expr, old: Sym) -> bool:
    """A loop variable in ``e`` whose own induction reads ``old`` (a nest of three)."""
    for x in nodes(e):
        if isinstance(x, Sym) and x.induction is not None and x != old:
            d = x.induction
            if any(mentions(p, old) or _reads_in_induction(p, old)
                   for p in (d.start, d.step, d.bound) if p is not None):
                return True
    return False


def lane_dependent(e: Expr) -> bool:
    if isinstance(e, Sym):
        return e.lane_dependent
    if isinstance(e, Const):
        return False
    if isinstance(e, Unary | Cast):
        return lane_dependent(e.operand)
    if isinstance(e, Binary):
        return lane_dependent(e.lhs) or lane_dependent(e.rhs)
    if isinstance(e, Select):
        return lane_dependent(e.cond) or lane_dependent(e.then) or lane_dependent(e.other)
    return any(lane_dependent(i) for i in e.inputs)
