"""Proofs over every warp of the block and every value of the uniform symbols.

For one access, one block shape and one bank mode:

1. Opaque values whose inputs are all uniform become fresh uniform symbols; an opaque
   value that depends on the thread index makes the access ``unknown``.
2. The byte offset is split (sympy, :mod:`cudalint.model.algebra`) into a part that
   depends on the enumerated symbols (thread index, and the block shape when it is not
   known) and a uniform part. The array's base address is one more uniform shift (a
   multiple of its alignment).
3. Separable: each warp is evaluated once with C semantics, then every residue of the
   uniform shift modulo the bank period (4 bytes, 8 in Kepler's 8-byte mode, 256 in its
   4-byte mode; at least the access width) is costed. Equal costs for every residue:
   ``proved``. Otherwise ``worst-case`` with the condition that gives the worst.
4. Not separable: the entangled uniform symbols are sampled over a stated range and the
   result is ``worst-case`` over that range.
5. Guards evaluable per lane deactivate lanes; a guard that mixes the thread index with
   an unknown uniform value leaves every lane active. The cost never grows when lanes
   drop out (each phase's busiest bank can only lose words, and merging phases never
   costs more than serving them apart), so all-active is an upper bound: a clean result
   stays ``proved``, a conflict becomes ``worst-case``.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from cudalint.budget import check as check_budget
from cudalint.ir import (
    BLOCK_DIM,
    THREAD_IDX,
    UINT,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    IntType,
    Opaque,
    Select,
    SharedArray,
    Span,
    Sym,
    Unary,
    next_value,
)
from cudalint.model.arch import Arch
from cudalint.model.banks import AtomicForm, period, warp_cost
from cudalint.model.caches import RunCaches
from cudalint.model.evaluate import (
    EVAL_ERRORS,
    EvalError,
    compile_expr,
    compile_warp,
    conjoined,
    conjuncts,
    contains_opaque,
    free_symbols,
    interval,
    type_range,
    wrap,
)
from cudalint.model.placement import alignment
from cudalint.model.results import AccessResult, Cost, ReasonKind, Status
from cudalint.model.shapes import Shape
from cudalint.model.stride_loops import bound_counters, widened_kind, widened_reason
from cudalint.model.warps import (
    ENUMERATED,
    Partial,
    Warp,
    assumed_shape_warps,
    known_shape_warps,
    legal_shapes,
)

if TYPE_CHECKING:
    from cudalint.model.algebra import Split
    from cudalint.model.loaded import Bounded

LANE_PARAMS = (*THREAD_IDX, *BLOCK_DIM)
#: The reason of a record whose access no lane executes (``executed`` is False).
NOT_EXECUTED = "no lane executes the access in any analyzed launch"
#: Values tried for entangled uniform symbols, by how many there are.
_SAMPLES = {1: 64, 2: 16, 3: 6}
_BASE_VALUES = (0, 1, 3, 7, 64)


@dataclass(frozen=True)
class _Separable:
    """Stands in for algebra.Split when the offset reads no uniform symbol."""

    separable: bool = True
    uniform_symbols: tuple[str, ...] = ()
    coefficients: tuple[tuple[str, int], ...] | None = ()
    entangled: tuple[str, ...] = ()

    def shift_step(self, period: int) -> int:
        return period


_NO_UNIFORMS = _Separable()


# --- opaque values -------------------------------------------------------------------------


def _is_lane_dependent(expr: Expr, warp_uniform: frozenset[str] = frozenset()) -> bool:
    """Whether the value may differ between lanes (``ir.may_differ``, here with the
    symbols from the cached ``free_symbols`` first: this is on the proofs' hot path).
    An opaque value with no known inputs
    (an unresolved call, a method of an unmodelled object) may: it could read the
    thread index itself, so it is never taken for a uniform one; only the kinds that
    cannot (a load from an address no lane part enters, a size, a literal, a value that is
    no integer: ``OpaqueKind.uniform_without_inputs``) are. ``warp_uniform``: thread
    indices the block shape makes the same for every lane of a warp."""
    if any(s.lane_dependent and s.name not in warp_uniform for s in free_symbols(expr)):
        return True
    stack: list[Expr] = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, Opaque):
            if not e.inputs and not e.kind.uniform_without_inputs:
                return True
            stack.extend(e.inputs)
        elif isinstance(e, Unary | Cast):
            stack.append(e.operand)
        elif isinstance(e, Binary):
            stack.extend((e.lhs, e.rhs))
        elif isinstance(e, Select):
            stack.extend((e.cond, e.then, e.other))
    return False


def _abstract_opaques(expr: Expr, found: dict[Opaque, Sym]) -> Expr:
    """Replace uniform Opaque nodes by symbols; raise on a lane-dependent one."""
    if isinstance(expr, Opaque):
        if _is_lane_dependent(expr):
            raise _LaneOpaque(expr)
        sym = found.get(expr)
        if sym is None:
            # the reason rides in the name, after '@', for conditions (see _display)
            sym = Sym(f"opaque{len(found)}@{expr.reason}", expr.type)
            found[expr] = sym
        return sym
    if isinstance(expr, Unary | Cast):
        return replace(expr, operand=_abstract_opaques(expr.operand, found))
    if isinstance(expr, Binary):
        return replace(
            expr, lhs=_abstract_opaques(expr.lhs, found), rhs=_abstract_opaques(expr.rhs, found)
        )
    if isinstance(expr, Select):
        return replace(
            expr,
            cond=_abstract_opaques(expr.cond, found),
            then=_abstract_opaques(expr.then, found),
            other=_abstract_opaques(expr.other, found),
        )
    return expr


#: Operations the polynomial split keeps whole: a uniform operand of one of them makes
#: the whole term entangled with any lane symbol in it.
_NONLINEAR_OPS = frozenset(("/", "%", "<<", ">>", "&", "|", "^", "min", "max"))


def _uniform_terms_as_symbols(expr: Expr, lanes: frozenset[str], free: frozenset[str],
                              warp_uniform: frozenset[str] = frozenset(),
                              made: dict[Expr, Sym] | None = None) -> Expr:
    """``expr`` with each largest non-polynomial subterm that reads a free uniform symbol
    and nothing lane-dependent replaced by a fresh uniform symbol (the same subterm by
    the same symbol). Sound: the symbol ranges over every value, a superset of the values
    the subterm takes, so a cost equal at every uniform shift is still a proof.
    ``warp_uniform``: thread indices the block shape makes the same within each warp
    (``threadIdx.y`` when ``blockDim.x`` is a multiple of 32); a subterm that reads them
    is one value per warp, which the symbol stands for as well.
    ``expr`` itself (``is``) when there is nothing to replace; ``made`` receives the
    subterms replaced and their symbols."""
    if made is None:
        made = {}

    def uniform(e: Expr) -> bool:
        syms = free_symbols(e)
        return bool({s.name for s in syms} & free) and not any(
            (s.lane_dependent and s.name not in warp_uniform)
            or (s.name in lanes and s.name not in warp_uniform) for s in syms
        ) and not _is_lane_dependent(e, warp_uniform)

    def symbol(e: Expr, text: str | None = None) -> Sym:
        sym = made.get(e)
        if sym is None:
            shown = text or "a value computed from " + _names(
                sorted(s.name for s in free_symbols(e)))
            sym = made[e] = Sym(f"opaque_u{len(made)}@{shown}", e.type)
        return sym

    def branch(e: Expr) -> Expr:
        # a branch of a select that differs between lanes, computed from several
        # uniform values and nothing lane-dependent (``tid == 0 ? s + (c % 2) * 256 :
        # tid + 512``): one value for the lanes that take it, as one symbol, in which
        # the select is linear in each lane (algebra.linear_per_lane)
        if not isinstance(e, Sym) and len({s.name for s in free_symbols(e)} & free) > 1 \
                and uniform(e):
            return symbol(e, _expr_text(e))
        return go(e)

    def go(e: Expr) -> Expr:
        if isinstance(e, Binary):
            if e.op in _NONLINEAR_OPS and uniform(e):
                return symbol(e)
            lhs, rhs = go(e.lhs), go(e.rhs)
            return e if lhs is e.lhs and rhs is e.rhs else replace(e, lhs=lhs, rhs=rhs)
        if isinstance(e, Unary | Cast):
            op = go(e.operand)
            return e if op is e.operand else replace(e, operand=op)
        if isinstance(e, Select):
            if uniform(e):
                return symbol(e)
            c, t, o = go(e.cond), branch(e.then), branch(e.other)
            if c is e.cond and t is e.then and o is e.other:
                return e
            return replace(e, cond=c, then=t, other=o)
        return e

    return go(expr)


def _expr_text(e: Expr, limit: int = 60) -> str | None:
    """``e`` written as C (casts left out, uniform symbols as :func:`_display` shows
    them), for a condition that names it; None when longer than ``limit`` or holding
    something without a short spelling."""
    prec = {"*": 5, "/": 5, "%": 5, "+": 4, "-": 4, "<<": 3, ">>": 3, "&": 2, "^": 1, "|": 0}

    def go(x: Expr, outer: int) -> str | None:
        while isinstance(x, Cast):
            x = x.operand
        if isinstance(x, Const):
            return str(x.value)
        if isinstance(x, Sym):
            return _display(x.name)
        if isinstance(x, Binary) and x.op in prec:
            p = prec[x.op]
            a, b = go(x.lhs, p), go(x.rhs, p + 1)
            if a is None or b is None:
                return None
            t = f"{a} {x.op} {b}"
            return f"({t})" if p < outer else t
        return None

    got = go(e, 0)
    return got if got is not None and len(got) <= limit else None


#: Atomics nvcc aggregates across the warp when the address is warp-uniform at compile
#: time (REDUX/POPC, then one lane's ATOMS), seen in SASS for add, sub and max.
_AGGREGATED = frozenset(
    {"atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor"}
)
_FLOATS = ("float", "double", "__half", "half", "__nv_bfloat16", "__half2", "__nv_bfloat162")


def _atomic_base(op: str | None) -> str:
    op = op or ""
    for suffix in ("_block", "_system"):
        op = op.removesuffix(suffix)
    return op


def atomic_form(access: Access) -> AtomicForm:
    """The instruction form nvcc emits for a 32-bit shared atomic (see banks.warp_cost)."""
    op = _atomic_base(access.atomic_op)
    if op == "atomicCAS":
        return "cas"
    if op in ("atomicAdd", "atomicSub") and access.atomic_value_type == "float":
        return "cas-loop"  # LDS + ATOMS.CAST.SPIN (sm90_atomics_same_addr.jsonl)
    if access.atomic_op is None or (
        op == "atomicAdd" and access.atomic_operand == 1 and not access.atomic_result_used
    ):
        return "combined"
    return "per-lane"


def _floating(access: Access, array: SharedArray | None) -> bool:
    """The atomic updates a floating-point value (its own type, else the array's)."""
    value = access.atomic_value_type
    if value is None and array is not None:
        value = array.element_type
    return value is not None and value.replace("const ", "").strip() in _FLOATS


def _aggregated(access: Access, array: SharedArray | None) -> bool:
    """A warp-uniform atomic nvcc turns into one lane's instruction."""
    if access.kind != "atomic" or _atomic_base(access.atomic_op) not in _AGGREGATED:
        return False
    if _floating(access, array):
        return False
    return not any(s.lane_dependent for s in free_symbols(access.offset))


def _cas_loop(access: Access, array: SharedArray | None) -> bool:
    """A floating-point atomicAdd/atomicSub whose loop is not measured: nvcc emits a load
    and a compare-and-swap loop (LDS + ATOMS.CAST.SPIN, seen in the SASS for sm_80, sm_90
    and sm_100). The ``float`` loop is measured and modelled (atomic_form "cas-loop");
    for the other types (``__half``, ``__nv_bfloat16``, ...) the loop works on the
    enclosing 32-bit word and was not measured."""
    if access.kind != "atomic" or _atomic_base(access.atomic_op) not in ("atomicAdd",
                                                                          "atomicSub"):
        return False
    return atomic_form(access) != "cas-loop" and _floating(access, array)


def _shared_word(lanes: tuple[int | None, ...], width: int) -> tuple[int, int] | None:
    """(word, number of lanes) of the first word two active lanes share, else None."""
    users: dict[int, int] = {}
    for a in lanes:
        if a is None:
            continue
        for w in range(a // 4, (a + max(width, 1) - 1) // 4 + 1):
            users[w] = users.get(w, 0) + 1
    shared = [(w, n) for w, n in users.items() if n > 1]
    return max(shared, key=lambda wn: (wn[1], -wn[0])) if shared else None


def _assumed_shape_needs(offset: Expr, guard: Expr | None) -> set[str]:
    """Under the assumed shape (blockDim.x a multiple of 32) only threadIdx.x varies
    within a warp. The other thread and shape values must be enumerated with it only
    where they are entangled with threadIdx.x (in one term of the offset, in a guard
    that reads threadIdx.x, or in a loop bound); elsewhere they are uniform shifts."""
    tx = THREAD_IDX[0]
    syms = free_symbols(offset) | (free_symbols(guard) if guard is not None else set())
    names = {s.name for s in syms}
    needed = {tx} & names
    others = (names & ENUMERATED) - {tx}
    if others and tx in names:
        from cudalint.model.algebra import split

        sp = split(offset, frozenset({tx}), frozenset(others))
        needed |= set(sp.entangled) & ENUMERATED
    if guard is not None:
        gnames = {s.name for s in free_symbols(guard)}
        if tx in gnames:
            needed |= gnames & ENUMERATED
    for s in syms:
        d = s.induction
        if d is not None:
            for part in (d.start, d.step, d.bound):
                if part is not None:
                    needed |= {i.name for i in free_symbols(part)} & ENUMERATED
    return needed


def _map_syms(expr: Expr, fn: Callable[[Sym], Expr]) -> Expr:
    """``expr`` with every symbol (Opaque inputs included) replaced by ``fn(symbol)``."""
    if isinstance(expr, Sym):
        return fn(expr)
    if isinstance(expr, Unary | Cast):
        return replace(expr, operand=_map_syms(expr.operand, fn))
    if isinstance(expr, Binary):
        return replace(expr, lhs=_map_syms(expr.lhs, fn), rhs=_map_syms(expr.rhs, fn))
    if isinstance(expr, Select):
        return replace(
            expr,
            cond=_map_syms(expr.cond, fn),
            then=_map_syms(expr.then, fn),
            other=_map_syms(expr.other, fn),
        )
    if isinstance(expr, Opaque):
        return replace(expr, inputs=tuple(_map_syms(i, fn) for i in expr.inputs))
    return expr


def _replace_syms(expr: Expr, syms: dict[str, Sym]) -> Expr:
    return _map_syms(expr, lambda s: syms.get(s.name, s))


def _substitute(expr: Expr, values: dict[str, int]) -> Expr:
    def const(s: Sym) -> Expr:
        v = values.get(s.name)
        return s if v is None else Const(v, s.type)

    return _map_syms(expr, const)


@lru_cache(maxsize=64)
def _assumed_warps(needed: frozenset[str], max_threads: int, fixed: Partial | None = None
                   ) -> tuple[Warp, ...]:
    """``assumed_shape_warps``, enumerated once per set of symbols, thread cap and known
    components of the shape."""
    return tuple(assumed_shape_warps(needed, max_threads, fixed))


def _without_opaques(expr: Expr, found: dict[Opaque, Sym]) -> Expr:
    """``_abstract_opaques``; ``expr`` itself when it holds no Opaque (no copy)."""
    return expr if contains_opaque(expr) is None else _abstract_opaques(expr, found)


def _substituted(expr: Expr, values: dict[str, int]) -> Expr:
    """``_substitute``; ``expr`` itself when it reads none of ``values`` (no copy)."""
    if not any(s.name in values for s in free_symbols(expr)):
        return expr
    return _substitute(expr, values)


class _LaneOpaque(Exception):
    """An offset or guard reads ``opaque``, a value that may differ between lanes."""

    def __init__(self, opaque: Opaque) -> None:
        super().__init__(opaque.reason)
        self.opaque = opaque


# --- the proof -------------------------------------------------------------------------------


# --- cases: one warp, one value of each loop variable -----------------------------------

_MAX_ITERATIONS = 64
_MAX_CASES = 4096
_MAX_EVALUATIONS = 40_000
#: Beyond this many warp configurations of the assumed shape, a spread sample is costed.
_MAX_ASSUMED_WARPS = 384


@dataclass
class _Case:
    warp: Warp
    #: Values of the loop variables for this case, in ``_Plan.inductions`` order.
    loop_values: tuple[int, ...]
    #: Byte address per lane (None: inactive) with the free uniform symbols at base values.
    addresses: list[int | None]


@dataclass
class _Outcome:
    cost: Cost
    case: _Case
    shift: int
    #: The costed addresses when they are not ``case.addresses`` shifted by ``shift``.
    addresses: list[int | None] | None = None

    def lane_addresses(self) -> tuple[int | None, ...]:
        """Per lane, the byte address that was costed (None: inactive)."""
        if self.addresses is not None:
            return tuple(self.addresses)
        return tuple(None if a is None else a + self.shift for a in self.case.addresses)


def _better(a: _Outcome, b: _Outcome | None) -> bool:
    return b is None or (a.cost.ways, a.cost.wavefronts) > (b.cost.ways, b.cost.wavefronts)


def _sequence(ind: Sym, shape: tuple[int, int, int],
              outer: dict[str, int] | None = None,
              supersets: set[str] | None = None,
              ) -> list[int] | None:
    """The values a uniform loop variable takes under a block shape, or None if unbounded
    (for an iteration number, ``Induction.index``: 0, 1, … as many as the loop makes).

    ``outer`` gives the values of enclosing loop variables its start, step or bound read
    (one iteration of the enclosing loops). A doubling or halving counter whose bound is
    not known (``for (s = 2; s < n; s <<= 1)``) takes every value its type holds before
    it would overflow or reach 0: a superset of the values it takes, see
    :func:`_evaluable_inductions` (its name is then added to ``supersets``)."""
    d = ind.induction
    assert d is not None
    env: dict[str, int] = dict(zip(BLOCK_DIM, shape, strict=True))
    if outer:
        env.update(outer)
    names = tuple(sorted(env))
    try:
        start = compile_expr(d.start, names)(*(env[n] for n in names))
        step = compile_expr(d.step, names)(*(env[n] for n in names))
    except (*EVAL_ERRORS, KeyError):
        return None
    bound: int | None = None
    if d.bound is not None:
        try:
            bound = compile_expr(d.bound, names)(*(env[n] for n in names))
        except (*EVAL_ERRORS, KeyError):
            bound = None
    if d.cmp is None:
        return None
    ops: dict[str, Callable[[int, int], bool]] = {
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "!=": lambda a, b: a != b,
    }
    if bound is None:
        reach = _geometric_reach(ind, start, step)
        if reach is None:
            return None
        cmp, bound = reach
        if supersets is not None:
            supersets.add(ind.name)
    else:
        cmp = ops[d.cmp]
    values: list[int] = []
    v = start
    while cmp(v, bound):
        values.append(v)
        if len(values) > _MAX_ITERATIONS:
            return None
        nv = next_value(d.op, v, step)
        if nv == v:
            return None  # no progress: not a loop we can enumerate
        v = nv
    if d.index:
        return list(range(len(values)))  # the iteration numbers of that sequence
    return values


def _geometric_reach(ind: Sym, start: int, step: int,
                     ) -> tuple[Callable[[int, int], bool], int] | None:
    """For a counter doubled (``<<``, ``*``) while below a bound cudalint does not know,
    or halved (``>>``, ``/``) while above one, a test and bound that stop where the
    program must stop whatever its bound: before the value leaves its type (doubling; an
    overflow of a signed counter is undefined, an unsigned one that wraps to 0 would never
    stop) or when it reaches 0 (halving). None for any other counter. Every value up to
    there is tried: a smaller stop would skip values the program does take (a counter
    compared, shifted or divided can matter at any size)."""
    d = ind.induction
    assert d is not None
    if start < 1:
        return None
    top = 1 << (ind.type.bits - int(ind.type.signed))
    if d.op in ("<<", "*") and d.cmp in ("<", "<=", "!="):
        if (d.op == "<<" and not 0 < step < ind.type.bits) or (d.op == "*" and step < 2):
            return None
        return (lambda a, b: a < b), top
    if d.op in (">>", "/") and d.cmp in (">", ">=", "!="):
        if (d.op == ">>" and not 0 < step < ind.type.bits) or (d.op == "/" and step < 2):
            return None
        return (lambda a, b: a > b), 0
    return None


Sequences = dict[str, dict[tuple[int, ...], list[int]]]


class _Joint(dict[str, dict[tuple[int, ...], list[int]]]):
    """Sequences of loop variables (per name, per block shape, its values), with the
    combinations of some of them that one execution makes: per group of names (the
    enclosing loop variables an inner one's start, step or bound reads, then the inner
    one), per block shape, the value tuples (:func:`_evaluable_inductions`). The cases
    pair only those (:func:`_combos`); every other variable takes each of its values with
    every combination of the others."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: dict[tuple[str, ...], dict[tuple[int, ...], set[tuple[int, ...]]]] = {}
        #: :func:`_combos`'s paired combinations, asked once per warp of each shape
        self.combos: dict[tuple[object, ...], list[tuple[int, ...]]] = {}


def _groups_key(sequences: Sequences) -> tuple[object, ...]:
    """The pairs a :class:`_Joint` allows, as a key (empty for plain sequences)."""
    if not isinstance(sequences, _Joint):
        return ()
    return tuple((names, tuple(sorted((k, tuple(sorted(v))) for k, v in t.items())))
                 for names, t in sorted(sequences.groups.items()))


def _factors(sequences: Sequences, loops: tuple[str, ...], shp: tuple[int, ...],
             ) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]] | None:
    """The combinations :func:`_combos` visits as independent factors: per group of
    :class:`_Joint` (the loops' positions, the allowed tuples) and per other loop (its
    position, its values); None where groups overlap (then the product is filtered)."""
    groups = sequences.groups if isinstance(sequences, _Joint) else {}
    factors: list[tuple[tuple[int, ...], list[tuple[int, ...]]]] = []
    taken: set[int] = set()
    for names, tables in groups.items():
        at = tuple(loops.index(n) for n in names if n in loops)
        if len(at) < 2 or shp not in tables:
            continue
        if taken & set(at):
            return None
        taken |= set(at)
        keep = [i for i, n in enumerate(names) if n in loops]
        allowed = {tuple(v[i] for i in keep) for v in tables[shp]}
        factors.append((at, sorted(allowed)))
    for i, n in enumerate(loops):
        if i not in taken:
            factors.append(((i,), [(v,) for v in sequences[n][shp]]))
    return factors


def _combo_count(sequences: Sequences, loops: tuple[str, ...], shp: tuple[int, ...],
                 limit: int | None = None) -> int:
    """How many combinations :func:`_combos` visits (past ``limit``: some number above
    it)."""
    factors = _factors(sequences, loops, shp)
    if factors is not None:
        return math.prod(len(f[1]) for f in factors)
    count = 0
    for _ in _combos(sequences, loops, shp):
        count += 1
        if limit is not None and count > limit:
            break
    return count


def _combos(sequences: Sequences, loops: tuple[str, ...], shp: tuple[int, ...],
            ) -> Iterable[tuple[int, ...]]:
    """The combinations of the loop variables' values the cases visit under the block
    shape ``shp``: every one, except where :class:`_Joint` restricts a group; in the
    order of the full product (by each value's place in its sequence)."""
    if not loops:
        return [()]
    groups = sequences.groups if isinstance(sequences, _Joint) else {}
    key: tuple[object, ...] = ()
    if groups:
        assert isinstance(sequences, _Joint)
        key = (loops, tuple((id(sequences[n].get(shp)), len(sequences[n].get(shp, ())))
                            for n in loops),
               tuple((names, id(t.get(shp)), len(t.get(shp, ()))) for names, t in groups.items()))
        made = sequences.combos.get(key)
        if made is not None:
            return made
    factors = _factors(sequences, loops, shp) if groups else None
    if factors is not None and len(factors) < len(loops):
        assert isinstance(sequences, _Joint)
        made = sequences.combos[key] = _paired_combos(sequences, loops, shp, factors)
        return made
    every = itertools.product(*(sequences[n][shp] for n in loops))
    groups = sequences.groups if isinstance(sequences, _Joint) else {}
    checks: list[tuple[Callable[[tuple[int, ...]], tuple[int, ...]], set[tuple[int, ...]]]] = []
    whole: set[tuple[int, ...]] | None = None
    for names, tables in groups.items():
        at = tuple(loops.index(n) for n in names if n in loops)
        if len(at) < 2 or shp not in tables:
            continue
        keep = [i for i, n in enumerate(names) if n in loops]
        allowed = tables[shp] if len(keep) == len(names) else {
            tuple(v[i] for i in keep) for v in tables[shp]}
        if at == tuple(range(len(loops))):
            whole = allowed if whole is None else whole & allowed
        else:
            checks.append((operator.itemgetter(*at), allowed))
    if whole is None and not checks:
        return every
    if whole is not None and not checks:
        return (c for c in every if c in whole)
    return (c for c in every if (whole is None or c in whole)
            and all(get(c) in allowed for get, allowed in checks))


def _paired_combos(sequences: Sequences, loops: tuple[str, ...], shp: tuple[int, ...],
                   factors: list[tuple[tuple[int, ...], list[tuple[int, ...]]]],
                   ) -> list[tuple[int, ...]]:
    """:func:`_combos` over independent ``factors`` (:func:`_factors`), in the order of
    the full product."""
    places = [{v: i for i, v in enumerate(sequences[n][shp])} for n in loops]
    out: list[tuple[int, ...]] = []
    for parts in itertools.product(*(f[1] for f in factors)):
        c = [0] * len(loops)
        for (at, _), vals in zip(factors, parts, strict=True):
            for i, v in zip(at, vals, strict=True):
                c[i] = v
        out.append(tuple(c))
    out.sort(key=lambda c: tuple(places[i].get(v, -1) for i, v in enumerate(c)))
    return out

#: How many enclosing loop variables an induction's start, step or bound may read, and
#: how many of their value combinations are enumerated (:func:`_evaluable_inductions`).
_MAX_NESTING = 3
_MAX_OUTER_COMBINATIONS = 4096


def _evaluable_inductions(syms: set[Sym], warps: list[Warp],
                          supersets: set[str] | None = None) -> _Joint:
    """Loop variables whose values follow from the block shape, with their sequences.

    A loop variable whose start, step or bound reads an enclosing loop's variable
    (``for (stride = size / 2; stride > 0; stride >>= 1)`` inside a loop over ``size``)
    takes the union of its sequences over the enclosing values; a doubling or halving
    counter whose bound is a value cudalint does not know takes every value before it
    would overflow or reach 0 (:func:`_geometric_reach`). Either way the access is costed
    at each value, and its worst names the value (``when stride = 16``): a value such a
    loop can take, for some bound. The union stands for the inner variable alone: where
    the access also reads an enclosing variable it depends on (``a[j - i]`` in
    ``for (j = 0; j < i; j++)``), crossing the two would pair values no iteration
    pairs: there the sequences are a :class:`_Joint` whose group pairs each value of the
    enclosing variables with the inner one's values under it (the pairs one execution
    makes), and the cases visit only those (:func:`_combos`).

    ``supersets`` receives the names of the variables whose values depend on a value
    cudalint does not know: each is a value the loop takes for some input, not one it
    takes for every input (a doubling or halving counter with an unknown bound, the
    number of iterations a loop with such a bound ran, ``t@L12:d``, and a variable whose
    start, step or bound reads one of those)."""
    present = {s.name for s in syms}
    shapes: set[tuple[int, ...]] | None = None  # built only when a loop variable needs it
    out = _Joint()
    for sym in syms:
        if sym.induction is None:
            continue
        if shapes is None:
            shapes = {lane[3:6] for w in warps for lane in w.lanes if lane is not None}
        seqs: dict[tuple[int, ...], list[int]] = {}
        found: set[str] = set()
        tables: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        names: tuple[str, ...] = ()
        interned: dict[tuple[int, ...], list[int]] = {}
        table_of: dict[frozenset[tuple[int, ...]], set[tuple[int, ...]]] = {}
        for shp in shapes:
            pairs: list[tuple[tuple[str, ...], list[tuple[int, ...]]]] = []
            seq = _nested_sequence(sym, (shp[0], shp[1], shp[2]), 0, present, found, pairs)
            if seq is None:
                break
            # shapes with equal values share one list (and one table): _combos keeps
            # its combinations per list, not per shape
            seqs[shp] = interned.setdefault(tuple(seq), seq)
            if pairs:
                names = pairs[0][0]
                made = frozenset(pairs[0][1])
                tables[shp] = table_of.setdefault(made, set(made))
        else:
            out[sym.name] = seqs
            if tables:
                out.groups[names] = tables
            if supersets is not None and (found or _trips_of(sym.name) is not None):
                supersets.add(sym.name)
    # an inner variable is paired with enclosing ones the access reads only where those
    # are enumerated too; else it is left out, as where no pairs are known
    for names in list(out.groups):
        if any(n in present and n not in out for n in names[:-1]):
            del out.groups[names]
            out.pop(names[-1], None)
    return out


def _nested_sequence(sym: Sym, shape: tuple[int, int, int], depth: int,
                     present: set[str], supersets: set[str] | None = None,
                     pairs: list[tuple[tuple[str, ...], list[tuple[int, ...]]]] | None = None,
                     ) -> list[int] | None:
    """:func:`_sequence` of ``sym``, over every value of the enclosing loop variables its
    start, step and bound read (their union, in increasing order); None if one of those
    is neither the block shape nor such a loop variable, or the nest is too deep.
    ``supersets``: as for :func:`_sequence`, for ``sym`` and the enclosing variables.
    Where the access reads an enclosing variable too (``present``), only with ``pairs``
    (at the top of the nest): it receives the enclosing variables' names and ``sym``'s,
    with every value tuple an iteration makes."""
    d = sym.induction
    assert d is not None
    inputs = free_symbols(d.start) | free_symbols(d.step)
    bound_inputs = free_symbols(d.bound) if d.bound is not None else set()
    enclosing: dict[str, Sym] = {}
    for i in inputs | bound_inputs:
        if i.name in BLOCK_DIM:
            continue
        if i.induction is not None and i.name != sym.name:
            enclosing[i.name] = i
        elif i in bound_inputs and i not in inputs:
            continue  # an unknown bound: only a doubling or halving counter goes on
        else:
            return None
    if not enclosing:
        return _sequence(sym, shape, None, supersets)
    correlated = bool(present & set(enclosing))
    if depth >= _MAX_NESTING or (correlated and (depth > 0 or pairs is None)):
        return None
    if correlated and any(_reads_loops(e) for e in enclosing.values()):
        # an enclosing variable nested in a further loop: its values' union crossed with
        # the others' would pair values no execution pairs
        return None
    names = sorted(enclosing)
    made: list[tuple[int, ...]] = []
    ranges: list[list[int]] = []
    for n in names:
        got = _nested_sequence(enclosing[n], shape, depth + 1, present, supersets)
        if got is None:
            return None
        ranges.append(got)
    count = 1
    for r in ranges:
        count *= max(len(r), 1)
    if count > _MAX_OUTER_COMBINATIONS:
        return None
    values: set[int] = set()
    for combo in itertools.product(*ranges):
        seq = _sequence(sym, shape, dict(zip(names, combo, strict=True)), supersets)
        if seq is None:
            return None
        values.update(seq)
        if len(values) > _MAX_ITERATIONS:
            return None
        if correlated:
            made.extend((*combo, v) for v in seq)
    if correlated and pairs is not None:
        pairs.append(((*names, sym.name), made))
    return sorted(values)


def _reads_loops(sym: Sym) -> bool:
    """``sym``'s start, step or bound reads another loop variable."""
    d = sym.induction
    assert d is not None
    parts = [d.start, d.step, *([d.bound] if d.bound is not None else [])]
    return any(i.induction is not None and i.name != sym.name
               for p in parts for i in free_symbols(p))


class CaseMemo:
    """Per-lane values of subscripts, kept while one file's fixes are planned.

    A fix candidate (a padded or swizzled layout) changes an access's offset only in the
    constants that combine its subscripts (``(i * (32 + pad) + j) * 4``), and a layout
    change moves the other arrays' accesses without changing their offsets at all; each
    candidate is re-proved over every warp of the block shapes. With a memo active
    (:meth:`RunCaches.reusing`), :func:`_build_cases` evaluates each subscript once per set of
    warps, loop values and uniform values, and each candidate only recombines them: the
    same addresses, since the offset is that combination (the same operations on the
    same values). Anything that raises is left to the plain evaluation.
    """

    #: At most this many per-warp columns are kept (about 350 bytes each); then the
    #: memo starts again empty.
    LIMIT = 100_000

    def __init__(self) -> None:
        self.frames: dict[tuple[object, ...], _Frame] = {}
        self.size = 0
        #: Frames asked for once (:func:`_memo_cases` builds one the second time).
        self.visited: set[tuple[object, ...]] = set()


@dataclass
class _Frame:
    """The evaluation slots (warp, loop values) of one guard over one list of warps."""

    warps: list[Warp]
    slots: list[tuple[Warp, tuple[int, ...]]]
    #: Per subscript: its value per lane (None where inactive) in each slot.
    columns: dict[Expr, list[list[int | None]]]
    #: Per subscript: the least and greatest of those values (None: no active lane).
    ranges: dict[Expr, tuple[int, int] | None]
    #: Per subscript: its pattern and constant in each slot (:func:`_leaf_classes`).
    leaf_classes: dict[Expr, _LeafClasses] = field(default_factory=dict)
    #: Per subscripts and bank period: the slots grouped (:func:`_slot_groups`).
    groups: dict[tuple[tuple[Expr, ...], int], _Groups] = field(default_factory=dict)


def _subscript_skeleton(offset: Expr) -> tuple[Expr, list[Expr]]:
    """``offset`` with its subscripts replaced by symbols ``_leaf0``, ``_leaf1``, ...
    (in evaluation order), and the subscripts: the ``((i0 * D1 + i1) * D2 + i2) * E + o``
    the frontend and the fix re-check build; any other offset is one subscript."""
    leaves: list[Expr] = []

    def leaf(e: Expr) -> Expr:
        leaves.append(e)
        return Sym(f"_leaf{len(leaves) - 1}")  # compiled as its name: no conversion

    def rows(e: Expr) -> Expr:
        if isinstance(e, Binary) and e.op == "+" and isinstance(e.lhs, Binary) \
                and e.lhs.op == "*" and isinstance(e.lhs.rhs, Const):
            inner = replace(e.lhs, lhs=rows(e.lhs.lhs))
            return replace(e, lhs=inner, rhs=leaf(e.rhs))
        return leaf(e)

    e = offset
    if isinstance(e, Binary) and e.op == "+" and isinstance(e.rhs, Const):
        lhs = e.lhs
        if isinstance(lhs, Binary) and lhs.op == "*" and isinstance(lhs.rhs, Const):
            return replace(e, lhs=replace(lhs, lhs=rows(lhs.lhs))), leaves
        return replace(e, lhs=rows(lhs)), leaves
    if isinstance(e, Binary) and e.op == "*" and isinstance(e.rhs, Const):
        return replace(e, lhs=rows(e.lhs)), leaves
    return rows(e), leaves


#: Compiled combinations by their source. Process-wide, not per run: a pure function of
#: the source text (the same text compiles to the same function), bounded below.
_PLAIN_CODE: dict[str, Callable[..., list[int | None]]] = {}


def _plain_combination(
    skeleton: Expr, ranges: list[tuple[int, int] | None],
) -> Callable[..., list[int | None]] | None:
    """The skeleton of :func:`_subscript_skeleton` as plain integer arithmetic over the
    subscripts' columns, when no operation in it can leave its C type for subscript
    values in ``ranges`` (then no value wraps, and the plain sum and products are the C
    values); None otherwise (or for a node other than ``+``, ``*``, a constant or a
    subscript)."""
    if any(r is None for r in ranges):
        return None

    def fits(lo: int, hi: int, t: IntType) -> bool:
        if t.signed:
            half = 1 << (t.bits - 1)
            return lo >= -half and hi < half
        return lo >= 0 and hi < (1 << t.bits)

    def go(e: Expr) -> tuple[str, int, int] | None:
        if isinstance(e, Sym) and e.name.startswith("_leaf"):
            i = int(e.name[5:])
            r = ranges[i]
            assert r is not None
            return f"a{i}", r[0], r[1]
        if isinstance(e, Const):
            v = wrap(e.value, e.type)
            return repr(v), v, v
        if isinstance(e, Binary) and e.op in ("+", "*"):
            a, b = go(e.lhs), go(e.rhs)
            if a is None or b is None:
                return None
            if e.op == "+":
                lo, hi = a[1] + b[1], a[2] + b[2]
            else:
                products = (a[1] * b[1], a[1] * b[2], a[2] * b[1], a[2] * b[2])
                lo, hi = min(products), max(products)
            if not fits(lo, hi, e.type):
                return None
            return f"({a[0]} {e.op} {b[0]})", lo, hi
        return None

    body = go(skeleton)
    if body is None:
        return None
    n = len(ranges)
    names = ", ".join(f"a{i}" for i in range(n))
    cols = ", ".join(f"c{i}" for i in range(n))
    source = (f"lambda {cols}: [None if a0 is None else {body[0]} "
              f"for {names}{',' if n == 1 else ''} in zip({cols})]")
    fn = _PLAIN_CODE.get(source)
    if fn is None:
        fn = eval(source, {})
        if len(_PLAIN_CODE) >= 1024:
            _PLAIN_CODE.clear()
        _PLAIN_CODE[source] = fn
    return fn


def _memo_cases(
    run: RunCaches, memo: CaseMemo, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...], values: tuple[int, ...], p: int | None = None,
) -> list[_Case] | None:
    """:func:`_build_cases` from memoized subscript values; None where it cannot tell
    (an evaluation error, an expression too deep to compile): the caller evaluates.
    With the bank period ``p``, the cases of slots that only repeat an earlier slot's
    pattern are left out (:class:`_CaseList`, :func:`_compressed`)."""
    if not warps:
        return None
    params = (*LANE_PARAMS, *loops, *free)
    seq_key = tuple(tuple(sorted((k, tuple(v)) for k, v in sequences[n].items()))
                    for n in loops)
    pairs_key = _groups_key(sequences)
    key = (guard, params, seq_key, pairs_key, values, len(warps), id(warps[0]),
           id(warps[-1]))
    frame = memo.frames.get(key)
    if frame is not None and (len(frame.warps) != len(warps) or any(
            a is not b for a, b in zip(frame.warps, warps, strict=True))):
        frame = None  # another list of warps that happens to share the ends
    if frame is None and p is not None and key not in memo.visited:
        # the first time: one layout may be all that is tried (evaluating every
        # subscript pays off from the second), so without the memo where it can
        memo.visited.add(key)
        affine = _affine_cases(run, offset, guard, warps, loops, sequences, free, values, p)
        if affine is not None:
            return affine
    if frame is None:
        slots: list[tuple[Warp, tuple[int, ...]]] = []
        for warp in warps:
            shp = _shape_of(warp)
            if shp is not None:
                slots.extend((warp, tuple(lv)) for lv in _combos(sequences, loops, shp))
        frame = _Frame(list(warps), slots, {}, {})
        if memo.size > CaseMemo.LIMIT:
            memo.frames.clear()
            memo.visited.clear()
            memo.size = 0
        memo.frames[key] = frame
    skeleton, leaves = _subscript_skeleton(offset)
    columns: list[list[list[int | None]]] = []
    env: dict[str, tuple[int, int]] | None = None
    for leaf in leaves:
        col = frame.columns.get(leaf)
        if col is None:
            if env is None:
                env = _ranges(run, warps, loops, sequences, free, values)
            unwrapped = interval(leaf, env) is not None and (
                guard is None or interval(guard, env) is not None)
            fn = compile_warp(leaf, guard, params, len(LANE_PARAMS), unwrapped)
            if fn is None:
                return None
            col = []
            try:
                for warp, lv in frame.slots:
                    check_budget()
                    col.append(fn(warp.lanes, lv, values))
            except EVAL_ERRORS:
                return None
            frame.columns[leaf] = col
            present = [a for c in col for a in c if a is not None]
            frame.ranges[leaf] = (min(present), max(present)) if present else None
            memo.size += len(col)
        columns.append(col)
    ranges = [frame.ranges[leaf] for leaf in leaves]
    plain = _plain_combination(skeleton, ranges) if len(leaves) > 1 or not isinstance(
        skeleton, Sym) else None
    if p is not None and (isinstance(skeleton, Sym) or (plain is not None and _affine(skeleton))):
        return _compressed(frame, tuple(leaves), columns, plain, p)
    if len(leaves) == 1 and isinstance(skeleton, Sym):
        per_slot = columns[0]
    elif plain is not None:
        check_budget()
        per_slot = [plain(*cols) for cols in zip(*columns, strict=True)]
    else:
        names = tuple(f"_leaf{i}" for i in range(len(leaves)))
        combine = compile_warp(skeleton, None, names, len(names))
        if combine is None:
            return None
        per_slot = []
        for k in range(len(frame.slots)):
            check_budget()
            lanes = [None if t[0] is None else t
                     for t in zip(*(c[k] for c in columns), strict=True)]
            per_slot.append(combine(lanes, (), ()))
    cases: list[_Case] = []
    for (warp, lv), addrs in zip(frame.slots, per_slot, strict=True):
        if addrs.count(None) != len(addrs):  # some lane active
            cases.append(_Case(warp, lv, addrs))
        if len(cases) > _MAX_CASES and (p is None or len(cases) > _MAX_INSIDE_SLOTS):
            raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
    return cases if len(cases) <= _MAX_CASES else _few_patterns(cases, p)


class _CaseList(list[_Case]):
    """Cases of which some were left out because they repeat an earlier case.

    A slot (warp and loop values) whose lane addresses are an earlier slot's plus a
    multiple of the bank period ``p`` costs the same as that slot at every uniform shift
    (:func:`_cost_at` keys a warp by its addresses less the multiple of ``p`` below them;
    alignment, the bank rule and :func:`_in_bounds` see only that), so it can neither be
    the first worst case nor the first misaligned one, nor the first to put a pattern in
    the cost cache: the list holds the first slot of each such class, in slot order.
    :meth:`slots` gives every slot with an active lane, for what is worked out per warp
    or per loop value (:func:`_assumed_shape_condition`, :func:`_by_iteration`);
    ``total`` is their number."""

    def __init__(self, cases: list[_Case], count: int,
                 slots: Callable[[], Iterator[tuple[Warp, tuple[int, ...], int]]] | None = None
                 ) -> None:
        super().__init__(cases)
        self.total = count
        self._slots = slots

    def slots(self) -> Iterator[tuple[Warp, tuple[int, ...], int]]:
        """Each slot's warp, loop values and the position of its case in the list."""
        if self._slots is None:  # pragma: no cover - only counted lists lack them
            raise ValueError("the slots of this list were not kept")
        return self._slots()


def _case_count(cases: list[_Case]) -> int:
    """How many slots have an active lane (the cases a full list would hold)."""
    return cases.total if isinstance(cases, _CaseList) else len(cases)


def _case_slots(cases: list[_Case]) -> Iterator[tuple[Warp, tuple[int, ...], int]]:
    """Every slot with an active lane, in order: its warp, loop values and the position of
    the case that stands for it in ``cases``."""
    if isinstance(cases, _CaseList):
        yield from cases.slots()
    else:
        for i, case in enumerate(cases):
            yield case.warp, case.loop_values, i


_LeafClasses = list[tuple[int, int] | None]


def _leaf_classes(frame: _Frame, leaf: Expr, column: list[list[int | None]]) -> _LeafClasses:
    """Per slot of ``frame``: None where no lane is active, else (pattern, constant): the
    subscript's value in every lane is the pattern (an id, equal for equal patterns and
    equal active lanes) plus the constant, its value in the first active lane."""
    got = frame.leaf_classes.get(leaf)
    if got is not None:
        return got
    ids: dict[tuple[int | None, ...], int] = {}
    out: _LeafClasses = []
    for lanes in column:
        first = next((a for a in lanes if a is not None), None)
        if first is None:
            out.append(None)
            continue
        rel = tuple([None if a is None else a - first for a in lanes])
        out.append((ids.setdefault(rel, len(ids)), first))
    frame.leaf_classes[leaf] = out
    return out


#: Per slot, its group (None: no lane active); per group, its first slot and its key:
#: the subscripts' patterns and their constants modulo the bank period.
_Groups = tuple[list[int | None], list[tuple[int, tuple[int, ...], tuple[int, ...]]]]


def _slot_groups(frame: _Frame, leaves: tuple[Expr, ...],
                 columns: list[list[list[int | None]]], p: int) -> _Groups:
    """The slots of ``frame`` grouped by the patterns of ``leaves`` and their constants
    modulo ``p``: every layout combines the subscripts of a group's slots into addresses
    that differ by multiples of ``p`` (see :func:`_compressed`). Worked out once per
    frame, subscripts and period, for every layout tried."""
    got = frame.groups.get((leaves, p))
    if got is not None:
        return got
    per_leaf = [_leaf_classes(frame, leaf, col) for leaf, col in zip(leaves, columns,
                                                                      strict=True)]
    index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    of_slot: list[int | None] = []
    groups: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for k, classes in enumerate(zip(*per_leaf, strict=True)):
        if classes[0] is None or any(c is None for c in classes):
            of_slot.append(None)
            continue
        patterns = tuple(c[0] for c in classes if c is not None)
        residues = tuple(c[1] % p for c in classes if c is not None)
        key = (patterns, residues)
        g = index.get(key)
        if g is None:
            g = index[key] = len(groups)
            groups.append((k, patterns, residues))
        of_slot.append(g)
    out = (of_slot, groups)
    frame.groups[(leaves, p)] = out
    return out


def _affine(e: Expr) -> bool:
    """The skeleton is constants and subscripts under ``+`` and ``*`` by a constant."""
    if isinstance(e, Const | Sym):
        return True
    if isinstance(e, Binary) and e.op == "+":
        return _affine(e.lhs) and _affine(e.rhs)
    if isinstance(e, Binary) and e.op == "*":
        return (isinstance(e.rhs, Const) and _affine(e.lhs)) or (
            isinstance(e.lhs, Const) and _affine(e.rhs))
    return False


def _compressed(
    frame: _Frame, leaves: tuple[Expr, ...], columns: list[list[list[int | None]]],
    plain: Callable[..., list[int | None]] | None, p: int,
) -> _CaseList:
    """:func:`_memo_cases`'s cases with the repeats left out (:class:`_CaseList`).

    The offset is the subscripts combined by ``plain`` (plain integer arithmetic: ``+``
    and ``*`` by constants, no wrap) or the one subscript itself, so it is affine in
    them: a slot whose subscripts have another slot's patterns, plus constants ``d``, has
    that slot's addresses plus ``sum(coefficient * d)``; where that is a multiple of
    ``p`` it repeats the other. Only the first slot of each class is combined."""
    of_slot, groups = _slot_groups(frame, leaves, columns, p)
    n = len(leaves)
    if plain is None:
        coefficients = [1]
    else:
        zero = plain(*([0] for _ in range(n)))[0]
        assert zero is not None
        coefficients = []
        for i in range(n):
            unit = plain(*([1 if j == i else 0] for j in range(n)))[0]
            assert unit is not None
            coefficients.append(unit - zero)
    count = sum(g is not None for g in of_slot)
    if count > _MAX_CASES:
        raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
    reps: dict[tuple[tuple[int, ...], int], int] = {}
    at_group: list[int] = []
    cases: list[_Case] = []
    for k, patterns, residues in groups:
        key = (patterns, sum(c * r for c, r in zip(coefficients, residues, strict=True)) % p)
        at = reps.get(key)
        if at is None:
            check_budget()
            warp, lv = frame.slots[k]
            addrs = columns[0][k] if plain is None else plain(*(c[k] for c in columns))
            at = reps[key] = len(cases)
            cases.append(_Case(warp, lv, addrs))
        at_group.append(at)
    slots = frame.slots

    def every_slot() -> Iterator[tuple[Warp, tuple[int, ...], int]]:
        for (warp, lv), g in zip(slots, of_slot, strict=True):
            if g is not None:
                yield warp, lv, at_group[g]

    return _CaseList(cases, count, every_slot)


# --- offsets affine in threadIdx.x: one evaluation per warp ---------------------------------

_TX = THREAD_IDX[0]
_COMPARES: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def _reads_tx(e: Expr) -> bool:
    return any(s.name == _TX for s in free_symbols(e))


def _tx_affine(e: Expr) -> bool:
    """Every node of ``e`` that reads threadIdx.x is threadIdx.x, a cast, ``+``, ``-``,
    a negation or a product with a factor that does not read it: ``e`` is then
    ``a + b * threadIdx.x`` with ``a`` and ``b`` the same in every lane of a warp (where
    no operation wraps)."""
    if not _reads_tx(e):
        return True
    if isinstance(e, Sym):
        return True
    if isinstance(e, Cast) or (isinstance(e, Unary) and e.op in ("-", "+")):
        return _tx_affine(e.operand)
    if isinstance(e, Binary):
        if e.op in ("+", "-"):
            return _tx_affine(e.lhs) and _tx_affine(e.rhs)
        if e.op == "*":
            return (_tx_affine(e.lhs) and not _reads_tx(e.rhs)) or (
                _tx_affine(e.rhs) and not _reads_tx(e.lhs))
    return False


def _consecutive(warps: list[Warp]) -> bool:
    """Each warp is 32 lanes of consecutive threadIdx.x, every other value shared."""
    for w in warps:
        first, last = w.lanes[0], w.lanes[-1]
        if len(w.lanes) != 32 or first is None or last is None or any(
                ln is None for ln in w.lanes) or last[0] != first[0] + 31 or last[1:] != first[1:]:
            return False
    return True


def _ranges(run: RunCaches, warps: list[Warp], loops: tuple[str, ...],
            sequences: dict[str, dict[tuple[int, ...], list[int]]], free: tuple[str, ...],
            values: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """The least and greatest value of each symbol over the lanes of ``warps``, the loop
    values and the uniform values (for :func:`~cudalint.model.evaluate.interval`)."""
    env = dict(_lane_ranges(run, warps))
    for n in loops:
        seen = [v for seq in sequences[n].values() for v in seq]
        if seen:
            env[n] = (min(seen), max(seen))
    for n, v in zip(free, values, strict=True):
        env[n] = (v, v)
    return env


def _lane_ranges(run: RunCaches, warps: list[Warp]) -> dict[str, tuple[int, int]]:
    """Per thread and shape value, its least and greatest value over the lanes of
    ``warps`` (remembered for the last few lists of warps of the run)."""
    kept = run.lane_ranges
    for ws, got in kept:
        if len(ws) == len(warps) and all(a is b for a, b in zip(ws, warps, strict=True)):
            return got
    lanes = [ln for w in warps for ln in w.lanes if ln is not None]
    out = {name: (min(ln[i] for ln in lanes), max(ln[i] for ln in lanes))
           for i, name in enumerate(LANE_PARAMS)} if lanes else {}
    if len(kept) >= run.LANE_RANGES_KEPT:
        del kept[0]
    kept.append((list(warps), out))
    return out


def _affine_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp], loops: tuple[str, ...],
    sequences: dict[str, dict[tuple[int, ...], list[int]]], free: tuple[str, ...],
    values: tuple[int, ...], p: int | None,
) -> _CaseList | None:
    """:func:`_build_cases` without evaluating every lane, where each warp's lanes are
    consecutive threadIdx.x sharing every other value (the assumed shape; a known one
    whose blockDim.x is a multiple of 32), the offset is affine in threadIdx.x and each
    conjunct of the guard that reads it compares two such expressions, and no operation
    on the way can wrap (:func:`~cudalint.model.evaluate.interval` over the values the
    warps, loops and uniform values take). Then a lane's value is the warp's first
    lane's plus the lane number times the step from lane 0 to lane 1: each slot costs two
    evaluations of each part,
    and a slot whose active lanes and step are an earlier slot's and whose first address
    differs from it by a multiple of ``p`` repeats it (:class:`_CaseList`; without ``p``
    every slot is kept). The same
    values and errors as evaluating lane by lane: a part that does not read threadIdx.x
    has one value (or error) in every lane, and is evaluated where a lane reaches it.
    None where it does not apply."""
    if not warps or not _consecutive(warps):
        return None
    parts = conjuncts(guard) if guard is not None else []
    compares: list[tuple[Expr, Expr, str] | None] = []
    for part in parts:
        if not _reads_tx(part):
            compares.append(None)
        elif isinstance(part, Binary) and part.op in _COMPARES and _tx_affine(part.lhs) \
                and _tx_affine(part.rhs):
            compares.append((part.lhs, part.rhs, part.op))
        else:
            return None
    if not _tx_affine(offset):
        return None
    env = _ranges(run, warps, loops, sequences, free, values)
    reading = [offset] + [x for c in compares if c is not None for x in c[:2]]
    if any(interval(x, env) is None for x in reading):
        return None
    params = (*LANE_PARAMS, *loops, *free)
    off = compile_expr(offset, params, True)
    tests: list[tuple[Callable[..., int], Callable[..., int] | None, str]] = []
    for part, cmp in zip(parts, compares, strict=True):
        if cmp is None:
            tests.append((compile_expr(part, params), None, ""))
        else:
            tests.append((compile_expr(cmp[0], params, True), compile_expr(cmp[1], params, True),
                          cmp[2]))
    lanes32 = range(32)
    every = tuple(lanes32)
    reps: dict[object, int] = {}
    cases: list[_Case] = []
    kept: list[tuple[Warp, tuple[int, ...], int]] = []
    for warp in warps:
        check_budget()
        first = warp.lanes[0]
        second = warp.lanes[1]
        assert first is not None and second is not None
        shp = first[3:6]
        combos = _combos(sequences, loops, shp)
        for lv in combos:
            a0 = (*first, *lv, *values)
            a1 = (*second, *lv, *values)
            alive: tuple[int, ...] = every
            for f, g, op in tests:
                if not alive:
                    break
                if g is None:
                    if not f(*a0):
                        alive = ()
                    continue
                x0, y0 = f(*a0), g(*a0)
                dx, dy = f(*a1) - x0, g(*a1) - y0
                test = _COMPARES[op]
                alive = tuple([ln for ln in alive if test(x0 + ln * dx, y0 + ln * dy)])
            if not alive:
                continue
            base = off(*a0)
            step = off(*a1) - base
            if len(kept) >= _MAX_CASES:
                raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
            key = (alive, step, base % p) if p is not None else len(kept)
            at = reps.get(key)
            if at is None:
                at = reps[key] = len(cases)
                on = set(alive)
                cases.append(_Case(warp, tuple(lv), [base + ln * step if ln in on else None
                                                     for ln in lanes32]))
            kept.append((warp, tuple(lv), at))
    return _CaseList(cases, len(kept), lambda: iter(kept))


def _build_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...], values: tuple[int, ...], p: int | None = None,
    inside: tuple[int, int] | None = None,
) -> list[_Case]:
    """The cases of every slot (warp and loop values) where some lane is active, in slot
    order. With the bank period ``p`` (callers that read :class:`_CaseList`), a case that
    repeats an earlier one's pattern may be left out. ``run``: the analysis run's caches
    (its fix re-check memo, when one is active). With ``inside`` (the array's size and
    the access's width, :func:`_inside`), only the slots whose active lanes all lie
    inside the array."""
    if inside is not None:
        return _kept_inside_cases(run, offset, guard, warps, loops, sequences, free, values,
                                  p, inside)
    memo = run.memo
    if memo is not None:
        try:
            reused = _memo_cases(run, memo, offset, guard, warps, loops, sequences, free,
                                 values, p)
        except RecursionError:  # an offset too deep to hash: evaluate it plainly
            reused = None
        if reused is not None:
            return reused
    else:
        try:
            affine = _affine_cases(run, offset, guard, warps, loops, sequences, free, values,
                                   p)
        except RecursionError:  # too deep to analyse: evaluate it plainly
            affine = None
        if affine is not None:
            return affine
    paired_key: tuple[object, ...] | None = None
    if p is not None and isinstance(sequences, _Joint) and sequences.groups:
        try:
            paired_key = (offset, guard, loops, _groups_key(sequences), free, values, p,
                          tuple(tuple(sorted((k, tuple(v)) for k, v in sequences[n].items()))
                                for n in loops))
            # equal warps (frozen values: another access's list of the same shapes)
            hit = next((e for e in run.paired if e[0] == paired_key and len(e[1]) == len(
                warps) and all(a is b or a == b for a, b in zip(e[1], warps, strict=True))),
                None)
        except RecursionError:
            paired_key = hit = None
        if hit is not None:
            run.paired.remove(hit)
            run.paired.append(hit)  # the most recently used last
            return hit[2]
    params = (*LANE_PARAMS, *loops, *free)
    # The offset (and guard) compiled to one function per warp: the same values and
    # errors as compile_expr's per-lane functions, one call per warp (None: too deep);
    # with plain integer arithmetic where no operation can wrap for these values.
    env = _ranges(run, warps, loops, sequences, free, values)
    plain = interval(offset, env) is not None and (
        guard is None or interval(guard, env) is not None)
    per_warp = compile_warp(offset, guard, params, len(LANE_PARAMS), plain)
    off = grd = None
    if per_warp is None:
        off = compile_expr(offset, params)
        grd = compile_expr(guard, params) if guard is not None else None
    cases: list[_Case] = []
    # paired loop values under many assumed shapes: where neither the offset nor the guard
    # reads the block's shape, a warp with another's thread indices and loop values (the
    # shapes' sequences are shared lists, _evaluable_inductions) has its addresses
    same_lanes: dict[tuple[object, ...], list[list[int | None]]] | None = None
    read = {s_.name for s_ in free_symbols(offset) | (
        free_symbols(guard) if guard is not None else set())}
    axes = [i for i, n in enumerate(THREAD_IDX) if n in read]
    if paired_key is not None and not read & set(BLOCK_DIM):
        same_lanes = {}
    for warp in warps:
        check_budget()
        shp = _shape_of(warp)
        if shp is None:
            continue
        combos = _combos(sequences, loops, shp)
        known: list[list[int | None]] | None = None
        made: list[list[int | None]] = []
        if same_lanes is not None and isinstance(combos, list):  # a list kept in the _Joint
            lanes_key = (tuple(None if ln is None else tuple(ln[i] for i in axes)
                               for ln in warp.lanes), id(combos))
            known = same_lanes.get(lanes_key)
            if known is None:
                same_lanes[lanes_key] = made
        for at, lv in enumerate(combos):
            if known is not None:
                addrs = known[at]
            else:
                addrs = _lane_addresses(per_warp, off, grd, warp.lanes, lv, values)
                made.append(addrs)
            if addrs.count(None) != len(addrs):  # some lane active
                cases.append(_Case(warp, tuple(lv), addrs))
            if len(cases) > _MAX_CASES and (p is None or len(cases) > _MAX_INSIDE_SLOTS):
                raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
    if p is None:
        return cases
    kept = _repeats_left_out(cases, p) if len(cases) <= _MAX_CASES else _few_patterns(cases, p)
    if paired_key is not None:
        if len(run.paired) >= _PAIRED_KEPT:
            del run.paired[0]
        run.paired.append((paired_key, list(warps), kept))
    return kept


