"""nvcc's merging of neighbouring shared accesses into one wider instruction.

nvcc 13 (``-O3``, read in SASS) turns ``s[2*t]`` and ``s[2*t+1]`` into one ``LDS.64``
(in either source order, also with a uniform even offset), four neighbours into one
``LDS.128``, and stores likewise. It does not merge an odd start (``s[2*t+1]`` and
``s[2*t+2]``), an offset of unknown parity (``2*t + k``), two arrays, ``volatile``
accesses, accesses a barrier separates, or ``float3`` members. The hardware then costs
the merged instruction, so ``s[2*t]`` + ``s[2*t+1]`` is one conflict-free 8-byte load,
not two 2-way loads.

The rule modelled: accesses of one array, one kind (load or store), one template
instantiation and the same guard, in the same straight-line region (no barrier, branch
or unknown call between them, see ``Access.region``), none volatile, whose byte offsets
are ``b, b + w, ..., b + (n-1)*w`` for n = 2 or 4 with ``n*w <= 16``, and whose start
``b`` is provably a multiple of ``n*w`` for every thread and every uniform value.

Alignment is proved from the array's base, never assumed (CUDA 13.0, sm_90, 139 probes in
bench/accuracy/gen_merge_probe.py, table in docs/bank-model.md): nvcc merges only when the
address ``base + b`` is provably a multiple of ``n*w``, from the known factors of every
term (``C*4``, ``C << 2``, ``2*threadIdx.x``) and the base's alignment:

- ``extern __shared__`` (the dynamic window) starts 16-byte aligned; a pointer carved from
  it (``float* s = shared + C``) starts ``base_offset`` bytes in, so ``s[2*i]``,
  ``s[2*i+1]`` stay two 4-byte loads when ``4*C`` is not a multiple of 8 (llm.c's
  layernorm_backward, 1.5x measured), and merge for ``shared + 2*C``;
- a static array is aligned as far as nvcc raises it: arrays of 4-, 8- and 16-byte aligned
  elements to 16, of 2-byte ones to 8, of 1-byte ones not at all (``__align__`` counts);
- ``__half`` data merges to 8 bytes at most (``__nv_bfloat16`` like any 2-byte type);
- three of the four neighbours of an aligned ``4*w`` bytes are read by one ``4*w``-byte
  load (nvcc fills the gap; not for stores); ``__builtin_assume_aligned`` proves nothing.

Unrolled loops (``merges``): nvcc unrolls a ``for`` with a constant trip count and merges
its iterations' copies by the same rule; ``r[k] = s[8*t + k]`` for ``k < 8`` is two
LDS.128 (SGEMM).

Known gaps: for 1- and 2-byte integers nvcc also weighs how the values are used (static
``short`` neighbours summed as ``int`` stay 16-bit loads; converted to float they merge);
values converted through inline asm between the loads (``__bfloat162float``) stay apart.
tests/test_vectorize_sass.py compares the model's merges with nvcc's SASS where nvcc is
installed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from cudalint.budget import check as check_budget
from cudalint.ir import (
    LONG,
    Access,
    Binary,
    Cast,
    Const,
    Expr,
    Select,
    SharedArray,
    Sym,
    Unary,
    substitute,
)
from cudalint.model.poly import all_coefficients_multiple_of, difference, expand

#: The alignment nvcc gives a static array whose elements are aligned to the key, when it
#: reads it with wider instructions (measured: ``float``/``int``/structs of them 16,
#: ``double`` 16, ``short``/``__half`` 8, ``char`` and structs of chars 1).
_STATIC_RAISED = {1: 1, 2: 8, 4: 16, 8: 16, 16: 16}
#: The dynamic shared window (``extern __shared__``) starts 16-byte aligned.
_WINDOW_ALIGNMENT = 16
#: Element types nvcc merges to at most 8 bytes (4 halves): ``__half`` data.
_HALF_TYPES = frozenset({"__half", "half", "__half2", "half2", "__half_raw"})
_HALF_LIMIT = 8


@dataclass(frozen=True)
class MergedGroup:
    """Accesses nvcc issues as one instruction: ``members`` in address order."""

    members: tuple[Access, ...]
    merged: Access


def _difference(a: Access, b: Access) -> int | None:
    """``offset(b) - offset(a)`` when it is a constant."""
    from cudalint.model.algebra import MAX_EXPANDED_TERMS, expansion_size

    check_budget()
    if max(expansion_size(a.offset), expansion_size(b.offset)) > MAX_EXPANDED_TERMS:
        return None
    # sympy's ``expand(b - a).is_Integer``, on the expanded form built from the IR
    return difference(a.offset, b.offset)


def _aligned(offset: Expr, alignment: int) -> bool:
    """Whether the byte offset is a multiple of ``alignment`` for every input.

    Sufficient tests: the known low zero bits of the expression tree (as nvcc's known-bits
    analysis finds them: ``C << 2``, ``C & ~3``), or every term of the expanded offset
    having an integer coefficient that is a multiple of ``alignment`` (opaque sub-terms
    such as ``t / 2`` are integers).
    """
    from cudalint.model.algebra import MAX_EXPANDED_TERMS, expansion_size

    check_budget()
    if known_multiple(offset) % alignment == 0:
        return True
    if expansion_size(offset) > MAX_EXPANDED_TERMS:
        return False
    return all_coefficients_multiple_of(offset, alignment)


_MAX_FACTOR = 1 << 16


def known_multiple(e: Expr) -> int:
    """The largest power of two (up to 2**16) that ``e`` is provably a multiple of."""
    if isinstance(e, Const):
        return min(e.value & -e.value, _MAX_FACTOR) if e.value else _MAX_FACTOR
    if isinstance(e, Cast):
        return known_multiple(e.operand) if e.type.bits >= 17 else 1
    if isinstance(e, Unary):
        return known_multiple(e.operand) if e.op in ("-", "+") else 1
    if isinstance(e, Select):
        return min(known_multiple(e.then), known_multiple(e.other))
    if not isinstance(e, Binary):
        return 1
    if e.op in ("+", "-", "|", "^", "min", "max"):
        return min(known_multiple(e.lhs), known_multiple(e.rhs))
    if e.op == "*":
        return min(known_multiple(e.lhs) * known_multiple(e.rhs), _MAX_FACTOR)
    if e.op == "&":
        return max(known_multiple(e.lhs), known_multiple(e.rhs))
    if e.op == "<<" and isinstance(e.rhs, Const) and 0 <= e.rhs.value < 16:
        return min(known_multiple(e.lhs) << e.rhs.value, _MAX_FACTOR)
    return 1


def _pow2_factor(n: int) -> int:
    return n & -n if n > 0 else 1


def base_alignment(array: SharedArray) -> int:
    """The alignment in bytes nvcc can count on for the array's first byte.

    For an array carved from the dynamic window this is the window's; the carve offset is
    part of the address (see ``_address``).
    """
    if array.base_offset is not None:
        return _WINDOW_ALIGNMENT
    element = _pow2_factor(array.element_bytes) if array.element_bytes else 1
    declared = array.alignment or element
    # nvcc raises by the element's own alignment: ``__align__(2) char`` stays at 2
    natural = min(declared, element, 16)
    return max(declared, _STATIC_RAISED.get(natural, 16))


def _address(access: Access, array: SharedArray | None) -> Expr:
    """The byte offset from an aligned base: the window's for carved dynamic arrays."""
    if array is not None and array.base_offset is not None:
        base = array.base_offset
        if not (isinstance(base, Const) and base.value == 0):
            return Binary("+", base, access.offset, LONG)
    return access.offset


