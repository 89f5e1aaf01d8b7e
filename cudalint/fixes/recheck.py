"""Re-check a changed layout of one array against every access the model knows.

A candidate fix is a new ``SharedArray`` (new extents) plus a rewrite of each access's
subscripts (a swizzle, a new row stride). Every access to the array, in every kernel
that uses it, gets its byte offset rebuilt from its subscripts with the new extents and
is proved again; the other arrays of those kernels are proved again too, because the
static layout places them after the changed one. The verdict compares each access,
bank mode by bank mode, with the same analysis of the unchanged unit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from cudalint.ir import LONG, Access, Binary, Const, Expr, SharedArray, TranslationUnit
from cudalint.model.analyze import analyze
from cudalint.model.caches import RunCaches
from cudalint.model.evaluate import EVAL_ERRORS, EvalError, compile_expr, free_symbols
from cudalint.model.placement import static_layout
from cudalint.model.proof import CaseMemo
from cudalint.model.results import AccessResult
from cudalint.options import Options

#: Rewrites the subscripts (outermost first) of one access.
IndexMap = Callable[[Access, tuple[Expr, ...]], tuple[Expr, ...]]

_STATUS_RANK = {"proved": 0, "worst-case": 1, "unknown": 2}


def rebuild_offset(
    indices: Sequence[Expr], dims: Sequence[int], element_bytes: int, element_offset: int
) -> Expr:
    """``((i0 * D1 + i1) * D2 + i2) * E + element_offset``, as the frontend builds it."""
    offset: Expr | None = None
    for k, idx in enumerate(indices):
        offset = idx if offset is None else Binary(
            "+", Binary("*", offset, Const(dims[k], LONG), LONG), idx, LONG
        )
    if offset is None:
        offset = Const(0, LONG)
    if element_bytes != 1:
        offset = Binary("*", offset, Const(element_bytes, LONG), LONG)
    if element_offset:
        offset = Binary("+", offset, Const(element_offset, LONG), LONG)
    return offset


def rebuildable(access: Access, array: SharedArray) -> bool:
    """Whether the access's offset can be rebuilt from its subscripts."""
    return (
        len(access.indices) == len(array.dims)
        and access.unknown_reason is None
        and array.element_bytes > 0
    )


@dataclass(frozen=True)
class Change:
    """One access in one bank mode, before and after the candidate layout."""

    before: AccessResult
    after: AccessResult

    @property
    def access(self) -> Access:
        return self.before.access

    @property
    def worse(self) -> bool:
        b, a = self.before, self.after
        if _STATUS_RANK[a.status] > _STATUS_RANK[b.status] and (
            a.status == "unknown" or a.has_conflict
        ):
            return True
        if b.wavefronts is None or a.wavefronts is None:
            return a.wavefronts is None and b.wavefronts is not None
        return a.wavefronts > b.wavefronts

    @property
    def better(self) -> bool:
        b, a = self.before, self.after
        if b.wavefronts is None or a.wavefronts is None:
            return False
        return a.wavefronts < b.wavefronts


@dataclass(frozen=True)
class Verdict:
    array: str
    changes: tuple[Change, ...]

    @property
    def no_worse(self) -> bool:
        return not any(c.worse for c in self.changes)

    @property
    def worse(self) -> list[Change]:
        return [c for c in self.changes if c.worse]

    def total(self, after: bool) -> int:
        return sum(
            (c.after if after else c.before).wavefronts or 0 for c in self.changes
        )

    @property
    def array_clean(self) -> bool:
        """No access to the array conflicts with the change."""
        return all(
            not c.after.has_conflict and c.after.status != "unknown"
            for c in self.changes
            if c.access.array == self.array
        )

    def improves(self, access: Access, bank_mode: int) -> bool:
        return any(
            c.better for c in self.changes
            if c.access == access and c.before.bank_mode == bank_mode
        )

    def after(self, access: Access, bank_mode: int) -> AccessResult | None:
        for c in self.changes:
            if c.access == access and c.before.bank_mode == bank_mode:
                return c.after
        return None


def kernels_using(unit: TranslationUnit, key: str) -> set[str]:
    return {a.kernel for a in unit.accesses if a.array == key}


def _subunit(unit: TranslationUnit, kernels: set[str], arrays: tuple[SharedArray, ...],
             accesses: tuple[Access, ...]) -> TranslationUnit:
    return TranslationUnit(
        file=unit.file,
        kernels=unit.kernels,
        arrays=arrays,
        accesses=tuple(a for a in accesses if a.kernel in kernels),
        launches=unit.launches,
    )