#: Case lists of paired loop values a run keeps (RunCaches.paired).
_PAIRED_KEPT = 8

#: Slots visited, at most, where only the slots inside the array are cases
#: (:func:`_inside_cases`: most of them are passed over after one guard evaluation and
#: one lane's address).
_MAX_INSIDE_SLOTS = 16_384


def _inside(proof: _Proof) -> tuple[int, int] | None:
    """The array's size in bytes and the access's width where the cases are only the
    slots whose active lanes all lie inside the array (:func:`_inside_cases`); None
    elsewhere.

    Where a loop variable's values depend on an input cudalint does not know
    (``proof.supersets``: a doubling counter whose bound is a kernel argument, the number
    of iterations such a loop ran), the values enumerated are those some input gives,
    and their combinations are not all made by one input: an up-sweep that ran ``t``
    times and a down-sweep in its iteration ``k`` pair every ``t`` with every ``k``.
    A slot with a lane outside a static array is an execution no defined program makes
    (an access past a ``__shared__`` array is undefined behaviour), so those slots are
    left out: the worst case is then one some input gives without leaving the array
    (``offset >> k`` shifted to 0 by a ``k`` past the up-sweep's count indexes element
    -1). Only with no uniform value left free (the addresses are then exact, relative
    to the array) and a static array of known size."""
    array = proof.array
    if not proof.supersets or proof.free or proof.data is not None or array is None \
            or array.base_offset is not None or array.size_bytes <= 0 \
            or proof.access.matrix:
        return None
    if proof.guard_causes or proof.widened_note is not None or proof.shape.dims is None:
        # lanes taken as active that a guard left out, a stride bound widened, or an
        # assumed shape (smaller blocks not enumerated) may be inactive in a real run:
        # a slot that leaves the array through them can still be one a run makes
        return None
    return array.size_bytes, proof.access.width


