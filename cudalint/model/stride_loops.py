"""Which lanes a stride loop's bound leaves active, iteration by iteration.

``for (i = tid; i < N; i += blockDim.x) s[i][0] = v;`` reaches the model as the offset
``(tid + k * blockDim.x) * 128`` under the guard ``tid + k * blockDim.x < N``, where
``k`` (``k@L<line>:i``) is the loop's iteration count: a uniform value, 0, 1, 2, ...
Without more, ``k`` is a free uniform symbol and a guard that reads one is dropped (every
lane taken as active: an upper bound only). But the bound is a *monotone* condition:

- a conjunct ``L < R`` (``<=``; or ``R > L``, ``R >= L``) whose smaller side ``L`` grows
  with ``k`` (every term holding ``k`` is a positive multiple of non-negative built-in
  values: thread and block indices, block and grid sizes, iteration counts) and whose
  other side does not read ``k`` holds for fewer lanes at every later iteration, and for
  none once it fails for every lane.

So when the bound is known (a constant, or the block shape), each lane's last iteration
follows, and the iterations ``0 .. K-1`` in which any lane of the block passes are
enumerated exactly (the guard is kept, per lane). When there are too many of them, or
the conjunct also reads the block index (grid-stride loops: ``blockIdx.x * blockDim.x +
tid + k * blockDim.x * gridDim.x < N``), the conjunct is widened to its value at ``k =
0`` (and ``blockIdx = 0``): the lanes active in the first iteration of block 0, which
holds every lane any other iteration or block holds, and is itself executed. The other
conjuncts (an ``if`` in the loop body) are kept as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cudalint.ir import (
    BLOCK_DIM,
    BLOCK_IDX,
    THREAD_IDX,
    Binary,
    Cast,
    Const,
    Expr,
    Opaque,
    Select,
    Sym,
    Unary,
)
from cudalint.model.evaluate import (
    EVAL_ERRORS,
    compile_expr,
    conjoined,
    conjuncts,
    free_symbols,
    interval,
)
from cudalint.model.poly import expand, mono_names
from cudalint.model.results import ReasonKind
from cudalint.model.warps import ENUMERATED, Warp

if TYPE_CHECKING:
    from cudalint.model.caches import RunCaches

__all__ = ["Bounded", "bound_counters", "is_counter", "widened_kind", "widened_reason"]

#: The iteration count of a loop whose variable starts at a lane-dependent value.
_COUNTER = re.compile(r"k@L\d+")
#: Built-in values that are never negative, and whose smallest value (0) is taken by
#: some block or iteration: the iteration counts and the block index.
_NON_NEGATIVE_PREFIXES = ("threadIdx.", "blockIdx.", "blockDim.", "gridDim.")
#: Iterations enumerated one by one; beyond it the first iteration stands for all.
MAX_ITERATIONS = 64
#: Warp-iteration pairs enumerated at most (the proof caps its cases at 4096).
MAX_WARP_ITERATIONS = 2048


def is_counter(name: str) -> bool:
    return _COUNTER.match(name) is not None


def _non_negative(name: str) -> bool:
    return is_counter(name) or name.startswith(_NON_NEGATIVE_PREFIXES) or name.endswith("@warp")


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _comparison(e: Expr) -> tuple[str, Expr, Expr] | None:
    """``e`` as ``small OP big`` with OP ``<`` or ``<=``; None when it is not one."""
    negate = False
    while True:
        if isinstance(e, Cast):
            e = e.operand
        elif isinstance(e, Unary) and e.op == "!":
            negate = not negate
            e = e.operand
        else:
            break
    if not isinstance(e, Binary) or e.op not in _FLIP:
        return None
    op = _NEGATE[e.op] if negate else e.op
    if op in ("<", "<="):
        return op, e.lhs, e.rhs
    return _FLIP[op], e.rhs, e.lhs


def _grows_with(side: Expr, name: str) -> bool:
    """Every term of ``side`` that reads ``name`` is ``c * name * (non-negative
    built-ins)`` with ``c > 0``, and at least one does."""
    sym = ("s", name)
    found = False
    for mono, c in expand(side).items():
        if name not in mono_names(mono):
            continue
        for atom, power in mono:
            if atom[0] != "s" or not _non_negative(str(atom[1])):
                return False
            if atom == sym and power != 1:
                return False
        if c <= 0:
            return False
        found = True
    return found


def _decreasing(conj: Expr, name: str) -> bool:
    """The conjunct holds for no more lanes as ``name`` grows."""
    cmp = _comparison(conj)
    if cmp is None:
        return False
    _, small, big = cmp
    if any(s.name == name for s in free_symbols(big)):
        return False
    return _grows_with(small, name)


def _is_zero(e: Expr) -> bool:
    while isinstance(e, Cast):
        e = e.operand
    return isinstance(e, Const) and e.value == 0


def _at_zero(e: Expr, names: set[str]) -> Expr:
    """``e`` with the symbols ``names`` replaced by 0."""
    if isinstance(e, Sym):
        return Const(0, e.type) if e.name in names else e
    if isinstance(e, Unary | Cast):
        return replace(e, operand=_at_zero(e.operand, names))
    if isinstance(e, Binary):
        lhs, rhs = _at_zero(e.lhs, names), _at_zero(e.rhs, names)
        zl, zr = _is_zero(lhs), _is_zero(rhs)
        if e.op == "*" and (zl or zr):
            return Const(0, e.type)
        if e.op == "+" and (zl or zr):
            kept = rhs if zl else lhs
            return kept if kept.type == e.type else Cast(kept, e.type)
        return replace(e, lhs=lhs, rhs=rhs)
    if isinstance(e, Select):
        return replace(e, cond=_at_zero(e.cond, names), then=_at_zero(e.then, names),
                       other=_at_zero(e.other, names))
    if isinstance(e, Opaque):
        return replace(e, inputs=tuple(_at_zero(i, names) for i in e.inputs))
    return e


@dataclass(frozen=True)
class Bounded:
    #: The guard, with the widened conjuncts replaced (None: no lane is ever masked).
    guard: Expr | None
    #: Per enumerated counter, per block shape (blockDim.x, .y, .z), its iterations.
    sequences: dict[str, dict[tuple[int, ...], list[int]]]
    #: Counters and block indices set to 0 in widened conjuncts.
    widened: tuple[str, ...] = ()
    #: A widened conjunct masks some lane of some warp in the first iteration of block
    #: 0: later iterations (other blocks) may have fewer active lanes, so a conflict
    #: found there is the worst iteration's, not every iteration's.
    partial: bool = False


def _exits(run: RunCaches, conj: Expr, counter: str, warps: list[Warp]
           ) -> dict[tuple[int, ...], int] | None:
    """Per block shape, the number of iterations in which some lane passes ``conj``;
    None when a lane still passes after MAX_ITERATIONS or the value is undefined.

    Remembered in the run for the last few lists of warps (each access of a loop, and
    every layout a fix tries, asks again), and worked out once per distinct values of the thread and
    shape values ``conj`` reads (lanes of other warps and shapes repeat them)."""
    kept = run.exits
    try:
        key = (conj, counter, len(warps), id(warps[0]) if warps else 0)
        for k, kept_warps, got in kept:
            if k == key and all(a is b for a, b in zip(kept_warps, warps, strict=True)):
                return got
    except RecursionError:  # too deep to compare: work it out
        key = None
    got = _lane_exits(conj, counter, warps)
    if key is not None:
        if len(kept) >= _EXITS_KEPT:
            del kept[0]
        kept.append((key, list(warps), got))
    return got


#: An answer of :func:`_exits`: (key, warps, answer); the last few are kept per run.
_Exits = tuple[tuple[object, ...], list[Warp], "dict[tuple[int, ...], int] | None"]
_EXITS_KEPT = 16


def _lane_exits(conj: Expr, counter: str, warps: list[Warp]
                ) -> dict[tuple[int, ...], int] | None:
    params = (*THREAD_IDX, *BLOCK_DIM, counter)
    lanes = [ln for w in warps for ln in w.lanes if ln is not None]
    env = {n: (min(ln[i] for ln in lanes), max(ln[i] for ln in lanes))
           for i, n in enumerate(params[:-1])} if lanes else {}
    env[counter] = (0, MAX_ITERATIONS + 1)
    try:  # plain integer arithmetic where no operation can wrap (the same values)
        fn = compile_expr(conj, params, interval(conj, env) is not None)
    except EVAL_ERRORS:
        return None
    read = {s.name for s in free_symbols(conj)}
    used = [i for i, n in enumerate(params[:-1]) if n in read]
    done: dict[tuple[int, ...], int] = {}
    out: dict[tuple[int, ...], int] = {}
    for warp in warps:
        for lane in warp.lanes:
            if lane is None:
                continue
            shp = lane[3:6]
            values = tuple([lane[i] for i in used])
            k = done.get(values, -1)
            if k < 0:
                k = 0
                try:
                    while fn(*lane, k):
                        k += 1
                        if k > MAX_ITERATIONS:
                            return None
                except EVAL_ERRORS:
                    return None
                done[values] = k
            out[shp] = max(out.get(shp, 0), k)
    return out


def _masks_some_lane(conj: Expr, warps: list[Warp]) -> bool:
    if {s.name for s in free_symbols(conj)} - ENUMERATED:
        return True  # not evaluable here; the proof drops such a guard itself
    params = (*THREAD_IDX, *BLOCK_DIM)
    try:
        fn = compile_expr(conj, params)
        return any(not fn(*lane) for w in warps for lane in w.lanes if lane is not None)
    except EVAL_ERRORS:
        return True


def bound_counters(guard: Expr, warps: list[Warp], known: set[str], run: RunCaches
                   ) -> Bounded | None:
    """Enumerate or widen the iteration counters (and block indices) that a monotone
    conjunct of ``guard`` reads; ``known`` names the loop variables already enumerated;
    ``run``: the analysis run's caches. None when nothing applies."""
    names = {s.name for s in free_symbols(guard)}
    counters = sorted(n for n in names if is_counter(n) and n not in known)
    blocks = {n for n in names if n.split("@")[0] in BLOCK_IDX}
    if not counters and not blocks:
        return None
    parts = conjuncts(guard)
    sequences: dict[str, dict[tuple[int, ...], list[int]]] = {}
    widened: list[str] = []
    partial = False
    for counter in counters:
        bounding = [i for i, c in enumerate(parts) if _decreasing(c, counter)]
        if not bounding:
            continue
        exits: dict[tuple[int, ...], int] | None = None
        for i in bounding:
            c = parts[i]
            if {s.name for s in free_symbols(c)} - {counter} <= ENUMERATED:
                e = _exits(run, c, counter, warps)
                if e is not None and (exits is None or sum(e.values()) < sum(exits.values())):
                    exits = e
        if exits is not None:
            total = sum(exits.get(w.lanes[0][3:6], 0) for w in warps if w.lanes[0] is not None)
            if total <= MAX_WARP_ITERATIONS:
                sequences[counter] = {shp: list(range(k)) for shp, k in exits.items()}
                continue
        # widen: the first iteration (of block 0) holds every lane a later one holds
        for i in bounding:
            c = parts[i]
            zero = {counter} | {b for b in blocks if _decreasing(c, b)}
            parts[i] = _at_zero(c, zero)
            partial = partial or _masks_some_lane(parts[i], warps)
            widened.extend(sorted(zero - set(widened)))
    # a bounds check on the global index, ``blockIdx.x * blockDim.x + tid < N``: block 0
    # holds every lane another block holds
    for i, c in enumerate(parts):
        zero = {b for b in blocks if _decreasing(c, b)}
        if zero:
            parts[i] = _at_zero(c, zero)
            partial = partial or _masks_some_lane(parts[i], warps)
            widened.extend(sorted(zero - set(widened)))
    if not sequences and not widened:
        return None
    return Bounded(conjoined(parts), sequences, tuple(widened), partial)


def widened_kind(widened: tuple[str, ...]) -> ReasonKind:
    """How :func:`widened_reason` reads: a condition (``when blockIdx.x == 0 ...``) when
    it names one block and no loop, else a cause (``in the first iteration of ...``)."""
    loops = [n for n in widened if is_counter(n)]
    blocks = [n for n in widened if not is_counter(n)]
    return "condition" if not loops and len(blocks) == 1 else "cause"


def widened_reason(widened: tuple[str, ...]) -> str:
    """``in the first iteration of the 'i' loop in block 0``: where a widened result is
    reached, and why nothing else costs more."""
    loops = [n.partition(":")[2] for n in widened if is_counter(n)]
    where = " and ".join(f"the '{v}' loop" if v else "the loop" for v in loops)
    blocks = [n.split("@")[0] for n in widened if not is_counter(n)]
    parts = []
    if where:
        parts.append(f"in the first iteration of {where}")
    if blocks:
        parts.append("in block " + ", ".join(f"{b} = 0" for b in blocks) if len(blocks) > 1
                     else f"when {blocks[0]} == 0")
    later = ("every later iteration" if where and not blocks else
             "every other block" if not where else "every other iteration and block")
    return " ".join(parts) + f" ({later} has as many active lanes or fewer)"
