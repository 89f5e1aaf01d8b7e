"""Indices that read data each lane loads, bounded by the index itself.

``s_Hist[threadPos + ((data >> 2) & 0x3F) * 64]`` (NVIDIA's histogram64) reads a value
each lane loads from memory, which cudalint cannot know; but the index keeps only six
bits of it, so each lane's address is one of 64. The worst the data can do is then a
finite question: which lanes can reach one bank at distinct words, at once. For an
access of up to 4 bytes in one phase (Maxwell and newer, 4-byte banks) that is, per
bank, a largest matching of lanes to the bank's words each lane can reach (two lanes on
one word share it), and the warp's worst is the largest over the banks; an atomic that
serves every lane on its own counts the lanes that can reach the bank.

Each lane's loaded value is taken to be free of the others' (the loads read different
addresses); this is the worst *some* data gives, not what every input gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from cudalint.ir import Binary, Cast, Const, Expr, Opaque, Select, Sym, Unary, substitute, walk
from cudalint.model.evaluate import free_symbols, interval, type_range

#: The most values a bounded loaded value may take (per lane).
MAX_VALUES = 256


@dataclass(frozen=True)
class Bounded:
    """The offset with one bounded function of a loaded value as the per-lane symbol
    ``name``, whose values are ``low..high``; ``opaque`` is the load."""

    offset: Expr
    name: str
    low: int
    high: int
    opaque: Opaque


def bound_loaded(offset: Expr, lane_opaque: Callable[[Opaque], bool]) -> Bounded | None:
    """``offset`` with its lane-dependent loaded value replaced, where the smallest
    subterm around it that reads nothing else takes at most :data:`MAX_VALUES` values
    for any value the load's type holds; None when the offset reads another lane-
    dependent opaque value, the load outside that subterm, or no such subterm exists."""
    loads = {e for e in walk(offset) if isinstance(e, Opaque) and lane_opaque(e)}
    if len(loads) != 1:
        return None
    (load,) = loads
    if load.kind.value != "load":
        return None
    data = Sym("data@loaded", load.type, lane_dependent=True)
    full = type_range(load.type)
    env = {data.name: full}
    name = "data@bounded"
    found: list[tuple[int, int]] = []

    def go(e: Expr) -> Expr:
        """``e`` with the bounded subterm replaced (bottom-up: the first that fits)."""
        if e is load or e == load:
            return data
        if isinstance(e, Unary | Cast):
            inner = go(e.operand)
            out: Expr = e if inner is e.operand else replace(e, operand=inner)
        elif isinstance(e, Binary):
            lhs, rhs = go(e.lhs), go(e.rhs)
            out = e if lhs is e.lhs and rhs is e.rhs else replace(e, lhs=lhs, rhs=rhs)
        elif isinstance(e, Select):
            c, t, o = go(e.cond), go(e.then), go(e.other)
            out = e if (c, t, o) == (e.cond, e.then, e.other) else replace(
                e, cond=c, then=t, other=o)
        else:
            return e
        if not found and {s.name for s in free_symbols(out)} == {data.name}:
            r = _masked(out) or interval(out, env)
            if r is not None and r[1] - r[0] < MAX_VALUES:
                found.append(r)
                return Sym(name, out.type, lane_dependent=True)
        return out

    if full[1] - full[0] < MAX_VALUES:
        found.append(full)
        new = substitute(offset, load, Sym(name, load.type, lane_dependent=True))
    else:
        new = go(offset)
    if not found or any(s.name == data.name for s in free_symbols(new)):
        return None
    return Bounded(new, name, found[0][0], found[0][1], load)


def _masked(e: Expr) -> tuple[int, int] | None:
    """``x & M`` with a constant ``M >= 0`` is in ``0..M`` whatever x's sign (the
    interval arithmetic, which needs non-negative operands, does not say so)."""
    if isinstance(e, Binary) and e.op == "&":
        for side in (e.lhs, e.rhs):
            if isinstance(side, Const) and side.value >= 0:
                return 0, side.value
    return None


@dataclass(frozen=True)
class Worst:
    """The worst one warp's data can do: ``ways`` distinct words (or lanes) on one bank,
    and one choice of each lane's value that gives it (None: an inactive lane)."""

    ways: int
    values: tuple[int | None, ...]
    lanes: tuple[int, ...]  # the lanes on the busiest bank


def worst_choice(reach: Sequence[dict[int, int] | None], per_lane: bool) -> Worst:
    """The worst over each lane's choice of value. ``reach[lane]``: the lane's reachable
    4-byte words, each with one value that reaches it (None: the lane is inactive).
    ``per_lane``: lanes on one word do not share (an atomic served lane by lane)."""
    by_bank: dict[int, dict[int, list[int]]] = {}  # bank -> lane -> words
    for lane, words in enumerate(reach):
        for w in words or {}:
            by_bank.setdefault(w % 32, {}).setdefault(lane, []).append(w)
    best = Worst(0, tuple(None if r is None else min(r.items())[1] for r in reach), ())
    for _bank, lanes in sorted(by_bank.items()):
        # an atomic served lane by lane counts every lane; else one per distinct word
        match = {lane: ws[0] for lane, ws in lanes.items()} if per_lane else _matching(lanes)
        if len(match) > best.ways:
            values = [None if r is None else min(r.items())[1] for r in reach]
            for lane, w in match.items():
                r = reach[lane]
                assert r is not None
                values[lane] = r[w]
            best = Worst(len(match), tuple(values), tuple(sorted(match)))
    return best


def _matching(lanes: dict[int, list[int]]) -> dict[int, int]:
    """A largest matching of lanes to distinct words (augmenting paths)."""
    owner: dict[int, int] = {}  # word -> lane

    def augment(lane: int, seen: set[int]) -> bool:
        for w in lanes[lane]:
            if w in seen:
                continue
            seen.add(w)
            if w not in owner or augment(owner[w], seen):
                owner[w] = lane
                return True
        return False

    for lane in lanes:
        augment(lane, set())
    return {lane: w for w, lane in owner.items()}