#: A key of :func:`_inside_cases`' arguments, the warps, and the cases.
_InsideEntry = tuple[tuple[object, ...], list[Warp], list[_Case]]
#: How many offsets' cases :func:`_kept_inside_cases` keeps.
_INSIDE_KEPT = 4


def _kept_inside_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...], values: tuple[int, ...], p: int | None, inside: tuple[int, int],
) -> list[_Case]:
    """:func:`_inside_cases`, remembered for the last few offsets of the run: the
    accesses of one statement (``s[bi] = s[bi] + s[ai]``: a load and a store of ``bi``)
    and of a helper's other calls share them. A pure function of its arguments."""
    try:
        seq_key = tuple(tuple(sorted((k, tuple(v)) for k, v in sequences[n].items()))
                        for n in loops)
        key = (offset, guard, loops, seq_key, _groups_key(sequences), free, values, p,
               inside)
        kept = run.inside
        entry = next((e for e in kept if e[0] == key and len(e[1]) == len(warps) and all(
            a is b for a, b in zip(e[1], warps, strict=True))), None)
    except RecursionError:  # an offset too deep to compare: evaluate it plainly
        return _inside_cases(offset, guard, warps, loops, sequences, free, values, p, inside)
    if entry is not None:
        kept.remove(entry)
        kept.append(entry)  # the most recently used last
        return entry[2]
    cases = _inside_cases(offset, guard, warps, loops, sequences, free, values, p, inside)
    if len(kept) >= _INSIDE_KEPT:
        del kept[0]
    kept.append((key, list(warps), cases))
    return cases


