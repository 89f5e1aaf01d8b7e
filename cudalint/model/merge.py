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

Known gap: nvcc must also be able to raise the array's alignment to ``n*w``; with an
array of 12-byte structs in the same kernel it was seen not to merge at all (the
fixtures keep that case apart). tests/test_vectorize_sass.py compares the model's
merges with nvcc's SASS where nvcc is installed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from cudalint.budget import check as check_budget
from cudalint.ir import Access
from cudalint.model.poly import all_coefficients_multiple_of, difference


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

    Sufficient test: every term of the expanded offset has an integer coefficient that
    is a multiple of ``alignment`` (opaque sub-terms such as ``t / 2`` are integers).
    """
    from cudalint.model.algebra import MAX_EXPANDED_TERMS, expansion_size

    check_budget()
    if expansion_size(access.offset) > MAX_EXPANDED_TERMS:
        return False
    return all_coefficients_multiple_of(access.offset, alignment)


def find_merges(accesses: Sequence[Access]) -> list[MergedGroup]:
    """The groups of accesses nvcc merges; each access belongs to at most one group."""
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
        for n in (4, 2):
            if n * width > 16:
                continue
            for start in members:
                if id(start) in taken or not _aligned(start, n * width):
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