def _limit(array: SharedArray | None, width: int) -> int:
    """The widest instruction nvcc merges accesses of ``width`` bytes on ``array`` into."""
    if array is None:
        return 16
    element = array.element_type.replace("const ", "").replace("volatile ", "").strip()
    if width == 2 and element in _HALF_TYPES:
        return _HALF_LIMIT
    return min(16, base_alignment(array))


def _shifted(access: Access, delta: int) -> Access:
    """The same access ``delta`` bytes lower (the start of a gap-filled load)."""
    if not delta:
        return access
    offset = Binary("-", access.offset, Const(delta, LONG), LONG)
    return replace(access, offset=offset, indices=(), element_offset=0)


def _aligned_address(addresses: dict[int, Expr], multiples: dict[int, int], m: Access,
                     size: int, delta: int) -> bool:
    """Whether ``m``'s address (from an aligned base) less ``delta`` is a multiple of size.

    ``_aligned(address - delta, size)``, read off the address's own facts (its
    ``known_multiple``, kept in ``multiples`` by access, and its cached expansion), as
    each step of ``_aligned`` sees the difference: the least of the two known multiples;
    one term more than the address (over the limit exactly when the address reaches it);
    the address's coefficients with the constant less ``delta``.
    """
    from cudalint.model.algebra import MAX_EXPANDED_TERMS, expansion_size

    address = addresses[id(m)]
    known = multiples.get(id(m))
    if known is None:
        known = multiples[id(m)] = known_multiple(address)
    if not delta:
        return known % size == 0 or _aligned(address, size)
    check_budget()
    if min(known, known_multiple(Const(delta, LONG))) % size == 0:
        return True
    if expansion_size(address) >= MAX_EXPANDED_TERMS:
        return False
    poly = expand(address)
    constant = poly.pop(frozenset(), 0)
    return (constant - delta) % size == 0 and all(c % size == 0 for c in poly.values())