def _inside_cases(
    offset: Expr, guard: Expr | None, warps: list[Warp], loops: tuple[str, ...],
    sequences: dict[str, dict[tuple[int, ...], list[int]]], free: tuple[str, ...],
    values: tuple[int, ...], p: int | None, inside: tuple[int, int],
) -> list[_Case]:
    """:func:`_build_cases` of the slots whose active lanes all lie inside the array
    (``inside``: its size in bytes and the access's width, :func:`_inside`).

    A slot is passed over without evaluating the offset where the guard leaves no lane
    active (the guard is evaluated once per warp and value of the loop variables it
    reads), and after one lane's address where that lane's lies outside the array. The
    addresses and errors of the slots kept are those of :func:`_build_cases`."""
    size, width = inside
    last = size - width  # the last address inside the array
    params = (*LANE_PARAMS, *loops, *free)
    per_warp = compile_warp(offset, guard, params, len(LANE_PARAMS))
    off = compile_expr(offset, params)
    grd = compile_expr(guard, params) if guard is not None else None
    # the guard alone: 0 in the lanes it keeps, None in the others
    only_guard = compile_warp(Const(0, UINT), guard, params, len(LANE_PARAMS)) \
        if guard is not None else None
    gnames = {s_.name for s_ in free_symbols(guard)} if guard is not None else set()
    gat = [i for i, n in enumerate(loops) if n in gnames]
    # the guard is evaluated once for the values of the loops it reads where it leaves
    # some loop out (each evaluation then stands for several slots)
    shared = len(gat) < len(loops)

    # the values of the loops the guard reads (a value, or a tuple of them, as a key)
    project: Callable[[tuple[int, ...]], object] = (
        operator.itemgetter(*gat) if gat else lambda lv: ())

    def lane_addresses(lanes: Iterable[tuple[int, ...] | None], lv: tuple[int, ...]
                       ) -> list[int | None]:
        return _lane_addresses(per_warp, off, grd, lanes, lv, values)

    cases: list[_Case] = []
    for warp in warps:
        check_budget()
        first = next((ln for ln in warp.lanes if ln is not None), None)
        if first is None:
            continue
        shp = first[3:6]
        combos = _combos(sequences, loops, shp)
        kept: dict[object, int] = {}  # first lane the guard keeps (-1: none)
        lanes = warp.lanes
        lead_lane = first
        for lv in combos:
            if guard is not None and not shared:
                # the guard reads every loop variable: nothing to share, one pass
                addrs = lane_addresses(warp.lanes, lv)
                present = [a for a in addrs if a is not None]
                if not present or min(present) < 0 or max(present) > last:
                    continue
                cases.append(_Case(warp, lv, addrs))
                if len(cases) > _MAX_CASES:
                    raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
                continue
            if guard is not None:
                key = project(lv)
                got = kept.get(key)
                if got is None:
                    if only_guard is not None:
                        mask = only_guard(lanes, lv, values)
                    else:
                        assert grd is not None
                        mask = [None if ln is None or not grd(*ln, *lv, *values) else 0
                                for ln in lanes]
                    got = kept[key] = next(
                        (i for i, m in enumerate(mask) if m is not None), -1)
                if got < 0:
                    continue
                picked = lanes[got]
                assert picked is not None
                lead_lane = picked
            one = off(*lead_lane, *lv, *values)
            if one < 0 or one > last:
                continue
            addrs = lane_addresses(warp.lanes, lv)
            present = [a for a in addrs if a is not None]
            if present and (min(present) < 0 or max(present) > last):
                continue
            if addrs.count(None) != len(addrs):  # some lane active
                cases.append(_Case(warp, lv, addrs))
            if len(cases) > _MAX_CASES and (p is None or len(cases) > _MAX_INSIDE_SLOTS):
                raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
    if p is None:
        return cases
    return _repeats_left_out(cases, p) if len(cases) <= _MAX_CASES else _few_patterns(cases, p)


def _repeats_left_out(cases: list[_Case], p: int) -> list[_Case]:
    """``cases`` as a :class:`_CaseList`: the first case of each pattern of addresses
    relative to the bank period (the key of :func:`_cost_at`'s cache), every case a slot
    of it. A later case with an earlier one's pattern is that case moved by a multiple
    of ``p``."""
    reps: dict[tuple[int | None, ...], int] = {}
    kept: list[_Case] = []
    slots: list[tuple[Warp, tuple[int, ...], int]] = []
    for case in cases:
        addrs = case.addresses
        present = [a for a in addrs if a is not None]
        low = min(present) // p * p
        key = tuple([None if a is None else a - low for a in addrs])
        at = reps.get(key)
        if at is None:
            at = reps[key] = len(kept)
            kept.append(case)
        slots.append((case.warp, case.loop_values, at))
    if len(kept) == len(cases):
        return cases
    return _CaseList(kept, len(cases), lambda: iter(slots))


def _few_patterns(cases: list[_Case], p: int | None) -> list[_Case]:
    """More than _MAX_CASES active slots (at most _MAX_INSIDE_SLOTS, what the paired loop
    values of a butterfly make: every pair of a doubling and a halving counter, ``for (k
    = 2; k <= n; k *= 2) for (j = k / 2; j > 0; j /= 2)``, in each warp of a 1024-thread
    block): costed where their distinct patterns (:func:`_repeats_left_out`) are at most
    _MAX_CASES, else too complex."""
    kept = _repeats_left_out(cases, p) if p is not None else cases
    if len(kept) > _MAX_CASES:
        raise _TooComplex(f"more than {_MAX_CASES} warp and loop combinations")
    return kept


class _TooComplex(Exception):
    pass


_MISS = object()


def _cost_at(
    addrs: list[int | None], access: Access, arch: Arch, bank_mode: int, p: int,
    cache: dict[tuple[object, ...], Cost | None],
) -> Cost | None:
    """Cost of one warp's addresses; None when a lane is misaligned (an impossible shift)."""
    present = [a for a in addrs if a is not None]
    base = min(present) // p * p
    if len(present) == len(addrs):  # every lane active (the common case, built faster)
        key: tuple[object, ...] = tuple([a - base for a in present])
    else:
        key = tuple([None if a is None else a - base for a in addrs])
    hit = cache.get(key, _MISS)
    if hit is not _MISS:
        return hit  # type: ignore[return-value]
    cost: Cost | None
    if any(a % access.width for a in present):
        cost = None
    else:
        cost = warp_cost(addrs, access.width, access.kind, arch, bank_mode, atomic_form(access),
                         matrix=access.matrix)
        size = getattr(cache, "size_bytes", 0)
        if size and cost.wavefronts > cost.ideal:
            clamped = _in_bounds(addrs, access, arch, bank_mode, size)
            if clamped is not None:
                cost = clamped[0]
    cache[key] = cost
    return cost


class _Costs(dict[tuple[object, ...], "Cost | None"]):
    """One proof's cost cache, with the array's size in bytes (0: not known) for
    :func:`_in_bounds`."""

    def __init__(self, size_bytes: int = 0) -> None:
        super().__init__()
        self.size_bytes = size_bytes


def _in_bounds(
    addrs: list[int | None] | tuple[int | None, ...], access: Access, arch: Arch,
    bank_mode: int, size: int,
) -> tuple[Cost, list[int | None]] | None:
    """The worst cost over the lanes that can be active together inside the array.

    Lanes whose addresses span more than the array's ``size`` bytes cannot all touch it
    (an access past the end of a ``__shared__`` array is undefined behaviour): for any
    value of the uniform symbols, the active lanes lie in one window of ``size`` bytes.
    Every such set lies in a window starting at some lane's address, so the worst of
    those windows bounds the access, and a bank never serves more distinct words than
    the array holds. None when every lane fits (nothing to clamp).
    """
    width = access.width
    present = [a for a in addrs if a is not None]
    if not present or max(present) + width - min(present) <= size:
        return None
    form = atomic_form(access)
    best: tuple[Cost, list[int | None]] | None = None
    # Window starts that keep the same lanes give the same window: costed once.
    seen: set[tuple[int | None, ...]] = set()
    for x in sorted(set(present)):
        window = [a if a is not None and x <= a and a + width <= x + size else None
                  for a in addrs]
        if not any(a is not None for a in window):
            continue
        key = tuple(window)
        if key in seen:
            continue
        seen.add(key)
        c = warp_cost(window, width, access.kind, arch, bank_mode, form, matrix=access.matrix)
        if best is None or (c.ways, c.wavefronts) > (best[0].ways, best[0].wavefronts):
            best = (c, window)
    return best


def _distinct_patterns(cases: list[_Case], p: int) -> list[_Case]:
    """The first case of each pattern of addresses relative to the bank period.

    A case's cost at a shift depends only on its addresses minus the multiple of ``p``
    below their minimum (the key of :func:`_cost_at`'s cache), so a later case with the
    same pattern costs the same at every shift: it can neither be the first worst case
    nor the first misaligned one. Costing each pattern once per shift gives the same
    outcomes (the warps of an assumed block shape repeat a few patterns many times).
    """
    seen: set[tuple[int | None, ...]] = set()
    out: list[_Case] = []
    for case in cases:
        addrs = case.addresses
        present = [a for a in addrs if a is not None]
        base = min(present) // p * p if present else 0
        key = tuple([None if a is None else a - base for a in addrs])
        if key not in seen:
            seen.add(key)
            out.append(case)
    return out


def _worst_over_shifts(
    cases: list[_Case], shifts: Iterable[int], access: Access, arch: Arch, bank_mode: int,
    cache: dict[tuple[object, ...], Cost | None],
) -> dict[int, _Outcome]:
    """Per feasible shift, the worst case. A shift that misaligns any lane is dropped."""
    p = period(arch, bank_mode, access.width)
    out: dict[int, _Outcome] = {}
    shifts = list(shifts)
    if len(shifts) > 1:
        cases = _distinct_patterns(cases, p)
    for r in shifts:
        check_budget()
        worst: _Outcome | None = None
        for case in cases:
            shifted = (
                case.addresses if r == 0
                else [None if a is None else a + r for a in case.addresses]
            )
            cost = _cost_at(shifted, access, arch, bank_mode, p, cache)
            if cost is None:
                break
            # as _better(_Outcome(cost, case, r), worst), without building the outcome
            if worst is None or (cost.ways, cost.wavefronts) > (
                worst.cost.ways, worst.cost.wavefronts
            ):
                worst = _Outcome(cost, case, r)
        else:
            if worst is not None:
                out[r] = worst
    return out


def _base_values(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...],
    p: int | None = None,
    inside: tuple[int, int] | None = None,
) -> tuple[tuple[int, ...], list[_Case]]:
    last: Exception | None = None
    for v in _BASE_VALUES:
        values = tuple(v for _ in free)
        try:
            return values, _build_cases(run, offset, guard, warps, loops, sequences, free,
                                        values, p, inside)
        except EVAL_ERRORS as e:
            last = e
    raise EvalError(str(last) if last is not None else "no value")


def _condition(
    worst_shift: int, coefficients: tuple[tuple[str, int], ...] | None, base: tuple[int, ...],
    free: tuple[str, ...], p: int, array: SharedArray | None,
) -> str:
    if coefficients is not None and len(coefficients) == 1:
        name, c = coefficients[0]
        # c * (u - u0) = worst_shift (mod p)
        for j in range(p):
            if (c * j) % p == worst_shift % p:
                modulus = p // _gcd(c, p)
                u0 = base[free.index(name)]
                return f"when {_display(name)} % {modulus} == {(u0 + j) % modulus}"
    if not coefficients and array is not None:
        return f"when '{array.name}' starts at byte {worst_shift} mod {p}"
    names = ", ".join(_display(n) for n in free if not n.startswith("opaque"))
    names = names or "the uniform values"
    return f"for some values of {names} (uniform shift {worst_shift} mod {p})"


def _display(name: str) -> str:
    """A uniform symbol as the user knows it: never an internal name (issue 13, item 5).

    ``S``; ``blockIdx.x`` (``blockIdx.x@warp``: a demoted index); a loop's iteration
    count ``k@L41:ii`` as ``the 'ii' loop's iteration``; an opaque value
    ``opaque0@call to 'f'`` by its reason.
    """
    base, _, where = name.partition("@")
    if base == "k" and where.startswith("L"):
        line, _, var = where[1:].partition(":")
        var = var.partition("|")[0]  # k@L12:l|active: the 'l' loop's iteration
        return f"the '{var}' loop's iteration" if var else f"the iteration (line {line})"
    if base.startswith("opaque") and where:
        return f"({where})"
    trips = _trips_of(name)
    if trips is not None:
        return f"the number of iterations of the '{trips[1]}' loop at line {trips[0]}"
    return base


def _trips_of(name: str) -> tuple[str, str] | None:
    """(line, variable) of the symbol for how many iterations a loop ran, ``t@L12:d``
    (frontend ``closed_forms``/``execute._after_loop``); None for any other name."""
    base, _, where = name.partition("@")
    if base != "t" or not where.startswith("L"):
        return None
    line, _, var = where[1:].partition(":")
    return line, var


