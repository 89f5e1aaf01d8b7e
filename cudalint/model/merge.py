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

Alignment is proved from the array's base, never assumed (CUDA 13.0, sm_90, 101 probes in
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
from cudalint.ir import LONG, Access, Binary, Cast, Const, Expr, Select, SharedArray, Unary
from cudalint.model.poly import all_coefficients_multiple_of, difference

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


def _aligned(access: Access, alignment: int) -> bool:
    """Whether the byte offset is a multiple of ``alignment`` for every input.

    Sufficient tests: the known low zero bits of the expression tree (as nvcc's known-bits
    analysis finds them: ``C << 2``, ``C & ~3``), or every term of the expanded offset
    having an integer coefficient that is a multiple of ``alignment`` (opaque sub-terms
    such as ``t / 2`` are integers).
    """
    from cudalint.model.algebra import MAX_EXPANDED_TERMS, expansion_size

    check_budget()
    if known_multiple(access.offset) % alignment == 0:
        return True
    if expansion_size(access.offset) > MAX_EXPANDED_TERMS:
        return False
    return all_coefficients_multiple_of(access.offset, alignment)


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


def _aligned_address(addresses: dict[int, Expr], m: Access, size: int, delta: int) -> bool:
    """Whether ``m``'s address (from an aligned base) less ``delta`` is a multiple of size."""
    address = addresses[id(m)]
    if delta:
        address = Binary("-", address, Const(delta, LONG), LONG)
    return _aligned(replace(m, offset=address), size)


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
        aligned = partial(_aligned_address, {id(m): _address(m, array) for m in members})
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