def find_merges(
    accesses: Sequence[Access], arrays: Mapping[str, SharedArray] | None = None
) -> list[MergedGroup]:
    """The groups of accesses nvcc merges; each access belongs to at most one group.

    ``arrays`` (by key) gives each array's base alignment; without it the base is taken
    as aligned to any width (the offsets alone decide).
    """
    buckets: dict[tuple[object, ...], list[Access]] = defaultdict(list)
    for a in accesses:
        if a.region < 0 or a.volatile or a.kind == "atomic" or a.unknown_reason:
            continue
        if a.width not in (1, 2, 4, 8):
            continue
        key = (a.kernel, a.array, a.kind, a.region, a.instantiation, a.guard, a.width)
        buckets[key].append(a)
    groups: list[MergedGroup] = []
    for members in buckets.values():
        if len(members) < 2:
            continue
        taken: set[int] = set()
        width = members[0].width
        array = (arrays or {}).get(members[0].array)
        limit = _limit(array, width)
        aligned = partial(_aligned_address, {id(m): _address(m, array) for m in members}, {})
        for n in (16, 8, 4, 2):
            if n * width > limit:
                continue
            if n == 4 and members[0].kind == "load":
                groups += _gap_filled(members, taken, width, aligned)
            for start in members:
                if id(start) in taken or not aligned(start, n * width, 0):
                    continue
                run = [start]
                for k in range(1, n):
                    nxt = next(
                        (
                            m for m in members
                            if id(m) not in taken and m is not start and m not in run
                            and _difference(start, m) == k * width
                        ),
                        None,
                    )
                    if nxt is None:
                        break
                    run.append(nxt)
                if len(run) < n:
                    continue
                taken.update(id(m) for m in run)
                merged = replace(start, width=n * width, text=start.text)
                groups.append(MergedGroup(tuple(run), merged))
    return groups