def _names(names: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: displayed, each distinct one once."""
    shown = list(dict.fromkeys(_display(n) for n in names))
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def _cause(opaque: Opaque) -> str:
    """An opaque value's reason as the object of "depends on": ``'pos' is assigned in a
    loop`` (``name`` pos, ``clause`` is assigned in a loop) reads ``'pos', which is
    assigned in a loop``."""
    if opaque.name is not None and opaque.clause.startswith(("is ", "has ", "was ",
                                                             "depends ")):
        return f"'{opaque.name}', which {opaque.clause}"
    return opaque.reason


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _loop_label(loops: tuple[str, ...], values: tuple[int, ...],
                counters: dict[str, tuple[str, list[int]]] | None = None) -> str:
    """``s = 4``; an iteration number (``Induction.index``) by its counter's value where
    ``counters`` has it (``d = 32``), else ``iteration 2 of the 'd' loop``."""
    parts = []
    for n, v in zip(loops, values, strict=True):
        got = (counters or {}).get(n)
        if got is not None and 0 <= v < len(got[1]):
            parts.append(f"{got[0]} = {got[1][v]}")
        else:
            parts.append(_value(n, v))
    return ", ".join(parts)


def _index_counters(syms: set[Sym], warps: list[Warp]) -> dict[str, tuple[str, list[int]]]:
    """For each iteration-number symbol (``Induction.index``), its counter's name and
    values, where every block shape of ``warps`` gives the counter the same values."""
    out: dict[str, tuple[str, list[int]]] = {}
    shapes = {lane[3:6] for w in warps for lane in w.lanes if lane is not None}
    for sym in syms:
        d = sym.induction
        if d is None or not d.index or not shapes:
            continue
        plain = replace(sym, induction=replace(d, index=False))
        seqs = {tuple(q) if (q := _sequence(plain, (shp[0], shp[1], shp[2]))) is not None
                else None for shp in shapes}
        (seq,) = seqs if len(seqs) == 1 else (None,)
        if seq is not None:
            # k@L12:d -> d; k@L12:l|active (a latched branch's halvings) -> active
            out[sym.name] = (sym.name.partition(":")[2].rpartition("|")[2], list(seq))
    return out


_ITERATION = "'s iteration"


def _value(name: str, v: int) -> str:
    """``S = 3``; for a loop's iteration count, ``in iteration 3 of the 'ii' loop``."""
    trips = _trips_of(name)
    if trips is not None:
        return f"after {v} iterations of the '{trips[1]}' loop at line {trips[0]}"
    shown = _display(name)
    if shown.endswith("loop" + _ITERATION):
        return f"iteration {v} of {shown.removesuffix(_ITERATION)}"
    return f"{shown} = {v}"


# --- the assumed shape: one number for every block shape, or a condition ---------------------


def _shape_family(fixed: Partial | None) -> str:
    """The block shapes an assumed or partly known shape ranges over, for messages."""
    if fixed is None or fixed[0] is None:
        return "blockDim.x a multiple of 32"
    known = [f"{n} = {v}" for n, v in zip(BLOCK_DIM, fixed, strict=True) if v is not None]
    return " and ".join(known)


@lru_cache(maxsize=64)
def _assumed_shape_groups(
    warps: tuple[Warp, ...], needed: frozenset[str], max_threads: int,
    fixed: Partial | None = None,
) -> tuple[tuple[tuple[int, int, int], frozenset[int]], ...]:
    """For each distinct set of ``warps`` one legal block shape holds (blockDim.x a
    multiple of 32, at most ``max_threads`` threads), the first such shape and the set.

    A warp of the assumed enumeration exists in a shape when its warp index, threadIdx.y
    and threadIdx.z fit in it and the blockDim values the access reads are the shape's.
    """
    dims = [BLOCK_DIM.index(n) for n in BLOCK_DIM if n in needed]
    firsts = [w.lanes[0] for w in warps]
    out: dict[frozenset[int], tuple[int, int, int]] = {}
    for shp in legal_shapes(max_threads, fixed):
        held = frozenset(
            i for i, f in enumerate(firsts)
            if f is not None and f[0] < shp[0] and f[1] < shp[1] and f[2] < shp[2]
            and all(f[3 + d] == shp[d] for d in dims)
        )
        if held and held not in out:
            out[held] = shp
    return tuple((shp, held) for held, shp in out.items())


def _assumed_shape_condition(
    cases: list[_Case], shifts: Iterable[int], warps: list[Warp], needed: frozenset[str],
    max_threads: int, access: Access, arch: Arch, bank_mode: int,
    cache: dict[tuple[object, ...], Cost | None], fixed: Partial | None = None,
) -> tuple[str, str | None] | None:
    """None when every legal block shape's worst warp costs the same (at every shift);
    else the condition naming a worst shape and a better one, and a ``gcd`` formula when
    one blockDim value alone decides the number.

    The assumed shape is exhaustive (every blockDim.x multiple of 32), but the block
    shape is a fact of the launch: ``s[threadIdx.x * blockDim.y]`` is 1-way for
    blockDim.y = 1 and 32-way for 32, so the worst over shapes is not a proof."""
    index = {id(w): i for i, w in enumerate(warps)}
    groups = _assumed_shape_groups(tuple(warps), needed, max_threads, fixed)
    if len(groups) <= 1:
        return None
    p = period(arch, bank_mode, access.width)
    # per shape: the worst (ways, wavefronts, ideal) over its warps, at the worst shift
    best: dict[tuple[int, int, int], tuple[float, int, int]] = {}
    values: set[tuple[float, int, int]] = set()
    for r in shifts:
        per_warp: dict[int, tuple[float, int, int]] = {}
        costs: list[tuple[float, int, int]] = []
        for case in cases:
            addrs = (case.addresses if r == 0
                     else [None if a is None else a + r for a in case.addresses])
            c = _cost_at(addrs, access, arch, bank_mode, p, cache)
            if c is None:
                break
            costs.append((c.ways, c.wavefronts, c.ideal))
        else:
            for warp, _, at in _case_slots(cases):
                i = index[id(warp)]
                k = costs[at]
                if i not in per_warp or k > per_warp[i]:
                    per_warp[i] = k
            for shp, held in groups:
                ks = [per_warp[i] for i in held if i in per_warp]
                if not ks:
                    continue
                k = max(ks)
                values.add(k)
                if shp not in best or k > best[shp]:
                    best[shp] = k
    if len(values) <= 1 or not best:
        return None
    top = max(best.values())
    low = min(best.values())
    hi_shape = next(shp for shp, k in best.items() if k == top)
    lo_shape = next(shp for shp, k in best.items() if k == low)

    def show(shp: tuple[int, int, int]) -> str:
        return f"({shp[0]}, {shp[1]}, {shp[2]})"

    cond = (
        f"when blockDim = {show(hi_shape)} ({low[1]} wavefront{'s' if low[1] != 1 else ''}, "
        f"ideal {low[2]}, with {show(lo_shape)}; give the block shape to prove it)"
    )
    formula: str | None = None
    used = [n for n in BLOCK_DIM if n in needed]
    if len(used) == 1:
        d = BLOCK_DIM.index(used[0])
        by_value: dict[int, float] = {}
        for shp, k in best.items():
            v = shp[d] // 32 if d == 0 else shp[d]
            by_value[v] = max(by_value.get(v, 0.0), k[0])
        formula = _gcd_formula(used[0] + ("/32" if d == 0 else ""), by_value)
    return cond, formula


# --- a symbol that scales the lane pattern ---------------------------------------------------


def _bank_span(arch: Arch, bank_mode: int) -> int:
    """Bytes after which the whole bank rule repeats: 32 banks x bank width, and on
    Kepler the 256-byte row a bank serves per pass in either mode (in 4-byte mode the
    bank index repeats every 128 bytes, but whether two lanes of one bank share a row
    depends on the address modulo 256: ``tx * (4 + S)`` bytes is 16-way at S = 124 and
    32-way at S = 252)."""
    if arch.family == "kepler":
        return 256
    return 32 * 4


def _closeness(arch: Arch) -> int:
    """Two addresses closer than this can share a word (or a Kepler row)."""
    return 256 if arch.family == "kepler" else 4


def _linear_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...],
    s_index: int,
) -> tuple[tuple[int, ...], list[_Case], list[list[int]]]:
    """Cases at S = 0 and the per-lane coefficient of S (offset = a0 + S * g)."""
    base_vals: tuple[int, ...] | None = None
    last: Exception | None = None
    for v in _BASE_VALUES:
        vals = [v for _ in free]
        try:
            vals[s_index] = 0
            c0 = _build_cases(run, offset, guard, warps, loops, sequences, free,
                              tuple(vals))
            vals[s_index] = 1
            c1 = _build_cases(run, offset, guard, warps, loops, sequences, free,
                              tuple(vals))
            vals[s_index] = 3
            c3 = _build_cases(run, offset, guard, warps, loops, sequences, free,
                              tuple(vals))
            vals[s_index] = 0
            base_vals = tuple(vals)
            break
        except EVAL_ERRORS as e:
            last = e
    if base_vals is None:
        raise EvalError(str(last) if last is not None else "no value")
    if not (len(c0) == len(c1) == len(c3)):
        raise _NotLinear()
    slopes: list[list[int]] = []
    for a, b, c in zip(c0, c1, c3, strict=True):
        g: list[int] = []
        for x, y, z in zip(a.addresses, b.addresses, c.addresses, strict=True):
            if (x is None) != (y is None) or (x is None) != (z is None):
                raise _NotLinear()  # the guard depends on S
            if x is None or y is None or z is None:
                g.append(0)
                continue
            if z - x != 3 * (y - x):
                raise _NotLinear()
            g.append(y - x)
        slopes.append(g)
    return base_vals, c0, slopes


class _NotLinear(Exception):
    pass


def _gcd_formula(name: str, ways: dict[int, float]) -> str | None:
    """``gcd(m*S, Q)`` when it reproduces the ways of every residue class of S."""
    for q in (32, 16, 8, 4, 2):
        for m in (1, 2, 4, 8, 16, 32, 64, 128, 256):
            if all(abs(w - _gcd(m * r, q)) < 1e-9 for r, w in ways.items()):
                return f"gcd({name}, {q})" if m == 1 else f"gcd({m}*{name}, {q})"
    return None


def _residue_condition(name: str, worst_set: set[int], modulus: int) -> str:
    """The condition on ``S % M``, for the least power of two M dividing ``modulus``
    whose residue classes make up exactly ``worst_set`` (residues mod ``modulus``):
    ``S % M == j``, ``S % M != j`` (``tid == 0 ? S : tid + 64``: every S but the
    multiples of 32), or the list of classes in or out, whichever is shorter."""
    m = 1
    while m <= modulus:
        if modulus % m == 0:
            classes = {r % m for r in worst_set}
            if {r for r in range(modulus) if r % m in classes} == worst_set:
                break
        m *= 2
    else:
        m, classes = modulus, set(worst_set)
    if len(classes) == m:
        return "for every value"
    out = sorted(set(range(m)) - classes)
    if len(classes) == 1:
        return f"when {name} % {m} == {min(classes)}"
    if len(out) == 1:
        return f"when {name} % {m} != {out[0]}"

    def listed(values: list[int]) -> str:
        return ", ".join(map(str, values[:8])) + (", ..." if len(values) > 8 else "")

    if len(out) < len(classes):
        return f"when {name} % {m} is none of {{{listed(out)}}}"
    return f"when {name} % {m} is one of {{{listed(sorted(classes))}}}"

# --- the proof ------------------------------------------------------------------------------


def prove(
    access: Access,
    array: SharedArray | None,
    shape: Shape,
    arch: Arch,
    bank_mode: int,
    base: int | None = None,
    run: RunCaches | None = None,
) -> AccessResult:
    """The result of one access under one block shape and bank mode.

    ``base`` is the array's byte offset in the shared window when the layout is known;
    otherwise every base the array's alignment allows is considered. A pure function
    of its arguments: a repeated call in the same ``run`` (the analysis run's caches,
    :class:`~cudalint.model.caches.RunCaches`; None: a run of its own) returns the
    remembered result.
    """
    if run is None:
        run = RunCaches()
    proofs = run.proofs
    try:
        key = (proof_key(access), array, shape, arch, bank_mode, base)
        hit = proofs.get(key)
    except RecursionError:  # an offset too deep to hash: prove it uncached
        return _prove(access, array, shape, arch, bank_mode, base, run)
    if hit is not None:
        return hit if hit.access is access else replace(hit, access=access)
    r = _prove(access, array, shape, arch, bank_mode, base, run)
    if len(proofs) >= run.MAX_PROOFS:
        proofs.clear()
    proofs[key] = r
    return r


#: At most this many conditions are split into their outcomes (2^n proofs).
_MAX_CHOICES = 3


def _choice_conditions(e: Expr | None, out: list[Expr]) -> None:
    """The conditions of ``e``'s selects that read nothing lane-dependent: each is one
    outcome for the whole warp (``start = row == col ? threadIdx.x + 1 : 0``)."""
    if e is None:
        return
    if isinstance(e, Select):
        if not _is_lane_dependent(e.cond) and not isinstance(e.cond, Const) \
                and e.cond not in out:
            out.append(e.cond)
        _choice_conditions(e.cond, out)
        _choice_conditions(e.then, out)
        _choice_conditions(e.other, out)
    elif isinstance(e, Unary | Cast):
        _choice_conditions(e.operand, out)
    elif isinstance(e, Binary):
        _choice_conditions(e.lhs, out)
        _choice_conditions(e.rhs, out)
    elif isinstance(e, Opaque):
        for i in e.inputs:
            _choice_conditions(i, out)


def _choose(e: Expr, outcome: dict[Expr, bool]) -> Expr:
    """``e`` with each chosen condition's selects replaced by the branch its outcome
    takes, and the condition itself (in a guard) by 1 or 0."""
    if e in outcome:
        return Const(int(outcome[e]), e.type)
    if isinstance(e, Select):
        if e.cond in outcome:
            return _choose(e.then if outcome[e.cond] else e.other, outcome)
        return replace(e, cond=_choose(e.cond, outcome), then=_choose(e.then, outcome),
                       other=_choose(e.other, outcome))
    if isinstance(e, Unary | Cast):
        return replace(e, operand=_choose(e.operand, outcome))
    if isinstance(e, Binary):
        return replace(e, lhs=_choose(e.lhs, outcome), rhs=_choose(e.rhs, outcome))
    if isinstance(e, Opaque) and e.inputs:
        return replace(e, inputs=tuple(_choose(i, outcome) for i in e.inputs))
    return e


def _uniform_choices(
    access: Access, array: SharedArray | None, shape: Shape, arch: Arch, bank_mode: int,
    base: int | None, run: RunCaches | None,
) -> AccessResult | None:
    """An index that picks between lane patterns by a condition every lane of a warp
    evaluates alike (run-time values, no lane): each outcome is proved on its own, and the
    access costs the worst of them, proved where all cost the same. None where the index
    has no such choice, where one outcome cannot be proved, or past _MAX_CHOICES."""
    conds: list[Expr] = []
    _choice_conditions(access.offset, conds)
    if not conds:
        return None
    _choice_conditions(access.guard, conds)
    if len(conds) > _MAX_CHOICES:
        return None
    results: list[tuple[dict[Expr, bool], AccessResult]] = []
    for bits in itertools.product((True, False), repeat=len(conds)):
        outcome = dict(zip(conds, bits, strict=True))
        variant = replace(access, offset=_choose(access.offset, outcome),
                          guard=None if access.guard is None else _choose(access.guard, outcome))
        r = _prove_whole(variant, array, shape, arch, bank_mode, base, run)
        if r.status == "unknown":
            return None
        results.append((outcome, r))
    ran = [(o, r) for o, r in results if r.executed] or results
    worst_outcome, worst = max(ran, key=lambda e: (e[1].ways or 0.0, e[1].wavefronts or 0,
                                                  e[1].status == "worst-case"))
    same = all((r.wavefronts, r.ideal_wavefronts) == (worst.wavefronts, worst.ideal_wavefronts)
               for _, r in ran)
    if same:  # the condition changes nothing: the worst outcome as it is
        return replace(worst, access=access)
    names = sorted({s.name for c in conds for s in free_symbols(c)})
    which = ", ".join("true" if worst_outcome[c] else "false" for c in conds)
    shown = _names(names) if names else "run-time values"
    reason = (f"when the condition{'s' if len(conds) > 1 else ''} on {shown} "
              f"{'are' if len(conds) > 1 else 'is'} {which}")
    if worst.reason:
        reason = f"{reason}; {worst.reason}"
    return replace(worst, access=access, status="worst-case", reason=reason,
                   reason_kind="condition")


#: Where :func:`proof_key` puts every access: a proof never reads the span.
_NOWHERE = Span("", 0, 0, 0, 0)


def proof_key(access: Access) -> Access:
    """``access`` with what its proof does not read set to fixed values: where it is, its
    text, kernel and array names, the template arguments it was recorded under (its
    offset and guard have them substituted), its subscripts, merge region and unrolling,
    source order and calls. The proof reads only the offset, guard, width, kind, the
    atomic's fields, ``matrix``, ``collective`` and ``unknown_reason`` (the array and
    shape are keys of their own): two instantiations of a kernel, or one helper called
    twice, whose accesses come out the same share one proof (:func:`prove`'s memo, which
    gives each its own ``access`` back)."""
    return replace(access, array="", kernel="", span=_NOWHERE, text="", instantiation=None,
                   launch_params=(), indices=(), element_offset=0, region=-1,
                   unrolled_by=None, unroll_factor=0, order=0, volatile=False,
                   array_name="", call_sites=())


def _prove(
    access: Access,
    array: SharedArray | None,
    shape: Shape,
    arch: Arch,
    bank_mode: int,
    base: int | None = None,
    run: RunCaches | None = None,
) -> AccessResult:
    """:func:`prove` without the run's memo of results, in steps over one :class:`_Proof`:
    what needs no lanes (:func:`_without_lanes`), the offset and guard as evaluated
    (:func:`_abstract`), the warps (:func:`_enumerate_warps`) and loop values
    (:func:`_enumerate_loops`), then the proof: over the shifts of the bank period when
    the uniform values shift the whole warp (:func:`_prove_separable`), else exact over
    one linear uniform symbol (:func:`_prove_linear`), else sampled (:func:`_sampled`)."""
    result = _prove_whole(access, array, shape, arch, bank_mode, base, run)
    if result.status == "unknown":
        # a choice between lane patterns a uniform condition makes: each outcome alone
        split = _uniform_choices(access, array, shape, arch, bank_mode, base, run)
        if split is not None:
            return split
    return result


