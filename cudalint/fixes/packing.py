"""float2 packing: two 4-byte loads that one 8-byte load could serve.

The simple, certain forms only, in one straight line of code (the same ``region``, or
the same source line when the frontend gave no region), with the same guard:

- ``s[2*e]`` and ``s[2*e + 1]``: the second address is the first plus 4 for every
  thread and the first is 8-byte aligned; one ``float2`` load at the first address.
- ``a[e]`` and ``b[e]``: two arrays of the same 4-byte type and extents read at the same
  subscripts; interleaved as one ``float2`` array ``ab[e]`` (``.x`` from ``a``).

The merged load is proved like any access; the suggestion is made when it needs fewer
wavefronts than the two loads together (the same bytes move) and has no conflict the
pair did not have. On sm_3x the result is given per bank mode: consecutive ``float2``
are conflict-free there only in 8-byte mode.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from cudalint.fixes.bounds import index_range
from cudalint.fixes.recheck import rebuild_offset, rebuildable
from cudalint.ir import LONG, Access, Binary, Const, SharedArray, TranslationUnit
from cudalint.model.analyze import analyze
from cudalint.model.arch import parse_arch
from cudalint.model.placement import static_layout
from cudalint.model.results import AccessResult
from cudalint.options import Options


@dataclass(frozen=True)
class Packing:
    first: Access
    second: Access
    #: "adjacent" (s[2e], s[2e+1]) or "interleave" (a[e], b[e]).
    form: str
    #: bank mode -> (wavefronts of the two loads, wavefronts of the float2 load)
    costs: tuple[tuple[int, int, int, bool], ...]
    #: Kepler: whether 4-byte mode alone leaves the float2 load conflicting.
    needs_eight_byte_mode: bool


def _together(a: Access, b: Access) -> bool:
    if a.kernel != b.kernel or a.instantiation != b.instantiation or a.guard != b.guard:
        return False
    if a.region >= 0 or b.region >= 0:
        return a.region == b.region
    return a.span.line == b.span.line and a.span.file == b.span.file


def _results(unit: TranslationUnit, options: Options, arrays: tuple[SharedArray, ...],
             accesses: tuple[Access, ...]) -> list[AccessResult]:
    sub = TranslationUnit(unit.file, unit.kernels, arrays, accesses, unit.launches)
    return analyze(sub, options)


def find(unit: TranslationUnit, results: Sequence[AccessResult], options: Options
         ) -> Iterator[Packing]:
    loads = [a for a in unit.accesses
             if a.kind == "load" and a.width == 4 and a.unknown_reason is None]
    arrays = {a.key: a for a in unit.arrays}
    by_access: dict[int, list[AccessResult]] = {}
    for r in results:
        by_access.setdefault(id(r.access), []).append(r)
    layout = static_layout(unit)
    seen: set[int] = set()
    for i, a in enumerate(loads):
        for b in loads[i + 1:]:
            if id(a) in seen or id(b) in seen or not _together(a, b):
                continue
            packing = _adjacent(unit, options, arrays, layout, a, b, by_access) or \
                _interleaved(unit, options, arrays, a, b, by_access)
            if packing is not None:
                seen.update((id(a), id(b)))
                yield packing


def _pair_cost(by_access: dict[int, list[AccessResult]], a: Access, b: Access
               ) -> dict[int, int] | None:
    out: dict[int, int] = {}
    for acc in (a, b):
        for r in by_access.get(id(acc), []):
            # nvcc already issues the pair as one wider load: nothing left to suggest.
            if r.wavefronts is None or r.merged_width is not None:
                return None
            out[r.bank_mode] = out.get(r.bank_mode, 0) + r.wavefronts
    return out or None


def _verdict(unit: TranslationUnit, options: Options, pair: dict[int, int],
             merged: list[AccessResult], a: Access, b: Access, form: str) -> Packing | None:
    costs = []
    for r in merged:
        if r.wavefronts is None or r.bank_mode not in pair:
            return None
        costs.append((r.bank_mode, pair[r.bank_mode], r.wavefronts, r.has_conflict))
    kepler = parse_arch(options.arch).family == "kepler"
    good = [c for c in costs if c[2] < c[1] and not c[3]]
    if not good:
        return None
    if not kepler and len(good) != len(costs):
        return None
    needs_eight = kepler and any(c[0] == 4 and c[3] for c in costs)
    return Packing(a, b, form, tuple(costs), needs_eight)


def _adjacent(unit: TranslationUnit, options: Options, arrays: dict[str, SharedArray],
              layout: dict[tuple[str, str], int], a: Access, b: Access,
              by_access: dict[int, list[AccessResult]]) -> Packing | None:
    if a.array != b.array:
        return None
    first, second = a, b
    diff = index_range(Binary("-", b.offset, a.offset, LONG), a, unit, options)
    if diff == (-4, -4):
        first, second = b, a
    elif diff != (4, 4):
        return None
    rem = index_range(Binary("%", first.offset, Const(8, LONG), LONG), first, unit, options)
    if rem != (0, 0):
        return None
    base = layout.get((first.kernel, first.array))
    if base is not None and base % 8:
        return None
    # Dynamic shared memory: the pair is 8-byte aligned only where the array's offset in
    # the window is a known multiple of 8 (``shared + C`` with odd or unknown C is not).
    carved = arrays[first.array].base_offset if first.array in arrays else None
    if carved is not None and not (isinstance(carved, Const) and carved.value % 8 == 0):
        return None
    pair = _pair_cost(by_access, first, second)
    if pair is None:
        return None
    merged_access = replace(first, width=8, indices=(), element_offset=0)
    # With the kernel's other accesses, so that the static layout (the base) is the same.
    others = tuple(x for x in unit.accesses if x.kernel == first.kernel)
    n_modes = len(options.bank_modes())
    merged = _results(unit, options, unit.arrays, (*others, merged_access))[-n_modes:]
    return _verdict(unit, options, pair, merged, first, second, "adjacent")


def _interleaved(unit: TranslationUnit, options: Options, arrays: dict[str, SharedArray],
                 a: Access, b: Access, by_access: dict[int, list[AccessResult]]
                 ) -> Packing | None:
    if a.array == b.array or a.indices != b.indices or not a.indices:
        return None
    xa, xb = arrays.get(a.array), arrays.get(b.array)
    if xa is None or xb is None or xa.dims != xb.dims or xa.element_bytes != 4 \
            or xb.element_bytes != 4:
        return None
    if not (rebuildable(a, xa) and rebuildable(b, xb)) or a.element_offset or b.element_offset:
        return None
    pair = _pair_cost(by_access, a, b)
    if pair is None:
        return None
    packed = replace(xa, key=xa.key + "+" + xb.name, name=f"{xa.name}{xb.name}",
                     element_type="float2", element_bytes=8, alignment=8)
    merged_access = replace(a, array=packed.key, width=8,
                            offset=rebuild_offset(a.indices, packed.dims, 8, 0))
    merged = _results(unit, options, (packed,), (merged_access,))
    return _verdict(unit, options, pair, merged, a, b, "interleave")