def _gap_filled(
    members: list[Access], taken: set[int], width: int,
    aligned: Callable[[Access, int, int], bool],
) -> list[MergedGroup]:
    """Three loads of the four ``width``-byte slots of an aligned ``4*width`` bytes: nvcc
    reads all four with one load (``s[4t]``, ``s[4t+1]``, ``s[4t+3]`` is one LDS.128).

    Runs before the pairs are formed, as nvcc's vectorizer does; full quads are found
    by the caller after this (they are taken first only when every slot is present, so a
    full quad is never split here: a slot's fourth neighbour makes ``_full`` true).
    """
    groups: list[MergedGroup] = []
    size = 4 * width
    for anchor in members:
        if id(anchor) in taken:
            continue
        for slot in range(4):
            if not aligned(anchor, size, slot * width):
                continue
            found: dict[int, Access] = {slot: anchor}
            for other in members:
                if id(other) in taken or other is anchor:
                    continue
                d = _difference(anchor, other)
                if d is None or d % width:
                    continue
                k = slot + d // width
                if 0 <= k < 4 and k not in found:
                    found[k] = other
            if len(found) != 3:  # four: a full quad, the caller's; fewer: no gap fill
                continue
            run = tuple(found[k] for k in sorted(found))
            taken.update(id(m) for m in run)
            merged = replace(_shifted(anchor, slot * width), width=size, text=anchor.text)
            groups.append(MergedGroup(run, merged))
            break
    return groups


# --- unrolled loops ------------------------------------------------------------------------

#: Loops of more iterations are left as they are (one record costed over every value).
_MAX_COPIES = 64


@dataclass(frozen=True)
class Instructions:
    """The instructions nvcc issues for one access of an unrolled loop's body: one per
    distinct wide (or single) instruction its iterations become. The access costs what
    the worst of them costs."""

    targets: tuple[Access, ...]
    #: Per target, the other accesses merged into it: source texts, and ``iteration
    #: i+1`` for the access's own copies in neighbouring iterations.
    merged_with: tuple[tuple[str, ...], ...]


def _constant_sequence(sym: Sym) -> list[int] | None:
    """The values of a loop variable whose start, step and bound are constants (a loop
    nvcc unrolls), at most ``_MAX_COPIES`` of them; None otherwise."""
    d = sym.induction
    if d is None or d.index or d.cmp is None or d.bound is None:
        return None
    parts = (d.start, d.step, d.bound)
    if not all(isinstance(p, Const) for p in parts):
        return None
    start, step, bound = (p.value for p in parts if isinstance(p, Const))
    cmp: dict[str, Callable[[int, int], bool]] = {
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "!=": lambda a, b: a != b,
    }
    nxt: dict[str, Callable[[int], int]] = {
        "+": lambda v: v + step, "-": lambda v: v - step, "*": lambda v: v * step,
        "<<": lambda v: v << step if 0 <= step < 32 else v,
        ">>": lambda v: v >> step if 0 <= step < 32 else v,
        "/": lambda v: int(v / step) if step else v,
    }
    values: list[int] = []
    v = start
    while cmp[d.cmp](v, bound):
        values.append(v)
        if len(values) > _MAX_COPIES:
            return None
        w = nxt[d.op](v)
        if w == v:
            return None
        v = w
    return values


def _loop_symbol(access: Access) -> Sym | None:
    from cudalint.model.evaluate import free_symbols

    if access.unrolled_by is None:
        return None
    found = [s for s in free_symbols(access.offset)
             if s.name == access.unrolled_by and s.induction is not None]
    return found[0] if len(found) == 1 else None


def _with_value(e: Expr, sym: Sym, value: int) -> Expr:
    """``e`` with ``sym`` replaced by the constant ``value``."""
    return substitute(e, sym, Const(value, sym.type))


def _falling(offset: Expr, sym: Sym) -> bool:
    """Whether both the thread index and the loop variable lower the offset.

    nvcc 13 merges no iteration of ``s[1023 - 32*t - i]`` or ``s[7 - 32*t - i]`` (eight
    STS; the loop_desc_* probes), though it does merge ``s[32*t + 7 - i]`` and
    ``s[1016 - 32*t + i]``; ``s[1024 - 32*t - i]`` and ``s[-32*t + 7 - i]`` are merged in
    part, which the model does not follow (it leaves all such loops as they are).
    """
    from cudalint.model.poly import expand, mono_names

    lane = loop = False
    for mono, c in expand(offset).items():
        names = mono_names(mono)
        if c < 0 and any(n.startswith("threadIdx.") for n in names):
            lane = True
        if c < 0 and sym.name in names:
            loop = True
    return lane and loop