def _prove_whole(
    access: Access,
    array: SharedArray | None,
    shape: Shape,
    arch: Arch,
    bank_mode: int,
    base: int | None = None,
    run: RunCaches | None = None,
) -> AccessResult:
    """The steps of :func:`_prove` on the access as it is."""
    proof = _Proof(access, array, shape, arch, bank_mode, base,
                   run if run is not None else RunCaches())
    done = _without_lanes(proof)
    if done is None:
        done = _abstract(proof)
    if done is not None:
        return done
    _enumerate_warps(proof)
    _enumerate_loops(proof)
    before: dict[str, object] = {n: proof.sequences[n] for n in proof.loops}
    _fix_shifting_loops(proof)
    offset = proof.offset
    _fix_rotations(proof)
    if proof.data is not None:
        return _over_data(proof, proof.data)
    unclipped = proof.guard
    # not where a rotation was left out: the addresses are no longer exact
    if proof.offset is offset and _clip_to_array(proof, before):
        result = _prove_cases(proof)
        if result.executed:
            return result
        proof.guard = unclipped  # no lane inside the array anywhere: as before
    return _prove_cases(proof)


def _fix_rotations(proof: _Proof) -> None:
    """A uniform value left free that only rotates a ring the whole warp indexes
    (:func:`cudalint.model.residues.rotation_only`: ``((a + U) % M) * c``, the closed
    form of a loop's ``idx = (idx + 32) % 4096``) changes no cost in 4-byte banks on
    Maxwell and newer: it is set to 0, and the other values are proved without it."""
    access = proof.access
    if proof.arch.family != "maxwell+" or proof.bank_mode != 4 or access.matrix \
            or not proof.free:
        return
    from cudalint.model.residues import rotation_only

    guarded = {s.name for s in free_symbols(proof.guard)} if proof.guard is not None else set()
    unit, span = max(access.width, 4), 32 * 4
    # a ring past a static array's end leaves it at some rotations (_in_bounds)
    most = proof.array.size_bytes if proof.array is not None \
        and proof.array.base_offset is None else 0
    for n in proof.free:
        if n not in guarded and rotation_only(proof.offset, n, THREAD_IDX, unit, span, most):
            proof.offset = _substituted(proof.offset, {n: 0})
            proof.free = tuple(f for f in proof.free if f != n)


def _clip_to_array(proof: _Proof, before: dict[str, object]) -> bool:
    """Where a guard conjunct was left out (every lane is taken as passing it) and the
    addresses are exact relative to a static array of known size (no uniform value left
    free, none loaded), a lane whose address lies outside the array passes it in no
    defined execution (an access past a ``__shared__`` array is undefined behaviour):
    the guard gains ``0 <= offset <= size - width``, so such a lane is left out of its
    slot and the others kept (``if (tid < d && s[ai] == 1) s[32 * tid + 31]`` with
    ``d`` unknown: the lanes past the array's end never pass). This is tighter than
    :func:`_in_bounds`' window of the array's size, which allows for a shift no exact
    address has. Lanes a guard cudalint evaluates keeps are not left out (they run,
    whatever they address). Not where
    :func:`_inside` already leaves out the slots with a lane outside, nor where
    :func:`_fix_shifting_loops` took a loop's first value for the others (its other
    values move the warp, and the lanes left inside with it). True where it did."""
    array = proof.array
    if not proof.guard_causes or proof.free or proof.data is not None or array is None \
            or array.base_offset is not None or array.size_bytes <= 0 \
            or proof.access.matrix or _inside(proof) is not None \
            or any(proof.sequences[n] is not before[n] for n in proof.loops):
        return False
    offset = proof.offset
    last = array.size_bytes - proof.access.width
    inside = Binary("&&", Binary("<=", Const(0, _LONG), offset, _INT32),
                    Binary("<=", offset, Const(last, _LONG), _INT32), _INT32)
    proof.guard = inside if proof.guard is None else conjoined([proof.guard, inside])
    return True


_LONG = IntType(64, True)
_INT32 = IntType(32, True)


def _prove_cases(proof: _Proof) -> AccessResult:
    """The proof over the enumerated warps and loop values (:func:`_prove_whole`'s last
    step)."""
    access, array, arch, bank_mode = proof.access, proof.array, proof.arch, proof.bank_mode
    paired = isinstance(proof.sequences, _Joint) and bool(proof.sequences.groups)
    limit = _MAX_SLOTS if _inside(proof) is None and not paired else _MAX_INSIDE_SLOTS
    if _slots(proof, limit) > limit:
        # far past what the case builders would cost before giving up (_MAX_CASES
        # active cases): say so before evaluating any
        return proof.result("unknown", None, _too_complex(limit))
    p = period(arch, bank_mode, access.width)
    proof.align = alignment(array, access.width)
    try:
        sp = _separation(proof)
        if sp.separable:
            return _prove_separable(proof, sp, p)
        from cudalint.model.algebra import linear_per_lane  # imported by _separation already

        if len(sp.entangled) == 1 and linear_per_lane(proof.offset, sp.entangled[0]):
            try:
                return _prove_linear(proof, sp.entangled[0])
            except _NotLinear:
                pass
        return _sampled(proof, sp.entangled)
    except EVAL_ERRORS as e:
        return proof.result("unknown", None, f"the index is undefined: {e}")
    except _TooComplex as e:
        return proof.result("unknown", None, f"too complex: {e}")


@dataclass(eq=False)
class _Proof:
    """One access's proof under one block shape and bank mode (:func:`_prove`): its
    inputs, what the steps work out (the offset and guard as evaluated, the enumerated
    warps and loop values, the symbols left free), the notes they collect, and
    :meth:`result`, which makes a result with those notes (the last-resort proofs
    ``_prove_linear`` and ``_sampled`` share it)."""

    access: Access
    array: SharedArray | None
    shape: Shape
    arch: Arch
    bank_mode: int
    #: The array's byte offset in the shared window (None: every aligned base).
    base: int | None
    #: The analysis run's caches.
    run: RunCaches
    #: The offset and guard as evaluated: opaque values as symbols, a known block shape
    #: substituted, conjuncts no lane can evaluate left out, stride-loop bounds
    #: enumerated or widened (:func:`_abstract`, :func:`_enumerate_loops`).
    offset: Expr = field(init=False)
    guard: Expr | None = field(init=False)
    #: The warps costed (:func:`_enumerate_warps`).
    warps: list[Warp] = field(default_factory=list)
    #: Under the assumed shape: the thread and shape values the warps enumerate.
    needed: set[str] = field(default_factory=set)
    #: Every symbol the offset and guard read before the loops are enumerated.
    all_syms: set[Sym] = field(default_factory=set)
    #: Per enumerated loop variable, per block shape, its values; their names, sorted.
    sequences: dict[str, dict[tuple[int, ...], list[int]]] = field(default_factory=dict)
    loops: tuple[str, ...] = ()
    #: The loop variables whose values depend on an input cudalint does not know
    #: (:func:`_evaluable_inductions`): the cases are then those some input makes.
    supersets: frozenset[str] = frozenset()
    #: The uniform symbols left free, and the symbols enumerated (lanes and loops).
    free: tuple[str, ...] = ()
    enumerated: frozenset[str] = frozenset()
    align: int = 1
    #: Costs by the pattern of lane addresses (:func:`_cost_at`).
    cache: dict[tuple[object, ...], Cost | None] = field(default_factory=dict)
    #: Why conjuncts of the guard were left out (each widens the active lanes), and the
    #: note that says so.
    guard_causes: list[str] = field(default_factory=list)
    guard_note: str | None = None
    #: Notes :meth:`result` adds: only some warps of the assumed shapes were costed; a
    #: stride loop's bound was widened to its first iteration (a cause or a condition).
    shape_note: str | None = None
    widened_note: str | None = None
    widened_as: ReasonKind = "cause"
    #: The array's size where it bounds the lanes costed together (_in_bounds); only
    #: where the uniform values shift the whole warp (the separable case).
    in_bounds: int = 0
    #: The offset reads a value each lane loads, bounded by the index (:mod:`loaded`).
    data: Bounded | None = None

    def __post_init__(self) -> None:
        self.offset = self.access.offset
        self.guard = self.access.guard

    def result(
        self, status: Status, cost: Cost | None, reason: str | None,
        outcome: _Outcome | None = None, formula: str | None = None,
        kind: ReasonKind = "cause",
    ) -> AccessResult:
        """The result; ``kind`` says whether ``reason`` is a condition or a cause."""
        access, array, arch, bank_mode = self.access, self.array, self.arch, self.bank_mode
        case = outcome.case if outcome is not None else None
        if status == "worst-case" and self.guard_note is not None and cost is not None \
                and cost.wavefronts > cost.ideal and not access.collective:
            # every worst case (the same everywhere, an iteration, a shift, a shape) takes
            # every lane as passing the guard conjuncts left out: it says so
            said = f"{_GUARD_IF} ({self.guard_note})"
            reason = said if reason is None else f"{reason}, {said}"
        if self.widened_note is not None and status == "proved" and cost is not None \
                and cost.wavefronts > cost.ideal:
            status, reason, kind = "worst-case", self.widened_note, self.widened_as
        if self.shape_note is not None and status == "proved":
            status, reason, kind = "worst-case", "worst over " + self.shape_note, "cause"
        elif self.shape_note is not None and status == "worst-case":
            reason = f"{reason}; over {self.shape_note}"
        lanes = outcome.lane_addresses() if outcome is not None else None
        if lanes is not None and cost is not None and _cas_loop(access, array):
            shared = _shared_word(lanes, access.width)
            if shared is not None:
                # not measured: the loop's trip count depends on how the lanes retry
                element = array.element_type if array is not None else "float"
                return self.result("unknown", None, (
                    f"{_atomic_base(access.atomic_op)} on {element} compiles to a load and "
                    f"compare-and-swap loop (ATOMS.CAST.SPIN), and {shared[1]} lanes update "
                    f"word {shared[0]}: how often they retry, and so the cost, depends on "
                    "contention (not measured)"))
        if lanes is not None and self.in_bounds and cost is not None \
                and cost.wavefronts > cost.ideal:
            clamped = _in_bounds(lanes, access, arch, bank_mode, self.in_bounds)
            if clamped is not None:  # the lanes that were costed (see _cost_at)
                lanes = tuple(clamped[1])
        return AccessResult(
            access=access, arch=arch.name, bank_mode=bank_mode, status=status,
            wavefronts=cost.wavefronts if cost else None,
            ideal_wavefronts=cost.ideal if cost else None,
            reason=reason, block_dim=self.shape.reported, block_dim_source=self.shape.source,
            conflict=cost.conflict if cost else None,
            warp=case.warp.index if case is not None else None,
            lane_addresses=lanes,
            ways_formula=formula, reason_kind=kind if reason is not None else None,
        )


def _without_lanes(proof: _Proof) -> AccessResult | None:
    """The result of an access that no shared instruction moves as modelled (an unknown
    access, a wide atomic, an odd width) or whose cost needs no lanes (a warp-aggregated
    atomic); None for every other access."""
    access = proof.access
    if access.unknown_reason:
        return proof.result("unknown", None, access.unknown_reason)
    if access.kind == "atomic" and access.width > 4:
        return proof.result(
            "unknown", None,
            f"{access.width * 8}-bit shared atomics compile to a compare-and-swap loop "
            "whose cost depends on contention",
        )
    if access.width not in (1, 2, 4, 8, 16):
        return proof.result("unknown", None,
                            f"no shared instruction moves {access.width} bytes")
    if _aggregated(access, proof.array):
        # nvcc reduces the warp's operands first; one lane then issues the atomic
        return proof.result("proved", Cost(1, 1), None)
    return None


def _abstract(proof: _Proof) -> AccessResult | None:
    """The offset and guard with their opaque values as uniform symbols and a known
    block shape substituted; the result (unknown) when the offset reads an opaque value
    that depends on the lane, None otherwise."""
    opaques: dict[Opaque, Sym] = {}
    try:
        proof.offset = _without_opaques(proof.access.offset, opaques)
    except _LaneOpaque as e:
        from cudalint.model.loaded import bound_loaded

        bounded = bound_loaded(proof.access.offset, _is_lane_dependent)
        if bounded is None:
            return proof.result("unknown", None, f"the index depends on {_cause(e.opaque)}")
        try:
            proof.offset = _without_opaques(bounded.offset, opaques)
        except _LaneOpaque:
            return proof.result("unknown", None, f"the index depends on {_cause(e.opaque)}")
        proof.data = bounded
    guard = proof.guard
    if guard is not None:
        # A conjunct that cudalint cannot evaluate per lane is left out, the others kept:
        # the lanes that pass them hold the lanes that pass the guard, and the cost never
        # grows when lanes drop out (``data && lane == 0`` is one lane whatever the data).
        kept: list[Expr] = []
        for part in conjuncts(guard):
            try:
                kept.append(_without_opaques(part, opaques))
            except _LaneOpaque as e:
                proof.guard_causes.append(_cause(e.opaque))
        proof.guard = conjoined(kept)
    shape = proof.shape
    if shape.dims is not None or shape.fixed is not None:
        known = {n: v for n, v in zip(BLOCK_DIM, shape.reported or (), strict=True)
                 if v is not None}
        proof.offset = _substituted(proof.offset, known)
        proof.guard = _substituted(proof.guard, known) if proof.guard is not None else None
    return None