class Rechecker:
    """Re-analysis of one unit under candidate layouts, with the baseline cached."""

    def __init__(self, unit: TranslationUnit, options: Options,
                 run: RunCaches | None = None) -> None:
        self.unit = unit
        self.options = options
        self._baseline: dict[frozenset[str], list[AccessResult]] = {}
        #: Subscript values per warp, shared by the candidates (proof.CaseMemo).
        self._memo = CaseMemo()
        #: The caches of the analysis run (the file's, when given): the baseline and every
        #: candidate reuse the proofs of accesses that a candidate does not change.
        self._run = run if run is not None else RunCaches()

    def baseline(self, kernels: set[str]) -> list[AccessResult]:
        key = frozenset(kernels)
        if key not in self._baseline:
            sub = _subunit(self.unit, kernels, self.unit.arrays, self.unit.accesses)
            self._baseline[key] = analyze(sub, self.options, self._run)
        return self._baseline[key]

    def check(self, array: SharedArray, new_array: SharedArray,
              index_map: IndexMap | None = None, *, skip_opaque: bool = False
              ) -> Verdict | None:
        """The verdict for ``new_array`` replacing ``array``; None when some access to
        the array cannot be rebuilt from its subscripts (nothing can be proved then).

        ``skip_opaque``: leave such accesses (through a derived pointer) out of the
        verdict instead; a fix derived that way can only be shown, never applied.
        """
        kernels = kernels_using(self.unit, array.key)
        accesses: list[Access] = []
        skipped: set[int] = set()
        for acc in self.unit.accesses:
            if acc.array == array.key and acc.kernel in kernels:
                if not rebuildable(acc, array):
                    if not skip_opaque:
                        return None
                    skipped.add(len(accesses))
                    accesses.append(acc)
                    continue
                indices = acc.indices if index_map is None else index_map(acc, acc.indices)
                offset = rebuild_offset(indices, new_array.dims, new_array.element_bytes,
                                        acc.element_offset)
                acc = replace(acc, offset=offset)
            accesses.append(acc)
        arrays = tuple(new_array if a.key == array.key else a for a in self.unit.arrays)
        sub = _subunit(self.unit, kernels, arrays, tuple(accesses))
        with self._run.reusing(self._memo):
            after = analyze(sub, self.options, self._run)
        before = self.baseline(kernels)
        if len(after) != len(before):  # pragma: no cover - same accesses, same modes
            return None
        skipped_accesses = {id(accesses[i]) for i in skipped}
        return Verdict(array.key, tuple(
            Change(b, a) for b, a in zip(before, after, strict=True)
            if id(a.access) not in skipped_accesses
        ))

    def faithful(self, array: SharedArray) -> bool:
        """Rebuilding the offsets from the subscripts gives the analyzed offsets (a guard
        against subscripts that do not describe the offset), checked on sample values."""
        for acc in self.unit.accesses:
            if acc.array != array.key or not rebuildable(acc, array):
                continue
            rebuilt = rebuild_offset(acc.indices, array.dims, array.element_bytes,
                                     acc.element_offset)
            if not same_values(acc.offset, rebuilt):
                return False
        return True


_SAMPLES = (0, 1, 2, 3, 5, 8, 13, 31, 32, 33, 63)


def same_values(a: Expr, b: Expr) -> bool:
    """``a`` and ``b`` agree on a grid of sample values of their symbols."""
    syms = sorted({s.name for s in free_symbols(a) | free_symbols(b)})
    try:
        fa, fb = compile_expr(a, tuple(syms)), compile_expr(b, tuple(syms))
    except EvalError:
        return False
    for k, v in enumerate(_SAMPLES):
        values = [_SAMPLES[(k + 3 * j) % len(_SAMPLES)] for j in range(len(syms))]
        values[0:1] = [v] if syms else []
        for row in (values, [v] * len(syms)):
            try:
                if fa(*row) != fb(*row):
                    return False
            except EVAL_ERRORS:  # unsigned division by zero is Python's ZeroDivisionError
                return False
    return True


def static_bytes(unit: TranslationUnit, kernel: str,
                 replace_array: SharedArray | None = None) -> int:
    """Static shared memory of ``kernel`` as laid out by nvcc (end of its last array)."""
    arrays = unit.arrays
    if replace_array is not None:
        arrays = tuple(replace_array if a.key == replace_array.key else a for a in arrays)
    sub = TranslationUnit(unit.file, unit.kernels, arrays, unit.accesses, unit.launches)
    layout = static_layout(sub)
    by_key = {a.key: a for a in arrays}
    end = 0
    for (k, key), base in layout.items():
        if k == kernel:
            end = max(end, base + by_key[key].size_bytes)
    if not layout:  # layout unknown: the sum of the arrays it uses
        used = {a.array for a in unit.accesses if a.kernel == kernel}
        end = sum(by_key[k].size_bytes for k in used if k in by_key)
    return end