def merges(
    accesses: Sequence[Access], arrays: Mapping[str, SharedArray] | None = None
) -> tuple[list[MergedGroup], dict[int, Instructions]]:
    """``find_merges``, with the accesses of unrolled loops unrolled first.

    nvcc 13 unrolls a ``for`` whose trip count is a constant (fully, or by a large factor:
    measured up to 1024 iterations, template arguments included; ``#pragma unroll 1``
    keeps it rolled, and a ``#pragma unroll N`` below the trip count, which unrolls by N,
    is not modelled) and then merges neighbouring accesses of the straight-line copies as
    it merges written-out neighbours: ``for (k = 0; k < 8; ++k) r[k] = s[8*t + k]`` is two
    LDS.128 when ``8*t`` is provably 16-byte aligned, ``s[8*t + C + k]`` stays eight LDS,
    ``s[8*t + 2*k]`` four. An access of such a loop's body (``Access.unrolled_by``; a
    body that stores to an array it also loads from is left alone: nvcc merges around
    the store only in part) becomes one copy per iteration with the loop variable a
    constant, and its copies and those of the body's other accesses are merged together.

    Returns the groups of the accesses that are not unrolled, and for each unrolled
    access (by id) the instructions its iterations become.
    """
    kinds: dict[tuple[object, ...], set[str]] = defaultdict(set)
    for a in accesses:
        kinds[(a.kernel, a.instantiation, a.region, a.array)].add(a.kind)
    pool: list[Access] = []
    copies: dict[int, tuple[Access, Sym, list[Access], list[int]]] = {}
    for a in accesses:
        sym = _loop_symbol(a) if a.region >= 0 and not a.unknown_reason else None
        values = _constant_sequence(sym) if sym is not None else None
        if (sym is None or values is None or len(values) < 2
                or 0 < a.unroll_factor < len(values)
                or len(kinds[(a.kernel, a.instantiation, a.region, a.array)]) != 1):
            pool.append(a)
            continue
        made = [
            replace(a, offset=_with_value(a.offset, sym, v), indices=(),
                    guard=None if a.guard is None else _with_value(a.guard, sym, v))
            for v in values
        ]
        step = _difference(made[0], made[1])
        if step is None or abs(step) > 16 or _falling(a.offset, sym):
            # iterations 16 bytes or more apart never share an instruction: a copy merges
            # only with its own iteration's neighbours, as the access itself does
            pool.append(a)
            continue
        copies[id(a)] = (a, sym, made, values)
        pool.extend(made)
    groups = find_merges(pool, arrays) if any(a.region >= 0 for a in pool) else []
    if not copies:
        return groups, {}
    group_of = {id(m): g for g in groups for m in g.members}
    origin: dict[int, tuple[Access, int]] = {
        id(c): (a, v) for a, _, made, values in copies.values()
        for c, v in zip(made, values, strict=True)}
    loops: dict[int, Instructions] = {}
    for key, (a, sym, made, values) in copies.items():
        targets: list[Access] = []
        merged_with: list[tuple[str, ...]] = []
        seen: set[int] = set()
        for v, c in zip(values, made, strict=True):
            g = group_of.get(id(c))
            if g is None:
                targets.append(c)
                merged_with.append(())
                continue
            if id(g) in seen:
                continue
            seen.add(id(g))
            others: list[str] = []
            for m in g.members:
                if m is c:
                    continue
                o = origin.get(id(m))
                if o is not None and o[0] is a:
                    others.append(f"iteration {sym.name}{o[1] - v:+d}")
                elif (o[0].text if o is not None else m.text) not in others:
                    others.append(o[0].text if o is not None else m.text)
            targets.append(g.merged)
            merged_with.append(tuple(others))
        if seen:  # no copy merged: the access is costed as it is, over every iteration
            loops[key] = Instructions(tuple(targets), tuple(merged_with))
    return [g for g in groups if not any(id(m) in origin for m in g.members)], loops