def _enumerate_warps(proof: _Proof) -> None:
    """The warps costed: every warp of a known shape; under the assumed shape, the warps
    of every legal shape over the thread and shape values the offset and guard need
    (the others are uniform within a warp, free symbols), at most _MAX_ASSUMED_WARPS of
    them (a sample, with a note that says so)."""
    shape, offset, guard = proof.shape, proof.offset, proof.guard
    if shape.dims is not None:
        proof.warps = known_shape_warps(shape.dims)
        return
    needed = proof.needed = _assumed_shape_needs(offset, guard)
    present = {s_.name for s_ in free_symbols(offset)}
    if guard is not None:
        present |= {s_.name for s_ in free_symbols(guard)}
    demoted = {
        n: Sym(n + "@warp", UINT) for n in present & ENUMERATED if n not in needed
    }
    if demoted:
        # uniform within the warp under the assumption: a free uniform symbol
        proof.offset = _replace_syms(offset, demoted)
        proof.guard = _replace_syms(guard, demoted) if guard is not None else None
    warps = list(_assumed_warps(frozenset(needed), shape.max_threads, shape.fixed))
    if len(warps) > _MAX_ASSUMED_WARPS:
        total = len(warps)
        stride = -(-total // _MAX_ASSUMED_WARPS)
        warps = warps[::stride]
        proof.shape_note = (
            f"{len(warps)} of the {total} warps of block shapes with "
            f"{_shape_family(shape.fixed)} (give the block shape to prove it)"
        )
    proof.warps = warps


def _fix_shifting_loops(proof: _Proof) -> None:
    """A loop whose value only moves the whole warp (it enters the offset only through
    terms of its sum that read no thread index, and not the guard) changes no cost in
    4-byte banks on Maxwell and newer for an access of 4 bytes or more: every bank's
    words move to the next banks together, and a lane's words stay its own. Its first
    value then stands for every other (an unrolled ``for (k = 0; k < 64; k += 16)``
    around ``s[k * 32 + tid]``), so the loops around a large tile cost one slot each."""
    access = proof.access
    if proof.arch.family != "maxwell+" or proof.bank_mode != 4 or (
            access.width < 4 and not access.matrix) or not proof.loops:
        return
    from cudalint.model.residues import shift_only

    guarded = {s.name for s in free_symbols(proof.guard)} if proof.guard is not None else set()
    unit = 16 if access.matrix else max(access.width, 4)
    params = (*LANE_PARAMS, *proof.loops, *proof.free)
    try:
        f = compile_expr(proof.offset, params)
    except EVAL_ERRORS:
        return
    if _inside(proof) is not None:
        # only the slots inside the array are cases: a shift's first value may leave a
        # warp out that another value keeps inside, with another loop's value
        return
    paired = {n for names in getattr(proof.sequences, "groups", {}) for n in names}
    for n in proof.loops:
        # the terms that read n read nothing else that varies (another loop, a uniform
        # value): its moves are then the same whatever they are, and checked below (not
        # a variable whose values are paired with another's: its first value would
        # leave out the other's values paired with the rest)
        others = frozenset(THREAD_IDX) | (set(proof.loops) - {n}) | set(proof.free)
        if n not in guarded and n not in paired and shift_only(
                proof.offset, n, others) and _shifts_by(proof, f, n, unit):
            proof.sequences[n] = {shp: seq[:1] for shp, seq in proof.sequences[n].items()}


def _shifts_by(proof: _Proof, f: Callable[..., int], loop: str, unit: int) -> bool:
    """Whether every value of ``loop`` moves the warp by a multiple of ``unit`` bytes
    from its first value (a move by less can misalign a lane, which its first value
    would not show: ``reinterpret_cast<float2 *>(s + i)[t]`` with an odd ``i``). ``f``:
    the offset, compiled over the lanes, the loops and the free symbols."""
    at = proof.loops.index(loop)
    for warp in proof.warps:
        shp = _shape_of(warp)
        lane = next((ln for ln in warp.lanes if ln is not None), None)
        if shp is None or lane is None:
            continue
        firsts = [proof.sequences[n][shp][0] if proof.sequences[n][shp] else 0
                  for n in proof.loops]
        seq = proof.sequences[loop][shp]
        try:
            moved = []
            for v in seq:
                lv = list(firsts)
                lv[at] = v
                moved.append(f(*lane, *lv, *([0] * len(proof.free))))
        except EVAL_ERRORS:
            return False
        if any((m - moved[0]) % unit for m in moved):
            return False
    return True


#: Lane evaluations (slots x lanes x values) :func:`_over_data` makes at most.
_MAX_DATA_EVALUATIONS = 300_000


def _over_data(proof: _Proof, data: Bounded) -> AccessResult:
    """The worst the loaded data can do to an index that keeps only a few values of it
    (:mod:`cudalint.model.loaded`): for an access of up to 4 bytes in 4-byte banks on
    Maxwell and newer, with no other unknown value in the offset. Clean for every value
    is a proof; otherwise the worst, with the lanes and values that give it."""
    from cudalint.model.loaded import worst_choice

    access, arch, bank_mode = proof.access, proof.arch, proof.bank_mode
    cause = f"the index depends on {_cause(data.opaque)}"
    form = atomic_form(access) if access.kind == "atomic" else "combined"
    free = [n for n in proof.free if n != data.name]
    guard_reads = proof.guard is not None and data.name in {
        s.name for s in free_symbols(proof.guard)}
    if arch.family != "maxwell+" or bank_mode != 4 or access.width > 4 or access.matrix \
            or free or guard_reads or form in ("cas", "cas-loop"):
        return proof.result("unknown", None, cause)
    values = range(data.low, data.high + 1)
    if _slots(proof) * 32 * len(values) > _MAX_DATA_EVALUATIONS:
        return proof.result("unknown", None, f"{cause} (too many values to try)")
    loops = proof.loops
    params = (*LANE_PARAMS, *loops, data.name)
    off = compile_expr(proof.offset, params)
    grd = compile_expr(proof.guard, params) if proof.guard is not None else None
    # Each lane's value is free of the others' only where the lanes load different
    # addresses: what the load's address is computed from must differ between them
    # (uniform values at 0; an address cudalint cannot evaluate is not taken as free).
    known = {n: 0 for n in {s.name for i in data.opaque.inputs for s in free_symbols(i)}
             if n not in LANE_PARAMS and n not in loops}
    try:
        where = [compile_expr(_substituted(_without_opaques(i, {}), known), params)
                 for i in data.opaque.inputs]
    except (_LaneOpaque, *EVAL_ERRORS):
        return proof.result("unknown", None, cause)
    if not where:
        return proof.result("unknown", None, cause)
    shifts = (range(0, 4, max(proof.align, 1)) if proof.base is None else (proof.base % 4,))
    best: tuple[int, list[int | None], _Case, tuple[int, ...], int] | None = None
    for warp in proof.warps:
        shp = _shape_of(warp)
        if shp is None:
            continue
        combos = _combos(proof.sequences, loops, shp)
        for lv in combos:
            check_budget()
            per_lane: list[list[tuple[int, int]] | None] = []
            for lane in warp.lanes:
                if lane is None or (grd is not None and not grd(*lane, *lv, 0)):
                    per_lane.append(None)
                    continue
                try:
                    per_lane.append([(off(*lane, *lv, v), v) for v in values])
                except EVAL_ERRORS:
                    per_lane.append(None)
            if all(a is None for a in per_lane):
                continue
            try:
                loaded = [tuple(f(*lane, *lv, 0) for f in where)
                          for lane, a in zip(warp.lanes, per_lane, strict=True)
                          if lane is not None and a is not None]
            except EVAL_ERRORS:
                return proof.result("unknown", None, cause)
            if len(set(loaded)) != len(loaded):  # two lanes load one value
                return proof.result("unknown", None, cause)
            for sh in shifts:
                reach = [None if a is None else {(b + sh) // 4: v for b, v in reversed(a)}
                         for a in per_lane]
                worst = worst_choice(reach, per_lane=form == "per-lane")
                if best is None or worst.ways > best[0]:
                    addrs = [None if a is None or w is None else dict((v, b) for b, v in a)[w]
                             for a, w in zip(per_lane, worst.values, strict=True)]
                    best = (worst.ways, addrs, _Case(warp, tuple(lv), addrs), worst.lanes, sh)
    if best is None:
        return replace(proof.result("unknown", None, NOT_EXECUTED), executed=False)
    _, addrs, case, lanes, sh = best
    # costed where the array starts at byte sh mod 4, the start that gave the worst
    moved = [None if a is None else a + sh for a in addrs]
    cost = warp_cost(moved, access.width, access.kind, arch, bank_mode, form)
    outcome = _Outcome(cost, case, sh, moved)
    if cost.wavefronts <= cost.ideal:
        return proof.result("proved", cost, None, outcome)
    shown = ", ".join(map(str, lanes[:4])) + (", ..." if len(lanes) > 4 else "")
    bank = ("one bank (the atomic serves each lane on its own)" if form == "per-lane"
            else "one bank at distinct words")
    cond = (f"for some loaded data: each lane's index takes one of {len(values)} values "
            f"({data.low} to {data.high}) from the {_cause(data.opaque)}, and lanes {shown} "
            f"can then meet on {bank}")
    return proof.result("worst-case", cost, cond, outcome, kind="condition")


#: Warp-and-loop slots (active or not) past which an access is too complex at once.
_MAX_SLOTS = _MAX_CASES


def _lane_addresses(
    per_warp: Callable[..., list[int | None]] | None, off: Callable[..., int] | None,
    grd: Callable[..., int] | None, lanes: Iterable[tuple[int, ...] | None],
    lv: tuple[int, ...], values: tuple[int, ...],
) -> list[int | None]:
    """Per lane, the offset where the guard holds (None: inactive), for the loop values
    ``lv`` and free values ``values``: through ``per_warp`` (``compile_warp``) where it
    compiled, else lane by lane through ``off`` and ``grd`` (``compile_expr``)."""
    if per_warp is not None:
        return per_warp(lanes, lv, values)
    assert off is not None
    out: list[int | None] = []
    for lane in lanes:
        if lane is None:
            out.append(None)
            continue
        args = (*lane, *lv, *values)
        out.append(None if grd is not None and not grd(*args) else off(*args))
    return out


def _too_complex(limit: int = _MAX_CASES) -> str:
    return f"too complex: more than {limit} warp and loop combinations"


def _shape_of(warp: Warp) -> tuple[int, ...] | None:
    """The block shape of a warp's lanes (None: no lane)."""
    first = next((ln for ln in warp.lanes if ln is not None), None)
    return None if first is None else first[3:6]


def _slots(proof: _Proof, limit: int | None = None) -> int:
    """How many (warp, loop values) slots the case builders would visit; counting stops
    once past ``limit``."""
    if not proof.loops:
        return len(proof.warps)
    total = 0
    paired: dict[tuple[int, ...], int] = {}  # combinations per shape, where some are paired
    for warp in proof.warps:
        shp = _shape_of(warp)
        if shp is not None:
            if isinstance(proof.sequences, _Joint) and proof.sequences.groups:
                if shp not in paired:
                    paired[shp] = _combo_count(proof.sequences, proof.loops, shp, limit)
                total += paired[shp]
            else:
                total += math.prod([len(proof.sequences[name][shp]) for name in proof.loops])
        if limit is not None and total > limit:
            break
    return total


def _deciding_syms(offset: Expr, guard: Expr | None, known: frozenset[str] | set[str],
                   ) -> set[Sym]:
    """The symbols the cases read: the offset's, and those of each guard conjunct that
    :func:`_enumerate_loops` keeps. A conjunct that reads a value neither enumerated nor
    a loop variable (``col < ncols_pad`` with ``ncols_pad`` a kernel argument) is left
    out of the guard there (every lane is taken as active, and the guard note names the
    value), so it does not stop the exact pairing of loop variables either. Asked only
    where the offset reads a paired inner variable (``s[col ^ j]``): an access that
    reads none of them is proved with them left free, as before, at no cost."""
    out = set(free_symbols(offset))
    for part in conjuncts(guard) if guard is not None else []:
        syms = free_symbols(part)
        if all(s.name in known for s in syms):
            out |= syms
    return out


def _enumerate_loops(proof: _Proof) -> None:
    """The loop variables enumerated (their values per block shape), the guard's
    conjuncts each lane can evaluate, and the symbols left free."""
    offset, guard, warps = proof.offset, proof.guard, proof.warps
    all_syms = free_symbols(offset) | (free_symbols(guard) if guard is not None else set())
    proof.all_syms = all_syms
    supersets: set[str] = set()
    sequences = _evaluable_inductions(all_syms, warps, supersets)
    if sequences.groups:
        # pairs of an inner and an enclosing loop variable only where every other value
        # is enumerated (the exact proof over them); else the inner one is left free,
        # as before
        known = ENUMERATED | set(sequences)
        read = {s_.name for s_ in free_symbols(offset)}
        deciding = _deciding_syms(offset, guard, known) if any(
            group[-1] in read for group in sequences.groups) else all_syms
        if proof.data is not None or any(s_.name not in known for s_ in deciding):
            for group in sequences.groups:
                sequences.pop(group[-1], None)
                supersets.discard(group[-1])
            sequences.groups.clear()
    if guard is not None:
        # a stride loop's bound masks lanes: enumerate its iterations, or widen the
        # bound to its first iteration (cudalint.model.stride_loops)
        bounded = bound_counters(guard, warps, set(sequences), proof.run)
        if bounded is not None:
            guard = bounded.guard
            sequences.update(bounded.sequences)
            if bounded.widened and bounded.partial:
                proof.widened_note = widened_reason(bounded.widened)
                proof.widened_as = widened_kind(bounded.widened)
    loops = tuple(sorted(sequences))
    if guard is not None:
        lane_names = ENUMERATED | set(loops)
        kept: list[Expr] = []
        unknown: set[str] = set()
        for part in conjuncts(guard):
            pnames = {s.name for s in free_symbols(part)}
            if pnames and not pnames & lane_names:
                continue  # uniform: every lane or none (a constant one is kept)
            if pnames - lane_names:
                unknown |= pnames - lane_names  # the thread index with an unknown value
                continue
            kept.append(part)
        guard = conjoined(kept)
        if unknown:
            proof.guard_causes.append(", ".join(sorted(_display(n) for n in unknown)))
    if proof.guard_causes:
        proof.guard_note = "the guard depends on " + ", ".join(
            dict.fromkeys(proof.guard_causes))
    names = {s.name for s in free_symbols(offset)}
    if guard is not None:
        names |= {s.name for s in free_symbols(guard)}
    proof.guard, proof.sequences, proof.loops = guard, sequences, loops
    proof.supersets = frozenset(supersets & set(loops))
    proof.free = tuple(sorted(names - ENUMERATED - set(loops)))
    proof.enumerated = (
        frozenset(THREAD_IDX) if proof.shape.dims is not None else ENUMERATED
    ) | frozenset(loops)


def _separation(proof: _Proof) -> Split | _Separable:
    """How the offset splits into a part the enumerated symbols give and a uniform part
    (:mod:`cudalint.model.algebra`). Where it does not, a division or bit operation that
    reads only uniform values becomes one more uniform value when that makes it
    separable (the proof's offset and free symbols change then)."""
    free, enumerated, loops = proof.free, proof.enumerated, proof.loops
    if not free:
        return _NO_UNIFORMS
    # sympy is imported only when a uniform symbol needs the algebra.
    from cudalint.model.algebra import split

    sp: Split | _Separable = split(proof.offset, enumerated, frozenset(free))
    if not sp.separable:
        # ``((K + 31) / 32 + i) % STAGES * STRIDE + f(lane)``: a division or bit
        # operation that reads only uniform values is one more uniform value. Taken when
        # that makes the offset separable, linear in its one entangled symbol
        # (:func:`_prove_linear`), or entangled only with loop counts and built-in
        # indices (:func:`_sampled` may search those) where it was not before.
        from cudalint.model.algebra import linear_per_lane

        lanes = enumerated - frozenset(loops)
        per_warp = _warp_uniform_indices(proof.shape)
        for warp_uniform in (frozenset(), per_warp) if per_warp else (frozenset(),):
            made: dict[Expr, Sym] = {}
            abstracted = _uniform_terms_as_symbols(proof.offset, lanes, frozenset(free),
                                                   warp_uniform, made)
            if abstracted is proof.offset:
                continue
            names2 = {s.name for s in free_symbols(abstracted)}
            if proof.guard is not None:
                names2 |= {s.name for s in free_symbols(proof.guard)}
            free2 = tuple(sorted(names2 - ENUMERATED - set(loops)))
            sp2 = split(abstracted, enumerated, frozenset(free2))
            # A symbol the later proofs let take every value must not stand for a
            # subterm with few values ((n / 4) % 4 + 1 is 1..4): its worst would be
            # one the subterm never takes. A shift of the whole warp may (separable).
            if sp2.separable or (_better_entangled(
                    proof.offset, sp.entangled, abstracted, sp2.entangled, linear_per_lane)
                    and not any(_few_values(e, proof) for e in made)):
                proof.offset, proof.free, sp = abstracted, free2, sp2
                break
    return sp


def _few_values(e: Expr, proof: _Proof) -> bool:
    """Whether ``e`` takes fewer than 2**16 values over every value of its uniform
    symbols' types and the lanes' and loops' ranges."""
    env = dict(_ranges(proof.run, proof.warps, proof.loops, proof.sequences, (), ()))
    for s in free_symbols(e):
        env.setdefault(s.name, type_range(s.type))
    r = interval(e, env)
    return r is not None and r[1] - r[0] < 1 << 16


def _better_entangled(offset: Expr, entangled: tuple[str, ...], abstracted: Expr,
                      entangled2: tuple[str, ...], linear_in: Callable[[Expr, str], bool],
                      ) -> bool:
    """Whether the abstracted offset's entanglement is one the later proofs handle where
    the original's is not: one symbol it is linear in, or only searchable symbols."""
    def handled(e: Expr, names: tuple[str, ...]) -> bool:
        return (len(names) == 1 and linear_in(e, names[0])) or all(
            _sampleable(n) for n in names)

    return handled(abstracted, entangled2) and not handled(offset, entangled)


def _warp_uniform_indices(shape: Shape) -> frozenset[str]:
    """The thread indices that a known block shape makes the same for every lane of a
    warp: ``threadIdx.y`` and ``threadIdx.z`` when ``blockDim.x`` is a multiple of 32,
    ``threadIdx.z`` when ``blockDim.x * blockDim.y`` is."""
    if shape.dims is None:
        return frozenset()
    x, y, _ = shape.dims
    if x % 32 == 0:
        return frozenset(THREAD_IDX[1:])
    if x * y % 32 == 0:
        return frozenset(THREAD_IDX[2:])
    return frozenset()


def _prove_separable(proof: _Proof, sp: Split | _Separable, p: int) -> AccessResult:
    """The uniform values shift the whole warp: each warp is evaluated once (at one
    value of the uniform symbols) and costed at every shift modulo the bank period ``p``
    the base and the uniform part can take. Equal costs: proved; otherwise the worst,
    with the condition (a shift, a block shape, a loop iteration, the guard) that gives
    it."""
    access, array, arch, bank_mode = proof.access, proof.array, proof.arch, proof.bank_mode
    base, shape, free, loops, result = (
        proof.base, proof.shape, proof.free, proof.loops, proof.result)
    # The uniform values shift the whole warp: whatever they are, the lanes
    # active together lie inside the array (_in_bounds). Not where they change
    # the lane pattern: the searches below cost far-off representatives.
    if array is not None and array.base_offset is None:
        proof.in_bounds = array.size_bytes
        proof.cache = _Costs(proof.in_bounds)
    cache = proof.cache
    inside = _inside(proof)
    values, cases = _base_values(proof.run, proof.offset, proof.guard, proof.warps, loops,
                                 proof.sequences, free, p, inside)
    if not cases and inside is not None:
        # no slot stays inside the array: every slot, as where no input is unknown
        if _slots(proof, _MAX_SLOTS) > _MAX_SLOTS:
            return result("unknown", None, _too_complex())
        values, cases = _base_values(proof.run, proof.offset, proof.guard, proof.warps,
                                     loops, proof.sequences, free, p)
    if not cases:
        return replace(result("unknown", None, NOT_EXECUTED), executed=False)
    if base is None:
        step = _gcd(sp.shift_step(p), proof.align)
        shifts: Iterable[int] = range(0, p, step)
    else:
        step = sp.shift_step(p)
        shifts = sorted({(base + j) % p for j in range(0, p, step)})
    outcomes = _worst_over_shifts(cases, shifts, access, arch, bank_mode, cache)
    if not outcomes:
        return result("unknown", None, "every lane's address is misaligned")
    worst = max(outcomes.values(), key=lambda o: (o.cost.ways, o.cost.wavefronts))
    distinct = {(o.cost.wavefronts, o.cost.ideal) for o in outcomes.values()}
    if len(distinct) > 1:
        coeffs = sp.coefficients if sp.uniform_symbols else ()
        cond = _condition(worst.shift - (base or 0), coeffs, values, free, p, array)
        return result("worst-case", worst.cost, cond, worst, kind="condition")
    if shape.dims is None and proof.shape_note is None:
        by_shape = _assumed_shape_condition(
            cases, outcomes, proof.warps, frozenset(proof.needed), shape.max_threads, access,
            arch, bank_mode, cache, shape.fixed,
        )
        if by_shape is not None:
            return result("worst-case", worst.cost, by_shape[0], worst, by_shape[1],
                          kind="condition")
    if loops:
        per_iteration = _by_iteration(cases, worst.shift, access, arch, bank_mode, cache)
        if len({(c.wavefronts, c.ideal) for c in per_iteration.values()}) > 1:
            at = max(per_iteration, key=lambda k: (per_iteration[k].ways,
                                                   per_iteration[k].wavefronts))
            label, kind = _in_iteration(proof, at)
            return result("worst-case", worst.cost, label, worst, kind=kind)
    return _same_everywhere(proof, worst)


def _in_iteration(proof: _Proof, values: tuple[int, ...]) -> tuple[str, ReasonKind]:
    """Where the worst is, by the loops' values: "in iteration 4 of the 'd' loop" (a
    place: a cause) or "when s = 4" (a condition)."""
    label = _loop_label(proof.loops, values, _index_counters(proof.all_syms, proof.warps))
    if label.startswith("iteration"):
        return "in " + label, "cause"
    return "when " + label, "condition"


#: How a result whose guard was partly left out says so.
_GUARD_IF = "if every lane passes the guard"


def _same_everywhere(proof: _Proof, worst: _Outcome) -> AccessResult:
    """The result of an access that costs the same in every case costed: proved, or, where
    a guard conjunct cudalint could not evaluate was left out and the cost is a conflict,
    the worst case "if every lane passes the guard" (a warp-collective operation runs in
    every lane of the warp or in none, so its guard leaves out nothing)."""
    if proof.guard_note is not None and worst.cost.wavefronts > worst.cost.ideal \
            and not proof.access.collective:
        return proof.result("worst-case", worst.cost, None, worst, kind="condition")
    return proof.result("proved", worst.cost, None, worst)


def _by_iteration(
    cases: list[_Case], shift: int, access: Access, arch: Arch, bank_mode: int,
    cache: dict[tuple[object, ...], Cost | None],
) -> dict[tuple[int, ...], Cost]:
    """Worst cost over warps for each combination of loop-variable values."""
    p = period(arch, bank_mode, access.width)
    costs = [_cost_at([None if a is None else a + shift for a in case.addresses], access,
                      arch, bank_mode, p, cache) for case in cases]
    out: dict[tuple[int, ...], Cost] = {}
    for _, loop_values, at in _case_slots(cases):
        cost = costs[at]
        if cost is None:
            continue
        prev = out.get(loop_values)
        if prev is None or (cost.ways, cost.wavefronts) > (prev.ways, prev.wavefronts):
            out[loop_values] = cost
    return out


def _distinct_linear(cases: list[_Case], slopes: list[list[int]], p: int
                     ) -> tuple[list[_Case], list[list[int]]]:
    """The first case of each (pattern of addresses relative to the bank period, slopes):
    a later one is the earlier moved by a multiple of ``p`` at every S (as in
    :func:`_distinct_patterns`), so it costs the same at every S and shift."""
    seen: set[tuple[object, ...]] = set()
    kept: list[_Case] = []
    kept_slopes: list[list[int]] = []
    for case, g in zip(cases, slopes, strict=True):
        present = [a for a in case.addresses if a is not None]
        low = min(present) // p * p if present else 0
        key = (tuple([None if a is None else a - low for a in case.addresses]), tuple(g))
        if key not in seen:
            seen.add(key)
            kept.append(case)
            kept_slopes.append(g)
    return kept, kept_slopes


def _prove_linear(proof: _Proof, s_name: str) -> AccessResult:
    """Exact over every integer S when the offset is ``a0(lane) + S * g(lane)``.

    Two lanes can only share a word (or a Kepler row) for the finitely many S that bring
    them within a few bytes of each other; those S are costed one by one. For every
    other S, no pair of lanes with different slopes is that close, so the cost depends on
    S only modulo the bank span (128 or 256 bytes): one representative per residue.
    """
    result, offset, guard, warps = proof.result, proof.offset, proof.guard, proof.warps
    loops, sequences, free = proof.loops, proof.sequences, proof.free
    access, arch, bank_mode = proof.access, proof.arch, proof.bank_mode
    base, align, cache = proof.base, proof.align, proof.cache
    s_index = free.index(s_name)
    _, cases, slopes = _linear_cases(proof.run, offset, guard, warps, loops, sequences, free,
                                     s_index)
    if not cases:
        return replace(result("unknown", None, NOT_EXECUTED), executed=False)
    count = len(cases)
    cases, slopes = _distinct_linear(cases, slopes, period(arch, bank_mode, access.width))
    close = _closeness(arch)
    span = _bank_span(arch, bank_mode)
    specials: set[int] = set()
    reach = 0
    for case, g in zip(cases, slopes, strict=True):
        act = [(a, gi) for a, gi in zip(case.addresses, g, strict=True) if a is not None]
        pairs = {(a1 - a2, g1 - g2) for i, (a1, g1) in enumerate(act) for a2, g2 in act[i + 1:]}
        for df, dg in pairs:
            reach = max(reach, abs(df) + close)
            if dg == 0:
                continue
            lo = -(df + close - 1) // dg if dg > 0 else -(df - close + 1) // dg
            for sv in range(min(lo, lo + (2 * close) // abs(dg) + 1) - 1,
                            max(lo, lo + (2 * close) // abs(dg) + 1) + 2):
                if abs(df + sv * dg) < close:
                    specials.add(sv)
        if len(specials) > 4096:
            raise _NotLinear()
    far = (reach // span + 2) * span + max(abs(v) for v in specials | {0}) // span * span
    p = period(arch, bank_mode, access.width)
    shifts = range(0, p, align) if base is None else (base % p,)
    if count * (span + len(specials)) * len(shifts) > _MAX_EVALUATIONS:
        raise _NotLinear()

    seen: set[tuple[int, int]] = set()  # every (wavefronts, ideal) met, over S and shifts
    iterations: set[tuple[int, int]] = set()  # the worst of each loop iteration, too

    def cost_for(sv: int) -> _Outcome | None:
        check_budget()
        worst: _Outcome | None = None
        for r in shifts:
            at_shift: _Outcome | None = None
            per_iteration: dict[tuple[int, ...], tuple[int, int]] = {}
            for case, g in zip(cases, slopes, strict=True):
                addrs = [None if a is None else a + sv * gi + r
                         for a, gi in zip(case.addresses, g, strict=True)]
                c = _cost_at(addrs, access, arch, bank_mode, p, cache)
                if c is None:
                    at_shift = None  # a misaligned lane: this shift cannot happen
                    break
                o = _Outcome(c, case, r, addrs)
                if _better(o, at_shift):
                    at_shift = o
                key = case.loop_values
                per_iteration[key] = max(per_iteration.get(key, (0, 0)),
                                         (c.wavefronts, c.ideal))
            if at_shift is not None:
                seen.add((at_shift.cost.wavefronts, at_shift.cost.ideal))
                iterations.update(per_iteration.values())
                if _better(at_shift, worst):
                    worst = at_shift
        return worst

    generic: dict[int, _Outcome] = {}
    for rsd in range(span):
        o = cost_for(far + rsd)
        if o is not None:
            generic[rsd] = o
    special: dict[int, _Outcome] = {}
    for sv in sorted(specials):
        o = cost_for(sv)
        if o is not None:
            special[sv] = o
    every = list(generic.values()) + list(special.values())
    if not every:
        return result("unknown", None, "every lane's address is misaligned")
    worst = max(every, key=lambda o: (o.cost.ways, o.cost.wavefronts))
    name = _display(s_name)
    if len(seen) == 1 and len(iterations) > 1 and loops:
        label, kind = _in_iteration(proof, worst.case.loop_values)
        return result("worst-case", worst.cost, label, worst, kind=kind)
    if len(seen) == 1:
        return _same_everywhere(proof, worst)
    ways = {r: o.cost.ways for r, o in generic.items()}
    formula = _gcd_formula(name, ways)
    top = max(o.cost.ways for o in every)
    worst_res = {r for r, o in generic.items() if abs(o.cost.ways - top) < 1e-9}
    if worst_res:
        cond = _residue_condition(name, worst_res, span)
    else:
        cond = "when " + name + " = " + ", ".join(
            str(v) for v, o in special.items() if abs(o.cost.ways - top) < 1e-9
        )
    # values near zero (lanes within a word, or a Kepler row, of each other) that fall in
    # a worst residue class without reaching the worst: "S % 256 == 252" alone would
    # claim 32-way at S = 124 too (Kepler, 4-byte mode: 16-way there)
    below = sorted(v for v, o in special.items()
                   if (v - far) % span in worst_res and o.cost.ways < top - 1e-9)
    if cond == "for every value" and below:
        cond = f"for every {name}"
    elif cond == "for every value" or len(
        {(o.cost.wavefronts, o.cost.ideal) for o in every}
    ) == 1:
        # S does not matter; where the array (or the uniform offset) lands does
        where = "the array starts" if base is None else "the uniform offset is"
        cond = f"when {where} at byte {worst.shift % p} mod {p}"
        below = []
    if below:
        cond += " except " + name + " in {" + ", ".join(map(str, below[:6])) + (
            ", ...}" if len(below) > 6 else "}")
    exceptions = sorted(v for v, o in special.items()
                        if generic.get((v - far) % span) is None
                        or o.cost.ways != generic[(v - far) % span].cost.ways)
    if formula and exceptions:
        formula += " except " + name + " in {" + ", ".join(map(str, exceptions[:6])) + (
            ", ...}" if len(exceptions) > 6 else "}")
    return result("worst-case", worst.cost, cond, worst, formula, kind="condition")


#: Uniform values whose every value a search may stand for: the built-in indices.
_BUILTIN_PREFIXES = ("blockIdx.", "blockDim.", "gridDim.")


def _sampleable(name: str) -> bool:
    base, _, where = name.partition("@")
    return (base == "k" and where.startswith("L")) or base.startswith(_BUILTIN_PREFIXES)


def _unprovable_reason(names: list[str]) -> str:
    verb = "changes" if len({_display(n) for n in names}) == 1 else "change"
    reason = (f"{_names(names)} {verb} the lane pattern in a way cudalint cannot prove for "
              f"every value")
    if all(re.fullmatch(r"[A-Za-z_]\w*", _display(n)) for n in names):
        them = "its value" if verb == "changes" else "their values"
        reason += (f"; it is analysed exactly where a launch or an instantiation gives "
                   f"{them}")
    return reason


def _sampled_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...],
    values: tuple[int, ...], p: int | None = None,
) -> list[_Case]:
    """:func:`_build_cases` for :func:`_sampled`, remembering the last sampled offset's
    cases in the run (one file's analysis): accesses with the same offset, guard and
    warps (``K[i][j] = ...; V[i][j] = ...``, or the same access proved again at another
    base) share them instead of evaluating every sample again. A pure function of its
    arguments; only successful evaluations are kept."""
    try:
        return _kept_sampled_cases(run, offset, guard, warps, loops, sequences, free, values,
                                   p)
    except RecursionError:  # an offset too deep to compare: evaluate it plainly
        return _build_cases(run, offset, guard, warps, loops, sequences, free, values, p)


def _kept_sampled_cases(
    run: RunCaches, offset: Expr, guard: Expr | None, warps: list[Warp],
    loops: tuple[str, ...], sequences: dict[str, dict[tuple[int, ...], list[int]]],
    free: tuple[str, ...],
    values: tuple[int, ...], p: int | None = None,
) -> list[_Case]:
    seq_key = tuple(tuple(sorted((k, tuple(v)) for k, v in sequences[n].items()))
                    for n in loops)
    pairs_key = _groups_key(sequences)
    key = (offset, guard, loops, seq_key, pairs_key, free, p)
    kept = run.sampled
    entry = next((e for e in kept if e[0] == key and len(e[1]) == len(warps) and all(
        a is b for a, b in zip(e[1], warps, strict=True))), None)
    if entry is None:
        entry = (key, list(warps), {})
        if len(kept) >= _SAMPLED_KEPT:
            del kept[0]
    else:
        kept.remove(entry)
    kept.append(entry)  # the most recently used last
    packed = entry[2].get(values)
    if packed is not None:
        slots, flat, count = packed
        out: list[_Case] = []
        at = 0
        for warp, lv in slots:
            n = len(warp.lanes)
            out.append(_Case(warp, lv, [None if a == _NO_LANE else a for a in flat[at:at + n]]))
            at += n
        return out if count == len(out) else _CaseList(out, count)
    cases = _build_cases(run, offset, guard, warps, loops, sequences, free, values, p)
    try:  # kept as machine integers: a tenth of the memory of the lists
        flat = array("q", [_NO_LANE if a is None else a for c in cases for a in c.addresses])
    except OverflowError:
        return cases
    if any(len(c.addresses) != len(c.warp.lanes) for c in cases) or _NO_LANE in [
            a for c in cases for a in c.addresses]:
        return cases  # not representable: not kept
    entry[2][values] = ([(c.warp, c.loop_values) for c in cases], flat, _case_count(cases))
    return cases


#: An inactive lane in a kept sample (no address is this low: it is not kept then).
_NO_LANE = -(1 << 63)
#: One sampled offset's cases per sample: (key, warps, (warp and loop values per case,
#: the cases' addresses end to end, the number of slots they stand for) by sample values).
_SampledEntry = tuple[tuple[object, ...], list[Warp],
                      dict[tuple[int, ...], tuple[list[tuple[Warp, tuple[int, ...]]],
                                              "array[int]", int]]]
#: Sampled offsets whose cases a run keeps (each at most about _MAX_EVALUATIONS cases).
_SAMPLED_KEPT = 3


#: Residue classes of the entangled symbols :func:`_residues` evaluates at most, and
#: warp-and-loop slots times classes.
_MAX_RESIDUES = 4096
_MAX_RESIDUE_EVALUATIONS = 4 * _MAX_EVALUATIONS


def _residues(proof: _Proof, entangled: tuple[str, ...]) -> AccessResult | None:
    """Exact over every value of the entangled symbols when the lane pattern depends on
    them only modulo a power of two (:mod:`cudalint.model.residues`): in a 256-thread
    block ``tid & (size - 1)`` reads ``size`` modulo 256. Every class is evaluated, so
    an equal cost is a proof and the worst is the worst of every value, with a value
    that gives it. None where no such bound is shown or the classes are too many."""
    from cudalint.model.residues import low_bits, pattern_bits

    access, arch, bank_mode = proof.access, proof.arch, proof.bank_mode
    offset, guard, free = proof.offset, proof.guard, proof.free
    names = tuple(dict.fromkeys(n for n in entangled if n in free))
    p = period(arch, bank_mode, access.width)
    syms = free_symbols(offset) | (free_symbols(guard) if guard is not None else set())
    inductions = {s.name: s for s in syms if s.induction is not None}
    if not names or p & (p - 1) or any(
            _sampleable(n) or not re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
        # only a parameter takes every value its type holds: a loop's counter, a
        # built-in index or a value computed from others takes some of them
        return None
    env = _ranges(proof.run, proof.warps, proof.loops, proof.sequences, (), ())

    def bounds(e: Expr) -> tuple[int, int] | None:
        return interval(e, env)

    lanes = proof.enumerated | frozenset(proof.loops)
    bits = pattern_bits(offset, names, lanes, p.bit_length() - 1, bounds)
    if bits is not None and guard is not None:
        g = low_bits(guard, names, 64, bounds)
        bits = None if g is None else max(bits, g)
    if bits is None:
        return None
    if any(n in inductions and not _every_residue(inductions[n], bits, syms) for n in names):
        return None
    classes = 1 << (bits * len(names))
    sequences = proof.sequences
    if classes > _MAX_RESIDUES or classes * max(_slots(proof), 1) > _MAX_RESIDUE_EVALUATIONS:
        return None
    types = {s.name: s.type for s in syms}
    at = {n: i for i, n in enumerate(free)}
    shifts = (range(0, p, proof.align) if proof.base is None or len(names) < len(free)
              else (proof.base % p,))
    seen: set[tuple[int, int]] = set()  # every cost of every loop iteration, class, shift
    worst: dict[tuple[int, ...], _Outcome] = {}  # the classes that give the worst
    by_iteration: set[tuple[int, ...]] = set()  # classes whose iterations cost apart
    best: _Outcome | None = None
    for combo in itertools.product(range(1 << bits), repeat=len(names)):
        check_budget()
        values = [0] * len(free)
        for n, v in zip(names, combo, strict=True):
            values[at[n]] = wrap(v, types[n])
        try:
            cases = _build_cases(proof.run, offset, guard, proof.warps, proof.loops,
                                 sequences, free, tuple(values), p)
        except EVAL_ERRORS:
            continue
        for o in _worst_over_shifts(cases, shifts, access, arch, bank_mode,
                                    proof.cache).values():
            seen.add((o.cost.wavefronts, o.cost.ideal))
            if proof.loops:  # an iteration that costs less: not the same in every one
                its = {(c.wavefronts, c.ideal) for c in _by_iteration(
                    cases, o.shift, access, arch, bank_mode, proof.cache).values()}
                seen |= its
                if len(its) > 1:
                    by_iteration.add(combo)
            if best is None or _better(o, best):
                best, worst = o, {combo: o}
            elif not _better(best, o):
                worst.setdefault(combo, o)
    if best is None:
        return None
    if len(seen) == 1:
        return _same_everywhere(proof, best)

    def plain(combo: tuple[int, ...]) -> tuple[int, ...]:
        # powers of two first (the sizes programs use), then the least
        return (sum(v & (v - 1) != 0 for v in combo), *combo)

    combo = min(worst, key=plain)
    outcome = worst[combo]
    label = ""
    if combo in by_iteration:  # the iteration matters too
        label = _in_iteration(proof, outcome.case.loop_values)[0]
    if classes > 1 and len(worst) == classes:
        cond = f"for every value of {_names(list(names))}" + (f", {label}" if label else "")
    else:
        shown = ", ".join(f"{_display(n)} = {wrap(v, types[n])}"
                          for n, v in zip(names, combo, strict=True))
        cond = f"when {shown}" + (f", {label[5:] if label.startswith('when ') else label}"
                                  if label else "")
        if classes > 1:
            verb = "gives" if len(worst) == 1 else "give"
            cond += (f" ({len(worst)} of every {classes} consecutive values of "
                     f"{_names(list(names))} {verb} this)" if len(names) == 1 else
                     f" ({len(worst)} of the {classes} combinations of their values modulo "
                     f"{1 << bits} {verb} this)")
    return proof.result("worst-case", outcome.cost, cond, outcome, kind="condition")


def _every_residue(counter: Sym, bits: int, syms: set[Sym]) -> bool:
    """Whether a loop counter takes every value modulo ``2**bits``: one that starts at a
    parameter the offset reads nowhere else, or at that parameter divided by (or shifted
    right by) a power of two, steps down by halving or by one while it is above 0 or 1,
    and can start at ``2**(bits + 1)`` values from 1 up runs its first iteration at each
    of them (``for (stride = arrayLength / 2; stride > 0; stride >>= 1)``)."""
    ind = counter.induction
    if ind is None or not isinstance(ind.step, Const) or (ind.op, ind.step.value) not in (
            (">>", 1), ("/", 2), ("-", 1)):
        return False
    if not (ind.cmp in ("!=", ">", ">=") and isinstance(ind.bound, Const)
            and 0 <= ind.bound.value <= 1):
        return False
    start = ind.start
    while isinstance(start, Cast):
        start = start.operand
    if isinstance(start, Binary) and start.op in ("/", ">>") and isinstance(start.rhs, Const):
        c = start.rhs.value
        if c < 0 or (start.op == "/" and c & (c - 1)):
            return False
        start = start.lhs
        while isinstance(start, Cast):
            start = start.operand
    others = {s.name for s in syms} - {counter.name}
    if not isinstance(start, Sym) or start.induction is not None or start.lane_dependent \
            or start.name in others or not re.fullmatch(r"[A-Za-z_]\w*", start.name):
        return False
    r = interval(ind.start, {start.name: type_range(start.type)})
    return r is not None and r[1] >= max(r[0], 1) + (2 << bits)


def _sampled(proof: _Proof, entangled: tuple[str, ...]) -> AccessResult:
    """Last resort: the worst over a stated range of the entangled symbols, when each is a
    loop's iteration count or a built-in index (values the program does take). A template
    argument, kernel parameter or loaded value that changes the pattern in a way the
    formulas above do not cover is not searched: a sampled value (``BM = 7``) may be one
    the program never uses, so the access is unknown, and analysed exactly where a launch
    or an instantiation gives the value (issue 13, item 3)."""
    result, offset, guard, warps = proof.result, proof.offset, proof.guard, proof.warps
    loops, sequences, free = proof.loops, proof.sequences, proof.free
    access, arch, bank_mode = proof.access, proof.arch, proof.bank_mode
    base, align, cache = proof.base, proof.align, proof.cache
    exact = _residues(proof, entangled)
    if exact is not None:
        return exact
    unprovable = [e for e in dict.fromkeys(entangled) if not _sampleable(e)]
    if unprovable:
        return result("unknown", None, _unprovable_reason(unprovable))
    n = _SAMPLES.get(len(free), 3)
    p = period(arch, bank_mode, access.width)
    at_base = range(0, p, align) if base is None else (base % p,)
    best: tuple[_Outcome, tuple[int, ...]] | None = None
    evaluations = 0
    for values in itertools.product(range(n), repeat=len(free)):
        check_budget()
        try:
            cases = _sampled_cases(proof.run, offset, guard, warps, loops, sequences, free,
                                   values, p)
        except EVAL_ERRORS:
            continue
        evaluations += _case_count(cases) * len(at_base)
        if evaluations > _MAX_EVALUATIONS:
            break
        for o in _worst_over_shifts(cases, at_base, access, arch, bank_mode, cache).values():
            if best is None or _better(o, best[0]):
                best = (o, values)
    if best is None:
        return result("unknown", None, "the index has no defined value in the sampled range")
    # Not a proof: say what changes the pattern and which values were tried, so that a
    # witness such as "BM = 0" reads as a sample, not as a value the program uses.
    verb = "changes" if len({_display(e) for e in entangled}) == 1 else "change"
    at = ", ".join(_value(k, v) for k, v in zip(free, best[1], strict=True))
    if len(free) == 1:
        tried = _names(free)
    else:
        tried = "each" if set(free) == set(entangled) else _names(free) + " each"
    reason = (
        f"{_names(entangled)} {verb} the lane pattern; not a proof but the worst of a "
        f"sample ({tried} from 0 to {n - 1}), at {at}"
    )
    return result("worst-case", best[0].cost, reason, best[0])
